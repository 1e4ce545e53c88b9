"""Run garuda eval on a Ray cluster: the ``ray`` run backend and its options."""
