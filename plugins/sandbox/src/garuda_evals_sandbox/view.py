"""What one sandboxed command sees of the host: an allow-list, never "all but a deny-list".

Shown read-only: the system folders, the Python environment of the run, the toolchains
found through ``PATH``/``JAVA_HOME``/..., ``~/.m2/repository`` and ``~/.m2/settings.xml``,
and ``policy.read_only``. Shown writable: the workspace (and a private /tmp, which the
backend adds). Everything else of the host is absent. Inside what is shown, some folders are
emptied: the homes, ``policy.hidden`` and the package folders of installed garuda plugins
(suite data); ``policy.read_only`` paths inside the workspace stay read-only.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from garuda_evals.api import SandboxPolicy
from garuda_evals_sandbox.installed import plugin_folders
from garuda_evals_sandbox.paths import (
    SYSTEM_ROOTS,
    SYSTEM_TMP,
    canonical,
    hidden_paths,
    homes,
    in_system,
    is_within,
    python_prefixes,
    toolchain_candidates,
    venv_base,
)

VENV_MARKER = "pyvenv.cfg"
# /etc files that are often links out of the system folders (systemd-resolved's resolv.conf
# lives in /run): their targets are shown so name lookups and the time zone keep working.
ETC_LINKS = ("/etc/resolv.conf", "/etc/hosts", "/etc/localtime")


@dataclass(frozen=True)
class View:
    """The folders of one sandbox, each list canonical and without duplicates.

    ``system``: system folders as they are named here (``/bin`` may be a link to ``usr/bin``).
    ``shown``: read-only folders and files outside the system and the workspace.
    ``emptied``: folders shown empty and read-only (inside something shown, or a home).
    ``blanked``: files shown empty (hidden files inside something shown).
    ``protected``: ``policy.read_only`` paths inside the workspace (read-only there).
    """

    workspace: Path
    system: tuple[Path, ...]
    shown: tuple[Path, ...]
    emptied: tuple[Path, ...]
    blanked: tuple[Path, ...]
    protected: tuple[Path, ...]


def _inside_workspace(raw: Path | str, workspace: Path) -> bool:
    absolute = Path(os.path.abspath(os.path.expanduser(str(raw))))
    return is_within(absolute, workspace) or is_within(canonical(raw), workspace)


def _protected(read_only: tuple[Path, ...], workspace: Path) -> list[Path]:
    """Read-only paths inside the workspace; one whose links lead out of it is dropped."""
    found = []
    for raw in read_only:
        if _inside_workspace(raw, workspace):
            path = canonical(raw)
            if is_within(path, workspace) and path != workspace:
                found.append(path)
    return list(dict.fromkeys(found))


def _outermost(paths: list[Path], emptied: list[Path], roots: list[Path]) -> list[Path]:
    """Drop a shown path that a shown or system root already shows (no emptied folder between)."""
    kept = []
    for path in paths:
        covered = any(
            is_within(path, root)
            and path != root
            and not any(is_within(path, e) and is_within(e, root) and e != root for e in emptied)
            for root in roots
        )
        if not covered:
            kept.append(path)
    return kept


def system_roots() -> list[Path]:
    """The system folders that exist here, by their own names."""
    return [root for root in SYSTEM_ROOTS if os.path.lexists(root)]


@functools.lru_cache(maxsize=16)
def _toolchain_candidates(
    env: tuple[tuple[str, str], ...], hiding: tuple[Path, ...]
) -> tuple[Path, ...]:
    """``toolchain_candidates`` once per environment and hidden set in a process: it resolves
    every PATH entry and tool (tens of ``realpath`` calls) for each command otherwise. Only
    what is shown read-only is cached; what is hidden is worked out for every command."""
    return tuple(toolchain_candidates(dict(env), list(hiding)))


def plan_view(policy: SandboxPolicy, env: Mapping[str, str]) -> View:
    """The allow-list for one command of ``policy`` with environment ``env``."""
    workspace = canonical(policy.workspace)
    home_dirs = [h for h in homes(env) if not is_within(h, workspace)]
    hidden = [p for p in hidden_paths(policy.hidden) if not is_within(p, workspace)]
    hidden_dirs = [p for p in hidden if p.is_dir()]
    hiding = [SYSTEM_TMP, *home_dirs, *hidden_dirs]
    protected = _protected(policy.read_only, workspace)
    extra = [canonical(p) for p in policy.read_only if not _inside_workspace(p, workspace)]
    shown_tools = _toolchain_candidates(tuple(sorted(env.items())), tuple(hiding))
    candidates = [*shown_tools, *extra, *map(canonical, ETC_LINKS)]
    # A shown virtual environment (a repo task's linked .venv) needs its interpreter too;
    # never one inside the workspace, whose pyvenv.cfg the agent could write.
    venvs = [
        path
        for path in candidates
        if not is_within(path, workspace) and (path / VENV_MARKER).is_file()
    ]
    candidates += [base for base in map(venv_base, venvs) if base is not None]
    shown = [
        path
        for path in dict.fromkeys(candidates)
        if os.path.lexists(path)
        and path != Path(path.anchor)
        and not in_system(path)
        and not is_within(path, workspace)
    ]
    installed = plugin_folders(dict.fromkeys([*python_prefixes(env), *venvs]))
    roots = [canonical(root) for root in system_roots()] + shown
    inside = [
        path
        for path in dict.fromkeys([*hidden, *(canonical(p) for p in installed)])
        if any(is_within(path, root) for root in roots) and not is_within(path, workspace)
    ]
    emptied = list(dict.fromkeys([*home_dirs, *(p for p in inside if p.is_dir())]))
    blanked = [p for p in inside if p.exists() and not p.is_dir()]
    return View(
        workspace=workspace,
        system=tuple(system_roots()),
        shown=tuple(_outermost(shown, emptied, roots)),
        emptied=tuple(emptied),
        blanked=tuple(blanked),
        protected=tuple(protected),
    )
