"""Escape attempts, each run through an executor the way a check or an agent command is.

Each attempt is judged on the host side (a file that appeared, a connection a host server
accepted, a process that survived), never by what the sandboxed command says about itself.
Controls are things a sandbox must still allow.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable
from dataclasses import dataclass

from garuda_evals.api import CommandResult, Executor
from garuda_evals_sandbox import judges
from garuda_evals_sandbox.judges import ESCAPE_TAG
from garuda_evals_sandbox.lab import Lab

DEFAULT_TIMEOUT_S = 60.0
LIMIT_S = 4.0
FORKS = 64


@dataclass(frozen=True)
class Attempt:
    """One command and how to tell, on the host, whether it got through."""

    name: str
    command: Callable[[Lab], str]
    got_through: judges.Judge
    timeout_s: float = DEFAULT_TIMEOUT_S
    control: bool = False


@dataclass(frozen=True)
class Outcome:
    """An attempt's verdict: ``ok`` is blocked (an escape) or working (a control)."""

    name: str
    ok: bool
    control: bool
    detail: str


def _py(code: str) -> str:
    return f"python3 -c {shlex.quote(code)}"


def _daemon(lab: Lab, tag: str, n: str = "0") -> str:
    return f"touch started-{tag}.{n}; exec -a {ESCAPE_TAG}{lab.token} sleep 300"


def _wait_for(tag: str, count: int) -> str:
    """Shell that waits until ``count`` processes have started, so the limit kills them all."""
    return f"until [ $(ls | grep -c started-{tag}) -ge {count} ]; do sleep 0.05; done"


ESCAPES = (
    Attempt(
        "write outside the folder",
        lambda lab: (
            f"echo x > {lab.outside}/pwned; echo x > ../pwned; echo x > {lab.host_tmp_file}"
        ),
        judges.wrote,
    ),
    Attempt("write to $HOME", lambda lab: 'echo x > "$HOME/pwned"', judges.wrote_home),
    Attempt("read ~/.ssh", lambda lab: 'cat "$HOME/.ssh/id_ed25519"', judges.printed("KEY")),
    Attempt(
        "read the user's checkout",
        lambda lab: f"cat {lab.checkout}/secret.txt",
        judges.printed("CHECKOUT"),
    ),
    Attempt(
        "read an installed suite's data",
        lambda lab: " ; ".join(
            f"cat {path}" for path in (lab.installed, lab.real_installed) if path is not None
        ),
        judges.read_installed,
    ),
    Attempt(
        "read another copy of a suite",
        lambda lab: f"cat {lab.copy}/t1/solution/calc.py",
        judges.printed("COPY"),
    ),
    Attempt(
        "write to ~/.m2",
        lambda lab: f'echo x > "$HOME/.m2/repository/{lab.m2_file.parent.name}/pwned"',
        judges.wrote_m2,
    ),
    Attempt(
        "undo the sandbox's mounts",
        # Harmless on a host: the lab's fake home is no mount point there.
        lambda lab: 'umount -l "$HOME" && cat "$HOME/.ssh/id_ed25519"',
        judges.undid_mounts,
    ),
    Attempt(
        "TCP to the host's loopback",
        lambda lab: _py(
            "import socket; s = socket.create_connection(('127.0.0.1', "
            f"{lab.tcp_port}), timeout=5); s.sendall(b'hi'); print('connected')"
        ),
        judges.tcp,
    ),
    Attempt(
        "a host Unix socket",
        lambda lab: _py(
            "import socket; s = socket.socket(socket.AF_UNIX); "
            f"s.connect({str(lab.unix_path)!r}); print('connected')"
        ),
        judges.unix,
    ),
    Attempt(
        "setsid process outliving the limit",
        lambda lab: (
            f"setsid bash -c {shlex.quote(_daemon(lab, 'setsid'))} </dev/null >/dev/null 2>&1 & "
            f"{_wait_for('setsid', 1)}; sleep 60"
        ),
        judges.left_alive("setsid", 1),
        timeout_s=LIMIT_S,
    ),
    Attempt(
        f"fork of {FORKS} processes at the limit",
        lambda lab: (
            f"for i in $(seq {FORKS}); do ({_daemon(lab, 'fork', '$i')}) & done; "
            f"{_wait_for('fork', FORKS)}; sleep 60"
        ),
        judges.left_alive("fork", FORKS),
        timeout_s=LIMIT_S,
    ),
)

CONTROLS = (
    Attempt(
        "write in the folder",
        lambda lab: "echo ok > inside.txt && cat inside.txt",
        judges.works("ok"),
        control=True,
    ),
    Attempt(
        "write in the private temporary folder",
        lambda lab: 't="${TMPDIR:-/tmp}"; echo ok > "$t/probe" && cat "$t/probe"',
        judges.works("ok"),
        control=True,
    ),
    Attempt(
        "read a shown path in a hidden one",
        lambda lab: f"cat {lab.shown}/ok.txt",
        judges.works("SHOWN-"),
        control=True,
    ),
    Attempt(
        "read the Python environment's other packages",
        lambda lab: f"cat {lab.other_package}",
        judges.works("OTHER-"),
        control=True,
    ),
    Attempt(
        "read ~/.m2/repository",
        lambda lab: f'cat "$HOME/.m2/repository/{lab.m2_file.parent.name}/{lab.m2_file.name}"',
        judges.works("M2-"),
        control=True,
    ),
    Attempt(
        "a server on its own loopback",
        lambda lab: _py(
            "import socket; s = socket.socket(); s.bind(('127.0.0.1', 0)); s.listen(); "
            "c = socket.create_connection(s.getsockname(), timeout=5); a, _ = s.accept(); "
            "c.sendall(b'ping'); print(a.recv(4).decode(), 'loopback ok')"
        ),
        judges.works("ping loopback ok"),
        control=True,
    ),
)


async def attempt(executor: Executor, lab: Lab, item: Attempt) -> Outcome:
    """Run one attempt in ``lab.work`` and judge it on the host."""
    result = await executor.run(
        item.command(lab), cwd=lab.work, env=lab.env(), timeout_s=item.timeout_s
    )
    problem = item.got_through(lab, result)
    if item.control:
        return Outcome(item.name, problem is None, True, problem or "works")
    return Outcome(item.name, problem is None, False, problem or _why(result))


def _why(result: CommandResult) -> str:
    if result.timed_out:
        return "killed at the limit"
    lines = result.output.strip().splitlines()
    return lines[-1][:160] if lines else f"exit {result.exit_code}"


async def run_all(executor: Executor, lab: Lab) -> list[Outcome]:
    """Every escape, then every control, one after another."""
    return [await attempt(executor, lab, item) for item in (*ESCAPES, *CONTROLS)]
