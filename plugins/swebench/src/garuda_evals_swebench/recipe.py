"""``--env-recipe FILE``: how to make each repository's environment, and how its tests run.

::

    [repos."psf/requests"]
    setup = ["uv venv --python 3.9 {env}", "uv pip install --python {env} -e . pytest"]
    runner = "pytest"                  # pytest, django or sympy: the ids' style
    pythonpath = ["."]                 # folders put first on the check's PYTHONPATH
    timeout_s = 1800                   # the check's limit

    [repos."psf/requests".versions."2.0"]
    setup = ["uv venv --python 3.8 {env}", "..."]   # a version's own values win

``setup`` runs once per (repository, version) on the host, in a checkout of the version's
``environment_setup_commit`` (else the first instance's base commit), with ``{env}`` the
folder to make; the folder is then linked read-only into each task as ``link`` (``.venv``).
``test_command`` (optional) replaces the runner's default command.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Literal

from pydantic import Field

from garuda_evals.api import ManifestModel, load_model, parse_toml

Runner = Literal["pytest", "django", "sympy"]
DEFAULT_TIMEOUT_S = 1800.0


class VersionRecipe(ManifestModel):
    """What one version of a repository changes of its repository's recipe."""

    setup: list[str] | None = None
    test_command: str | None = None
    pythonpath: list[str] | None = None
    timeout_s: float | None = Field(default=None, gt=0)


class RepoRecipe(ManifestModel):
    """One repository's recipe."""

    setup: list[str] = Field(min_length=1)
    runner: Runner = "pytest"
    test_command: str | None = None
    pythonpath: list[str] = Field(default_factory=lambda: ["."])
    link: str = Field(default=".venv", pattern=r"^[A-Za-z0-9_.][A-Za-z0-9_.-]*$")
    timeout_s: float = Field(default=DEFAULT_TIMEOUT_S, gt=0)
    setup_timeout_s: float = Field(default=3600.0, gt=0)
    versions: dict[str, VersionRecipe] = Field(default_factory=dict)

    def for_version(self, version: str | None) -> Resolved:
        """The recipe of ``version``: the version's values over the repository's."""
        own = self.versions.get(version or "") or VersionRecipe()
        return Resolved(
            setup=own.setup or self.setup,
            runner=self.runner,
            test_command=own.test_command or self.test_command,
            pythonpath=own.pythonpath if own.pythonpath is not None else self.pythonpath,
            link=self.link,
            timeout_s=own.timeout_s or self.timeout_s,
            setup_timeout_s=self.setup_timeout_s,
        )


class Resolved(ManifestModel):
    """The recipe one (repository, version) is built and checked with."""

    setup: list[str]
    runner: Runner
    test_command: str | None
    pythonpath: list[str]
    link: str
    timeout_s: float
    setup_timeout_s: float

    def setup_digest(self) -> str:
        """What the environment depends on: a changed setup builds a new one."""
        text = json.dumps(self.setup).encode()
        return hashlib.sha256(text).hexdigest()[:12]


class Recipe(ManifestModel):
    """The whole file."""

    repos: dict[str, RepoRecipe]


def load_recipe(path: Path) -> Recipe:
    """Read and validate the recipe; an error names the file and the field."""
    return load_model(path, Recipe, parse_toml)
