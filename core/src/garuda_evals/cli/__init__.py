"""The ``garuda`` command line."""
