"""The code index (``--index lookup|all``): symbols of the workspace, found by real parsers."""
