"""The contract of a suite source that builds a suite on demand (``garuda eval --from-git``)
or imports one (``garuda import NAME``)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from garuda_evals.suites.base import Suite


class SuiteBuilder(ABC):
    """Builds and saves a suite; ``garuda eval -s NAME`` then runs it.

    ``options`` holds the builder's flags as parsed (``commits``, ``since``, ``max_tasks``,
    ``test_command``, ``parallel``). Returns the process exit code.
    """

    name: str

    @abstractmethod
    def build(self, options: Mapping[str, Any], *, cwd: Path, echo: Callable[[str], None]) -> int:
        """Build the suite from ``cwd`` and print progress through ``echo``."""

    def open(self, folder: Path) -> Suite:
        """The suite this builder saved in ``folder`` (its record names the marking file,
        ``saved``). Raise FileFormatError naming the file and field of a corrupt one."""
        raise NotImplementedError(f"suite builder {self.name} saves no suite folder")
