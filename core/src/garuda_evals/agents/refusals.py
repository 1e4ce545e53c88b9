"""Refuse model-agent flags for agents that call no model."""

from garuda_evals.errors import UsageError
from garuda_evals.models.settings import RunSettings


def refuse_model_flags(agent: str, settings: RunSettings, *, allowed: tuple[str, ...] = ()) -> None:
    """Raise UsageError naming the first model-agent flag this agent cannot honour."""
    for flag, value in settings.explicit_agent_options().items():
        if flag in allowed:
            continue
        raise UsageError(
            f"{flag} {value}: the {agent} agent calls no model and cannot honour it; "
            "drop the flag or use the model agent (garuda-evals-agent)"
        )
