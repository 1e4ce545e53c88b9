"""The options of ``garuda eval`` that this plugin owns: the model agent's flags.

Only records here: ``garuda --help`` must not import pydantic. The typed model is in
``agent_options.py``.
"""

from __future__ import annotations

from garuda_evals.api import Option, OptionsRecord

OWNER = "agent"
AGENT = "garuda"
LOCAL_BACKEND = "local"
"""The run backend whose single process holds the run's one spend cap (``--max-cost``)."""
ON_OFF = ("on", "off")


def _model():  # type: ignore[no-untyped-def]
    from garuda_evals_agent.agent_options import AgentOptions

    return AgentOptions


def _on_off(flag: str, help: str) -> Option:
    return Option((flag,), help, choices=ON_OFF, agents=(AGENT,))


OPTIONS = OptionsRecord(
    name=OWNER,
    description="the model agent (garuda-evals-agent)",
    options=(
        Option(
            ("-m", "--model"),
            "model spec provider/model (default: $GARUDA_MODEL)",
            agents=(AGENT,),
        ),
        Option(
            ("--max-steps",),
            "stop after this many model calls (default 100)",
            type=int,
            agents=(AGENT,),
        ),
        Option(
            ("--max-cost",),
            "spend cap of the run in USD: once reached, model calls are refused and no "
            "further task starts (stop: budget)",
            type=float,
            agents=(AGENT,),
            backends=(LOCAL_BACKEND,),
        ),
        Option(
            ("--index",),
            "code index for the agent",
            choices=("off", "lookup", "all"),
            agents=(AGENT,),
        ),
        _on_off("--subagents", "let the agent start explore subagents"),
        Option(("--subagent-model",), "model spec for subagents", agents=(AGENT,)),
        _on_off("--todo", "give the agent a todo tool"),
        _on_off("--lsp", "feed LSP diagnostics back to the agent"),
        _on_off("--keep-thinking", "keep earlier thinking blocks in the context (default on)"),
        _on_off("--format", "format changed files after each edit"),
        _on_off("--batch", "send model calls through the provider's batch API (half price)"),
    ),
    model=_model,
)
