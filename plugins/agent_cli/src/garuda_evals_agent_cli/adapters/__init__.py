"""One adapter per agent CLI: install, invocation, model mapping and its own usage report."""
