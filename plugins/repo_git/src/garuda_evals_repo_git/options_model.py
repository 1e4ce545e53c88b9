"""The repo plugin's options of ``garuda eval``, typed (declared in ``plugin.py``)."""

from __future__ import annotations

from pydantic import Field

from garuda_evals.api import Model


class RepoGitOptions(Model):
    """``--from-git`` and the mining options; ``None``: not given (the builder's default)."""

    from_git: bool = False
    commits: int | None = Field(default=None, ge=1)
    since: str | None = None
    max_tasks: int | None = Field(default=None, ge=1)
    test_command: str | None = None
    min_strength: float | None = Field(default=None, ge=0, le=1)
    mutants: int | None = Field(default=None, ge=0)
