"""Mutation testing of the trust-critical modules with cosmic-ray: ``make mutate``.

Each module is mutated in place, one mutant at a time, and only the tests that cover it run
against each mutant (``MODULES``). A mutant is killed when those tests fail (or time out);
it survives when they pass. Survivors listed in ``mutation/equivalent.txt`` (with the
reason they cannot change behaviour) are left out of the count; every other survivor is
printed. The last line is ``N mutants, K killed (P%)``.

    .venv/bin/python mutation/run.py [--list] [--report-only] [--retest-survivors] [--module NAME ...]
"""

from __future__ import annotations

import argparse
import ast
import re
import sqlite3
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from cosmic_ray.work_db import WorkDB, use_db
from cosmic_ray.work_item import TestOutcome, WorkerOutcome, WorkResult

ROOT = Path(__file__).resolve().parents[1]
WORK = ROOT / ".mutation"
EQUIVALENT = ROOT / "mutation" / "equivalent.txt"
CORE = "core/src/garuda_evals"
CORE_TESTS = "core/tests"
PLUGINS = "plugins"


@dataclass(frozen=True)
class Module:
    """A module to mutate and the tests that cover it."""

    name: str
    path: str
    tests: tuple[str, ...]


MODULES = (
    Module("verdict", f"{CORE}/judging/verdict.py", (f"{CORE_TESTS}/test_rules_and_summary.py",)),
    Module("judge", f"{CORE}/judging/judge.py", (f"{CORE_TESTS}/test_judge_unit.py",)),
    Module(
        "shown",
        f"{CORE}/judging/shown.py",
        (f"{CORE_TESTS}/test_judging_shown.py", f"{CORE_TESTS}/test_judge_unit.py"),
    ),
    Module(
        "change",
        f"{CORE}/judging/change.py",
        (f"{CORE_TESTS}/test_judging_change.py", f"{CORE_TESTS}/test_deep_folders.py"),
    ),
    Module(
        "files",
        f"{CORE}/judging/files.py",
        (f"{CORE_TESTS}/test_judging_files.py", f"{CORE_TESTS}/test_judge_unit.py"),
    ),
    Module(
        "lint",
        f"{CORE}/judging/lint.py",
        (f"{CORE_TESTS}/test_judging_lint.py", f"{CORE_TESTS}/test_judge_unit.py"),
    ),
    Module(
        "protected",
        f"{CORE}/checks/protected.py",
        (f"{CORE_TESTS}/test_protected_and_junit.py", f"{CORE_TESTS}/test_checks_protected.py"),
    ),
    Module(
        "junit",
        f"{CORE}/checks/junit.py",
        (
            f"{CORE_TESTS}/test_protected_and_junit.py",
            f"{CORE_TESTS}/test_rules_and_summary.py",
            f"{CORE_TESTS}/test_judging_shown.py",
        ),
    ),
    Module(
        "gotest",
        f"{CORE}/checks/gotest.py",
        (f"{CORE_TESTS}/test_gotest_evidence.py", f"{CORE_TESTS}/test_judge_unit.py"),
    ),
    Module(
        "process",
        f"{CORE}/executors/process.py",
        (
            f"{CORE_TESTS}/test_host_executor.py",
            f"{CORE_TESTS}/test_host_reaper.py",
            f"{CORE_TESTS}/test_reaper_server.py",
        ),
    ),
    Module(
        "host",
        f"{CORE}/executors/host.py",
        (
            f"{CORE_TESTS}/test_host_executor.py",
            f"{CORE_TESTS}/test_host_reaper.py",
            f"{CORE_TESTS}/test_reaper_server.py",
        ),
    ),
    Module("task_run", f"{CORE}/runner/task_run.py", (f"{CORE_TESTS}/test_task_run.py",)),
    Module("resume", f"{CORE}/runner/resume.py", (f"{CORE_TESTS}/test_resume_setup.py",)),
    Module(
        "regrade_rules",
        f"{CORE}/runner/regrade_rules.py",
        (f"{CORE_TESTS}/test_regrade_rules.py",),
    ),
    Module(
        "agent_paths",
        f"{CORE}/runner/agent_paths.py",
        (f"{CORE_TESTS}/test_agent_paths.py", f"{CORE_TESTS}/test_task_run.py"),
    ),
    Module(
        "summary",
        f"{CORE}/report/summary.py",
        (
            f"{CORE_TESTS}/test_rules_and_summary.py",
            f"{CORE_TESTS}/test_stats_passk.py",
            f"{CORE_TESTS}/test_stats_intervals.py",
            f"{CORE_TESTS}/test_stats_task_rates.py",
            f"{CORE_TESTS}/test_report_tool_calls.py",
            f"{CORE_TESTS}/test_usage_display.py",
        ),
    ),
    Module(
        "repo_rules",
        f"{PLUGINS}/repo_git/src/garuda_evals_repo_git/rules.py",
        (
            f"{PLUGINS}/repo_git/tests/test_repo_git_rules.py",
            f"{PLUGINS}/repo_git/tests/test_repo_git_commands.py",
        ),
    ),
    Module(
        "repo_prove",
        f"{PLUGINS}/repo_git/src/garuda_evals_repo_git/prove.py",
        (
            f"{PLUGINS}/repo_git/tests/test_repo_git_rules.py",
            f"{PLUGINS}/repo_git/tests/test_repo_git_prove.py",
            f"{PLUGINS}/repo_git/tests/test_repo_git_probe.py",
        ),
    ),
    Module(
        "maven_summary",
        f"{PLUGINS}/maven/src/garuda_evals_java/summary.py",
        (f"{PLUGINS}/maven/tests/test_java_summary.py",),
    ),
    Module(
        "approver",
        f"{PLUGINS}/agent/src/garuda_evals_agent/tools/approver.py",
        (
            f"{PLUGINS}/agent/tests/test_agent_tools.py",
            f"{PLUGINS}/agent/tests/test_agent_approver.py",
        ),
    ),
    Module(
        "bwrap_argv",
        f"{PLUGINS}/sandbox_bwrap/src/garuda_evals_sandbox_bwrap/argv.py",
        (f"{PLUGINS}/sandbox_bwrap/tests/test_bwrap_argv.py",),
    ),
    Module(
        "units",
        f"{CORE}/report/units.py",
        (f"{CORE_TESTS}/test_usage_display.py", f"{CORE_TESTS}/test_stats_task_rates.py"),
    ),
    Module(
        "budget",
        f"{PLUGINS}/agent/src/garuda_evals_agent/budget.py",
        (f"{PLUGINS}/agent/tests/test_agent_spend.py",),
    ),
    Module(
        "meter",
        f"{PLUGINS}/agent/src/garuda_evals_agent/meter.py",
        (
            f"{PLUGINS}/agent/tests/test_agent_spend.py",
            f"{PLUGINS}/agent/tests/test_agent_usage.py",
        ),
    ),
    Module(
        "wire_usage",
        f"{PLUGINS}/agent_cli/src/garuda_evals_agent_cli/wire_usage.py",
        (
            f"{PLUGINS}/agent_cli/tests/test_wire_usage.py",
            "tests/test_wire_usage_forms.py",
            "tests/test_thinking_is_output.py",
        ),
    ),
    Module(
        "proxy_keys",
        f"{PLUGINS}/agent_cli/src/garuda_evals_agent_cli/keys.py",
        (f"{PLUGINS}/agent_cli/tests/test_keys.py",),
    ),
)

