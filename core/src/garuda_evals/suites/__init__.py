"""Suites: named lists of tasks, from a folder on disk or from a plugin."""

from garuda_evals.suites.base import Suite
from garuda_evals.suites.folder import FolderSuite, load_folder_suite

__all__ = ["FolderSuite", "Suite", "load_folder_suite"]
