"""Fixtures of the python plugin's tests."""

from __future__ import annotations

import pytest

from garuda_evals.plugins.manager import PluginRegistry
from garuda_evals.suites.base import Suite

TASK_IDS = [
    "shared-mutable-default",
    "last-short-chunk",
    "rename-across-modules",
    "duration-from-tests",
    "equal-scores-order",
]


@pytest.fixture(scope="session")
def task_ids() -> list[str]:
    """The python suite's task ids, in order: stable, since reports are compared by them."""
    return list(TASK_IDS)


@pytest.fixture(scope="session")
def registry() -> PluginRegistry:
    """The installed plugins, loaded once."""
    return PluginRegistry()


@pytest.fixture(scope="session")
def python_suite(registry: PluginRegistry) -> Suite:
    """The python suite, loaded the way a run loads it: through the installed plugin."""
    return registry.collect("garuda_suites")["python"].record.load()
