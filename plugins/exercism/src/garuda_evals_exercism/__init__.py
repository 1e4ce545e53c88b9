"""Exercism for garuda-evals: import a track's practice exercises as a suite."""

__version__ = "0.1.0"
