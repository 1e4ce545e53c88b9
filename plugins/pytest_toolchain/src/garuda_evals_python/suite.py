"""The python suite: folder-format data shipped inside this package."""

from __future__ import annotations

from pathlib import Path

from garuda_evals.api import FolderSuite, load_folder_suite

SUITE_NAME = "python"


def suite_root() -> Path:
    """The folder of the python suite's data (suite.toml, shared/, one folder per task)."""
    return Path(__file__).resolve().parent / "suite_data" / SUITE_NAME


def load_python_suite() -> FolderSuite:
    """Load the python suite from its data folder."""
    return load_folder_suite(suite_root())
