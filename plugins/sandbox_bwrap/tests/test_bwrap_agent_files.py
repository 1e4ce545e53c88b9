"""``garuda eval --agent command`` under bwrap: the agent's own files are shown read-only.

The files the command names (``python3 ~/agents/my_agent.py``) and the ``--agent-mount``
paths are readable, nothing of them writable; the home's secrets, the suite's reference
solutions, the project's history and the saved runs stay hidden; a path that would show one
of those is refused before any task, in one line.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from garuda_evals.testing import run_garuda, skip_or_fail
from garuda_evals_sandbox_bwrap import BwrapBackend

MINI = Path(__file__).resolve().parents[3] / "core" / "tests" / "suite_data" / "mini"
FIXED = "def add(a, b):\n    return a + b\n"
AGENT = f"""import pathlib
pathlib.Path("src/calc.py").write_text({FIXED!r})
"""
HELPED = """import pathlib
import helper
pathlib.Path("src/calc.py").write_text(helper.FIXED)
"""
# The agent's attempts, each printed as "name: outcome" into its transcript.
PROBE = """import pathlib, sys
def attempt(name, action):
    try:
        action()
        print(f"{name}: done")
    except OSError as error:
        print(f"{name}: {type(error).__name__}")
attempt("write itself", lambda: open(sys.argv[0], "a").write("# changed\\n"))
for name, path in zip(sys.argv[1::2], sys.argv[2::2]):
    attempt(name, lambda: print(pathlib.Path(path).read_text()))
"""


@dataclass(frozen=True)
class Layout:
    """A home with the agent's files and a key, a suite, and a git project to run from."""

    root: Path
    home: Path
    suite: Path
    project: Path
    key: str

    def eval(self, command: str, *flags: str) -> subprocess.CompletedProcess[str]:
        """``garuda eval`` of the suite's task ``add`` with ``--agent-command command``."""
        env = {k: v for k, v in os.environ.items() if not k.startswith(("GARUDA_", "ANTHROPIC_"))}
        env["HOME"] = str(self.home)
        return run_garuda(
            "eval", "-s", str(self.suite), "-t", "add", "--executor", "os",
            "--agent", "command", "--agent-command", command, *flags,
            cwd=self.project, env=env, timeout=300,
        )  # fmt: skip

    def report(self) -> dict[str, object]:
        """The newest report.json of the project."""
        newest = sorted(self.project.glob(".garuda/evals/*/report.json"))[-1]
        report: dict[str, object] = json.loads(newest.read_text())
        return report

    def transcript(self) -> str:
        """The agent's transcript of the newest run."""
        return sorted(self.project.glob(".garuda/evals/*/add.jsonl"))[-1].read_text()


@pytest.fixture
def layout() -> Iterator[Layout]:
    if shutil.which("bwrap") is None:
        skip_or_fail("bwrap", "install bubblewrap (apt-get install bubblewrap)")
    if not BwrapBackend().availability().ok:
        skip_or_fail("bwrap", BwrapBackend().availability().reason)
    # /var/tmp, not /tmp: the sandbox has a /tmp of its own, which would hide all for free.
    root = Path(tempfile.mkdtemp(prefix="garuda-agent-files-", dir="/var/tmp"))
    home, project = root / "home", root / "project"
    key = secrets.token_hex(8)
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "id_ed25519").write_text(f"KEY-{key}\n")
    agents = home / "agents"
    (agents / "pkg").mkdir(parents=True)
    (agents / "my_agent.py").write_text(AGENT)
    (agents / "run.sh").write_text(f"#!/bin/sh\ncat > src/calc.py <<'EOF'\n{FIXED}EOF\n")
    (agents / "run.sh").chmod(0o755)
    (agents / "probe.py").write_text(PROBE + AGENT)
    (agents / "pkg" / "main.py").write_text(HELPED)
    (agents / "pkg" / "helper.py").write_text(f"FIXED = {FIXED!r}\n")
    suite = root / "suites" / "mini"
    shutil.copytree(MINI, suite)
    with (suite / "add" / "solution" / "src" / "calc.py").open("a") as solution:
        solution.write("# SOLUTION-MARK\n")
    project.mkdir()
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    (project / "tools").mkdir()
    (project / "tools" / "helper.py").write_text(f"FIXED = {FIXED!r}\n")
    try:
        yield Layout(root=root, home=home, suite=suite, project=project, key=key)
    finally:
        shutil.rmtree(root, ignore_errors=True)


def _passed(done: subprocess.CompletedProcess[str]) -> None:
    assert done.returncode == 0, done.stdout + done.stderr
    assert "executor: bwrap" in done.stderr


def test_a_script_the_command_names_in_the_home_runs(layout: Layout) -> None:
    _passed(layout.eval("python3 ~/agents/my_agent.py"))


@pytest.mark.parametrize("absolute", [True, False])
def test_a_script_the_command_starts_with_runs(layout: Layout, absolute: bool) -> None:
    _passed(layout.eval(str(layout.home / "agents" / "run.sh") if absolute else "~/agents/run.sh"))


def test_a_first_line_that_is_a_comment_is_what_bash_makes_of_it(layout: Layout) -> None:
    _passed(layout.eval("# my agent\npython3 ~/agents/my_agent.py  # it fixes add"))


