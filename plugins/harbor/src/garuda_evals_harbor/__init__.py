"""Harbor for garuda-evals: import Harbor / Terminal-Bench task folders as a suite."""

__version__ = "0.1.0"
