"""Typed registration records that hooks yield. A record names a thing; ``load`` makes it.

Hooks do no work: ``load`` is called only when the thing is used, so listing plugins and
``garuda --help`` stay fast.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import click

    from garuda_evals.checks.base import CheckRunner
    from garuda_evals.report.formatter import ReportFormatter
    from garuda_evals.suitebuilder import SuiteBuilder
    from garuda_evals.suites.base import Suite
    from garuda_evals.toolchains.base import Toolchain


@dataclass(frozen=True)
class SuiteRecord:
    """A suite. ``in_all`` puts it in ``-s all``; ``requires`` lists toolchains for ``--list``."""

    name: str
    description: str
    load: Callable[[], Suite]
    in_all: bool = True
    requires: tuple[str, ...] = ()


@dataclass(frozen=True)
class ToolchainRecord:
    """A toolchain; ``aliases`` also name it (``java`` for ``maven``)."""

    name: str
    description: str
    load: Callable[[], Toolchain]
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True)
class CheckRunnerRecord:
    """A check runner (test-runner adapter) that a task's ``check.runner`` names."""

    name: str
    description: str
    load: Callable[[], CheckRunner]


@dataclass(frozen=True)
class FormatterRecord:
    """A report formatter, chosen with ``--report-format``."""

    name: str
    description: str
    load: Callable[[], ReportFormatter]


@dataclass(frozen=True)
class CommandRecord:
    """A ``garuda`` sub-command; ``load`` returns a click command."""

    name: str
    description: str
    load: Callable[[], click.Command]


@dataclass(frozen=True)
class SuiteBuilderRecord:
    """A source that builds a suite on demand (``--from-git``)."""

    name: str
    description: str
    load: Callable[[], SuiteBuilder]


@dataclass(frozen=True)
class ProviderRecord:
    """A model provider, chosen by the prefix of a model spec (``anthropic/...``)."""

    name: str
    description: str
    load: Callable[[], Any]