def test_a_folder_is_shown_only_with_agent_mount(layout: Layout) -> None:
    without = layout.eval("python3 ~/agents/pkg/main.py")
    assert without.returncode == 2, without.stderr
    assert "ModuleNotFoundError: No module named 'helper'" in layout.transcript()
    _passed(layout.eval("python3 ~/agents/pkg/main.py", "--agent-mount", "~/agents/pkg"))
    assert layout.report()["settings"]["agentMounts"] == [str(layout.home / "agents" / "pkg")]  # type: ignore[index]


def test_the_agents_files_are_read_only_and_nothing_else_opens(layout: Layout) -> None:
    solution = layout.suite / "add" / "solution" / "src" / "calc.py"
    runs = layout.project / ".garuda"
    runs.mkdir()
    (runs / "old-run.jsonl").write_text("an earlier transcript\n")
    attempts = {
        "home key": layout.home / ".ssh" / "id_ed25519",
        "solution": solution,
        "git": layout.project / ".git" / "HEAD",
        "saved run": runs / "old-run.jsonl",
        "tool": layout.project / "tools" / "helper.py",
    }
    # Named through a variable, so the preflight's refusal of the solution is not what stops it.
    reads = " ".join(f'"{name}" "$(printf %s {path})"' for name, path in attempts.items())
    before = (layout.home / "agents" / "probe.py").read_text()
    _passed(
        layout.eval(
            f"python3 ~/agents/probe.py {reads}", "--agent-mount", str(layout.project / "tools")
        )
    )
    transcript = layout.transcript()
    assert "write itself: OSError" in transcript
    assert (layout.home / "agents" / "probe.py").read_text() == before
    for name in ("home key", "solution", "git", "saved run"):
        assert f"{name}: FileNotFoundError" in transcript, name
    assert "tool: done" in transcript
    assert layout.key not in transcript
    assert "SOLUTION-MARK" not in transcript


@pytest.mark.parametrize(
    ("case", "reason"),
    [
        ("mount holding the suite", "holds {suite}, which the suite hides from the agent"),
        ("mount inside the suite", "lies inside {suite}, which the suite hides from the agent"),
        ("named solution", "lies inside {suite}, which the suite hides from the agent"),
        ("link to the solution", "lies inside {suite}, which the suite hides from the agent"),
        ("mount of the project", "holds the project {project}, whose history"),
        ("mount inside .git", "lies inside {project}/.git, the project's history"),
        ("mount of the run store", "lies inside {project}/.garuda, the project's history"),
    ],
)
def test_a_path_that_would_show_what_the_sandbox_hides_is_refused(
    layout: Layout, case: str, reason: str
) -> None:
    solution = layout.suite / "add" / "solution" / "src" / "calc.py"
    (layout.home / "agents" / "sol.py").symlink_to(solution)
    (layout.project / ".garuda").mkdir()
    agent = "python3 ~/agents/my_agent.py"
    flags = {
        "mount holding the suite": (agent, "--agent-mount", str(layout.suite.parent)),
        "mount inside the suite": (agent, "--agent-mount", str(solution.parent)),
        "named solution": (f"{agent} {solution}",),
        "link to the solution": (f"{agent} ~/agents/sol.py",),
        "mount of the project": (agent, "--agent-mount", str(layout.project)),
        "mount inside .git": (agent, "--agent-mount", str(layout.project / ".git" / "hooks")),
        "mount of the run store": (agent, "--agent-mount", str(layout.project / ".garuda")),
    }[case]
    done = layout.eval(*flags)
    assert done.returncode == 1, done.stdout + done.stderr
    error = done.stderr.strip().splitlines()[-1]
    assert error.startswith("garuda: error: preflight: the agent's path "), error
    expected = reason.format(suite=layout.suite.resolve(), project=layout.project.resolve())
    assert expected in error, error
    assert error.endswith("; no task was run")
    assert not list(layout.project.glob(".garuda/evals/*/report.json"))


def test_a_mount_of_the_home_is_refused(layout: Layout) -> None:
    done = layout.eval("python3 ~/agents/my_agent.py", "--agent-mount", str(layout.home))
    assert done.returncode == 1
    assert done.stderr.strip() == (
        f"garuda: error: --agent-mount {layout.home}: holds the home folder "
        f"{layout.home.resolve()}, which the sandbox keeps hidden (keys, tokens): mount the "
        "folders inside it the agent needs"
    )


def test_an_ab_arm_that_would_show_the_solution_is_refused(layout: Layout) -> None:
    solution = layout.suite / "add" / "solution" / "src" / "calc.py"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GARUDA_", "ANTHROPIC_"))}
    done = run_garuda(
        "ab", "--arm-a", f"--agent command --agent-command 'cat {solution}'",
        "--arm-b", "--agent noop", "-s", str(layout.suite), "--executor", "os",
        cwd=layout.project, env={**env, "HOME": str(layout.home)}, timeout=300,
    )  # fmt: skip
    assert done.returncode == 1, done.stdout + done.stderr
    assert done.stderr.strip().splitlines()[-1] == (
        f"garuda: error: preflight: the agent's path {solution.resolve()} (named in "
        f"--agent-command or --agent-mount) lies inside {layout.suite.resolve()}, which the "
        "suite hides from the agent (its solutions): keep the agent's files apart from it; no "
        "task was run"
    )
    assert not list(layout.project.glob(".garuda/evals/*"))
