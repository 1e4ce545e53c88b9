"""The options of ``garuda eval`` this plugin owns (records only: ``--help`` stays fast)."""

from __future__ import annotations

from garuda_evals.api import Option, OptionsRecord

OWNER = "agent_cli"
CLI_AGENTS = ("claude-code", "codex", "gemini-cli", "opencode", "aider")


def _model():  # type: ignore[no-untyped-def]
    from garuda_evals_agent_cli.cli_options import CliOptions

    return CliOptions


OPTIONS = OptionsRecord(
    name=OWNER,
    description="agent CLIs metered by the proxy (garuda-evals-agent-cli)",
    options=(
        Option(
            ("--max-cost",),
            "spend cap of the run in USD: past it the proxy refuses model calls (stop: budget)",
            type=float,
            agents=CLI_AGENTS,
        ),
    ),
    model=_model,
)
