"""The ``garuda`` command as a user runs it: exit codes, one-line errors, plugins, Ctrl-C."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from garuda_evals.testing import processes_matching, sleep_marker, wait_for_processes

GARUDA = [sys.executable, "-c", "from garuda_evals.cli.main import entry; entry()"]


def garuda(
    *args: str, cwd: Path, env: dict[str, str] | None = None, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*GARUDA, *args],
        cwd=cwd,
        env={**os.environ, **(env or {})},
        capture_output=True,
        text=True,
        timeout=timeout,
    )


@pytest.fixture
def project(tmp_path: Path) -> Path:
    folder = tmp_path / "project"
    (folder / ".git").mkdir(parents=True)
    return folder


def test_help_and_version(project: Path) -> None:
    result = garuda("--help", cwd=project)
    assert result.returncode == 0 and "eval" in result.stdout and "plugins" in result.stdout
    assert garuda("--version", cwd=project).stdout.startswith("garuda, version ")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["eval", "--agent", "oracle", "-s", "no-such-suite"], "-s no-such-suite: unknown suite"),
        (["eval", "--agent", "nobody", "-s", "x"], "unknown agent 'nobody'"),
        (["eval", "--executor", "bogus"], "'bogus' is not one of 'auto', 'os', 'host'"),
        (["eval", "--repeat", "0"], "--repeat"),
        (
            ["eval", "--agent", "oracle", "--report-format", "yaml", "-s", "MINI"],
            "--report-format yaml: unknown",
        ),
        (["eval", "--prepare", "cobol"], "--prepare cobol: unknown toolchain"),
        (["eval", "--agent", "oracle", "-s", ""], "garuda: error: -s '': names no suite; "),
        (["eval", "--agent", "oracle", "-s", "MINI", "-t", ","], "error: -t ,: names no task;"),
        (
            ["eval", "--agent", "oracle", "--backend", "dask", "-s", "MINI"],
            "--backend dask: unknown; choose one of: local",
        ),
    ],
)
def test_bad_input_is_one_line_and_exit_1(
    project: Path, mini_suite: Path, args: list[str], message: str
) -> None:
    args = [str(mini_suite) if a == "MINI" else a for a in args]
    result = garuda(*args, cwd=project)
    assert result.returncode == 1, result.stderr
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert message in lines[-1]
    assert "Traceback" not in result.stderr


def test_broken_task_file_names_file_and_field(project: Path, mini_suite: Path) -> None:
    (mini_suite / "greet" / "task.toml").write_text('title = "t"\n')
    result = garuda("eval", "--agent", "oracle", "-s", str(mini_suite), cwd=project)
    assert result.returncode == 1
    assert result.stderr.strip() == (
        f"garuda: error: {mini_suite / 'greet' / 'task.toml'}: field 'prompt': Field required"
    )


def test_oracle_and_noop_exit_codes_through_the_cli(project: Path, mini_suite: Path) -> None:
    passed = garuda(
        "eval", "--agent", "oracle", "-s", str(mini_suite), "--executor", "host", cwd=project
    )
    assert passed.returncode == 0, passed.stderr
    assert "mini/add    PASS" in passed.stdout
    assert "[mini/add] tool: applied reference solution (1 file)\n" in passed.stderr
    failed = garuda(
        "eval", "--agent", "noop", "-s", str(mini_suite), "--executor", "host", cwd=project
    )
    assert failed.returncode == 2
    assert failed.stdout.count("FAIL") >= 2
    assert "0/2 scored runs passed (0%)" in failed.stdout


SUSPICIOUS_FIX = "printf 'import atexit\\n\\ndef add(a, b):\\n    return a + b\\n' > src/calc.py"


def test_a_pass_the_lint_marks_is_shown_apart_and_fails_under_strict(
    project: Path, mini_suite: Path
) -> None:
    """The fix passes; its ``import atexit`` makes the lint mark it: ``PASS?`` in the table,
    counted in the rates line and report.json, and a FAIL under ``--strict``."""
    base = ["eval", "--agent", "command", "--agent-command", SUSPICIOUS_FIX, "-s", str(mini_suite)]
    base += ["-t", "add", "--executor", "host"]
    lenient = garuda(*base, cwd=project)
    assert lenient.returncode == 0, lenient.stderr
    assert "mini/add  PASS?" in lenient.stdout
    assert "1/1 scored runs passed (100%)" in lenient.stdout
    assert "1 of the passes PASS? (read the change: see suspicious)" in lenient.stdout
    strict = garuda(*base, "--strict", cwd=project)
    assert strict.returncode == 2, strict.stderr
    reports = sorted(project.glob(".garuda/evals/*/report.json"))
    first, second = (json.loads(path.read_text()) for path in reports)
    if first["settings"]["strict"]:
        first, second = second, first
    assert first["results"][0]["status"] == "PASS"
    assert first["summary"]["suspiciousPasses"] == 1
    row = second["results"][0]
    assert row["status"] == "FAIL"
    assert row["failure"] == "suspicious under --strict: src/calc.py:1: registers an exit handler"
    assert second["summary"]["passed"] == 0 and second["summary"]["suspiciousPasses"] == 0
    regraded = garuda("regrade", second["runId"], cwd=project)
    assert regraded.returncode == 0, regraded.stderr
    again = [json.loads(p.read_text()) for p in project.glob(".garuda/evals/*/report.json")]
    (row,) = [r["results"][0] for r in again if r.get("regradeOf") == second["runId"]]
    assert row["status"] == "FAIL" and row["failure"].startswith("suspicious under --strict")


def test_json_report_format_on_stdout(project: Path, mini_suite: Path) -> None:
    result = garuda(
        "eval", "--agent", "oracle", "-s", str(mini_suite), "--report-format", "json", cwd=project
    )
    assert result.returncode == 0
    assert json.loads(result.stdout)["summary"]["passed"] == 2


def test_ctrl_c_kills_children_and_writes_partial_report(
    project: Path, mini_suite: Path, tmp_path: Path
) -> None:
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    marker = sleep_marker(31)
    command = f'case "$GARUDA_TASK_ID" in add) sed -i "s/a - b/a + b/" src/calc.py;; *) sleep {marker};; esac'
    process = subprocess.Popen(
        [
            *GARUDA,
            "eval",
            "--agent",
            "command",
            "--agent-command",
            command,
            "-s",
            str(mini_suite),
            "--executor",
            "host",
        ],
        cwd=project,
        env={**os.environ, "TMPDIR": str(scratch)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    wait_for_processes(f"^sleep {marker}$", limit_s=60, started=process)
    process.send_signal(signal.SIGINT)
    stdout, stderr = process.communicate(timeout=60)
    assert process.returncode == 130, stderr
    report_file = next((project / ".garuda" / "evals").glob("*/report.json"))
    report = json.loads(report_file.read_text())
    assert report["interrupted"] is True
    assert [(r["task"], r["status"]) for r in report["results"]] == [
        ("add", "PASS"),
        ("greet", "INT"),
    ]
    # the command agent reports no usage: its interrupted run is unknown, never a known zero
    interrupted = report["results"][1]
    assert interrupted["steps"] is None
    assert not interrupted["usage"]["tokensKnown"] and interrupted["usage"]["costIncomplete"]
    summary = report["summary"]
    assert (summary["attempted"], summary["interrupted"], summary["totalsIncomplete"]) == (
        1,
        1,
        True,
    )
    assert summary["tokens"] is None and summary["costIncomplete"]
    assert "tok ?" in stdout and "≥ $0.000 (incomplete)" in stdout
    assert "interrupted: this report is partial" in stdout
    assert "totals incomplete: 1 run(s) interrupted" in stdout
    assert processes_matching(f"^sleep {marker}$") == []
    assert not [p for p in scratch.iterdir() if p.name.startswith("garuda-")]


BROKEN_PLUGIN = "raise ImportError('this plugin is broken on purpose')\n"
GHOST_PLUGIN = """
from garuda_evals.hookspecs import hookimpl
from garuda_evals.records import SuiteRecord, ToolchainRecord
from garuda_evals.toolchains.base import Toolchain


