"""Cheats a Go agent could try instead of the fix: each FAILS under bwrap, with its reason.

Code under test that rewrites the test binary's report for the task's own tests (their
names are in the agent's folder) passes the runner's canary; the task's held-out tests
stop it, under bwrap and on the host. Its control plays it on a copy of the suite without
the task's held-out tests, where it passes (as every run did before them).
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from functools import partial
from pathlib import Path

import anyio
import pytest

from garuda_evals.api import ExecutorBackend, Suite
from garuda_evals.runner.check import Verdict
from garuda_evals.testing import Played, Staged, play, play_all, self_test
from garuda_evals.toolchains import ToolchainStatus
from garuda_evals_go.suite import GoSuite

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


# Code under test that sends the test binary's output through sed, which turns the failure
# lines of the tests it names into passes: go test -json then reports them passed, and the
# runner's canary, which it leaves alone, fails as planted. Nothing the tamper lint reads.
RELAY = """package stats

import (
	"os"
	"os/exec"
)

func init() {
	r, w, err := os.Pipe()
	if err != nil {
		return
	}
	sed := exec.Command("sed", "-u", `s/\\([-]\\{3\\} \\)FAIL\\(: \\(NAMES\\) \\)/\\1PASS\\2/`)
	sed.Stdin, sed.Stdout, sed.Stderr = r, os.Stdout, os.Stderr
	if sed.Start() != nil {
		return
	}
	r.Close()
	os.Stdout = w
}
"""
# The same relay for every test of the folder but the runner's canary file (the one whose
# must-fail test carries the nonce): it cannot tell the held-out tests from their canaries.
RELAY_ALL_BUT_THE_CANARY = """package stats

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
)

