"""``garuda sandbox check``: which executor backends are installed, and does the sandbox hold."""

from __future__ import annotations

import sys
from dataclasses import dataclass

import anyio
import click

from garuda_evals.api import (
    EXECUTORS,
    KNOWN_EXECUTORS,
    OS_SANDBOX_FOR_PLATFORM,
    Availability,
    ExecutorBackend,
    driver_names,
    load_driver,
)
from garuda_evals_sandbox.escapes import Outcome, run_all
from garuda_evals_sandbox.lab import Lab
from garuda_evals_sandbox.proxy_path import check_proxy_path


@dataclass(frozen=True)
class Installed:
    """An installed backend and whether it works here."""

    name: str
    distribution: str
    backend: ExecutorBackend | None
    availability: Availability


def installed_backends() -> list[Installed]:
    """Every backend in ``garuda_evals.executors``, loaded and probed."""
    found = []
    for name, dist in driver_names(EXECUTORS).items():
        try:
            backend = load_driver(EXECUTORS, name, what="executor", known=KNOWN_EXECUTORS)
            found.append(Installed(name, dist, backend, backend.availability()))
        except Exception as error:
            found.append(Installed(name, dist, None, Availability(False, str(error))))
    return found


def choose(backends: list[Installed], wanted: str | None) -> Installed | None:
    """The backend named ``wanted``, else the first working OS sandbox."""
    for item in backends:
        if wanted is not None and item.name == wanted:
            return item
        is_os = item.backend is not None and item.backend.kind == "os"
        if wanted is None and is_os and item.availability.ok:
            return item
    return None


def _line(outcome: Outcome) -> str:
    if outcome.control:
        verdict = "works" if outcome.ok else "BROKEN"
    else:
        verdict = "blocked" if outcome.ok else "NOT BLOCKED"
    return f"  {verdict:<12} {outcome.name}: {outcome.detail}"


async def _check(backend: ExecutorBackend) -> list[Outcome]:
    with Lab() as lab:
        executor = backend.create(lab.policy())
        try:
            outcomes = await run_all(executor, lab)
            if executor.info().kind == "os":
                outcomes += await check_proxy_path(executor, lab)
            return outcomes
        finally:
            await executor.aclose()


def _nothing_to_check(backends: list[Installed], wanted: str | None) -> str:
    if wanted is not None:
        names = ", ".join(item.name for item in backends)
        return f"'{wanted}' does not work here (installed: {names})"
    if any(item.backend is not None and item.backend.kind == "os" for item in backends):
        return "no installed OS sandbox works here: see the reasons above (docs/sandbox.md)"
    hint = OS_SANDBOX_FOR_PLATFORM.get(sys.platform, "an OS sandbox backend")
    return f"no OS sandbox is installed; install {hint} (docs/sandbox.md)"


@click.group(name="sandbox")
def sandbox() -> None:
    """The OS sandbox that checks and agent commands run in."""


@sandbox.command(name="check")
@click.option(
    "--backend", "wanted", default=None, help="Check this backend (default: the OS one that works)."
)
def check(wanted: str | None) -> None:
    """List the executor backends, then try every escape under the working one."""
    backends = installed_backends()
    click.echo("executor backends:")
    for item in backends:
        kind = item.backend.kind if item.backend else "?"
        state = "ok" if item.availability.ok else f"unavailable: {item.availability.reason}"
        click.echo(f"  {item.name:<10} {kind:<5} {item.distribution}: {state}")
    chosen = choose(backends, wanted)
    if chosen is None or chosen.backend is None or not chosen.availability.ok:
        click.echo(_nothing_to_check(backends, wanted), err=True)
        sys.exit(1)
    click.echo(f"escape attempts under {chosen.name}:")
    outcomes = anyio.run(_check, chosen.backend)
    for outcome in outcomes:
        click.echo(_line(outcome))
    failed = [o for o in outcomes if not o.ok]
    click.echo(f"{len(outcomes) - len(failed)}/{len(outcomes)} as expected")
    sys.exit(1 if failed else 0)
