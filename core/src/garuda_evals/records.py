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
    from pydantic import BaseModel

    from garuda_evals.checks.base import CheckRunner
    from garuda_evals.report.formatter import ReportFormatter
    from garuda_evals.runner.backends import RunBackend
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
class RunBackendRecord:
    """A run backend, chosen with ``--backend``: where a run's task runs execute."""

    name: str
    description: str
    load: Callable[[], RunBackend]


@dataclass(frozen=True)
class CommandRecord:
    """A ``garuda`` sub-command; ``load`` returns a click command."""

    name: str
    description: str
    load: Callable[[], click.Command]


@dataclass(frozen=True)
class SuiteBuilderRecord:
    """A source that builds a suite on demand (``--from-git``) or imports one.

    ``garuda eval`` builds instead of running when the option ``trigger`` of the options
    record ``owner`` is set; the builder gets that owner's options (and ``parallel``).
    ``command`` (lazy) gives the builder's ``garuda import NAME`` command. ``saved`` names the
    file that marks a folder as a suite this builder saved: ``-s FOLDER`` (and every command
    that takes a suite folder) then loads it with ``SuiteBuilder.open``.
    """

    name: str
    description: str
    load: Callable[[], SuiteBuilder]
    owner: str = ""
    trigger: str = ""
    command: Callable[[], click.Command] | None = None
    saved: str = ""


@dataclass(frozen=True)
class Option:
    """One flag of a ``garuda`` command, owned by the plugin whose OptionsRecord lists it.

    ``dest`` defaults to the long flag with ``_`` for ``-`` (``--keep-thinking`` ->
    ``keep_thinking``). ``agents`` names the agents that honour it (None: every agent);
    giving it to another agent is refused before any agent call. ``backends`` names the run
    backends (``--backend``) that honour it (None: every backend), refused the same way.
    """

    flags: tuple[str, ...]
    help: str
    dest: str | None = None
    type: Any = None
    choices: tuple[str, ...] = ()
    default: Any = None
    multiple: bool = False
    is_flag: bool = False
    metavar: str | None = None
    agents: tuple[str, ...] | None = None
    backends: tuple[str, ...] | None = None

    @property
    def name(self) -> str:
        """The value's name in settings and report.json."""
        if self.dest:
            return self.dest
        long = max(self.flags, key=len)
        return long.lstrip("-").replace("-", "_")

    @property
    def flag(self) -> str:
        """The long flag, as error messages show it."""
        return max(self.flags, key=len)


@dataclass(frozen=True)
class OptionsRecord:
    """The options one plugin owns for one command (``eval`` by default).

    ``name`` is the owner: the heading of the group in ``--help`` and the key of the values
    in report.json. ``model`` (lazy) returns a pydantic model with a field per option; the
    values are validated with it, so a plugin reads them typed with
    ``settings.options_for(name, Model)``.
    """

    name: str
    description: str
    options: tuple[Option, ...]
    model: Callable[[], type[BaseModel]] | None = None
    command: str = "eval"
