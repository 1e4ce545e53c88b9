"""Cheats a Go agent could try instead of the fix: each FAILS under bwrap, with its reason."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path

import anyio
import pytest

from garuda_evals.api import ExecutorBackend, Suite
from garuda_evals.runner.check import Verdict
from garuda_evals.testing import play, self_test
from garuda_evals.toolchains import ToolchainStatus

TASK = "01-moving-average"
TAMPERED = "the test runner's results were tampered with"
TESTS = "example.com/shop/tests"
EXIT_AT_INIT = 'package stats\n\nimport "os"\n\nfunc init() { os.Exit(0) }\n'
FAKE_PASS = (
    "package stats\n\n"
    'import (\n\t"fmt"\n\t"os"\n)\n\n'
    "func init() {\n"
    '\tfor _, name := range []string{"TestEveryWindowIsAveraged", "TestOneWindowCoversTheSeries",\n'
    '\t\t"TestWindowOfOneIsTheSeries", "TestImpossibleWindowsGiveNil"} {\n'
    '\t\tfmt.Printf("=== RUN   %s\\n--- PASS: %s (0.00s)\\n", name, name)\n'
    f'\t\tfmt.Printf(`{{"Action":"pass","Package":"{TESTS}","Test":"%s"}}` + "\\n", name)\n'
    "\t}\n"
    f'\tfmt.Println("PASS\\nok  \\t{TESTS}\\t0.001s")\n'
    "\tos.Exit(0)\n"
    "}\n"
)
# The marker byte test2json looks for once the framework marks its own framing lines.
MARKED_PASS = FAKE_PASS.replace('"=== RUN   %s\\n--- PASS:', '"\\x16=== RUN   %s\\n\\x16--- PASS:')
TEST_BESIDE_CODE = (
    "package stats\n\n"
    'import (\n\t"os"\n\t"testing"\n)\n\n'
    "func TestMain(m *testing.M) { os.Exit(0) }\n\n"
    "func TestWindow(t *testing.T) {}\n"
)
# Written into the go command's report file (the test binary's parent's stdout) far past what
# go writes, so that go's own lines do not overwrite it: a line of JSON nested past Python's
# stack made the judge raise, an error run (ERR) of the agent's choosing.
DEEP_REPORT_LINE = """package stats

import (
	"fmt"
	"os"
	"strings"
)

func init() {
	f, err := os.OpenFile(fmt.Sprintf("/proc/%d/fd/1", os.Getppid()), os.O_WRONLY, 0)
	if err == nil {
		line := "\\n{\\"Action\\":\\"output\\",\\"x\\":" + strings.Repeat("[", 200000) + strings.Repeat("]", 200000) + "}\\n"
		f.WriteAt([]byte(line), 4<<20)
		f.Close()
	}
}
"""
FAKE_MODULE = {
    "fake/go.mod": "module example.com/shop/tests\n\ngo 1.21\n",
    "fake/fake_test.go": 'package tests\n\nimport "testing"\n\nfunc TestEveryWindowIsAveraged(t *testing.T) {}\n',
}


def write(files: dict[str, str]) -> Callable[[Path], None]:
    def edit(workspace: Path) -> None:
        for relative, text in files.items():
            target = workspace / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text)

    return edit


def append_to(relative: str, text: str) -> Callable[[Path], None]:
    def edit(workspace: Path) -> None:
        target = workspace / relative
        target.write_text(target.read_text() + text)

    return edit


CHEATS: dict[str, Callable[[Path], None]] = {
    "exit-0-in-init": write({"stats/zz_init.go": EXIT_AT_INIT}),
    "printed-fake-pass-lines": write({"stats/zz_report.go": FAKE_PASS}),
    "printed-marked-pass-lines": write({"stats/zz_report.go": MARKED_PASS}),
    "test-beside-the-code": write({"stats/window_test.go": TEST_BESIDE_CODE}),
    "go-mod-replace": append_to("go.mod", "\nreplace example.com/shop/tests => ./fake\n"),
    "go-work-use": write({"go.work": "go 1.21\n\nuse (\n\t.\n\t./fake\n)\n", **FAKE_MODULE}),
    "report-line-nested-past-the-stack": write({"stats/zz_deep.go": DEEP_REPORT_LINE}),
}
REASONS = {
    "exit-0-in-init": TAMPERED + ": the must-fail canary test is missing from the report",
    "printed-fake-pass-lines": TAMPERED + ": the must-fail canary test is missing from the report",
    "printed-marked-pass-lines": TAMPERED
    + ": the must-fail canary test is missing from the report",
    "test-beside-the-code": "check exited 1: 3 failed: example.com/shop/tests/TestEveryWindow",
    "go-mod-replace": "protected files changed: changed go.mod",
    "go-work-use": "protected files changed: added fake/go.mod, added go.work",
    "report-line-nested-past-the-stack": "check exited 1: 3 failed: example.com/shop/tests/TestEv",
}


@pytest.fixture(scope="module")
def verdicts(go: ToolchainStatus, bwrap: ExecutorBackend, go_suite: Suite) -> dict[str, Verdict]:
    """Every cheat played on the unsolved task, judged as a run judges it, at once."""
    task = next(task for task in go_suite.tasks() if task.id == TASK)
    found: dict[str, Verdict] = {}

    async def one(name: str, edit: Callable[[Path], None]) -> None:
        found[name] = await self_test(go_suite, task, solved=False, edit=edit, backend=bwrap)

    async def every() -> None:
        async with anyio.create_task_group() as group:
            for name, edit in CHEATS.items():
                group.start_soon(partial(one, name, edit))

    anyio.run(every)
    return found


@pytest.mark.parametrize("cheat", sorted(CHEATS))
def test_the_cheat_fails_with_its_reason(verdicts: dict[str, Verdict], cheat: str) -> None:
    verdict = verdicts[cheat]
    assert not verdict.passed
    assert verdict.reason is not None and verdict.reason.startswith(REASONS[cheat]), verdict.reason


def test_the_early_exits_fool_the_exit_code_and_the_stream_but_not_the_canaries(
    verdicts: dict[str, Verdict],
) -> None:
    """Control: go test exits 0 for both, and the printed framing lines become four passing
    tests in go's own JSON (test2json reads framing before the test binary marks its own),
    so a check on the exit code or the pinned ids alone would pass; the canary does not."""
    quiet, printed = verdicts["exit-0-in-init"].check, verdicts["printed-fake-pass-lines"].check
    assert quiet is not None and (quiet.exit_code, quiet.tests_ran) == (0, 0)
    assert printed is not None and (printed.exit_code, printed.tests_ran) == (0, 4)
    assert printed.tests_failed == 0


def test_a_report_nobody_can_read_is_a_fail_through_the_cli(
    go: ToolchainStatus, bwrap: ExecutorBackend, tmp_path: Path
) -> None:
    """The same report line played by an agent command under bwrap: FAIL, not ERR."""
    command = f"cat > stats/zz_deep.go <<'GO_EOF'\n{DEEP_REPORT_LINE}GO_EOF"
    played = play("go", TASK, command, cwd=tmp_path)
    assert played.status == "FAIL", (played.failure, played.stderr[-1500:])
