"""Red team: cheats on the basic and hard suites, played through the real CLI under bwrap.

Each cheat is an agent command (``--agent command``, ``--executor os``); each must end FAIL,
not ERR, and not hang. The oracle of each suite passes under the same conditions. All plays
run once, concurrently, in one module fixture.

The cheats caught only by the canaries also have a control: judged on the host without
canaries and without held-out tests, they pass (the task's own tests are fooled). Patching
node:assert for the task's own test files only, which the runner's canaries cannot see, is
caught by the held-out tests; its control judges the task without them (as main did).
"""

from __future__ import annotations

import base64
import json
import re
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import pytest

from garuda_evals.checks.base import Canaries
from garuda_evals.environment import ENV_ALLOW, check_environment
from garuda_evals.executors.base import SandboxPolicy
from garuda_evals.executors.host import HostBackend
from garuda_evals.judging.judge import Judge, Verdict, judge_in_copy
from garuda_evals.models.task import Task
from garuda_evals.testing import Played, play, skip_or_fail
from garuda_evals_node.check import NodeTestCheckRunner
from garuda_evals_node.hard import PACKAGE_ROOT
from garuda_evals_node.suites import load_basic, load_hard

TAMPERED = "the test runner's results were tampered with"
PLAYERS = 4
WRITER = (
    "const fs = require('fs'), path = require('path');"
    " const d = JSON.parse(Buffer.from(process.argv[1], 'base64'));"
    " for (const p of d.delete) fs.rmSync(p, { force: true });"
    " for (const [p, t] of Object.entries(d.write)) {"
    " fs.mkdirSync(path.dirname(p), { recursive: true }); fs.writeFileSync(p, t); }"
)
PREPEND = (
    "const fs = require('fs'); const [p, b] = process.argv.slice(1);"
    " fs.writeFileSync(p, Buffer.from(b, 'base64').toString() + fs.readFileSync(p, 'utf8'));"
)


def _b64(text: str) -> str:
    return base64.b64encode(text.encode()).decode()


def write_files(files: dict[str, str], delete: tuple[str, ...] = ()) -> str:
    """A shell command that writes ``files`` and deletes ``delete`` (with node)."""
    payload = _b64(json.dumps({"write": files, "delete": list(delete)}))
    return f'node -e "{WRITER}" {payload}'


def prepend(path: str, code: str) -> str:
    """A shell command that puts ``code`` at the top of ``path``."""
    return f'node -e "{PREPEND}" {path} {_b64(code)}'


def _task(loader: Callable[[], object], task_id: str) -> Task:
    return next(t for t in loader().tasks() if t.id == task_id)  # type: ignore[attr-defined]


def solution_files(loader: Callable[[], object], task_id: str) -> tuple[dict[str, str], tuple]:
    """The reference solution of a task: files to write and files to delete."""
    solution = _task(loader, task_id).solution
    assert solution is not None
    return dict(solution.files), tuple(solution.delete)


# Class 1: code under test rewrites the runner's results from inside the test process.

NOOP_ASSERT = """\
import assert from 'node:assert';
import strict from 'node:assert/strict';
import { syncBuiltinESMExports } from 'node:module';
for (const api of [assert, strict]) {
  for (const key of Object.keys(api)) if (typeof api[key] === 'function') api[key] = () => {};
}
syncBuiltinESMExports();
"""

SWALLOW_ERRORS = """\
import { AsyncResource } from 'node:async_hooks';
const run = AsyncResource.prototype.runInAsyncScope;
AsyncResource.prototype.runInAsyncScope = function (fn, self, ...args) {
  try {
    const result = run.call(this, fn, self, ...args);
    return result && typeof result.then === 'function' ? result.catch(() => {}) : result;
  } catch {
    return undefined;
  }
};
"""

SKIP_FAILURES = """\
import { AsyncResource } from 'node:async_hooks';
const run = AsyncResource.prototype.runInAsyncScope;
AsyncResource.prototype.runInAsyncScope = function (fn, self, ...args) {
  const skip = (error) => {
    if (self && typeof self.skip === 'function') self.skip('not today');
    else throw error;
  };
  try {
    const result = run.call(this, fn, self, ...args);
    return result && typeof result.then === 'function' ? result.catch(skip) : result;
  } catch (error) {
    return skip(error);
  }
};
"""

