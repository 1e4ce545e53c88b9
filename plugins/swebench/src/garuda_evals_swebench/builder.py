"""``garuda import swe-bench``: SWE-bench instances into a saved suite, proved as it runs.

Each instance is read, its repository found under ``--repos``, its environment built (once
per repository, version and setup, see ``envcache``), its reference patch and test patch
applied to its base commit (into saved files: the clone is never written to), and the task
is judged as ``garuda suite check`` judges it: as shipped it must FAIL, with the reference
patch PASS. An instance that cannot be a sound task is skipped with its reason, saved with
the suite and never run: it never counts against an agent.

Imports are idempotent: a task saved before with the same instance, environment and check
is kept without being proved again, and so is an instance skipped then for its input or
its check (an environment that failed is built again).
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import Any, TypeVar

import anyio
import click

from garuda_evals.api import (
    FileFormatError,
    GarudaError,
    Suite,
    SuiteBuilder,
    TaskSoundness,
    UsageError,
    check_suite,
    choose_executor,
    get_registry,
)
from garuda_evals_swebench import __version__
from garuda_evals_swebench.envcache import Environment, build_env, default_cache, env_key
from garuda_evals_swebench.gitio import apply_patch, find_clone, full_sha, has_commit
from garuda_evals_swebench.instances import Instance, load_instances
from garuda_evals_swebench.recipe import Resolved, load_recipe
from garuda_evals_swebench.suite import SweSuite
from garuda_evals_swebench.suitefile import (
    SCHEMA_VERSION,
    SUITE_FILE,
    SavedSuite,
    SavedTask,
    Skipped,
    TaskFiles,
    load_saved,
    save_suite,
    save_task_files,
)
from garuda_evals_swebench.tasks import check_command, directives, protected_paths

T = TypeVar("T")
DEFAULT_OUTPUT = "swe-bench-suite"
CACHED_STAGES = ("input", "check")
"""Skips kept from an earlier import of the same instance: its input or its check failed
(deterministic); an environment that failed is built again."""


def _bar(items: list[T], label: str) -> AbstractContextManager[Iterable[T]]:
    """A progress bar on a terminal; elsewhere the items as they are."""
    if sys.stderr.isatty() and len(items) > 1:
        return click.progressbar(items, label=label, file=sys.stderr, show_pos=True)  # type: ignore[return-value]
    return nullcontext(items)


def _proof(task: SavedTask) -> str:
    data = [task.digest, task.env_key, task.command, task.protected, __version__]
    return hashlib.sha256(json.dumps(data).encode()).hexdigest()[:16]


class SweBenchBuilder(SuiteBuilder):
    """Imports SWE-bench instances (``garuda import swe-bench``)."""

    name = "swe-bench"

    def open(self, folder: Path) -> Suite:
        """The suite saved in ``folder``."""
        return SweSuite(folder, load_saved(folder))

    def build(self, options: Mapping[str, Any], *, cwd: Path, echo: Callable[[str], None]) -> int:
        """Import, prove, save; print the kept count and each skipped instance's reason."""
        return _Import(options, cwd, echo).run()


