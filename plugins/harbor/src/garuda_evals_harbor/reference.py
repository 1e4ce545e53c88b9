"""The reference solution: what ``solution/solve.sh`` writes, run once at import.

Harbor's oracle runs ``bash /solution/solve.sh`` in the working folder. Here it runs in a
scratch folder holding the working folder as shipped (``work/``) and ``solution/``, with the
container's paths rewritten, under the executor the checks use (the OS sandbox when there
is one: nothing but the scratch folder is writable). The files it then changed, added or
removed in ``work/`` are the task's reference solution, replayed by ``--agent oracle``. A
script that fails, or writes a file that is not UTF-8 text, is ``Refused`` with one line.
"""

from __future__ import annotations

import os
import shlex
import tempfile
from dataclasses import dataclass
from pathlib import Path

from garuda_evals.api import (
    ENV_ALLOW,
    ExecutorBackend,
    SandboxPolicy,
    check_environment,
    remove_tree,
    write_files,
)
from garuda_evals_harbor.checkrunner import expand
from garuda_evals_harbor.paths import rewrite
from garuda_evals_harbor.refusal import Refused

SKIPPED = frozenset({"__pycache__", ".pytest_cache", ".git"})
MAX_FILE_BYTES = 1 << 20


@dataclass(frozen=True)
class Captured:
    """What solve.sh left in the working folder, against what was shipped."""

    files: dict[str, str]
    delete: list[str]


def _walk(root: Path) -> dict[str, Path]:
    found: dict[str, Path] = {}
    for current, folders, names in os.walk(root):
        folders[:] = sorted(name for name in folders if name not in SKIPPED)
        for name in names:
            path = Path(current) / name
            found[path.relative_to(root).as_posix()] = path
    return found


def _changes(work: Path, shipped: dict[str, str], back: dict[str, str]) -> Captured:
    """What changed in ``work``; the scratch folders written back as the container's
    paths (``back``), so the reference reads as solve.sh wrote it in the container."""
    files: dict[str, str] = {}
    for relative, path in sorted(_walk(work).items()):
        if path.is_symlink() or not path.is_file():
            raise Refused(f"solution/solve.sh left {relative}, which is not a regular file")
        if path.stat().st_size > MAX_FILE_BYTES:
            raise Refused(f"solution/solve.sh wrote {relative}, larger than {MAX_FILE_BYTES} bytes")
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            raise Refused(
                f"solution/solve.sh wrote {relative}, which is not UTF-8 text (a reference "
                "solution is text files)"
            ) from None
        text = rewrite(text, back)
        if shipped.get(relative) != text:
            files[relative] = text
    present = _walk(work)
    delete = sorted(relative for relative in shipped if relative not in present)
    return Captured(files, delete)


async def capture(
    *,
    backend: ExecutorBackend,
    workdir: str,
    shipped: dict[str, str],
    solution: dict[str, str],
    env: dict[str, str],
    timeout_s: float,
) -> Captured:
    """Run solve.sh on the shipped working folder; its changes (``Refused`` on failure)."""
    scratch = Path(tempfile.mkdtemp(prefix="garuda-harbor-solve-")).resolve()
    try:
        work, scripts, logs = scratch / "work", scratch / "solution", scratch / "logs"
        for folder in (work, scripts, logs / "agent", logs / "verifier"):
            folder.mkdir(parents=True)
        mapping = {workdir: str(work), "/solution": str(scripts), "/logs": str(logs)}
        write_files(work, shipped)
        write_files(scripts, {path: rewrite(text, mapping) for path, text in solution.items()})
        base = check_environment()
        exports = ""
        for name, value in env.items():
            base[name] = rewrite(expand(value, base), mapping)
            exports += f"export {name}={shlex.quote(base[name])}; "
        policy = SandboxPolicy(workspace=scratch, env_allow=ENV_ALLOW)
        executor = backend.create(policy)
        try:
            result = await executor.run(
                f"{exports}bash {shlex.quote(str(scripts / 'solve.sh'))}",
                cwd=work,
                env=check_environment(),
                timeout_s=timeout_s,
            )
        finally:
            await executor.aclose()
        if result.timed_out:
            raise Refused(f"solution/solve.sh did not end within {timeout_s:.0f} s")
        if result.exit_code != 0:
            last = (result.output.strip().splitlines() or [""])[-1][:200]
            raise Refused(f"solution/solve.sh exited {result.exit_code}: {last}")
        return _changes(work, shipped, {value: key for key, value in mapping.items()})
    finally:
        remove_tree(scratch)
