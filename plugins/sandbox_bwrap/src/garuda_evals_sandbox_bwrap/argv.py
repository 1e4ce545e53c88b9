"""The bwrap command line for one command under a policy (pure: no process is started)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from garuda_evals.executors.base import SandboxPolicy
from garuda_evals_sandbox.options import host_network
from garuda_evals_sandbox.paths import (
    SYSTEM_TMP,
    canonical,
    hidden_paths,
    homes,
    is_within,
    rebinds,
    toolchain_candidates,
)

SHELL = "/bin/bash"
NAMESPACES = ("--unshare-pid", "--unshare-ipc", "--unshare-uts")


@dataclass(frozen=True)
class Layout:
    """The folders of one sandbox: what is writable, hidden, and shown again read-only."""

    workspace: Path
    private_tmp: Path
    hidden_dirs: tuple[Path, ...]
    hidden_files: tuple[Path, ...]
    readable: tuple[Path, ...]
    host_network: bool = False


def plan_layout(policy: SandboxPolicy, env: Mapping[str, str], private_tmp: Path) -> Layout:
    """Hide the homes, /tmp and ``policy.hidden``; show toolchains and ``policy.read_only``."""
    workspace = canonical(policy.workspace)
    hidden = hidden_paths(policy.hidden)
    dirs = [*homes(env), *(path for path in hidden if path.is_dir())]
    # A HOME that is the task folder (or inside it) must not cover the task folder.
    dirs = [path for path in dirs if not is_within(path, workspace)]
    # A folder inside another hidden one is already hidden; mounting it again would fail.
    dirs = [p for p in dict.fromkeys(dirs) if not any(o != p and is_within(p, o) for o in dirs)]
    files = [path for path in hidden if path.exists() and not path.is_dir()]
    files = [file for file in files if not any(is_within(file, folder) for folder in dirs)]
    hiding = [SYSTEM_TMP, *dirs]
    shown = rebinds(toolchain_candidates(env, hiding), hiding)
    extra = [canonical(path) for path in policy.read_only]
    return Layout(
        workspace=workspace,
        private_tmp=canonical(private_tmp),
        hidden_dirs=tuple(dict.fromkeys(dirs)),
        hidden_files=tuple(dict.fromkeys(files)),
        readable=tuple(dict.fromkeys([*shown, *extra])),
        host_network=host_network(policy),
    )


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

    The hidden folders become empty tmpfs, the folders to show are bound read-only on top,
    the workspace is bound writable last, and only then are the hidden tmpfs made read-only
    (bwrap creates mount points inside them, so they must be writable until then).
    """
    # --cap-drop ALL: run as root, the command would keep every capability and could
    # simply umount the tmpfs over the home or remount / read-write.
    argv = [*launcher, "--die-with-parent", "--new-session", "--cap-drop", "ALL", *NAMESPACES]
    if not layout.host_network:
        argv.append("--unshare-net")
    argv += ["--ro-bind", "/", "/", "--dev", "/dev"]
    if mount_proc:
        argv += ["--proc", "/proc"]
    argv += ["--bind", str(layout.private_tmp), str(SYSTEM_TMP)]
    for folder in layout.hidden_dirs:
        argv += ["--tmpfs", str(folder)]
    for file in layout.hidden_files:
        argv += ["--ro-bind", "/dev/null", str(file)]
    for path in layout.readable:
        argv += ["--ro-bind-try", str(path), str(path)]
    argv += ["--bind", str(layout.workspace), str(layout.workspace)]
    for folder in layout.hidden_dirs:
        argv += ["--remount-ro", str(folder)]
    argv += ["--chdir", str(cwd)]
    argv += _environment(env)
    if seccomp_fd is not None:
        argv += ["--seccomp", str(seccomp_fd)]
    argv += ["--", SHELL, "-c", command]
    return argv
