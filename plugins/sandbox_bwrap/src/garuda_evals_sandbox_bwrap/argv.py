"""The bwrap command line for one command under a policy (pure: no process is started)."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from garuda_evals.api import SandboxPolicy
from garuda_evals_sandbox.options import host_network
from garuda_evals_sandbox.paths import SYSTEM_TMP, canonical, is_within
from garuda_evals_sandbox.view import View, plan_view

SHELL = "/bin/bash"
NAMESPACES = ("--unshare-pid", "--unshare-ipc", "--unshare-uts")
# At one path, later mounts win: shown < workspace < emptied/blanked < anchors < protected.
SHOWN, WORKSPACE, EMPTIED, BLANKED, ANCHOR, PROTECTED = range(6)


@dataclass(frozen=True)
class Layout:
    """One sandbox's view of the host, its private /tmp, and its network."""

    view: View
    private_tmp: Path
    host_network: bool = False

    @property
    def workspace(self) -> Path:
        """The writable task folder."""
        return self.view.workspace


def plan_layout(policy: SandboxPolicy, env: Mapping[str, str], private_tmp: Path) -> Layout:
    """The allow-list of ``policy`` for a command with environment ``env``."""
    return Layout(
        view=plan_view(policy, env),
        private_tmp=canonical(private_tmp),
        host_network=host_network(policy),
    )


def _anchors(view: View) -> list[Path]:
    """The folders between the workspace and each protected path, bound onto themselves.

    A mount point cannot be renamed or removed, so ``mv tests old; mkdir tests`` cannot
    move a protected file out of the way; the folders stay writable.
    """
    found: list[Path] = []
    for path in view.protected:
        found += [p for p in path.parents if p != view.workspace and is_within(p, view.workspace)]
    return list(dict.fromkeys(found))


def _system(view: View) -> list[str]:
    """``/bin -> usr/bin`` stays a link; real system folders are bound read-only."""
    args: list[str] = []
    for root in view.system:
        if root.is_symlink():
            args += ["--symlink", os.readlink(root), str(root)]
        else:
            args += ["--ro-bind", str(root), str(root)]
    return args


def _mounts(view: View) -> list[str]:
    """Every mount under the system folders, parents before children (later mounts win)."""
    ops: list[tuple[Path, int, list[str]]] = [(view.workspace, WORKSPACE, ["--bind"])]
    ops += [(path, SHOWN, ["--ro-bind-try"]) for path in view.shown]
    ops += [(path, EMPTIED, ["--tmpfs"]) for path in view.emptied]
    ops += [(path, BLANKED, ["--ro-bind-try", "/dev/null"]) for path in view.blanked]
    ops += [(path, ANCHOR, ["--bind-try"]) for path in _anchors(view)]
    ops += [(path, PROTECTED, ["--ro-bind-try"]) for path in view.protected]
    args: list[str] = []
    for path, rank, flags in sorted(ops, key=lambda op: (len(op[0].parts), op[1], str(op[0]))):
        source = [] if rank in (EMPTIED, BLANKED) else [str(path)]
        args += [*flags, *source, str(path)]
    return args


def _environment(env: Mapping[str, str]) -> list[str]:
    """``--clearenv`` then ``--setenv`` for each variable the caller passed.

    The caller has already applied the allow-list (``check_environment()`` for a check, plus
    ``--agent-env`` names and GARUDA_PROMPT* for an agent command); nothing else enters.
    """
    args = ["--clearenv"]
    for name, value in sorted(env.items()):
        args += ["--setenv", name, value]
    return args


def build_argv(
    launcher: Sequence[str],
    layout: Layout,
    *,
    command: str,
    cwd: Path,
    env: Mapping[str, str],
    seccomp_fd: int | None,
    mount_proc: bool,
) -> list[str]:
    """bwrap's flags in mount order: later mounts cover earlier ones.

    Nothing of the host but the allow-list: the system folders, then every shown path,
    the workspace, the emptied folders and the protected paths, parents before children;
    the emptied tmpfs are made read-only last (bwrap creates mount points inside them),
    and so is the sandbox's own root.
    """
    # --cap-drop ALL: run as root, the command would keep every capability and could
    # simply umount the tmpfs over the home or remount a folder read-write.
    argv = [*launcher, "--die-with-parent", "--new-session", "--cap-drop", "ALL", *NAMESPACES]
    if not layout.host_network:
        argv.append("--unshare-net")
    argv += _system(layout.view)
    argv += ["--dev", "/dev"]
    # Where a fresh /proc is refused, the container's own is shown read-only, as before.
    argv += ["--proc", "/proc"] if mount_proc else ["--ro-bind", "/proc", "/proc"]
    argv += ["--bind", str(layout.private_tmp), str(SYSTEM_TMP)]
    argv += _mounts(layout.view)
    for folder in layout.view.emptied:
        argv += ["--remount-ro", str(folder)]
    argv += ["--remount-ro", "/"]
    argv += ["--chdir", str(cwd)]
    argv += _environment(env)
    if seccomp_fd is not None:
        argv += ["--seccomp", str(seccomp_fd)]
    argv += ["--", SHELL, "-c", command]
    return argv
