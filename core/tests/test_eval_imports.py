"""An eval imports only what it uses: other commands, the Go check runner, the toolchain probe
(a probe-cache hit) and click's "did you mean" lists are left for the runs that need them."""

from __future__ import annotations

import subprocess
import sys

NOT_ON_THE_EVAL_PATH = (
    "difflib",
    "packaging.version",
    "garuda_evals.checks.gotest",
    "garuda_evals.toolchains.probe",
    "garuda_evals.cli.ab_cmd",
    "garuda_evals.cli.compare_cmd",
    "garuda_evals.cli.plugins_cmd",
    "garuda_evals.cli.regrade_cmd",
    "garuda_evals.cli.report_cmd",
    "garuda_evals.cli.runs_cmd",
    "garuda_evals.cli.suite_cmd",
)

EVAL = """
import sys
from garuda_evals.cli.main import build_cli
import garuda_evals.cli.eval_main, garuda_evals.runner.session

cli = build_cli()
args = ["-s", "python", "-t", "a", "--agent", "oracle", "--executor", "host"]
group = cli.make_context("garuda", ["eval", *args])
eval_command = cli.get_command(group, "eval")
parsed = eval_command.make_context("eval", args, parent=group).params
assert (parsed["suites"], parsed["task_ids"]) == (("python",), ("a",)), parsed
print(" ".join(sorted(sys.modules)))
"""


def test_the_eval_path_imports_none_of_the_modules_it_does_not_use() -> None:
    done = subprocess.run([sys.executable, "-c", EVAL], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    imported = set(done.stdout.split())
    assert "garuda_evals.runner.session" in imported
    assert sorted(imported.intersection(NOT_ON_THE_EVAL_PATH)) == []


def test_a_mistyped_option_still_gets_its_suggestions() -> None:
    from click.testing import CliRunner

    from garuda_evals.cli.main import build_cli

    runner = CliRunner()
    mistyped = runner.invoke(build_cli(), ["eval", "--sute", "python"]).output
    assert (
        "No such option '--sute'. (Did you mean one of: '--list', '--resume', '--suite'?)"
        in mistyped
    )
    assert "Error: No such option '-z'.\n" in runner.invoke(build_cli(), ["eval", "-z"]).output
