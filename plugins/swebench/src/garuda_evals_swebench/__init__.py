"""SWE-bench for garuda-evals: import instances as a suite, grade predictions made elsewhere."""

__version__ = "0.1.0"