func init() {
	nonce := regexp.MustCompile(`t\\.Fatal\\("[0-9a-f]{16}"\\)`)
	test := regexp.MustCompile(`(?m)^func (Test\\w*)\\(`)
	var names []string
	paths, _ := filepath.Glob("*_test.go")
	for _, path := range paths {
		text, err := os.ReadFile(path)
		if err != nil || nonce.Match(text) {
			continue
		}
		for _, found := range test.FindAllSubmatch(text, -1) {
			names = append(names, string(found[1]))
		}
	}
	r, w, err := os.Pipe()
	if err != nil {
		return
	}
	script := `s/\\([-]\\{3\\} \\)FAIL\\(: \\(` + strings.Join(names, `\\|`) + `\\) \\)/\\1PASS\\2/`
	sed := exec.Command("sed", "-u", script)
	sed.Stdin, sed.Stdout, sed.Stderr = r, os.Stdout, os.Stderr
	if sed.Start() != nil {
		return
	}
	r.Close()
	os.Stdout = w
}
"""
HELD_OUT = "held-out tests did not pass"
SHAPED_LIKE = "canaries shaped like the held-out tests did not fail"
HELD_OUT_FILE = "heldout/tests/last_window_test.go"


def _visible_names(suite: Suite) -> list[str]:
    task = next(task for task in suite.tasks() if task.id == TASK)
    text = task.files["tests/stats_test.go"]
    return re.findall(r"^func (Test\w*)\(", text, re.MULTILINE)


def _agent_writes(relative: str, text: str) -> str:
    return f"cat > {relative} <<'GO_EOF'\n{text}GO_EOF"


def _solve_if_readable(suite: Suite, path: Path) -> str:
    """Write the reference solution only when ``path`` can be read: a PASS means it could.

    The file is named through its folder: a file the command names is refused before any
    task when it lies in a hidden folder, and here the sandbox must be what hides it."""
    task = next(task for task in suite.tasks() if task.id == TASK)
    assert task.solution is not None
    solution = task.solution.files["stats/window.go"]
    readable = f'd={path.parent}; test -r "$d/{path.name}"'
    return f"if {readable}; then\n{_agent_writes('stats/window.go', solution)}\nfi"


TARGETED = "relay rewriting the task's own tests"
BLIND = "relay rewriting every test but the runner's canary"
ON_THE_HOST = "on the host executor"
WITHOUT_HELD_OUT = "without the task's held-out tests (the control, on the host)"
READ_HELD_OUT = "read the held-out tests"


@pytest.fixture(scope="module")
def plays(
    go: ToolchainStatus,
    bwrap: ExecutorBackend,
    go_suite: GoSuite,
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[dict[object, Future[Played]]]:
    """The plays through the CLI, three at a time. The control runs on the host: a folder
    named by path is a plain folder suite, which does not show the shared Go caches to the
    sandbox as the go suite does."""
    bare = tmp_path_factory.mktemp("suite") / "go"
    shutil.copytree(go_suite.root, bare)
    shutil.rmtree(bare / TASK / "heldout")
    shutil.rmtree(bare / TASK / "canaries")
    targeted = _agent_writes(
        "stats/zz_relay.go", RELAY.replace("NAMES", "\\|".join(_visible_names(go_suite)))
    )
    blind = _agent_writes("stats/zz_relay.go", RELAY_ALL_BUT_THE_CANARY)
    probe = _solve_if_readable(go_suite, go_suite.root / TASK / HELD_OUT_FILE)
    commands: dict[object, str | Staged | None] = {
        TARGETED: targeted,
        (TARGETED, ON_THE_HOST): Staged(targeted, executor="host"),
        (TARGETED, WITHOUT_HELD_OUT): Staged(targeted, suite=str(bare), executor="host"),
        BLIND: blind,
        READ_HELD_OUT: probe,
        (READ_HELD_OUT, ON_THE_HOST): Staged(probe, executor="host"),
    }
    with play_all("go", TASK, commands, workers=3, timeout=300) as started:
        yield started


def _result(plays: dict[object, Future[Played]], key: object) -> Played:
    played = plays[key].result()
    assert played.status in ("PASS", "FAIL"), (played.failure, played.stderr[-2000:])
    return played


@pytest.mark.parametrize("where", ["bwrap", ON_THE_HOST])
def test_a_relay_aimed_at_the_tasks_own_tests_fails_on_the_held_out_tests(
    plays: dict[object, Future[Played]], where: str
) -> None:
    """The relay turns the task's own failures into passes and leaves the canary alone;
    the held-out tests, which it cannot name, still fail."""
    played = _result(plays, TARGETED if where == "bwrap" else (TARGETED, where))
    assert played.status == "FAIL", played.failure
    assert (played.failure or "").startswith(HELD_OUT), played.failure
    assert played.suspicious == [], "the verdict does not rest on the tamper lint"


def test_without_held_out_tests_the_relay_passes(plays: dict[object, Future[Played]]) -> None:
    """The control: the unsolved task without its held-out tests PASSes, the runner's
    canary failing as planted."""
    played = _result(plays, (TARGETED, WITHOUT_HELD_OUT))
    assert played.status == "PASS", played.failure


def test_a_relay_of_every_test_but_the_canary_turns_the_look_alikes_into_passes(
    plays: dict[object, Future[Played]],
) -> None:
    """Flipping the held-out tests too flips their canaries, which must fail: tampered."""
    played = _result(plays, BLIND)
    assert played.status == "FAIL", played.failure
    assert (played.failure or "").startswith(f"{TAMPERED}: {SHAPED_LIKE}"), played.failure


def test_the_held_out_tests_are_out_of_the_sandbox_s_reach(
    plays: dict[object, Future[Played]],
) -> None:
    """Under bwrap the held-out test file cannot be read (the task stays unsolved); on the
    host, which hides nothing, the same probe finds it and the task passes."""
    hidden, shown = _result(plays, READ_HELD_OUT), _result(plays, (READ_HELD_OUT, ON_THE_HOST))
    assert hidden.status == "FAIL", hidden.failure
    assert (hidden.failure or "").startswith("check exited 1: 3 failed"), hidden.failure
    assert shown.status == "PASS", shown.failure
