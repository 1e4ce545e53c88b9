"""``garuda import NAME ...``: a suite builder's import form, found by the builder's name.

Each suite builder whose record gives a ``command`` is a sub-command here, loaded only when
used (``--help`` lists them by their records' descriptions). Core adds no flag of its own:
the builder's command owns its arguments, builds the suite and saves it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from garuda_evals.cli.lazy import LazyGroup
from garuda_evals.records import CommandRecord

if TYPE_CHECKING:
    from garuda_evals.plugins.manager import PluginRegistry


class ImportGroup(LazyGroup):
    """The builders' commands; an unknown name lists the installed ones and a hint."""

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        """The builder's command, or a usage error naming the choices."""
        name = args[0] if args else ""
        if name and self.get_command(ctx, name) is None and not name.startswith("-"):
            from garuda_evals.errors import UsageError
            from garuda_evals.plugins.known import SUITE_BUILDERS, install_hint

            choices = ", ".join(self.list_commands(ctx)) or "none installed"
            raise UsageError(
                f"import {name}: no suite builder imports '{name}'"
                f"{install_hint(SUITE_BUILDERS, name)}; choose one of: {choices}"
            )
        return super().resolve_command(ctx, args)


def build_import_group(registry: PluginRegistry) -> click.Group:
    """``garuda import`` with one sub-command per suite builder that has an import form."""

    @click.group("import", cls=ImportGroup)
    def import_group() -> None:
        """Build a suite from another benchmark's tasks (SWE-bench instances, ...).

        Each source is a suite builder's command: garuda import NAME --help tells its
        arguments. Run the saved suite with garuda eval -s FOLDER.
        """

    assert isinstance(import_group, ImportGroup)
    for name, registered in sorted(registry.suite_builders().items()):
        record = registered.record
        if record.command is not None:
            import_group.add_record(name, CommandRecord(name, record.description, record.command))
    return import_group