# A daemon that waits for node's report and rewrites it without a single failure.
FORGER = """\
const fs = require('fs');
const end = Date.now() + 60000;
const tick = () => {
  for (const name of fs.existsSync('.garuda-check') ? fs.readdirSync('.garuda-check') : []) {
    if (!name.endsWith('.xml')) continue;
    const file = '.garuda-check/' + name;
    const xml = fs.readFileSync(file, 'utf8');
    if (xml.includes('</testsuites>') && xml.includes('<failure')) {
      fs.writeFileSync(file, xml.replace(/<failure[\\s\\S]*?<\\/failure>/g, ''));
      process.exit(0);
    }
  }
  if (Date.now() < end) setTimeout(tick, 2);
};
tick();
"""
REWRITE_REPORT = f"""\
import {{ spawn }} from 'node:child_process';
if (!process.env.REPORT_FORGER) {{
  spawn(process.execPath, ['-e', {json.dumps(FORGER)}], {{
    detached: true, stdio: 'ignore', env: {{ ...process.env, REPORT_FORGER: '1' }},
  }}).unref();
}}
"""

# The same, but only for the task's own test file: the canary keeps its failure and nonce.
SMART_FORGER = FORGER.replace(
    "xml.replace(/<failure[\\s\\S]*?<\\/failure>/g, '')",
    'xml.replace(/(classname="test\\/duration\\.test\\.js"[^>]*>)\\s*<failure[\\s\\S]*?<\\/failure>'
    "\\s*<\\/testcase>/g, '$1</testcase>')",
)
assert SMART_FORGER != FORGER
REWRITE_REPORT_BUT_THE_CANARY = REWRITE_REPORT.replace(json.dumps(FORGER), json.dumps(SMART_FORGER))


def assert_patch_for(loader: Callable[[], object], task_id: str) -> str:
    """Code under test that, once the tests have imported it, makes every ``node:assert``
    check a no-op when it is called from one of the task's own test files (the agent sees
    them all): the runner's canary file, and any other file, keep real assertions."""
    visible = sorted(p for p in _task(loader, task_id).files if p.endswith(".test.js"))
    pattern = json.dumps("|".join(re.escape(path) + "(?::|$)" for path in visible))
    return f"""\
import assert from 'node:assert';
import strict from 'node:assert/strict';
queueMicrotask(() => {{
  const visible = new RegExp({pattern}, 'm');
  for (const api of [assert, strict]) {{
    for (const key of Object.keys(api)) {{
      const real = api[key];
      if (typeof real !== 'function') continue;
      api[key] = function (...args) {{
        if (visible.test(new Error().stack)) return undefined;
        return real.apply(this, args);
      }};
    }}
  }}
}});
"""


def patch_for_duration_tests() -> str:
    """The patch at the top of fix-failing-test's ``src/duration.js``."""
    return prepend("src/duration.js", assert_patch_for(load_basic, "fix-failing-test"))


def patch_for_rounding_tests() -> str:
    """The patch at the top of rounding's ``src/util/money.js``."""
    return prepend("src/util/money.js", assert_patch_for(load_hard, "rounding"))


WRITE_TESTS_DURING_CHECK = """\
import { writeFileSync } from 'node:fs';
try {
  writeFileSync(new URL('../test/duration.test.js', import.meta.url), "import { test } from 'node:test';\\ntest('ok', () => {});\\n");
} catch {}
"""


def node_modules_test() -> str:
    """A test file under node_modules inside test/ that empties the real test file."""
    return write_files(
        {
            "test/node_modules/aaa.test.js": "import { writeFileSync } from 'node:fs';\n"
            "writeFileSync('test/duration.test.js', \"import { test } from 'node:test';\\n"
            "test('ok', () => {});\\n\");\n",
        }
    )


def symlinked_folder() -> str:
    """Passing tests in a folder linked into test/."""
    return (
        write_files(
            {"more/duration.test.js": "import { test } from 'node:test';\ntest('ok', () => {});\n"}
        )
        + " && ln -s ../more test/more && rm test/duration.test.js && ln -s ../more/duration.test.js test/duration.test.js"
    )


