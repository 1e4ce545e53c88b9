"""Suites: named lists of tasks, from a folder on disk or from a plugin."""

from typing import Any

__all__ = ["FolderSuite", "Suite", "load_folder_suite"]


def __getattr__(name: str) -> Any:
    """Import on use, so that a plugin module naming ``Suite`` stays cheap to import."""
    if name == "Suite":
        from garuda_evals.suites.base import Suite

        return Suite
    if name in {"FolderSuite", "load_folder_suite"}:
        from garuda_evals.suites import folder

        return getattr(folder, name)
    raise AttributeError(name)
