"""``garuda eval -s repo``: the saved repo suite of the current project, run like any suite."""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

from garuda_evals.api import GarudaError, RunSettings, SandboxPolicy, Suite, Task, UsageError
from garuda_evals_repo_git.deps import VENV_NAMES, dependency_folders, link_guard, tracked_files
from garuda_evals_repo_git.gitcmd import commit_exists, git_dir, git_root, head, read_text
from garuda_evals_repo_git.gocache import base_cache, go_env, warm
from garuda_evals_repo_git.pycopies import refuse_package_copies
from garuda_evals_repo_git.pyenv import probe_project, refuse_own_installs
from garuda_evals_repo_git.pyroots import package_roots
from garuda_evals_repo_git.rules import is_test_path
from garuda_evals_repo_git.runners import classify
from garuda_evals_repo_git.suitefile import SUITE_FILE, RepoSuiteFile, RepoTask, load_suite
from garuda_evals_repo_git.tasks import to_task
from garuda_evals_repo_git.workspace import build_workspace

NAME = "repo"


class RepoSuite(Suite):
    """Tasks mined from this project's history; the workspace never sees the future."""

    name = NAME
    description = "tasks mined from this project's git history (garuda eval --from-git)"

    def __init__(self, root: Path, saved: RepoSuiteFile) -> None:
        self.root = root
        self.saved = saved
        self._by_id: dict[str, RepoTask] = {t.id: t for t in saved.tasks}
        self._tasks: list[Task] | None = None
        self._linked: dict[str, tuple[Path, ...]] = {}
        self._head = head(root)
        self._tracked = tracked_files(root, self._head)
        self._dependencies = dependency_folders(root, self._tracked)
        self._roots = package_roots(self._tracked, lambda path: read_text(root, self._head, path))
        # Go: the module cache (read-only) and garuda's warm build cache, see gocache.py.
        self._go: tuple[Path, ...] = ()
        if "go.mod" in self._tracked:
            modcache = go_env("GOMODCACHE")
            self._go = tuple(Path(p) for p in (modcache, str(base_cache())) if p)

    def tasks(self) -> list[Task]:
        """Every saved task; a commit that no longer exists is an error naming the task.

        A regular install of the project where its tests run (HEAD's code, the answer to
        every task), or any other copy of its modules there, is refused here too: it may
        have been made after the build.
        """
        if self._tasks is None:
            self._refuse_own_installs()
            for saved in self.saved.tasks:
                if not commit_exists(self.root, saved.commit) or not commit_exists(
                    self.root, saved.parent
                ):
                    raise GarudaError(
                        f"task {saved.id}: commit {saved.commit[:12]} is not in {self.root} any more "
                        "(build the suite again with garuda eval --from-git)"
                    )
            guard = link_guard(self.root, self._dependencies)
            self._tasks = [
                to_task(self.root, saved, NAME, guard, self._tree_tests(saved.parent))
                for saved in self.saved.tasks
            ]
        return self._tasks

    def _tree_tests(self, sha: str) -> list[str]:
        """The test files of the tree of ``sha`` (see ``rules.is_test_path``)."""
        return [path for path in tracked_files(self.root, sha) if is_test_path(path)]

    def _refuse_own_installs(self) -> None:
        venvs = [d for d in self._dependencies if d in VENV_NAMES]
        package_json = read_text(self.root, self._head, "package.json")
        command = classify(self.saved.test_command, package_json)
        probed = probe_project(self.root, self._head, command, self._tracked, venvs)
        refuse_own_installs(self.root, probed, venvs, "run the suite again")
        refuse_package_copies(
            self.root, command, self._tracked, self._roots, venvs, "run the suite again"
        )

    def materialize(self, task: Task, workspace: Path) -> None:
        """A fresh repository with the parent's tree in one commit, plus the task's test files."""
        linked = build_workspace(self.root, self._by_id[task.id], workspace, self._dependencies)
        self._linked[task.id] = tuple(linked)
        if self._go and task.check.runner == "repo-go-test":
            warm(workspace, base_cache(), go_env("GOMODCACHE"))

    def policy(self, task: Task, base: SandboxPolicy) -> SandboxPolicy:
        """Hide the user's checkout and git folder; keep the linked dependency folders (and Go's
        module cache and garuda's warm build cache) readable."""
        hidden = {self.root, git_dir(self.root)}
        readable = self._linked.get(task.id) or tuple(
            (self.root / d).resolve() for d in self._dependencies
        )
        return replace(
            base,
            hidden=tuple(dict.fromkeys([*base.hidden, *sorted(hidden)])),
            read_only=tuple(dict.fromkeys([*base.read_only, *readable, *self._go])),
        )

    def environment(self, task: Task, workspace: Path) -> dict[str, str]:
        """``PYTHONPATH``: the task folder's package roots, before any install of the project."""
        if not self._roots:
            return {}
        return {"PYTHONPATH": os.pathsep.join(str(workspace / root) for root in self._roots)}

    def check_settings(self, settings: RunSettings) -> None:
        """``--format on`` would format the whole project: refused."""
        if settings.option("format") == "on":
            raise UsageError(
                "the repo suite does not take --format on (it would format the whole project)"
            )


def load_repo_suite(cwd: Path | None = None) -> RepoSuite:
    """The saved suite of the project that holds ``cwd``; its git root replaces the saved root."""
    root = git_root(cwd or Path.cwd())
    path = root / SUITE_FILE
    if not path.is_file():
        raise UsageError(f"no repo suite in {root}: build one with garuda eval --from-git")
    saved = load_suite(path)
    saved = saved.model_copy(update={"root": str(root)})
    return RepoSuite(root, saved)
