"""The python suite and the pytest toolchain for garuda-evals."""

__version__ = "0.1.0"
