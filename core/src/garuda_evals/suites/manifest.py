"""The on-disk task format: ``suite.toml`` and one ``task.toml`` per task folder."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from garuda_evals.models.relpath import ProtectedPattern, TaskPath


class ManifestModel(BaseModel):
    """Manifests are written by hand: snake_case keys, unknown keys are errors."""

    model_config = ConfigDict(extra="forbid")


class CheckManifest(ManifestModel):
    """``[check]`` table: the command, its check runner and its time limit."""

    command: str
    runner: str
    timeout_s: float = Field(default=120.0, gt=0)


class SuiteManifest(ManifestModel):
    """``suite.toml`` at the root of a suite folder."""

    name: str = Field(pattern=r"^[a-z0-9][a-z0-9_.-]*$")
    description: str = ""
    requires: list[str] = Field(default_factory=list)
    protected: list[ProtectedPattern] = Field(default_factory=list)
    check: CheckManifest | None = None


class TaskManifest(ManifestModel):
    """``task.toml`` in a task folder; ``files/`` and ``solution/`` sit beside it."""

    id: str | None = Field(default=None, pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")
    title: str
    prompt: str = Field(min_length=1)
    requires: list[str] = Field(default_factory=list)
    protected: list[ProtectedPattern] = Field(default_factory=list)
    check: CheckManifest | None = None
    solution_delete: list[TaskPath] = Field(default_factory=list)
    metadata: dict[str, str] = Field(default_factory=dict)