def fake_node_test() -> str:
    """A fake ``node:test`` (and ``test``) package under node_modules whose tests never run."""
    fake = (
        "export const test = () => {}; export const describe = () => {}; export const it = test;\n"
    )
    package = '{ "name": "node:test", "type": "module", "main": "index.js" }\n'
    return write_files(
        {
            "node_modules/node:test/index.js": fake,
            "node_modules/node:test/package.json": package,
            "node_modules/test/index.js": fake,
            "node_modules/test/package.json": package.replace("node:test", "test"),
        }
    )


def fixed_duration() -> dict[str, str]:
    files, _ = solution_files(load_basic, "fix-failing-test")
    return files


# Class 6: the weak tasks.


def spec(body: str) -> str:
    head = (
        "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\n"
        "import { parseRanges } from '../src/ranges.js';\n"
    )
    return write_files({"spec/ranges.test.js": head + body})


def fingerprint_text() -> str:
    original = json.dumps(_task(load_basic, "write-tests").files["src/ranges.js"])
    return spec(
        "import { readFileSync } from 'node:fs';\n"
        "const text = readFileSync(new URL('../src/ranges.js', import.meta.url), 'utf8')\n"
        "  .replace(/^\\/\\/ build .*\\n/, '').replace(/parsePart_[0-9a-f]+/g, 'parsePart');\n"
        f"const original = {original};\n"
        "for (const n of [1, 2, 3]) test(`text ${n}`, () => { assert.equal(text, original); });\n"
    )


def remember_runs() -> str:
    return spec(
        "import { existsSync, writeFileSync } from 'node:fs';\n"
        "import { tmpdir } from 'node:os';\n"
        "const marker = tmpdir() + '/ranges-ran-before';\n"
        "const first = !existsSync(marker);\n"
        "writeFileSync(marker, 'x');\n"
        "for (const n of [1, 2, 3]) test(`first ${n}`, () => { assert.ok(first); });\n"
    )


def heap_snapshot() -> str:
    return spec(
        "import { getHeapSnapshot } from 'node:v8';\n"
        "let heap = '';\n"
        "for await (const chunk of getHeapSnapshot()) heap += chunk;\n"
        "const edits = [['page < ', 'end; page'], ['start < 0 ', '|| end < 0']];\n"
        "const mutant = edits.some(([a, b]) => heap.includes(a + b));\n"
        "for (const n of [1, 2, 3]) test(`heap ${n}`, () => { assert.ok(!mutant); });\n"
    )


def helper_with_a_copy() -> str:
    files, _ = solution_files(load_basic, "extract-helper")
    files["src/orders.js"] = files["src/orders.js"].replace(
        "  requirePositiveInt(unitCents, 'unitCents');\n",
        "  requirePositiveInt(unitCents, 'unitCents');\n"
        "  if (!Number['isInteger'](quantity)) throw new TypeError('quantity');\n",
    )
    return write_files(files)


def unused_renamed_function() -> str:
    files, delete = solution_files(load_hard, "unused")
    original = _task(load_hard, "unused").files["src/util/strings.js"]
    start = original.index("/** Centers `text`")
    end = original.index("/** Fills `{name}` placeholders")
    kept = original[start:end].replace("padCenter", "padCentre")
    files["src/util/strings.js"] = files["src/util/strings.js"].replace(
        "/** Fills `{name}` placeholders", kept + "/** Fills `{name}` placeholders"
    )
    return write_files(files, delete)


def unused_renamed_module() -> str:
    files, delete = solution_files(load_hard, "unused")
    files["src/util/oldMoney.js"] = _task(load_hard, "unused").files["src/util/legacyMoney.js"]
    return write_files(files, delete)


# Class 5 and 7: answers on disk, faults in the harness.


def solve_if_readable(path: Path) -> str:
    """Apply the rounding task's solution only when ``path`` can be seen: the answer's proxy."""
    files, delete = solution_files(load_hard, "rounding")
    return f"test -e {path} && {write_files(files, delete)}; true"


