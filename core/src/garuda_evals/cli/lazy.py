"""A command group whose plugin commands are imported only when one of them runs.

Building ``garuda`` for ``garuda eval`` or ``garuda --help`` then never imports a plugin's
command module (the sandbox check's module pulls in its whole escape lab); ``--help`` lists
each with the description of its record.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    from garuda_evals.records import CommandRecord


class LazyGroup(click.Group):
    """``click.Group`` plus commands given as records, loaded on first use."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.records: dict[str, CommandRecord] = {}

    def add_record(self, name: str, record: CommandRecord) -> None:
        """Add a plugin command by its record; ``record.load`` runs when the command is used."""
        self.records[name] = record

    def list_commands(self, ctx: click.Context) -> list[str]:
        """Every command name, loaded or not."""
        return sorted({*self.commands, *self.records})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        """The command, loading a plugin's now when it is asked for."""
        record = self.records.pop(cmd_name, None)
        if record is not None and cmd_name not in self.commands:
            self.add_command(record.load(), name=cmd_name)
        return super().get_command(ctx, cmd_name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The command list of ``--help``: a plugin command's line is its record's description."""
        limit = formatter.width - 6 - max(len(name) for name in self.list_commands(ctx))
        rows = []
        for name in self.list_commands(ctx):
            if name in self.records:
                rows.append((name, self.records[name].description))
                continue
            command = self.commands[name]
            if not command.hidden:
                rows.append((name, command.get_short_help_str(limit)))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)
