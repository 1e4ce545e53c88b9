"""Hooks: the model agent's options, its provider hookspec, and its providers."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from garuda_evals.api import CommandRecord, OptionsRecord, hookimpl
from garuda_evals_agent.hookspecs import ProviderRecord

if TYPE_CHECKING:  # providers load only when a run uses them
    from garuda_evals_agent.providers.base import ModelProvider


def _anthropic() -> ModelProvider:
    from garuda_evals_agent.providers.anthropic_provider import AnthropicProvider

    return AnthropicProvider()


def _openai() -> ModelProvider:
    from garuda_evals_agent.providers.openai_provider import OpenAICompatibleProvider

    return OpenAICompatibleProvider("openai")


def _ollama() -> ModelProvider:
    from garuda_evals_agent.providers.openai_provider import OpenAICompatibleProvider

    return OpenAICompatibleProvider("ollama")


@hookimpl
def garuda_model_providers() -> Iterator[ProviderRecord]:
    """Claude on the anthropic SDK; OpenAI-compatible servers on the openai SDK."""
    yield ProviderRecord(
        name="anthropic",
        description="Claude models (ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL); --batch on works here",
        load=_anthropic,
    )
    yield ProviderRecord(
        name="openai",
        description="OpenAI, or any compatible server at OPENAI_BASE_URL (vLLM, llama.cpp)",
        load=_openai,
    )
    yield ProviderRecord(
        name="ollama",
        description="a local Ollama (OLLAMA_HOST or OLLAMA_BASE_URL, default localhost:11434)",
        load=_ollama,
    )


@hookimpl
def garuda_options() -> Iterator[OptionsRecord]:
    """The model agent's flags: -m, --max-steps, --keep-thinking, --batch and the A/B features."""
    from garuda_evals_agent.options import OPTIONS

    yield OPTIONS


@hookimpl
def garuda_add_hookspecs() -> list[object]:
    """``garuda_model_providers``: plugins add model providers through it."""
    from garuda_evals_agent import hookspecs

    return [hookspecs]


def _lsp_command():  # type: ignore[no-untyped-def]
    from garuda_evals_agent.lsp.command import lsp

    return lsp


@hookimpl
def garuda_commands() -> Iterator[CommandRecord]:
    """``garuda lsp``: the managed language servers and Biome; ``--install`` adds them."""
    yield CommandRecord(
        name="lsp",
        description="language servers and Biome for --lsp and --format",
        load=_lsp_command,
    )