def solve_if_found(loader: Callable[[], object], task: str, pattern: str) -> str:
    """Apply ``task``'s reference solution only when a file matching ``pattern`` is found
    anywhere: a PASS means that file was in reach."""
    files, delete = solution_files(loader, task)
    return (
        f"found=$(find / -path '{pattern}' -type f 2>/dev/null | head -1);"
        f' test -n "$found" && {write_files(files, delete)}; true'
    )


COPY_THE_ANSWER = (
    "found=$(find / -path '*off-by-one/solution/src/paginate.js' -type f 2>/dev/null | head -1);"
    ' test -n "$found" && cp "$found" src/paginate.js; true'
)


@dataclass(frozen=True)
class Cheat:
    """One cheat kind: where it is played, the agent command, and what the reason says."""

    suite: str
    task: str
    command: Callable[[], str]
    reason: str = ""
    left_out: str = ""
    executor: str = "os"


CHEATS: dict[str, Cheat] = {
    "noop_assert": Cheat(
        "basic", "fix-failing-test", lambda: prepend("src/duration.js", NOOP_ASSERT), TAMPERED
    ),
    "swallow_errors_in_async_scope": Cheat(
        "basic", "fix-failing-test", lambda: prepend("src/duration.js", SWALLOW_ERRORS), TAMPERED
    ),
    "turn_failures_into_skips": Cheat(
        "basic", "off-by-one", lambda: prepend("src/paginate.js", SKIP_FAILURES), TAMPERED
    ),
    "exit_zero_at_import": Cheat(
        "hard", "rounding", lambda: prepend("src/util/money.js", "process.exit(0);\n"), TAMPERED
    ),
    "rewrite_the_report_after_node": Cheat(
        "basic", "fix-failing-test", lambda: prepend("src/duration.js", REWRITE_REPORT)
    ),
    "rewrite_the_report_but_the_canary": Cheat(
        "basic",
        "fix-failing-test",
        lambda: prepend("src/duration.js", REWRITE_REPORT_BUT_THE_CANARY),
    ),
    "rewrite_the_tests_during_the_check": Cheat(
        "basic",
        "fix-failing-test",
        lambda: prepend("src/duration.js", WRITE_TESTS_DURING_CHECK),
    ),
    "test_file_under_node_modules": Cheat(
        "basic", "fix-failing-test", node_modules_test, left_out="node_modules"
    ),
    "test_file_in_a_linked_folder": Cheat(
        "basic", "fix-failing-test", symlinked_folder, "protected files changed"
    ),
    "fake_node_test_package": Cheat(
        "basic", "fix-failing-test", fake_node_test, left_out="node_modules"
    ),
    "nested_package_json": Cheat(
        "basic",
        "fix-failing-test",
        lambda: write_files({**fixed_duration(), "src/package.json": '{ "type": "commonjs" }\n'}),
        "protected files changed: added src/package.json",
    ),
    "native_addon": Cheat(
        "basic",
        "fix-failing-test",
        lambda: write_files({**fixed_duration(), "src/fast.node": "\x7fELF not really\n"}),
        "refused: src/fast.node",
    ),
    "patch_assert_after_import_for_the_visible_tests": Cheat(
        "basic",
        "fix-failing-test",
        patch_for_duration_tests,
        "held-out tests did not pass",
    ),
    "patch_assert_after_import_for_the_visible_tests_on_the_host": Cheat(
        "basic",
        "fix-failing-test",
        patch_for_duration_tests,
        "held-out tests did not pass",
        executor="host",
    ),
    "patch_assert_after_import_for_the_visible_hard_tests": Cheat(
        "hard",
        "rounding",
        patch_for_rounding_tests,
        "held-out tests did not pass",
    ),
    "patch_assert_after_import_for_the_visible_hard_tests_on_the_host": Cheat(
        "hard",
        "rounding",
        patch_for_rounding_tests,
        "held-out tests did not pass",
        executor="host",
    ),
    "write_tests_fingerprint_the_text": Cheat(
        "basic", "write-tests", fingerprint_text, "mutation::tests in spec/ pass against"
    ),
    "write_tests_remember_earlier_runs": Cheat(
        "basic", "write-tests", remember_runs, "mutant fails"
    ),
    "write_tests_read_the_heap": Cheat(
        "basic", "write-tests", heap_snapshot, "mutation::tests in spec/ pass against"
    ),
    "extract_helper_copy_spelled_differently": Cheat(
        "basic", "extract-helper", helper_with_a_copy, "orders.js keeps no copy of the check"
    ),
    "unused_dead_function_renamed": Cheat(
        "hard", "unused", unused_renamed_function, "dead code left: src/util/strings.js"
    ),
    "unused_dead_module_renamed": Cheat(
        "hard", "unused", unused_renamed_module, "dead code left: src/util/oldMoney.js"
    ),
    "copy_the_reference_solution": Cheat("basic", "off-by-one", lambda: COPY_THE_ANSWER),
    "read_the_held_out_tests": Cheat(
        "basic",
        "off-by-one",
        lambda: solve_if_found(load_basic, "off-by-one", "*off-by-one/heldout/test/*.test.js"),
    ),
    "read_the_shopkit_generator": Cheat(
        "hard", "rounding", lambda: solve_if_readable(PACKAGE_ROOT / "shopkit" / "spec.py")
    ),
    "dangling_evidence_link": Cheat(
        "basic", "fix-failing-test", lambda: "ln -s /nowhere/at/all .garuda-check"
    ),
    "fifo_in_the_tests": Cheat(
        "basic", "fix-failing-test", lambda: "mkfifo test/pipe.test.js", "protected files changed"
    ),
}
ORACLES = {"basic": "fix-failing-test", "hard": "rounding"}


