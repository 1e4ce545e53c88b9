"""How the host tells whether an escape attempt got through: each returns why, or None."""

from __future__ import annotations

from collections.abc import Callable

from garuda_evals.api import CommandResult
from garuda_evals_sandbox.lab import Lab
from garuda_evals_sandbox.processes import kill_all, survivors

Judge = Callable[[Lab, CommandResult], str | None]
ESCAPE_TAG = "garuda-escape-"


def wrote(lab: Lab, _: CommandResult) -> str | None:
    """A file outside the folder (beside it, in the lab, in the host's /tmp) appeared."""
    paths = [lab.outside / "pwned", lab.root / "pwned", lab.host_tmp_file]
    made = [str(path) for path in paths if path.exists()]
    return f"created {', '.join(made)}" if made else None


def undid_mounts(lab: Lab, result: CommandResult) -> str | None:
    """Unmounting the tmpfs over the home brought its secret back."""
    if f"KEY-{lab.token}" in result.output:
        return "the hidden home came back: the secret was printed"
    return None


def wrote_home(lab: Lab, _: CommandResult) -> str | None:
    """A file appeared in the fake home."""
    return "created $HOME/pwned" if (lab.home / "pwned").exists() else None


def printed(marker: str) -> Judge:
    """The planted secret ``MARKER-token`` shows in the output."""

    def check(lab: Lab, result: CommandResult) -> str | None:
        return "the secret was printed" if f"{marker}-{lab.token}" in result.output else None

    return check


def read_installed(lab: Lab, result: CommandResult) -> str | None:
    """The lab's installed suite data, or this garuda's own (a regular install), was printed."""
    if f"INSTALLED-{lab.token}" in result.output:
        return "the installed suite's solution was printed"
    real = lab.real_installed
    if real is not None and real.read_text(errors="replace").strip() in result.output:
        return f"{real} was printed"
    return None


def wrote_m2(lab: Lab, _: CommandResult) -> str | None:
    """A file appeared in the fake home's Maven repository."""
    made = lab.m2_file.parent / "pwned"
    return f"created {made}" if made.exists() else None


def tcp(lab: Lab, _: CommandResult) -> str | None:
    """The host's TCP server accepted a connection."""
    return f"the host server accepted {lab.tcp.accepted}" if lab.tcp.accepted else None


def unix(lab: Lab, _: CommandResult) -> str | None:
    """The host's Unix socket server accepted a connection."""
    return f"the host socket accepted {lab.unix.accepted}" if lab.unix.accepted else None


def left_alive(tag: str, expected: int) -> Judge:
    """A tagged process is still alive; too few started makes the attempt inconclusive."""

    def check(lab: Lab, result: CommandResult) -> str | None:
        alive = survivors(f"{ESCAPE_TAG}{lab.token}")
        kill_all(alive)
        if alive:
            return f"{len(alive)} process(es) outlived the limit"
        started = len(list(lab.work.glob(f"started-{tag}.*")))
        if started < expected:
            return f"inconclusive: {started} of {expected} process(es) started"
        return None

    return check


def works(expected: str) -> Judge:
    """For a control: it must exit 0 and print ``expected``."""

    def check(lab: Lab, result: CommandResult) -> str | None:
        if result.exit_code == 0 and expected in result.output:
            return None
        return f"exit {result.exit_code}: {result.output.strip()[-300:]}"

    return check
