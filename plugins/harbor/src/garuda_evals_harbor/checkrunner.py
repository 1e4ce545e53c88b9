"""``harbor-reward``: run a Harbor task's ``tests/test.sh`` and read the reward it writes.

Harbor puts ``tests/`` at ``/tests``, outside the task's folder, runs ``bash /tests/test.sh``
in the working folder and reads ``/logs/verifier/reward.txt`` (else ``reward.json``). Here,
per judge's folder (``held_out``, called with the task before the check):

- the tests go to a folder beside the judge's (``<folder>.tests``, outside the task's folder
  as ``/tests`` is outside ``/app``: a ``pytest.ini`` the agent left cannot configure them),
  written read-only with the container's paths rewritten (``paths``); the suite's policy
  shows that folder read-only to the check;
- ``/logs`` is a fresh folder inside the judge's, named from the run's nonce;
- the Dockerfile's ``ENV`` are exported first.

The verdict (``reward``): every reward is at least the task's ``min_reward`` (1 unless the
import said otherwise) and ``test.sh`` exited 0; a missing or unreadable reward file is no
evidence, a FAIL. JUnit XML that ``test.sh`` writes beside the reward adds its tests to the
evidence (each must pass) when the task needs the full reward.
"""

from __future__ import annotations

import hashlib
import json
import re
import shlex
import stat
import threading
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from garuda_evals.api import (
    EVIDENCE_DIR,
    CheckPlan,
    CheckRunner,
    CommandResult,
    HeldOutRun,
    Task,
    TestCase,
    TestEvidence,
    check_environment,
    remove_tree,
)
from garuda_evals_harbor.paths import rewrite
from garuda_evals_harbor.reward import read_evidence

TESTS_PLACEHOLDER = "{tests}"
STARTUP_MODULES = frozenset({"sitecustomize", "usercustomize"})
RUNNER_MODULES = frozenset({"pytest", "_pytest", "pluggy", "iniconfig", "py", "unittest"})
VARIABLE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)")


def tests_folder(workspace: Path) -> Path:
    """Where the tests of the judge's folder ``workspace`` go: beside it, outside it."""
    return workspace.parent / f"{workspace.name}.tests"


@dataclass(frozen=True)
class _Run:
    tests: Path
    logs: Path
    exports: str
    min_reward: float
    digests: dict[str, str]


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def expand(value: str, env: dict[str, str]) -> str:
    return VARIABLE.sub(lambda m: env.get(m.group(1) or m.group(2), ""), value)


def exports(task: Task, workspace: Path, mapping: dict[str, str]) -> str:
    """``export NAME=value; ...`` for the Dockerfile's ENV (container paths rewritten,
    ``$VAR`` taken from the check's environment as Docker takes it from the image's)."""
    declared: dict[str, str] = json.loads(task.metadata.get("env", "{}"))
    env = check_environment()
    parts = []
    for name, value in declared.items():
        env[name] = rewrite(expand(value, env), mapping)
        parts.append(f"export {name}={shlex.quote(env[name])}; ")
    return "".join(parts)


def container_paths(task: Task, workspace: Path, tests: Path, logs: Path) -> dict[str, str]:
    """Container path -> this run's folder."""
    return {
        task.metadata.get("workdir", "/app"): str(workspace),
        "/tests": str(tests),
        "/logs": str(logs),
    }


def _renamed(case: TestCase, tests: Path) -> TestCase:
    """A JUnit id with this run's tests folder named ``tests``, as the container names it
    (pytest's class names hold the folder's path from its root folder)."""
    if tests.name not in case.id:
        return case
    return replace(case, id="junit tests" + case.id.split(tests.name, 1)[1])


class RewardCheckRunner(CheckRunner):
    """Harbor's verifier: ``bash tests/test.sh`` and its reward file."""

    name = "harbor-reward"

    def __init__(self) -> None:
        self._runs: dict[Path, _Run] = {}
        self._lock = threading.Lock()

    def held_out(self, task: Task, workspace: Path, nonce: str) -> HeldOutRun | None:
        """Write ``tests/`` beside the judge's folder (paths rewritten, read-only); the
        judge writes nothing itself (the tests keep their names: no canaries)."""
        if task.held_out is None:
            return None
        tests = tests_folder(workspace)
        logs = workspace / EVIDENCE_DIR / f"logs-{hashlib.sha256(nonce.encode()).hexdigest()[:16]}"
        mapping = container_paths(task, workspace, tests, logs)
        digests: dict[str, str] = {}
        for relative, text in task.held_out.tests.items():
            target = tests / relative.removeprefix("tests/")
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(rewrite(text, mapping), encoding="utf-8")
            target.chmod(stat.S_IMODE(target.stat().st_mode) & ~0o222)
            digests[str(target)] = _digest(target)
        run = _Run(
            tests=tests,
            logs=logs,
            exports=exports(task, workspace, mapping),
            min_reward=float(task.metadata.get("min_reward", "1")),
            digests=digests,
        )
        with self._lock:
            self._runs[workspace] = run
        return HeldOutRun(files={}, must_pass={}, must_fail={})

    def _run(self, workspace: Path) -> _Run:
        with self._lock:
            run = self._runs.get(workspace)
        if run is None:
            raise ValueError(f"harbor-reward: no tests were written for {workspace}")
        return run

    def plan(self, command: str, workspace: Path) -> CheckPlan:
        """The ENV exports, fresh ``/logs/verifier`` and ``/logs/agent``, then the command
        with ``{tests}`` the tests' folder."""
        run = self._run(workspace)
        for folder in ("verifier", "agent"):
            (run.logs / folder).mkdir(parents=True)
        text = command.replace(TESTS_PLACEHOLDER, shlex.quote(str(run.tests)))
        return CheckPlan(f"{run.exports}{text}", (run.logs / "verifier",), ())

    def evidence(self, plan: CheckPlan, workspace: Path, result: CommandResult) -> TestEvidence:
        """The reward (``reward.read_evidence``), unless a test file changed during the check."""
        run = self._run(workspace)
        changed = [
            Path(path).name
            for path, digest in run.digests.items()
            if not Path(path).is_file() or _digest(Path(path)) != digest
        ]
        if changed:
            return TestEvidence(
                tests_ran=None,
                detail=f"the verifier's files changed during the check: {', '.join(changed)}",
            )
        evidence = read_evidence(plan.evidence_paths[0], run.min_reward)
        return replace(evidence, cases=tuple(_renamed(case, run.tests) for case in evidence.cases))

    def forget(self, workspace: Path) -> None:
        """Remove the tests' folder and what was kept for ``workspace``."""
        with self._lock:
            self._runs.pop(workspace, None)
        tests = tests_folder(workspace)
        if tests.exists():
            remove_tree(tests)

    def refusals(self, task: Task, workspace: Path, changed: Sequence[str]) -> list[str]:
        """A ``.pth`` or start-up module anywhere; a new top-level module of the working
        folder named like a test runner's (``python -m pytest`` there would import it)."""
        lines: list[str] = []
        for path in changed:
            name = path.rsplit("/", 1)[-1]
            first, _, below = path.partition("/")
            module = first if below else first.removesuffix(".py") if first.endswith(".py") else ""
            if name.endswith(".pth"):
                lines.append(f"{path} is a .pth file, which Python's start-up executes")
            elif name.removesuffix(".py") in STARTUP_MODULES:
                lines.append(f"{path} is a start-up module, which Python imports first")
            elif path not in task.files and module in RUNNER_MODULES:
                lines.append(f"{path} shadows the module {module} in the working folder")
        return lines