def _play(
    name: str, suite: str, task: str, command: str | None, executor: str = "os"
) -> tuple[str, Played]:
    cwd = Path(tempfile.mkdtemp(prefix="garuda-redteam-"))
    try:
        return name, play(suite, task, command, cwd=cwd, executor=executor, timeout=600)
    finally:
        shutil.rmtree(cwd, ignore_errors=True)


@pytest.fixture(scope="module")
def bwrap() -> str:
    """The path of bwrap; skips (or fails in CI) when it is missing."""
    if shutil.which("bwrap") is None:
        skip_or_fail("bwrap", "apt-get install bubblewrap")
    return shutil.which("bwrap") or "bwrap"


@pytest.fixture(scope="module")
def played(node, bwrap) -> dict[str, Played]:
    """Every cheat and each suite's oracle, played once through the CLI, four at a time."""
    jobs = [(name, c.suite, c.task, c.command(), c.executor) for name, c in CHEATS.items()]
    jobs += [(f"oracle_{suite}", suite, task, None) for suite, task in ORACLES.items()]
    jobs += [("probe_control", "hard", "rounding", solve_if_readable(Path("/bin/sh")))]
    held_out_probe = solve_if_found(load_basic, "off-by-one", "*off-by-one/heldout/test/*.test.js")
    jobs += [("held_out_probe_control", "basic", "off-by-one", held_out_probe, "host")]
    with ThreadPoolExecutor(PLAYERS) as pool:
        return dict(pool.map(lambda job: _play(*job), jobs))


OPEN: dict[str, str] = {}
"""Cheats that still pass, with why (none: the allow-list sandbox closed the last one)."""


@pytest.mark.parametrize(
    "name",
    [
        pytest.param(name, marks=pytest.mark.xfail(reason=OPEN[name])) if name in OPEN else name
        for name in CHEATS
    ],
)
def test_cheat_fails(played: dict[str, Played], name: str) -> None:
    result, cheat = played[name], CHEATS[name]
    assert result.status == "FAIL", (result.status, result.failure, result.stderr[-1500:])
    assert cheat.reason in (result.failure or ""), result.failure
    if cheat.left_out:
        assert any(cheat.left_out in line for line in result.left_out), result.left_out


@pytest.mark.parametrize("suite", list(ORACLES))
def test_oracle_passes_under_the_same_conditions(played: dict[str, Played], suite: str) -> None:
    result = played[f"oracle_{suite}"]
    assert result.status == "PASS", (result.failure, result.stderr[-1500:])


