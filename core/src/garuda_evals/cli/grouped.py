"""Click pieces for plugin-owned options: build one from an ``Option``, group ``--help``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click
from click.parser import _OptionParser, _ParsingState

from garuda_evals.records import Option


def option_key(owner: str, name: str) -> str:
    """The key of a plugin option among the parsed flags: ``owner.name``."""
    return f"{owner}.{name}"


class OwnedOption(click.Option):
    """A click option that knows which plugin owns it (its ``--help`` section)."""

    def __init__(self, *args: Any, owner: str = "core", distribution: str = "", **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.owner = owner
        self.distribution = distribution


class LiveHelpOption(click.Option):
    """A click option whose help is written when ``--help`` shows it (from the installed
    plugins), so building the command calls no registration hook."""

    def __init__(self, *args: Any, help_from: Callable[[], str], **kwargs: Any):
        self.help_from = help_from
        super().__init__(*args, **kwargs)

    @property
    def help(self) -> str:
        """The help text, made each time it is read."""
        return self.help_from()

    @help.setter
    def help(self, _given: str | None) -> None:
        """click's ``__init__`` sets the help; this option makes its own."""


def plugin_option(option: Option, owner: str, distribution: str) -> click.Option:
    """The click option for a plugin's ``Option``, tagged with its owner for ``--help``."""
    kind: Any = click.Choice(list(option.choices)) if option.choices else option.type
    made = OwnedOption(
        list(option.flags),
        type=kind,
        default=option.default,
        multiple=option.multiple,
        is_flag=option.is_flag,
        metavar=option.metavar,
        help=option.help,
        owner=owner,
        distribution=distribution,
    )
    made.name = option_key(owner, option.name)
    return made


class _ShortOptionsFirst(_OptionParser):
    """click's parser, minus the "did you mean" list it builds for a short option and drops.

    click tries ``-s`` as a long option first; the ``NoSuchOption`` of that try lists close
    matches (importing ``difflib``) before the short option is tried and matched.
    """

    def _match_long_opt(self, opt: str, explicit_value: str | None, state: _ParsingState) -> None:
        if opt not in self._long_opt and opt[:2] not in self._opt_prefixes:
            raise click.NoSuchOption(opt, ctx=self.ctx)  # caught: tried as a short option next
        super()._match_long_opt(opt, explicit_value, state)


class GroupedCommand(click.Command):
    """A command whose ``--help`` lists options under the plugin that owns them."""

    def make_parser(self, ctx: click.Context) -> _OptionParser:
        """click's parser, with a short option matched without the "did you mean" list."""
        parser = _ShortOptionsFirst(ctx)
        for param in self.get_params(ctx):
            param.add_to_parser(parser, ctx)
        return parser

    def format_options(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """One section per owner: core's options first, then each plugin's."""
        groups: dict[str, list[tuple[str, str]]] = {}
        headings: dict[str, str] = {}
        for param in self.get_params(ctx):
            record = param.get_help_record(ctx)
            if record is None:
                continue
            group = param.owner if isinstance(param, OwnedOption) else "core"
            distribution = param.distribution if isinstance(param, OwnedOption) else None
            headings[group] = f"Options of {distribution}" if distribution else "Options"
            groups.setdefault(group, []).append(record)
        for group, records in groups.items():
            with formatter.section(headings[group]):
                formatter.write_dl(records)