TEST_FILES = ("core/tests/**/test_*.py", "plugins/*/tests/**/test_*.py")

# Test files that import a mutated module but are not run against its mutants. Listed when
# the check below was added, not yet reviewed one by one: most use the module while testing
# something else (an executor to run a check, a verdict type) and run whole tasks, seconds
# or minutes per mutant. A file moved from here into a module's tests may kill survivors.
NOT_RUN: dict[str, tuple[str, ...]] = {
    "verdict": ("core/tests/test_judge.py",),
    "judge": (
        "core/tests/test_regrade_rules.py",
        "plugins/node/tests/test_node_redteam.py",
        "core/tests/test_soundness_held_out.py",  # a Verdict to build, no judging
    ),
    "junit": (
        "core/tests/test_judge.py",
        "core/tests/test_judge_unit.py",
        "core/tests/test_task_run.py",
        "plugins/agent/tests/test_agent_solve.py",
        "plugins/maven/tests/test_java_canaries.py",
        "plugins/maven/tests/test_java_cheats.py",
        "plugins/maven/tests/test_java_held_out.py",
        "plugins/maven/tests/test_java_redteam.py",
        "plugins/pytest_toolchain/tests/test_python_canaries.py",
        "plugins/pytest_toolchain/tests/test_python_cheats.py",
        "plugins/pytest_toolchain/tests/test_python_held_out.py",
        "plugins/pytest_toolchain/tests/test_python_redteam.py",
        "plugins/sandbox_bwrap/tests/test_bwrap_checks.py",
    ),
    "process": (
        "core/tests/test_tasksafe_cli.py",
        "plugins/sandbox/tests/test_sandbox_check_cli.py",
    ),
    "host": (
        "core/tests/test_judge.py",
        "core/tests/test_judge_unit.py",
        "core/tests/test_task_run.py",
        "plugins/agent/tests/test_agent_solve.py",
        "plugins/agent_cli/tests/test_builtin_cross_check.py",
        "plugins/node/tests/test_node_check_runner.py",
        "plugins/node/tests/test_node_held_out.py",
        "plugins/node/tests/test_node_redteam.py",
        "plugins/sandbox_bwrap/tests/test_bwrap_proxy_path.py",
    ),
    "gotest": ("core/tests/test_eval_imports.py",),
    "task_run": ("core/tests/test_run_backends.py",),
    "summary": ("core/tests/test_stats_compare.py", "core/tests/test_stats_selftest.py"),
    # plural words through real garuda commands and a plugin installed for the test
    "units": ("core/tests/test_count_words.py",),
    "budget": ("plugins/agent_cli/tests/test_builtin_cross_check.py",),
    # real SDKs through the proxy: the same rules end to end, 45 s a run
    "wire_usage": ("plugins/agent_cli/tests/test_proxy.py",),
    "repo_rules": (
        "plugins/repo_git/tests/test_repo_git_node.py",
        "plugins/repo_git/tests/test_repo_git_options.py",
        "plugins/repo_git/tests/test_repo_git_python.py",
    ),
    "repo_prove": (
        "plugins/repo_git/tests/test_repo_git_node.py",
        "plugins/repo_git/tests/test_repo_git_options.py",
        "plugins/repo_git/tests/test_repo_git_python.py",
        "plugins/repo_git/tests/test_repo_git_vitest.py",
        "plugins/repo_git/tests/test_repo_git_strength.py",
    ),
}


