"""The settings of one ``garuda eval`` run, as typed and as recorded in report.json."""

from typing import Any, Literal, TypeVar

from pydantic import BaseModel, Field

from garuda_evals.models.base import Model

M = TypeVar("M", bound=BaseModel)


class RunSettings(Model):
    """Core's flags, and every plugin's options grouped by the plugin that owns them.

    ``options`` maps an owner (an ``OptionsRecord`` name) to its values, already validated
    by the owner's model; a plugin reads its own with ``options_for``.
    """

    agent: str | None = None
    agent_command: str | None = None
    agent_env: list[str] = Field(default_factory=list)
    agent_mounts: list[str] = Field(default_factory=list)
    """``--agent-mount``: absolute paths shown read-only to the command agent."""
    suites: list[str] = Field(default_factory=lambda: ["basic"])
    task_ids: list[str] = Field(default_factory=list)
    repeat: int = 1
    parallel: int = 1
    executor: Literal["auto", "os", "host"] = "auto"
    keep: bool = False
    report_format: str = "table"
    task_timeout_s: float = 600.0
    backend: str = "local"
    """The run backend (``--backend``): ``local``, or a plugin's (``ray``)."""
    reprobe: bool = False
    strict: bool = False
    """``--strict``: a PASS whose change the tamper lint marks suspicious counts as FAIL."""
    options: dict[str, dict[str, Any]] = Field(default_factory=dict)

    def options_for(self, owner: str, model: type[M]) -> M:
        """The options of ``owner``, typed by its model (defaults where none were given)."""
        return model.model_validate(self.options.get(owner, {}))

    def option(self, name: str) -> Any:
        """The value of a plugin option by name, whichever plugin owns it (None if unset)."""
        for values in self.options.values():
            if values.get(name) is not None:
                return values[name]
        return None
