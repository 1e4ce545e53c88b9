"""The fixture task folders imported once, shared by the end-to-end tests (session-scoped:
an import runs each solve.sh and proves each task)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from garuda_evals.testing import run_garuda
from garuda_evals_harbor.fixture import make


@dataclass(frozen=True)
class Imported:
    """The fixture's task folders, the suite imported from them, and the import's output."""

    root: Path
    tasks: Path
    suite: Path
    output: str

    def garuda(self, *args: str, timeout: float = 600) -> Any:
        return run_garuda(*args, cwd=self.root, timeout=timeout)

    def import_args(self, *more: str, output: Path | None = None) -> list[str]:
        return ["import", "harbor", str(self.tasks), "-o", str(output or self.suite), *more]

    def newest_report(self) -> dict[str, Any]:
        newest = sorted(self.root.glob(".garuda/evals/*/report.json"))[-1]
        report: dict[str, Any] = json.loads(newest.read_text())
        return report


@pytest.fixture(scope="session")
def imported(tmp_path_factory: pytest.TempPathFactory) -> Imported:
    """The three fixture tasks imported and proved once."""
    root = tmp_path_factory.mktemp("harbor")
    tasks = make(root / "tasks")
    done = Imported(root, tasks, root / "suite", "")
    result = done.garuda(*done.import_args())
    assert result.returncode == 0, result.stdout + result.stderr
    return Imported(root, tasks, root / "suite", result.stdout)
