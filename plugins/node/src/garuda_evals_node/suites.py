"""The suites of this plugin, loaded lazily from ``suite_data/``."""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

from garuda_evals.api import FolderSuite, load_folder_suite


def suite_root(name: str) -> Path:
    """The folder of suite ``name`` inside the installed package."""
    return Path(str(files("garuda_evals_node") / "suite_data" / name))


def load_basic() -> FolderSuite:
    """The basic suite: ten small JavaScript projects checked with ``node --test``."""
    return load_folder_suite(suite_root("basic"))


def load_hard():  # type: ignore[no-untyped-def]
    """The hard suite: six tasks on the generated shopkit repository."""
    from garuda_evals_node.hard import HardSuite

    return HardSuite(suite_root("hard"))