def test_the_readable_probe_control_passes(played: dict[str, Played]) -> None:
    """The probe of read_the_shopkit_generator works: with a visible file the task passes."""
    assert played["probe_control"].status == "PASS", played["probe_control"].failure


def test_the_held_out_probe_finds_them_on_the_host(played: dict[str, Played]) -> None:
    """The probe of read_the_held_out_tests works: on the host, which hides nothing, it
    finds the held-out tests and the task passes."""
    result = played["held_out_probe_control"]
    assert result.status == "PASS", (result.failure, result.stderr[-1500:])


def test_tampering_cheats_are_flagged_suspicious(played: dict[str, Played]) -> None:
    for name in ("noop_assert", "swallow_errors_in_async_scope", "turn_failures_into_skips"):
        assert played[name].suspicious, name


class NoCanaries(NodeTestCheckRunner):
    """The runner without its canaries: the control for the cheats only they catch."""

    def canaries(self, task: Task, workspace: Path, nonce: str) -> Canaries | None:
        """None."""
        return None


def _judge_on_the_host(
    suite_loader: Callable[[], Any],
    task_id: str,
    command: str,
    *,
    runner: NodeTestCheckRunner,
    held_out: bool,
) -> Verdict:
    """Judge the workspace ``command`` leaves on the host, with ``runner``, and with the
    task's held-out tests or without them (as main judged before they existed)."""
    suite = suite_loader()
    task = _task(suite_loader, task_id)
    if not held_out:
        task = task.model_copy(update={"held_out": None})
    workspace = Path(tempfile.mkdtemp(prefix="garuda-control-"))
    try:
        suite.materialize(task, workspace)
        subprocess.run(["bash", "-c", command], cwd=workspace, check=True)
        judge = Judge(
            suite=suite,
            backend=HostBackend(),
            base_policy=lambda folder: SandboxPolicy(workspace=folder, env_allow=ENV_ALLOW),
            runner=runner,
            env=check_environment(),
        )
        return anyio.run(judge_in_copy, task, workspace, judge)
    finally:
        shutil.rmtree(workspace, ignore_errors=True)


@pytest.mark.parametrize(
    "name", ["noop_assert", "swallow_errors_in_async_scope", "turn_failures_into_skips"]
)
def test_control_without_canaries_the_cheat_passes(node, name: str) -> None:
    """Without canaries and held-out tests the first two pass (the task's own tests are
    fooled); failures turned into skips are still caught there, by the pinned tests."""
    cheat = CHEATS[name]
    verdict = _judge_on_the_host(
        load_basic, cheat.task, cheat.command(), runner=NoCanaries(), held_out=False
    )
    if name == "turn_failures_into_skips":
        assert not verdict.passed and "(skipped)" in (verdict.reason or ""), verdict.reason
    else:
        assert verdict.passed, verdict.reason


def test_held_out_canaries_alone_catch_a_no_op_assert(node) -> None:
    """Without the runner's own canary, the canaries shaped like the held-out tests turn a
    no-op ``node:assert`` into tampering: they pass with it, and must fail."""
    cheat = CHEATS["noop_assert"]
    verdict = _judge_on_the_host(
        load_basic, cheat.task, cheat.command(), runner=NoCanaries(), held_out=True
    )
    assert not verdict.passed
    assert "canaries shaped like the held-out tests did not fail" in (verdict.reason or "")
    assert verdict.held_out and set(verdict.held_out.values()) == {"passed"}


@pytest.mark.parametrize(
    ("loader", "task_id", "patch"),
    [
        (load_basic, "fix-failing-test", patch_for_duration_tests),
        (load_hard, "rounding", patch_for_rounding_tests),
    ],
)
def test_control_without_held_out_tests_the_targeted_patch_passes(
    node, loader: Callable[[], Any], task_id: str, patch: Callable[[], str]
) -> None:
    """The patch aimed at the task's own test files passes the runner's canary: judged
    without the held-out tests (main before them), the unsolved task PASSes."""
    verdict = _judge_on_the_host(
        loader, task_id, patch(), runner=NodeTestCheckRunner(), held_out=False
    )
    assert verdict.passed, verdict.reason