def import_name(path: str) -> str:
    """``core/src/garuda_evals/judging/verdict.py`` → ``garuda_evals.judging.verdict``."""
    parts = Path(path).with_suffix("").parts
    return ".".join(parts[parts.index("src") + 1 :])


def imported_names(path: Path) -> set[str]:
    """The dotted names a file imports: ``import a.b``, and for ``from a import b`` both
    ``a`` and ``a.b`` (``b`` may be a module or a name in ``a``)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def unlisted_tests(modules: tuple[Module, ...], root: Path = ROOT) -> list[tuple[Module, str]]:
    """Test files that import a mutated module directly but are neither among its tests nor
    in ``NOT_RUN``: a test written for the module whose kills would not be counted."""
    found: list[tuple[Module, str]] = []
    files = sorted({path for pattern in TEST_FILES for path in root.glob(pattern)})
    imports = {path.relative_to(root).as_posix(): imported_names(path) for path in files}
    for module in modules:
        name = import_name(module.path)
        known = {*module.tests, *NOT_RUN.get(module.name, ())}
        found += [
            (module, test) for test, names in imports.items() if name in names and test not in known
        ]
    return found


def warn_unlisted(modules: tuple[Module, ...], stream: TextIO = sys.stderr) -> None:
    """One line per test file ``unlisted_tests`` finds."""
    for module, test in unlisted_tests(modules):
        print(
            f"warning: {test} imports {import_name(module.path)} but is not among the tests "
            f"of the {module.name!r} mutants (add it to its Module in MODULES, or to NOT_RUN "
            "with why)",
            file=stream,
        )


# cosmic-ray's full operator set replaces each operator by every other one (11 variants of
# each ``+``). These are the plausible slips, one or two per operator: enough to find an
# untested boundary or branch at a cost two shared cores can pay.
KEPT_OPERATORS = re.compile(
    r"core/("
    r"NumberReplacer|ReplaceTrueWithFalse|ReplaceFalseWithTrue|ReplaceAndWithOr|"
    r"ReplaceOrWithAnd|AddNot|ReplaceBreakWithContinue|ReplaceContinueWithBreak|"
    r"ZeroIterationForLoop|ExceptionReplacer|"
    r"ReplaceComparisonOperator_(Lt_LtE|LtE_Lt|Gt_GtE|GtE_Gt|Eq_NotEq|NotEq_Eq|Is_IsNot|"
    r"IsNot_Is|In_NotIn|NotIn_In)|"
    r"ReplaceBinaryOperator_(Add_Sub|Sub_Add|Mul_Div|Div_Mul|FloorDiv_Div|Mod_FloorDiv|"
    r"Pow_Mul|BitOr_BitAnd|BitAnd_BitOr)|"
    r"ReplaceUnaryOperator_(USub_UAdd|Delete_USub|Delete_Not)"
    r")$"
)


@dataclass(frozen=True)
class Mutant:
    """One mutant's place and outcome."""

    module: str
    line: int
    operator: str
    source: str
    mutated: str
    killed: bool


