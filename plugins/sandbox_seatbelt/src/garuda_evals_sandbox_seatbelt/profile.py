"""The Seatbelt (SBPL) profile: fixed text that names parameters, and the ``-D`` values.

Paths never enter the profile text: each is a parameter (``WORK``, ``TMP``, ``HIDE_0``,
``SHOW_0`` ...) passed as ``-DNAME=VALUE``, so a path with quotes or parentheses cannot
change the rules. Every path is canonical (``/tmp`` is ``/private/tmp`` on macOS): Seatbelt
matches the resolved path.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from garuda_evals.api import SandboxPolicy
from garuda_evals_sandbox.options import host_network
from garuda_evals_sandbox.paths import canonical, is_within
from garuda_evals_sandbox.view import plan_view

SANDBOX_EXEC = "/usr/bin/sandbox-exec"
# What every command reads of macOS: the system, the developer tools, /etc, /dev.
MACOS_SYSTEM = (
    "/usr",
    "/bin",
    "/sbin",
    "/System",
    "/Library",
    "/private/etc",
    "/private/var/db/timezone",
    "/private/var/select",
    "/Applications/Xcode.app",
    "/dev",
)
SHELL = "/bin/bash"

MACH_SERVICES = (
    "com.apple.system.opendirectoryd.libinfo",
    "com.apple.system.opendirectoryd.membership",
    "com.apple.system.notification_center",
    "com.apple.system.logger",
    "com.apple.logd",
    "com.apple.trustd.agent",
    "com.apple.bsd.dirhelper",
    "com.apple.SecurityServer",
    "com.apple.coreservices.launchservicesd",
    "com.apple.PowerManagement.control",
)

BASE = """(version 1)
(deny default)
(allow process-exec)
(allow process-fork)
(allow signal (target same-sandbox))
(allow process-info* (target same-sandbox))
(allow sysctl-read)
(allow user-preference-read)
(allow iokit-get-properties)
(allow ipc-posix-shm)
(allow ipc-posix-sem)
(allow pseudo-tty)
(allow file-ioctl (regex #"^/dev/"))
(allow file-read-metadata)
(allow file-write-data
  (literal "/dev/null") (literal "/dev/zero") (literal "/dev/tty")
  (literal "/dev/dtracehelper") (regex #"^/dev/fd/[0-9]+$") (regex #"^/dev/ttys[0-9]+$"))
"""

LOOPBACK = """(allow network-bind (local ip "localhost:*"))
(allow network-inbound (local ip "localhost:*"))
(allow network-outbound (remote ip "localhost:*"))
"""

HOST_NETWORK_RULES = """(allow network-bind (local ip "*:*"))
(allow network-inbound (local ip "*:*"))
(allow network-outbound (remote ip "*:*"))
(allow mach-lookup (global-name "com.apple.mDNSResponder") (global-name "com.apple.dnssd.service"))
"""


@dataclass(frozen=True)
class Profile:
    """The profile text and its parameters (``NAME -> canonical path``)."""

    text: str
    params: dict[str, str]

    def defines(self) -> list[str]:
        """``-DNAME=VALUE`` arguments for sandbox-exec, in a stable order."""
        return [f"-D{name}={value}" for name, value in self.params.items()]


def _mach() -> str:
    names = "\n".join(f'  (global-name "{name}")' for name in MACH_SERVICES)
    return f"(allow mach-lookup\n{names})\n"


def _subpaths(prefix: str, count: int) -> str:
    return " ".join(f'(subpath (param "{prefix}_{i}"))' for i in range(count))


def _literals(prefix: str, count: int) -> str:
    return " ".join(f'(literal (param "{prefix}_{i}"))' for i in range(count))


def build_profile(policy: SandboxPolicy, env: Mapping[str, str], private_tmp: Path) -> Profile:
    """Deny by default; read only the allow-list; write only WORK and TMP.

    The allow-list is the bwrap backend's (``garuda_evals_sandbox.view``): the system
    (``SYS_n``), the toolchains and the Python environment (``SHOW_n``). Inside them the
    ``HIDE_n`` folders (homes, hidden paths, installed plugins' suite data) are denied, the
    ``RESHOW_n`` paths inside those (``~/.m2/repository``, the agent's file in the hidden
    project) allowed again, and the ``REHIDE_n`` hidden paths inside a reshown one (a plugin's
    package in a shown environment there) denied again; later rules win, so the deepest
    rule decides, as the deepest mount does under bwrap.
    ``PROTECT_n`` (read-only paths inside WORK) cannot be written.
    """
    view = plan_view(policy, env)
    hidden = [*view.emptied, *view.blanked]
    reshown = [p for p in view.shown if any(is_within(p, h) and p != h for h in hidden)]
    rehidden = [h for h in hidden if any(is_within(h, p) and h != p for p in reshown)]
    params = {"WORK": str(view.workspace), "TMP": str(canonical(private_tmp))}
    params |= {f"SYS_{i}": str(canonical(path)) for i, path in enumerate(MACOS_SYSTEM)}
    params |= {f"SHOW_{i}": str(path) for i, path in enumerate(view.shown)}
    params |= {f"HIDE_{i}": str(path) for i, path in enumerate(hidden)}
    params |= {f"RESHOW_{i}": str(path) for i, path in enumerate(reshown)}
    params |= {f"REHIDE_{i}": str(path) for i, path in enumerate(rehidden)}
    params |= {f"PROTECT_{i}": str(path) for i, path in enumerate(view.protected)}
    reads = " ".join(
        ['(literal "/")', _subpaths("SYS", len(MACOS_SYSTEM)), _subpaths("SHOW", len(view.shown))]
    ).strip()
    text = BASE + _mach() + f"(allow file-read* {reads})\n"
    if hidden:
        text += f"(deny file-read* {_subpaths('HIDE', len(hidden))})\n"
    if reshown:
        text += f"(allow file-read* {_subpaths('RESHOW', len(reshown))})\n"
    if rehidden:
        text += f"(deny file-read* {_subpaths('REHIDE', len(rehidden))})\n"
    text += '(allow file-read* file-write* (subpath (param "WORK")) (subpath (param "TMP")))\n'
    if view.protected:
        text += f"(deny file-write* {_literals('PROTECT', len(view.protected))})\n"
    if host_network(policy):
        text += HOST_NETWORK_RULES
    elif policy.allow_loopback:
        text += LOOPBACK
    return Profile(text=text, params=params)


def build_argv(profile: Profile, command: str) -> list[str]:
    """``sandbox-exec -p PROFILE -DNAME=VALUE ... bash -c COMMAND``."""
    return [SANDBOX_EXEC, "-p", profile.text, *profile.defines(), SHELL, "-c", command]