class _Import:
    def __init__(self, options: Mapping[str, Any], cwd: Path, echo: Callable[[str], None]) -> None:
        self.echo = echo
        self.source = (cwd / options["instances"]).resolve()
        self.repos = (cwd / options["repos"]).resolve()
        if not self.repos.is_dir():
            raise UsageError(f"--repos {options['repos']}: not a folder")
        self.output = (cwd / (options.get("output") or DEFAULT_OUTPUT)).resolve()
        self.recipe = load_recipe((cwd / options["env_recipe"]).resolve())
        cache = options.get("env_cache")
        self.cache = (cwd / cache).resolve() if cache else default_cache()
        self.check = not options.get("no_check", False)
        self.parallel = int(options.get("parallel") or 2)
        self.name = options.get("name") or re.sub(r"[^a-z0-9_.-]", "-", self.output.name.lower())
        self.max_tasks = options.get("max_tasks")
        pattern = options.get("filter")
        try:
            self.pattern = re.compile(pattern) if pattern else None
        except re.error as error:
            raise UsageError(f"--filter {pattern}: not a regular expression: {error}") from error
        self.skipped: dict[str, Skipped] = {}

    def skip(self, instance: Instance, reason: str, key: str = "") -> None:
        self.skipped[instance.instance_id] = Skipped(
            id=instance.instance_id,
            repo=instance.repo,
            reason=reason,
            digest=instance.digest(),
            env_key=key,
        )

    def chosen(self) -> list[Instance]:
        instances = load_instances(self.source)
        if self.pattern is not None:
            instances = [i for i in instances if self.pattern.search(i.instance_id)]
        if self.max_tasks is not None:
            instances = instances[: int(self.max_tasks)]
        if not instances:
            raise GarudaError(
                f"{self.source}: no instance to import (after --filter and --max-tasks)"
            )
        return instances

    def previous(self) -> SavedSuite | None:
        if not (self.output / SUITE_FILE).is_file():
            if self.output.exists() and any(self.output.iterdir()):
                raise UsageError(
                    f"-o {self.output}: a folder that holds no {SUITE_FILE}: give a new or empty folder"
                )
            return None
        try:
            return load_saved(self.output)
        except FileFormatError as error:
            self.echo(
                f"note: the saved suite cannot be read ({error}); importing every instance again"
            )
            return None

    def run(self) -> int:
        instances = self.chosen()
        self.echo(f"Importing {len(instances)} instance(s) from {self.source} into {self.output}.")
        previous = self.previous()
        clones = self.find_clones(instances)
        recipes = self.recipes(instances, clones)
        envs = self.environments(instances, clones, recipes)
        tasks = self.make_tasks(instances, clones, recipes, envs, previous)
        suite = SavedSuite(
            schema_version=SCHEMA_VERSION,
            name=self.name,
            source=str(self.source),
            repos={repo: str(path) for repo, path in sorted(clones.items())},
            tasks=tasks,
            skipped=[],
        )
        save_suite(self.output, self._with_skipped(suite, instances))
        if self.check:
            suite = self.prove(suite)
        suite = self._with_skipped(suite, instances)
        path = save_suite(self.output, suite)
        self.summary(suite, path)
        return 0 if suite.tasks else 1

    def _with_skipped(self, suite: SavedSuite, instances: list[Instance]) -> SavedSuite:
        order = {instance.instance_id: n for n, instance in enumerate(instances)}
        skipped = sorted(self.skipped.values(), key=lambda item: order.get(item.id, 0))
        return suite.model_copy(update={"skipped": skipped})

    def find_clones(self, instances: list[Instance]) -> dict[str, Path]:
        clones: dict[str, Path] = {}
        for repo in sorted({instance.repo for instance in instances}):
            found = find_clone(self.repos, repo)
            if found is not None:
                clones[repo] = found
        for instance in instances:
            clone = clones.get(instance.repo)
            if clone is None:
                owner, name = instance.repo.split("/")
                self.skip(
                    instance,
                    f"no clone of {instance.repo} under {self.repos} (as {owner}__{name} or {owner}/{name})",
                )
            elif not has_commit(clone, instance.base_commit):
                self.skip(
                    instance,
                    f"{clone} has no commit {instance.base_commit[:12]} (fetch it)",
                )
        return clones

    def recipes(self, instances: list[Instance], clones: dict[str, Path]) -> dict[str, Resolved]:
        found: dict[str, Resolved] = {}
        for instance in instances:
            if instance.instance_id in self.skipped:
                continue
            repo = self.recipe.repos.get(instance.repo)
            if repo is None:
                self.skip(
                    instance,
                    f"no environment recipe for {instance.repo} in --env-recipe",
                )
                continue
            found[instance.instance_id] = repo.for_version(instance.version)
        return found

    def environments(
        self, instances: list[Instance], clones: dict[str, Path], recipes: dict[str, Resolved]
    ) -> dict[str, Environment]:
        """Each needed environment, built (or found in the cache) once."""
        wanted: dict[str, tuple[Instance, Resolved]] = {}
        for instance in instances:
            recipe = recipes.get(instance.instance_id)
            if recipe is not None and instance.instance_id not in self.skipped:
                wanted.setdefault(
                    env_key(instance.repo, instance.version, recipe), (instance, recipe)
                )
        envs: dict[str, Environment] = {}
        with _bar(sorted(wanted), "environments") as keys:
            for key in keys:
                instance, recipe = wanted[key]
                clone = clones[instance.repo]
                commit = instance.environment_setup_commit or instance.base_commit
                if not has_commit(clone, commit):
                    commit = instance.base_commit
                env = build_env(self.cache, key, clone, full_sha(clone, commit), recipe)
                envs[key] = env
                if env.built_s is not None:
                    self.echo(f"environment {key}: built in {env.built_s:.1f} s")
        for instance in instances:
            recipe = recipes.get(instance.instance_id)
            if recipe is None or instance.instance_id in self.skipped:
                continue
            env = envs[env_key(instance.repo, instance.version, recipe)]
            if env.path is None:
                self.skip(instance, f"no environment ({env.key}): {env.reason}", env.key)
        return envs

    def make_tasks(
        self,
        instances: list[Instance],
        clones: dict[str, Path],
        recipes: dict[str, Resolved],
        envs: dict[str, Environment],
        previous: SavedSuite | None,
    ) -> list[SavedTask]:
        """Each instance's saved task (kept from ``previous`` when nothing changed)."""
        kept = {task.id: task for task in previous.tasks} if previous else {}
        earlier = {item.id: item for item in previous.skipped} if previous else {}
        tasks: list[SavedTask] = []
        todo = [i for i in instances if i.instance_id not in self.skipped]
        with _bar(todo, "instances") as items:
            for instance in items:
                recipe = recipes[instance.instance_id]
                key = env_key(instance.repo, instance.version, recipe)
                env = envs[key]
                assert env.path is not None
                old, gone = kept.get(instance.instance_id), earlier.get(instance.instance_id)
                if old is not None and self._unchanged(old, instance, key) and old.proof:
                    tasks.append(old)
                    continue
                if gone is not None and self._unchanged(gone, instance, key):
                    self.skipped[instance.instance_id] = gone
                    continue
                task = self.make_task(instance, clones[instance.repo], recipe, key, env.path)
                if task is not None:
                    tasks.append(task)
        return tasks

    def _unchanged(self, earlier: SavedTask | Skipped, instance: Instance, key: str) -> bool:
        """Saved before from this same instance and environment: a task whose files are
        there, or a skip for its input or check (an environment is built again)."""
        if earlier.digest != instance.digest() or earlier.env_key != key:
            return False
        if isinstance(earlier, Skipped):
            return _stage(earlier) in CACHED_STAGES
        return (self.output / "tasks" / f"{earlier.id}.json").is_file()

    def make_task(
        self, instance: Instance, clone: Path, recipe: Resolved, key: str, env: Path
    ) -> SavedTask | None:
        base = full_sha(clone, instance.base_commit)
        try:
            solution = apply_patch(clone, base, instance.patch)
        except GarudaError as error:
            self.skip(instance, f"input: the patch does not apply to {base[:12]}: {error}", key)
            return None
        try:
            tests = apply_patch(clone, base, instance.test_patch)
        except GarudaError as error:
            self.skip(
                instance,
                f"input: the test patch does not apply to {base[:12]}: {error}",
                key,
            )
            return None
        binary = solution.binary + tests.binary
        if binary:
            self.skip(
                instance,
                f"input: a patch changes a file that is not UTF-8 text: {binary[0]}",
                key,
            )
            return None
        run = directives(recipe.runner, tests)
        if not run:
            self.skip(
                instance,
                "input: the test patch changes no test file the runner can run",
                key,
            )
            return None
        save_task_files(
            self.output,
            instance.instance_id,
            TaskFiles(solution=solution.files, delete=solution.deleted, tests=tests.files),
        )
        return SavedTask(
            id=instance.instance_id,
            repo=instance.repo,
            base_commit=base,
            version=instance.version,
            digest=instance.digest(),
            env_key=key,
            env=str(env),
            link=recipe.link,
            prompt=instance.problem_statement,
            fail_to_pass=instance.FAIL_TO_PASS,
            pass_to_pass=instance.PASS_TO_PASS,
            runner=f"swe-{recipe.runner}",
            command=check_command(recipe, run),
            timeout_s=recipe.timeout_s,
            protected=protected_paths(instance, solution, tests),
            pythonpath=recipe.pythonpath,
        )

    def prove(self, saved: SavedSuite) -> SavedSuite:
        """Judge each task not proved before as shipped (FAIL) and solved (PASS)."""
        todo = [task for task in saved.tasks if task.proof != _proof(task)]
        if not todo:
            return saved
        backend = choose_executor("auto", get_registry()).backend
        suite = SweSuite(self.output, saved)
        self.echo(f"Checking {len(todo)} task(s) as garuda suite check does ({backend.name}):")
        results: dict[str, TaskSoundness] = {}
        total, done = len(todo), 0

        def show(item: TaskSoundness) -> None:
            nonlocal done
            done += 1
            results[item.task] = item
            state = "sound" if item.sound else f"skipped: {item.problems[0]}"
            self.echo(f"  [{done}/{total}] {item.task}: {state}")

        ids = tuple(task.id for task in todo)
        anyio.run(
            lambda: check_suite(
                suite, backend=backend, repeat=1, parallel=self.parallel, task_ids=ids, on_task=show
            )
        )
        kept: list[SavedTask] = []
        for task in saved.tasks:
            item = results.get(task.id)
            if item is None:
                kept.append(task)
            elif item.sound:
                kept.append(task.model_copy(update={"proof": _proof(task)}))
            else:
                self.skipped[task.id] = Skipped(
                    id=task.id,
                    repo=task.repo,
                    reason=f"check: {item.problems[0]}",
                    digest=task.digest,
                    env_key=task.env_key,
                )
        return saved.model_copy(update={"tasks": kept})

    def summary(self, suite: SavedSuite, path: Path) -> None:
        self.echo(
            f"{len(suite.tasks)} task(s) saved in {path}; {len(suite.skipped)} instance(s) skipped."
        )
        reasons = Counter(_stage(item) for item in suite.skipped)
        if suite.skipped:
            self.echo(
                "Skipped instances are never run and never count against an agent ("
                + ", ".join(f"{count} {stage}" for stage, count in sorted(reasons.items()))
                + "):"
            )
            for item in suite.skipped:
                self.echo(f"  {item.id}: {item.reason}")
        if suite.tasks:
            self.echo(f"Run it: garuda eval -s {path.parent}")


def _stage(item: Skipped) -> str:
    """``input``, ``check`` or ``environment``: the first word of a skip's reason."""
    head = item.reason.split(":", 1)[0]
    return head if head in CACHED_STAGES else "environment"
