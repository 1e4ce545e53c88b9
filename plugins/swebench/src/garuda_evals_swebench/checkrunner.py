"""The check runners of imported SWE-bench tasks: ``swe-pytest``, ``swe-django``, ``swe-sympy``.

Each writes the instance's test patch where its paths say (over the shipped test files), reads
the run's JUnit report as SWE-bench grades it (``evidence``: the listed tests only, mapped by
the instance's id style) and refuses agent files that would change how Python starts.
The listed tests of a workspace are kept from ``held_out`` (called before the check, with
the task) until ``forget``.
"""

from __future__ import annotations

import json
import secrets
import shlex
import subprocess
import sys
import threading
from collections.abc import Sequence
from pathlib import Path

from garuda_evals.api import (
    EVIDENCE_DIR,
    CheckPlan,
    CommandResult,
    HeldOutRun,
    JUnitCheckRunner,
    Task,
    TestEvidence,
)
from garuda_evals_swebench.evidence import graded_evidence
from garuda_evals_swebench.ids import STYLES

HOOK = "{hook}"
RUNNER_MODULES = frozenset({"pytest", "_pytest", "pluggy", "iniconfig", "py", "xdist"})
STARTUP_MODULES = frozenset({"sitecustomize", "usercustomize"})
FINISHED = "test $? -le 1"
"""How the check ends: pytest's (and the Django hook's) exit 1, some test failed, is not the
verdict, the listed tests' outcomes are; a crash (2 and up) stays a failure."""


def graded_ids(task: Task) -> list[str]:
    """``FAIL_TO_PASS`` then ``PASS_TO_PASS`` of the task (kept in its metadata)."""
    ids: list[str] = []
    for key in ("fail_to_pass", "pass_to_pass"):
        ids += json.loads(task.metadata.get(key, "[]"))
    return ids


def hook_source() -> str:
    """The Django result hook's source (``django_hook.py``)."""
    return (Path(__file__).parent / "django_hook.py").read_text(encoding="utf-8")


class SweCheckRunner(JUnitCheckRunner):
    """A SWE-bench id style's runner over JUnit (pytest's own, or the Django hook's)."""

    def __init__(self, style: str) -> None:
        super().__init__(f"swe-{style}")
        self.style = STYLES[style]
        self._graded: dict[Path, list[str]] = {}
        self._lock = threading.Lock()

    def held_out(self, task: Task, workspace: Path, nonce: str) -> HeldOutRun | None:
        """The test patch's files at their own paths; no canaries (the ids are fixed)."""
        if task.held_out is None:
            return None
        with self._lock:
            self._graded[workspace] = graded_ids(task)
        return HeldOutRun(files=dict(task.held_out.tests), must_pass={}, must_fail={})

    def plan(self, command: str, workspace: Path) -> CheckPlan:
        """``{junit}`` as JUnit runners fill it, ``{hook}`` a read-only copy of the Django
        hook beside the report; the runner's exit 1 is not the verdict (``FINISHED``)."""
        plan = super().plan(command, workspace)
        text, locked = plan.command, plan.locked
        if HOOK in text:
            hook = workspace / EVIDENCE_DIR / f"{secrets.token_hex(8)}.py"
            hook.write_text(hook_source(), encoding="utf-8")
            text, locked = text.replace(HOOK, shlex.quote(str(hook))), (*locked, hook)
        return CheckPlan(f"( {text} ); {FINISHED}", plan.evidence_paths, locked)

    def evidence(self, plan: CheckPlan, workspace: Path, result: CommandResult) -> TestEvidence:
        """One case per listed test the report names (see ``evidence.graded_evidence``)."""
        with self._lock:
            graded = self._graded.get(workspace)
        return graded_evidence(plan.evidence_paths, self.style, graded)

    def forget(self, workspace: Path) -> None:
        """Drop the listed tests kept for ``workspace``."""
        with self._lock:
            self._graded.pop(workspace, None)

    def refusals(self, task: Task, workspace: Path, changed: Sequence[str]) -> list[str]:
        """A ``.pth`` or start-up module anywhere; a new module at an import root that
        stands in for the standard library's or the test runner's."""
        roots = json.loads(task.metadata.get("pythonpath", '["."]'))
        lines: list[str] = []
        shadowing: dict[str, str] = {}
        for path in changed:
            name = path.rsplit("/", 1)[-1]
            if name.endswith(".pth"):
                lines.append(f"{path} is a .pth file, which Python's start-up executes")
                continue
            if name.removesuffix(".py") in STARTUP_MODULES:
                lines.append(f"{path} is a start-up module, which Python imports first")
                continue
            top = _top_module(path, roots)
            if top is not None:
                shadowing[path] = top
        shipped = _shipped(workspace, set(shadowing.values()))
        for path, top in shadowing.items():
            if top not in shipped:
                name = top.rsplit("/", 1)[-1].removesuffix(".py")
                lines.append(f"{path} shadows the module {name} on an import root")
        return lines


def _top_module(path: str, roots: list[str]) -> str | None:
    """``root/name`` when ``path`` is a new top-level module named like a standard-library
    or test-runner module under one of ``roots``."""
    for root in roots:
        prefix = "" if root in ("", ".") else root.strip("/") + "/"
        if not path.startswith(prefix):
            continue
        first, _, below = path[len(prefix) :].partition("/")
        name = first if below else (first[:-3] if first.endswith(".py") else "")
        if name and (name in sys.stdlib_module_names or name in RUNNER_MODULES):
            return prefix + first
    return None


def _shipped(workspace: Path, paths: set[str]) -> set[str]:
    """Which of ``paths`` the task's starting commit holds (the judge's copy's own git)."""
    if not paths:
        return set()
    done = subprocess.run(
        ["git", "-C", str(workspace), "ls-tree", "--name-only", "HEAD", "--", *sorted(paths)],
        capture_output=True,
        text=True,
        check=False,
    )
    return set(done.stdout.splitlines()) if done.returncode == 0 else set()
