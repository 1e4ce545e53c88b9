"""garuda-evals: measure AI coding agents on coding tasks."""

__version__ = "0.1.0"
