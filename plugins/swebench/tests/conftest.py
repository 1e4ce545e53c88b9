"""One fixture set and one import shared by the end-to-end tests (module-scoped: an import
proves every task, a few seconds each)."""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from garuda_evals.testing import run_garuda, skip_or_fail
from garuda_evals_swebench.fixture import make


@dataclass(frozen=True)
class Imported:
    """The fixture's files, its imported suite and where to run garuda from."""

    root: Path
    paths: dict[str, Path]
    suite: Path
    cache: Path

    def instances(self) -> list[dict[str, Any]]:
        lines = self.paths["instances"].read_text(encoding="utf-8").splitlines()
        return [json.loads(line) for line in lines]

    def garuda(self, *args: str, timeout: float = 600) -> Any:
        return run_garuda(*args, cwd=self.root, timeout=timeout)

    def import_args(self, *more: str, output: Path | None = None) -> list[str]:
        p = self.paths
        return [
            "import", "swe-bench", str(p["instances"]), "--repos", str(p["repos"]),
            "--env-recipe", str(p["recipe"]), "--env-cache", str(self.cache),
            "-o", str(output or self.suite), *more,
        ]  # fmt: skip


@pytest.fixture(scope="session")
def imported(tmp_path_factory: pytest.TempPathFactory) -> Imported:
    """The fixture (3 instances per repository) imported and proved once."""
    if shutil.which("git") is None:
        skip_or_fail("git", "install git")
    root = tmp_path_factory.mktemp("swe")
    done = Imported(root, make(root / "fixture"), root / "suite", root / "envs")
    result = done.garuda(*done.import_args())
    assert result.returncode == 0, result.stdout + result.stderr
    return done
