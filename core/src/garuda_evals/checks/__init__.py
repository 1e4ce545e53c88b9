"""Check runners (test-runner adapters) and the protected-file snapshot."""

from typing import Any

__all__ = [
    "CheckPlan",
    "CheckRunner",
    "GoTestCheckRunner",
    "JUnitCheckRunner",
    "TestEvidence",
    "parse_go_test_json",
    "read_junit",
]

_HOMES = {
    "CheckPlan": "base",
    "CheckRunner": "base",
    "TestEvidence": "base",
    "GoTestCheckRunner": "gotest",
    "parse_go_test_json": "gotest",
    "JUnitCheckRunner": "junit",
    "read_junit": "junit",
}


def __getattr__(name: str) -> Any:
    """Import on use: a run of JUnit checks never imports the Go runner, and the reverse."""
    if name not in _HOMES:
        raise AttributeError(name)
    from importlib import import_module

    return getattr(import_module(f"garuda_evals.checks.{_HOMES[name]}"), name)
