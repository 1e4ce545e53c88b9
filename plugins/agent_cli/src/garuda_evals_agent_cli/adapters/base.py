"""What an agent CLI adapter knows: its package, invocation, model mapping and usage report."""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from garuda_evals.api import UsageError


@dataclass(frozen=True)
class Package:
    """Where a CLI comes from (npm or PyPI, pinned) and where its program lies once installed.

    ``program`` is relative to the install folder. Its folder goes first on PATH.
    """

    registry: Literal["npm", "pypi"]
    name: str
    version: str
    program: str


@dataclass(frozen=True)
class Invocation:
    """What one turn of the CLI needs: its base URL, the model, the home and the turn limit."""

    base_url: str
    model: str
    home: str
    max_turns: int | None = None


@dataclass(frozen=True)
class OwnUsage:
    """What the CLI itself says it used: tokens kept apart as garuda keeps them, and cost."""

    input_tokens: int = 0
    cache_read_tokens: int = 0
    cache_write_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float | None = None
    stop: str | None = None


class Adapter(ABC):
    """One agent CLI. ``providers`` are the ``-m`` prefixes it can use, the first the default."""

    name: ClassVar[str]
    description: ClassVar[str]
    package: ClassVar[Package]
    providers: ClassVar[tuple[str, ...]]
    reports_usage: ClassVar[bool] = True
    """False when the CLI prints no exact usage of its own (nothing to cross-check)."""

    def provider_of(self, spec: str) -> tuple[str, str]:
        """``provider/model`` split, the provider one this CLI speaks; UsageError otherwise."""
        provider, slash, model = spec.partition("/")
        if not slash or not model:
            raise UsageError(
                f"-m {spec}: needs provider/model (for example "
                f"{self.providers[0]}/MODEL) for the {self.name} agent"
            )
        if provider not in self.providers:
            raise UsageError(
                f"-m {spec}: the {self.name} agent speaks {', '.join(self.providers)}, "
                f"not {provider}"
            )
        return provider, model

    def model_argument(self, provider: str, model: str) -> str:
        """The model as the CLI's model flag takes it (default: without the provider)."""
        return model

    @abstractmethod
    def command(self, program: str, call: Invocation) -> str:
        """The shell command that runs one non-interactive turn on ``$GARUDA_PROMPT``."""

    @abstractmethod
    def environment(self, provider: str, call: Invocation, key: str) -> dict[str, str]:
        """Variables for the CLI: base URL, the placeholder ``key``, updates and telemetry off."""

    def home_files(self, provider: str, call: Invocation) -> dict[str, str]:
        """Files to write under the private HOME before the turn (relative path: text)."""
        return {}

    def own_usage(self, output: str) -> OwnUsage | None:
        """The CLI's own usage report in its output, or None when it printed none."""
        return None


def json_lines(output: str) -> Iterator[dict[str, Any]]:
    """The JSON objects among the output's lines (the CLI's other output is skipped)."""
    for line in output.splitlines():
        line = line.strip()
        if not line.startswith("{"):
            continue
        try:
            item = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(item, dict):
            yield item
