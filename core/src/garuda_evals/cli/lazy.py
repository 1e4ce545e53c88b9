"""A command group whose commands are imported only when one of them runs.

Building ``garuda`` for ``garuda eval`` or ``garuda --help`` then never imports a plugin's
command module (the sandbox check's module pulls in its whole escape lab); ``--help`` lists
each with the description of its record. Core's other commands are given as loaders: an eval
imports none of their modules, and ``--help`` builds them for their own help lines.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    from garuda_evals.records import CommandRecord


class LazyGroup(click.Group):
    """``click.Group`` plus commands given as records or loaders, loaded on first use."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.records: dict[str, CommandRecord] = {}
        self.loaders: dict[str, Callable[[], click.Command]] = {}

    def add_loader(self, name: str, load: Callable[[], click.Command]) -> None:
        """Add a command that ``load`` builds when it is used or its help line is shown."""
        self.loaders[name] = load

    def has(self, name: str) -> bool:
        """True when ``name`` is a command, loaded or not."""
        return name in self.commands or name in self.records or name in self.loaders

    def add_record(self, name: str, record: CommandRecord) -> None:
        """Add a plugin command by its record; ``record.load`` runs when the command is used."""
        self.records[name] = record

    def list_commands(self, ctx: click.Context) -> list[str]:
        """Every command name, loaded or not."""
        return sorted({*self.commands, *self.records, *self.loaders})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        """The command, loading it now when it is asked for."""
        record = self.records.pop(cmd_name, None)
        load = record.load if record is not None else self.loaders.pop(cmd_name, None)
        if load is not None and cmd_name not in self.commands:
            self.add_command(load(), name=cmd_name)
        return super().get_command(ctx, cmd_name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The command list of ``--help``: a plugin command's line is its record's description."""
        limit = (
            formatter.width - 6 - max((len(name) for name in self.list_commands(ctx)), default=0)
        )
        rows = []
        for name in self.list_commands(ctx):
            if name in self.records:
                rows.append((name, self.records[name].description))
                continue
            command = self.get_command(ctx, name)
            if command is not None and not command.hidden:
                rows.append((name, command.get_short_help_str(limit)))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)
