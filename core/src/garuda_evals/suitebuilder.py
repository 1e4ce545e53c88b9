"""The contract of a suite source that builds a suite on demand (``garuda eval --from-git``)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any


class SuiteBuilder(ABC):
    """Builds and saves a suite; ``garuda eval -s NAME`` then runs it.

    ``options`` holds the builder's flags as parsed (``commits``, ``since``, ``max_tasks``,
    ``test_command``, ``parallel``). Returns the process exit code.
    """

    name: str

    @abstractmethod
    def build(self, options: Mapping[str, Any], *, cwd: Path, echo: Callable[[str], None]) -> int:
        """Build the suite from ``cwd`` and print progress through ``echo``."""
