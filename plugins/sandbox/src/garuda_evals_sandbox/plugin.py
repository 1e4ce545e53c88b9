"""Hooks of garuda-evals-sandbox: the ``garuda sandbox`` command group."""

from __future__ import annotations

from collections.abc import Iterator

from garuda_evals.api import CommandRecord, hookimpl


def _load():  # type: ignore[no-untyped-def]
    from garuda_evals_sandbox.command import sandbox

    return sandbox


@hookimpl
def garuda_commands() -> Iterator[CommandRecord]:
    """``garuda sandbox check``: list executor backends and try every escape."""
    yield CommandRecord(
        name="sandbox", description="which sandbox works here, and does it hold", load=_load
    )