def equivalent_entries() -> set[tuple[str, str, str]]:
    """``(module name, source line, mutated line)`` of the listed equivalent mutants.

    A line of the file is ``module | source line | mutated line | reason`` (lines stripped);
    ``#`` starts a comment.
    """
    entries: set[tuple[str, str, str]] = set()
    if not EQUIVALENT.is_file():
        return entries
    for number, raw in enumerate(EQUIVALENT.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        parts = [part.strip() for part in line.split(" | ")]
        if len(parts) != 4 or not parts[3]:
            sys.exit(f"{EQUIVALENT.name}:{number}: want 'module | source | mutated | reason'")
        entries.add((parts[0], parts[1], parts[2]))
    return entries


def present_tests(module: Module) -> tuple[str, ...]:
    """The module's test files that exist (an older checkout may lack the newer ones)."""
    return tuple(test for test in module.tests if (ROOT / test).is_file())


def _config(module: Module, timeout_s: float) -> Path:
    tests = " ".join(present_tests(module))
    command = f"{sys.executable} -m pytest -x -q -p no:cacheprovider --no-header {tests}"
    text = (
        "[cosmic-ray]\n"
        f'module-path = "{module.path}"\n'
        f"timeout = {timeout_s:.0f}\n"
        "excluded-modules = []\n"
        f'test-command = "{command}"\n\n'
        "[cosmic-ray.distributor]\n"
        'name = "local"\n'
    )
    path = WORK / f"{module.name}.toml"
    path.write_text(text, encoding="utf-8")
    return path


def _baseline(module: Module) -> float:
    started = time.monotonic()
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-x",
            "-q",
            "-p",
            "no:cacheprovider",
            *present_tests(module),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        sys.exit(f"{module.name}: its tests fail before any mutation:\n{done.stdout[-3000:]}")
    return time.monotonic() - started


def annotation_lines(path: Path) -> set[int]:
    """Lines inside type annotations: never evaluated here (``from __future__ import
    annotations``), so a mutant there (``str | None`` to ``str & None``) cannot change anything."""
    lines: set[int] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        annotations = []
        if isinstance(node, ast.arg | ast.AnnAssign) and node.annotation is not None:
            annotations.append(node.annotation)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.returns is not None:
            annotations.append(node.returns)
        for annotation in annotations:
            end = annotation.end_lineno or annotation.lineno
            lines.update(range(annotation.lineno, end + 1))
    return lines


def _counted(operator: str, line: int, annotated: set[int]) -> bool:
    return bool(KEPT_OPERATORS.match(operator)) and not (
        "BinaryOperator_BitOr" in operator and line in annotated
    )


def _skip_unkept(db: WorkDB, annotated: set[int]) -> None:
    for item in list(db.pending_work_items):
        if not all(_counted(m.operator_name, m.start_pos[0], annotated) for m in item.mutations):
            db.set_result(
                item.job_id,
                WorkResult(output="operator not kept", worker_outcome=WorkerOutcome.SKIPPED),
            )


def mutate(module: Module, *, count_only: bool) -> list[Mutant]:
    """Mutate ``module`` (restored afterwards, whatever happens) and return its mutants."""
    source_path = ROOT / module.path
    original = source_path.read_bytes()
    session = WORK / f"{module.name}.sqlite"
    session.unlink(missing_ok=True)
    timeout_s = 60.0 if count_only else 3 * _baseline(module) + 20
    config = _config(module, timeout_s)
    subprocess.run(
        [Path(sys.executable).parent / "cosmic-ray", "init", config, session], cwd=ROOT, check=True
    )
    annotated = annotation_lines(source_path)
    with use_db(str(session), WorkDB.Mode.open) as db:
        _skip_unkept(db, annotated)
        pending = sum(1 for _ in db.pending_work_items)
    if count_only:
        print(f"{module.name}: {pending} mutants")
        return []
    try:
        subprocess.run(
            [Path(sys.executable).parent / "cosmic-ray", "exec", config, session],
            cwd=ROOT,
            check=True,
        )
    finally:
        if source_path.read_bytes() != original:
            source_path.write_bytes(original)
    return read_session(module)


def _mutated_line(diff: str, source: str) -> str:
    """The first added line of a mutant's diff (the mutated source line), stripped."""
    for line in diff.splitlines():
        if line.startswith("+") and not line.startswith("+++"):
            return line[1:].strip()
    return source


def retest_survivors(module: Module) -> None:
    """Forget the results of ``module``'s survivors not listed as equivalent, and run just
    those again."""
    session = WORK / f"{module.name}.sqlite"
    if not session.is_file():
        sys.exit(f"{module.name}: no session {session.relative_to(ROOT)} to run again")
    lines = (ROOT / module.path).read_text(encoding="utf-8").splitlines()
    equivalent = equivalent_entries()
    again: list[str] = []
    with use_db(str(session), WorkDB.Mode.open) as work:
        for item, result in work.completed_work_items:
            if result.test_outcome is not TestOutcome.SURVIVED:
                continue
            (mutation,) = item.mutations
            source = lines[mutation.start_pos[0] - 1].strip()
            if (module.name, source, _mutated_line(result.diff or "", source)) not in equivalent:
                again.append(item.job_id)
    with sqlite3.connect(session) as db:
        db.executemany("DELETE FROM work_results WHERE job_id = ?", [(job,) for job in again])
    source_path = ROOT / module.path
    original = source_path.read_bytes()
    config = _config(module, 3 * _baseline(module) + 20)
    try:
        subprocess.run(
            [Path(sys.executable).parent / "cosmic-ray", "exec", config, session],
            cwd=ROOT,
            check=True,
        )
    finally:
        if source_path.read_bytes() != original:
            source_path.write_bytes(original)


def read_session(module: Module) -> list[Mutant]:
    """The mutants a finished session of ``module`` ran, and whether each was killed."""
    source_path = ROOT / module.path
    session = WORK / f"{module.name}.sqlite"
    if not session.is_file():
        sys.exit(f"{module.name}: no session {session.relative_to(ROOT)} to report")
    lines = source_path.read_text(encoding="utf-8").splitlines()
    annotated = annotation_lines(source_path)
    mutants: list[Mutant] = []
    with use_db(str(session), WorkDB.Mode.open) as db:
        for item, result in db.completed_work_items:
            if result.worker_outcome is WorkerOutcome.SKIPPED:
                continue
            (mutation,) = item.mutations
            line = mutation.start_pos[0]
            if not _counted(mutation.operator_name, line, annotated):
                continue
            killed = result.test_outcome is not TestOutcome.SURVIVED
            source = lines[line - 1].strip()
            mutated = _mutated_line(result.diff or "", source)
            mutants.append(
                Mutant(module.name, line, mutation.operator_name, source, mutated, killed)
            )
    return mutants


def in_scratch_clone(argv: list[str]) -> int:
    """Run this script with ``--here`` in a clone of HEAD with its own environment.

    A mutant of code that removes folders may remove more than it should (one run emptied
    its checkout): it can only reach the clone. The clone follows HEAD at every run.
    """
    tree = WORK / "tree"
    WORK.mkdir(exist_ok=True)
    if not (tree / ".git").is_dir():
        subprocess.run(["git", "clone", "-q", str(ROOT), str(tree)], check=True)
    subprocess.run(["git", "-C", str(tree), "fetch", "-q", str(ROOT), "HEAD"], check=True)
    subprocess.run(["git", "-C", str(tree), "reset", "-q", "--hard", "FETCH_HEAD"], check=True)
    uv = ROOT / ".uv-bootstrap" / "bin" / "uv"
    subprocess.run([str(uv), "sync", "-q", "--all-packages", "--locked"], cwd=tree, check=True)
    python = tree / ".venv" / "bin" / "python"
    return subprocess.run([str(python), "mutation/run.py", "--here", *argv], cwd=tree).returncode


def main() -> int:
    """Run the chosen modules and print the per-module breakdown and the totals line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--module", action="append", help="only this module (repeatable)")
    parser.add_argument("--list", action="store_true", help="count the mutants, run nothing")
    parser.add_argument(
        "--retest-survivors",
        action="store_true",
        help="run the survivors of the sessions in .mutation/ again (after adding tests)",
    )
    parser.add_argument(
        "--report-only",
        action="store_true",
        help="report the sessions already in .mutation/ (a run done module by module)",
    )
    parser.add_argument(
        "--here",
        action="store_true",
        help="mutate this checkout itself (default: a scratch clone in .mutation/tree)",
    )
    args = parser.parse_args()
    if not args.here:
        return in_scratch_clone(sys.argv[1:])
    known = {module.name: module for module in MODULES}
    for name in args.module or []:
        if name not in known:
            parser.error(f"unknown module {name!r}; known: {', '.join(known)}")
    chosen = [known[name] for name in args.module] if args.module else list(MODULES)
    warn_unlisted(tuple(chosen))
    WORK.mkdir(exist_ok=True)
    equivalent = equivalent_entries()
    rows: list[tuple[str, int, int, int]] = []
    survivors: list[Mutant] = []
    for module in chosen:
        if args.retest_survivors:
            retest_survivors(module)
        mutants = (
            read_session(module)
            if args.report_only or args.retest_survivors
            else mutate(module, count_only=args.list)
        )
        if args.list:
            continue
        listed = [m for m in mutants if (m.module, m.source, m.mutated) in equivalent]
        counted = [m for m in mutants if m not in listed]
        killed = sum(1 for m in counted if m.killed)
        survivors += [m for m in counted if not m.killed]
        rows.append((module.name, len(counted), killed, len(listed)))
        print(f"{module.name}: {len(counted)} mutants, {killed} killed, {len(listed)} equivalent")
    if args.list:
        return 0
    print("\nsurvivors (kill them with a test, or list them in mutation/equivalent.txt):")
    for m in survivors:
        print(f"  {m.module} | {m.source} | {m.mutated}    (line {m.line}, {m.operator})")
    print("\nper module:")
    for name, total, killed, listed in rows:
        share = f"{100 * killed / total:5.1f}%" if total else "    -"
        print(f"  {name:<12} {killed:4d}/{total:<4d} killed {share}   ({listed} equivalent)")
    total = sum(row[1] for row in rows)
    killed = sum(row[2] for row in rows)
    print(f"{total} mutants, {killed} killed ({100 * killed / total if total else 0:.1f}%)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
