"""Find the provider of a model spec among the installed ``garuda_model_providers``."""

from __future__ import annotations

import os
from dataclasses import dataclass

from garuda_evals.api import PluginRegistry, RunSettings, UsageError, get_registry
from garuda_evals_agent.agent_options import agent_options
from garuda_evals_agent.providers.base import ModelProvider

MODEL_VAR = "GARUDA_MODEL"


@dataclass(frozen=True)
class ModelSpec:
    """``provider/model``: the provider's name and the model as the provider spells it."""

    provider: str
    model: str

    def __str__(self) -> str:
        return f"{self.provider}/{self.model}"


def model_spec_text(settings: RunSettings) -> str:
    """``-m``, else GARUDA_MODEL, else a UsageError that says how to pick one."""
    text = agent_options(settings).model or os.environ.get(MODEL_VAR, "").strip()
    if not text:
        raise UsageError(
            "no model: pass -m provider/model (for example -m anthropic/claude-sonnet-4-5 or "
            f"-m ollama/qwen3-coder:30b), or set {MODEL_VAR}; "
            "to run without a model use --agent oracle"
        )
    return text


def parse_spec(text: str, providers: list[str]) -> ModelSpec:
    """Split on the first ``/``; a spec without a provider lists the providers."""
    provider, slash, model = text.partition("/")
    if not slash or not provider or not model:
        raise UsageError(
            f"model '{text}' needs a provider prefix, provider/model; "
            f"providers: {', '.join(providers) or 'none installed'}"
        )
    return ModelSpec(provider, model)


def resolve(
    settings: RunSettings, registry: PluginRegistry | None = None
) -> tuple[ModelSpec, ModelProvider]:
    """The model spec of this run and its loaded provider."""
    return resolve_spec(model_spec_text(settings), registry)


def resolve_spec(
    text: str, registry: PluginRegistry | None = None
) -> tuple[ModelSpec, ModelProvider]:
    """The model spec ``text`` (``provider/model``) and its loaded provider."""
    records = (registry or get_registry()).collect("garuda_model_providers")
    spec = parse_spec(text, sorted(records))
    found = records.get(spec.provider)
    if found is None:
        raise UsageError(
            f"unknown model provider '{spec.provider}' in '{spec}'; "
            f"choose one of: {', '.join(sorted(records)) or 'none'}"
        )
    provider = found.record.load()
    if not isinstance(provider, ModelProvider):
        raise UsageError(
            f"model provider '{spec.provider}' from {found.distribution} is not a ModelProvider"
        )
    return spec, provider
