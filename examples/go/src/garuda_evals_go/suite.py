"""The go suite: a folder suite whose checks may read the shared Go caches."""

from dataclasses import replace
from importlib.resources import files
from pathlib import Path

from garuda_evals.api import FolderSuite, SandboxPolicy, Task
from garuda_evals_go.cache import build_cache, module_cache


class GoSuite(FolderSuite):
    """Shows the shared build and module caches read-only to every command of a task."""

    def policy(self, task: Task, base: SandboxPolicy) -> SandboxPolicy:
        """The folder suite's policy, plus the caches (read-only)."""
        policy = super().policy(task, base)
        caches = (build_cache(), module_cache())
        return replace(policy, read_only=(*policy.read_only, *caches))


def load_go_suite() -> GoSuite:
    """The suite shipped in this package."""
    return GoSuite(Path(str(files("garuda_evals_go") / "suite_data" / "go")))