def ghost():
    return Toolchain(
        name="ghost",
        description="a toolchain this machine lacks",
        hint="install ghost 3 (apt-get install ghost)",
        probe_files={"probe.txt": "x"},
        probe_command="echo 'ghost: command not found'; exit 127",
    )


@hookimpl
def garuda_toolchains():
    yield ToolchainRecord(name="ghost", description="ghost", load=ghost)


@hookimpl
def garuda_suites():
    yield SuiteRecord(name="mini", description="clash", load=lambda: None)
"""
CLASH_PLUGIN = """
from garuda_evals.hookspecs import hookimpl
from garuda_evals.records import SuiteRecord


@hookimpl
def garuda_suites():
    yield SuiteRecord(name="mini", description="clash", load=lambda: None)
"""


def test_broken_plugin_is_skipped_with_one_warning(project: Path, fake_dist) -> None:
    site = fake_dist(
        "garuda-evals-broken",
        {"garuda_evals": {"broken": "broken_plugin"}},
        {"broken_plugin.py": BROKEN_PLUGIN},
    )
    result = garuda("plugins", cwd=project, env={"PYTHONPATH": str(site)})
    assert result.returncode == 0
    warnings = [line for line in result.stderr.splitlines() if "broken" in line]
    assert len(warnings) == 1
    assert "garuda-evals-broken 0.9 failed to import" in warnings[0]


def test_missing_toolchain_stops_before_any_agent_call(
    project: Path, mini_suite: Path, fake_dist
) -> None:
    site = fake_dist(
        "garuda-evals-ghost",
        {"garuda_evals": {"ghost": "ghost_plugin"}},
        {
            "ghost_plugin.py": GHOST_PLUGIN.replace(
                'yield SuiteRecord(name="mini", description="clash", load=lambda: None)',
                "return []",
            )
        },
    )
    manifest = mini_suite / "suite.toml"
    manifest.write_text(
        manifest.read_text().replace(
            'protected = ["tests/"]', 'protected = ["tests/"]\nrequires = ["ghost"]'
        )
    )
    marker = project / "agent-ran"
    result = garuda(
        "eval",
        "--agent",
        "command",
        "--agent-command",
        f"touch {marker}",
        "-s",
        str(mini_suite),
        cwd=project,
        env={"PYTHONPATH": str(site)},
    )
    assert result.returncode == 1
    assert "toolchain ghost is not ready: install ghost 3" in result.stderr
    assert "ghost: command not found" in result.stderr
    assert not marker.exists()
    assert not (project / ".garuda").exists()


def test_name_clash_names_both_distributions(project: Path, fake_dist) -> None:
    fake_dist(
        "garuda-evals-ghost",
        {"garuda_evals": {"ghost": "ghost_plugin"}},
        {"ghost_plugin.py": GHOST_PLUGIN},
    )
    site = fake_dist(
        "garuda-evals-clash",
        {"garuda_evals": {"clash": "clash_plugin"}},
        {"clash_plugin.py": CLASH_PLUGIN},
    )
    result = garuda("eval", "--list", cwd=project, env={"PYTHONPATH": str(site)})
    assert result.returncode == 1
    assert "garuda-evals-clash" in result.stderr and "garuda-evals-ghost" in result.stderr
    assert "'mini'" in result.stderr


def test_compare_two_runs_shows_the_differing_flag(project: Path, mini_suite: Path) -> None:
    for agent in ("oracle", "noop"):
        garuda("eval", "--agent", agent, "-s", str(mini_suite), "--executor", "host", cwd=project)
    by_agent = {
        json.loads(path.read_text())["settings"]["agent"]: path
        for path in (project / ".garuda" / "evals").glob("*/report.json")
    }
    result = garuda("compare", str(by_agent["oracle"].parent), str(by_agent["noop"]), cwd=project)
    assert result.returncode == 0, result.stderr
    assert "agent: oracle -> noop" in result.stdout
    assert "mini/add" in result.stdout and "1/1" in result.stdout and "0/1" in result.stdout


def test_compare_refuses_a_foreign_file(project: Path) -> None:
    foreign = project / "report.json"
    foreign.write_text('{"schemaVersion": 7}')
    result = garuda("compare", str(foreign), str(foreign), cwd=project)
    assert result.returncode == 1
    assert (
        result.stderr.strip()
        == f"garuda: error: {foreign}: field 'schemaVersion': expected 1, got 7 (written by a "
        "newer garuda-evals: upgrade it to read this file)"
    )
