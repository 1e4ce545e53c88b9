"""Every flag of ``garuda eval``, as recorded in report.json."""

from typing import Literal

from pydantic import Field

from garuda_evals.models.base import Model

OnOff = Literal["on", "off"]


class RunSettings(Model):
    """The run's settings. ``None`` means the flag was not given (the agent's default)."""

    agent: str | None = None
    agent_command: str | None = None
    agent_env: list[str] = Field(default_factory=list)
    model: str | None = None
    suites: list[str] = Field(default_factory=lambda: ["basic"])
    task_ids: list[str] = Field(default_factory=list)
    repeat: int = 1
    parallel: int = 1
    executor: Literal["auto", "os", "host"] = "auto"
    max_steps: int | None = None
    keep: bool = False
    index: Literal["off", "lookup", "all"] | None = None
    subagents: OnOff | None = None
    subagent_model: str | None = None
    todo: OnOff | None = None
    lsp: OnOff | None = None
    keep_thinking: OnOff | None = None
    format: OnOff | None = None
    batch: OnOff | None = None
    report_format: str = "table"
    task_timeout_s: float = 600.0

    def explicit_agent_options(self) -> dict[str, str]:
        """The model-agent flags given on the command line, as ``--flag value``."""
        options = {
            "--model": self.model,
            "--index": self.index,
            "--subagents": self.subagents,
            "--subagent-model": self.subagent_model,
            "--todo": self.todo,
            "--lsp": self.lsp,
            "--keep-thinking": self.keep_thinking,
            "--format": self.format,
            "--batch": self.batch,
            "--max-steps": None if self.max_steps is None else str(self.max_steps),
        }
        return {flag: value for flag, value in options.items() if value is not None}
