"""The go-test check runner: core's reader of ``go test -json``, on the shared caches."""

from collections.abc import Sequence
from pathlib import Path

from garuda_evals.api import CheckPlan, GoTestCheckRunner, HeldOutRun, Task
from garuda_evals_go.cache import build_cache, cold, module_cache
from garuda_evals_go.held_out import held_out_run

# Files that change what go builds or where from, whatever the suite protects.
REFUSED = {
    "go.mod": "a module file decides which code a package path means",
    "go.work": "a workspace file swaps modules in",
    "go.work.sum": "a workspace file swaps modules in",
    "modules.txt": "a vendor listing swaps dependencies",
}


class GoCheckRunner(GoTestCheckRunner):
    """``{gocache}`` and ``{gomodcache}`` become the shared caches (read-only in the sandbox).

    With ``GARUDA_GO_COLD=1`` the build cache is a fresh folder in the check's workspace.
    ``held_out`` writes the task's held-out tests and their canaries one test to a file.
    """

    def __init__(self) -> None:
        super().__init__("go-test")

    def plan(self, command: str, workspace: Path) -> CheckPlan:
        """Fill the cache paths, then ``{gojson}``."""
        shared = build_cache()
        gocache = workspace / ".gocache" if cold() or not shared.is_dir() else shared
        command = command.replace("{gocache}", str(gocache))
        return super().plan(command.replace("{gomodcache}", str(module_cache())), workspace)

    def held_out(self, task: Task, workspace: Path, nonce: str) -> HeldOutRun | None:
        """One file per held-out test and canary, in the folder its path names, its file,
        test and helpers named like the canaries (``held_out.py``; not from ``nonce``,
        which code under test can read in the canary file)."""
        if task.held_out is None:
            return None
        return held_out_run(task.held_out.tests, task.held_out.canaries, workspace)

    def refusals(self, task: Task, workspace: Path, changed: Sequence[str]) -> list[str]:
        """Module, workspace and vendor files the agent added or changed."""
        return [
            f"{relative}: {REFUSED[relative.rsplit('/', 1)[-1]]}"
            for relative in changed
            if relative.rsplit("/", 1)[-1] in REFUSED
        ]
