"""The fixture track imported once, shared by the end-to-end tests (session-scoped: an
import proves every exercise)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from garuda_evals.testing import run_garuda
from garuda_evals_exercism.fixture import make


@dataclass(frozen=True)
class Imported:
    """The fixture track, the suite imported from it, and the import's output."""

    root: Path
    track: Path
    suite: Path
    output: str

    def garuda(self, *args: str, timeout: float = 600) -> Any:
        return run_garuda(*args, cwd=self.root, timeout=timeout)

    def import_args(
        self, *more: str, track: Path | None = None, output: Path | None = None
    ) -> list[str]:
        return [
            "import",
            "exercism",
            str(track or self.track),
            "-o",
            str(output or self.suite),
            *more,
        ]

    def newest(self) -> tuple[Path, dict[str, Any]]:
        newest = sorted(self.root.glob(".garuda/evals/*/report.json"))[-1]
        return newest.parent, json.loads(newest.read_text())


@pytest.fixture(scope="session")
def imported(tmp_path_factory: pytest.TempPathFactory) -> Imported:
    """The three fixture exercises imported and proved once."""
    root = tmp_path_factory.mktemp("exercism")
    track = make(root / "python")
    done = Imported(root, track, root / "suite", "")
    result = done.garuda(*done.import_args())
    assert result.returncode == 0, result.stdout + result.stderr
    return Imported(root, track, root / "suite", result.stdout)
