"""The hooks this plugin brings: model providers, for the model agent only.

Core knows nothing of models; a plugin that adds a provider implements
``garuda_model_providers`` from here, and this plugin adds the spec to the registry
through ``garuda_add_hookspecs``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from garuda_evals.api import hookspec

if TYPE_CHECKING:
    from garuda_evals_agent.providers.base import ModelProvider


@dataclass(frozen=True)
class ProviderRecord:
    """A model provider, chosen by the prefix of a model spec (``anthropic/...``)."""

    name: str
    description: str
    load: Callable[[], ModelProvider]


@hookspec
def garuda_model_providers() -> Iterable[ProviderRecord]:
    """Register model providers for the model agent, chosen by the spec's ``provider/`` prefix.

    Example::

        @hookimpl
        def garuda_model_providers():
            yield ProviderRecord(name="gemini", description="Google Gemini", load=GeminiProvider)
    """
