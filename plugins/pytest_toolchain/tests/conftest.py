"""Fixtures of the python plugin's tests."""

from __future__ import annotations

import pytest
from garuda_evals.plugins.manager import PluginRegistry
from garuda_evals.suites.base import Suite


@pytest.fixture(scope="session")
def registry() -> PluginRegistry:
    """The installed plugins, loaded once."""
    return PluginRegistry()


@pytest.fixture(scope="session")
def python_suite(registry: PluginRegistry) -> Suite:
    """The python suite, loaded the way a run loads it: through the installed plugin."""
    return registry.collect("garuda_suites")["python"].record.load()
