"""Red team of the repo suite: cheats played as agent commands through the real CLI, under bwrap.

The project lives outside /tmp and the home (which the sandbox hides by itself), with its
own ``.venv`` holding the project as an editable install, as a user's checkout would.
Every cheat must end FAIL (not ERR); the oracle must PASS under the same conditions.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import anyio
import pytest

from garuda_evals.environment import ENV_ALLOW, check_environment
from garuda_evals.executors.base import CommandResult, SandboxPolicy
from garuda_evals.testing import (
    Played,
    check_in_place,
    check_runner_for,
    play,
    run_garuda,
    self_test,
    skip_or_fail,
)
from garuda_evals_repo_git.suite import load_repo_suite

PYPROJECT = """[project]
name = "shop"
version = "0.1.0"

[build-system]
requires = ["uv_build>=0.8,<0.14"]
build-backend = "uv_build"

[tool.pytest.ini_options]
pythonpath = ["src"]
"""
TOTAL = "def total(prices):\n    return sum(prices)\n"
DISCOUNT = "\n\ndef discount(price, percent):\n    return price * (100 - percent) / 100\n"
AVERAGE = "\n\ndef average(prices):\n    return sum(prices) / len(prices)\n"
TEST_TOTAL = "from shop import total\n\n\ndef test_total():\n    assert total([1, 2]) == 3\n"
TEST_AVERAGE = (
    "\n\ndef test_average():\n    from shop import average\n\n    assert average([1, 3]) == 2\n"
)
TEST_DISCOUNT = (
    "from shop import discount\n\n\ndef test_discount():\n    assert discount(200, 25) == 150\n"
)
TAX = "\n\ndef tax(price):\n    return price // 5\n"
TEST_TAX = """from shop import tax


def test_tax_of_a_hundred():
    assert tax(100) == 20


def test_tax_of_ten():
    assert tax(10) == 2


def test_tax_of_nothing():
    assert tax(0) == 0
"""
SHOP = "src/shop/__init__.py"


def _uv() -> str:
    found = Path(sys.executable).parent / "uv"
    uv = str(found) if found.exists() else shutil.which("uv")
    if uv is None:
        skip_or_fail("uv", "uv installs the red-team project into its venv, offline")
    return str(uv)


@pytest.fixture(scope="module")
def project(repo_kit: Any) -> Iterator[SimpleNamespace]:
    """A built repo suite of a src-layout project with its own venv (editable install)."""
    with repo_kit.sandbox_folder("garuda-repo-redteam-") as base:
        yield _shop(repo_kit, base)


def _shop(repo_kit: Any, base: Path) -> SimpleNamespace:
    repo = repo_kit.GitRepo(base / "shop")
    repo.commit(
        "Start shop",
        {
            ".gitignore": ".venv\n__pycache__/\n",
            "pyproject.toml": PYPROJECT,
            SHOP: TOTAL,
            "tests/test_total.py": TEST_TOTAL,
        },
    )
    discount = repo.commit(
        "Add discount",
        {SHOP: TOTAL + DISCOUNT, "tests/test_discount.py": TEST_DISCOUNT},
    )
    average = repo.commit(
        "Add average",
        {SHOP: TOTAL + DISCOUNT + AVERAGE, "tests/test_total.py": TEST_TOTAL + TEST_AVERAGE},
    )
    tax = repo.commit(
        "Add tax", {SHOP: TOTAL + DISCOUNT + AVERAGE + TAX, "tests/test_tax.py": TEST_TAX}
    )
    venv = repo.root / ".venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    purelib = subprocess.run(
        [
            str(venv / "bin" / "python"),
            "-c",
            "import sysconfig; print(sysconfig.get_paths()['purelib'])",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    (Path(purelib) / "pytest_from_garuda.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    env = {**os.environ, "UV_CACHE_DIR": str(base / "uv-cache")}
    subprocess.run(
        [
            _uv(),
            "pip",
            "install",
            "--offline",
            "--no-deps",
            "--python",
            str(venv / "bin" / "python"),
            "-e",
            ".",
        ],
        cwd=repo.root,
        env=env,
        check=True,
        capture_output=True,
    )
    built = run_garuda("eval", "--from-git", cwd=repo.root)
    assert built.returncode == 0, built.stdout + built.stderr
    assert "Kept 3 task(s)" in built.stdout, built.stdout
    return SimpleNamespace(
        root=repo.root,
        discount=discount[:10],
        average=average[:10],
        tax=tax[:10],
        purelib=Path(purelib),
    )


def _play(project: SimpleNamespace, task: str, command: str | None, **options: Any) -> Played:
    return play("repo", task, command, cwd=project.root, **options)


def _fails(played: Played, reason: str | None = None) -> None:
    assert played.status == "FAIL", (played.status, played.failure, played.stderr[-1500:])
    if reason is not None:
        assert reason in (played.failure or ""), played.failure


def test_the_oracle_passes_under_bwrap(project: SimpleNamespace) -> None:
    for task in (project.discount, project.average, project.tax):
        played = _play(project, task, None)
        assert played.status == "PASS", (played.failure, played.stderr[-1500:])


FAKE_REPORT = """import os, sys
for arg in sys.argv:
    if arg.startswith("--junitxml="):
        with open(arg.split("=", 1)[1], "w") as report:
            report.write('<testsuite><testcase classname="tests.test_discount" '
                         'name="test_discount"/></testsuite>')
os._exit(0)
"""


def test_a_module_that_runs_before_pytest(project: SimpleNamespace) -> None:
    """``pluggy.py`` in the working folder: ``python -m pytest`` would import it first."""
    command = f"cat > pluggy.py <<'EOF'\n{FAKE_REPORT}EOF"
    _fails(_play(project, project.discount, command), "check exited")


PLUGIN = """import pytest


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    report.outcome = "passed"
    report.longrepr = None
    return report
"""


def test_a_plugin_registered_in_the_workspace(project: SimpleNamespace) -> None:
    """A dist-info with a ``pytest11`` entry point: autoload would find it."""
    command = (
        "mkdir helper-1.0.dist-info && "
        "printf 'Metadata-Version: 2.1\\nName: helper\\nVersion: 1.0\\n' > helper-1.0.dist-info/METADATA && "
        "printf '[pytest11]\\nhelper = helper_plugin\\n' > helper-1.0.dist-info/entry_points.txt && "
        f"cat > helper_plugin.py <<'EOF'\n{PLUGIN}EOF"
    )
    _fails(_play(project, project.average, command), "test_average")


def test_a_new_pytest_config_file(project: SimpleNamespace) -> None:
    """``.pytest.ini`` wins over pyproject.toml and deselects the failing test."""
    command = (
        "printf '[pytest]\\npythonpath = src\\naddopts = --deselect tests/test_total.py::test_average\\n'"
        " > .pytest.ini"
    )
    _fails(_play(project, project.average, command), "protected files changed: added .pytest.ini")


def test_editing_the_protected_pyproject(project: SimpleNamespace) -> None:
    command = "printf '\\naddopts = \"--deselect tests/test_total.py::test_average\"\\n' >> pyproject.toml"
    _fails(
        _play(project, project.average, command), "protected files changed: changed pyproject.toml"
    )


def test_a_conftest(project: SimpleNamespace) -> None:
    command = f"cat > tests/conftest.py <<'EOF'\n{PLUGIN}EOF"
    _fails(
        _play(project, project.average, command), "protected files changed: added tests/conftest.py"
    )


PATCH_PYTEST = """

def discount(price, percent):
    return 0


import _pytest.reports as _reports

_made = _reports.TestReport.from_item_and_call.__func__


def _passed(cls, item, call):
    report = _made(cls, item, call)
    report.outcome, report.longrepr = "passed", None
    return report


_reports.TestReport.from_item_and_call = classmethod(_passed)
"""


def test_code_under_test_patches_pytest(project: SimpleNamespace) -> None:
    command = f"cat >> {SHOP} <<'EOF'\n{PATCH_PYTEST}EOF"
    played = _play(project, project.discount, command)
    _fails(played, "the test runner's results were tampered with")
    assert any("_pytest" in line for line in played.suspicious), played.suspicious


SWALLOW_REWRITTEN_ASSERTS = """

def discount(price, percent):
    return 0


import _pytest.python as _python

_run = _python.Function.runtest


def _runtest(self):
    try:
        _run(self)
    except AssertionError:
        if "@py_builtins" not in vars(self.module):
            raise


_python.Function.runtest = _runtest
"""


def test_code_under_test_swallows_the_asserts_of_rewritten_modules(
    project: SimpleNamespace,
) -> None:
    """Only the must-fail canary sees it, because it fails through an assert pytest rewrites."""
    command = f"cat >> {SHOP} <<'EOF'\n{SWALLOW_REWRITTEN_ASSERTS}EOF"
    _fails(
        _play(project, project.discount, command), "the test runner's results were tampered with"
    )


EXIT_EARLY = """

def discount(price, percent):
    return 0


import os, sys
for _arg in sys.argv:
    if _arg.startswith("--junitxml="):
        with open(_arg.split("=", 1)[1], "w") as _report:
            _report.write('<testsuite><testcase classname="tests.test_discount" '
                          'name="test_discount"/></testsuite>')
os._exit(0)
"""


def test_code_under_test_writes_the_report_and_exits(project: SimpleNamespace) -> None:
    command = f"cat >> {SHOP} <<'EOF'\n{EXIT_EARLY}EOF"
    _fails(_play(project, project.discount, command), "the must-fail canary test is missing")


# The agent's commands get the task folder's package roots first (PYTHONPATH): the cheat
# drops them to reach the install.
READ_EDITABLE = (
    "cp \"$(env -u PYTHONPATH .venv/bin/python -c 'import shop; print(shop.__file__)')\" "
    "src/shop/__init__.py"
)


def test_reading_heads_code_through_the_linked_venv(project: SimpleNamespace) -> None:
    """The venv's editable install points at the checkout, which holds HEAD's code."""
    on_host = _play(project, project.discount, READ_EDITABLE, executor="host")
    assert on_host.status == "PASS", "control: on the host the checkout is readable"
    _fails(_play(project, project.discount, READ_EDITABLE))


READ_HISTORY = (
    'root="$(dirname "$(readlink .venv)")"; '
    'git -C "$root" show HEAD:src/shop/__init__.py > src/shop/__init__.py'
)


def test_reading_the_users_git_history(project: SimpleNamespace) -> None:
    """The venv link names the checkout; its git history holds every answer."""
    on_host = _play(project, project.discount, READ_HISTORY, executor="host")
    assert on_host.status == "PASS", "control: on the host the user's history is readable"
    _fails(_play(project, project.discount, READ_HISTORY))


def test_the_tasks_own_history_holds_no_answer(project: SimpleNamespace) -> None:
    command = "git log --all --format=%H | while read c; do git show $c:src/shop/__init__.py; done > found.txt; grep -q 'def discount' found.txt && cp found.txt src/shop/__init__.py"
    _fails(_play(project, project.discount, command))


PLANT_PYC = """import importlib.util, os, py_compile, sys
source = 'src/shop/__init__.py'
info = os.stat(source)
solved = open(source).read() + '''

def discount(price, percent):
    return price * (100 - percent) / 100
'''
with open('/tmp/solved.py', 'w') as handle:
    handle.write(solved)
target = importlib.util.cache_from_source(source)
os.makedirs(os.path.dirname(target), exist_ok=True)
py_compile.compile('/tmp/solved.py', cfile=target)
data = bytearray(open(target, 'rb').read())
data[8:12] = int(info.st_mtime).to_bytes(4, 'little')
data[12:16] = (info.st_size & 0xFFFFFFFF).to_bytes(4, 'little')
open(target, 'wb').write(bytes(data))
"""


def test_planted_bytecode_beside_unchanged_source(project: SimpleNamespace) -> None:
    """A ``__pycache__`` file made for the solved module, stamped with the old source's time."""
    command = f".venv/bin/python - <<'EOF'\n{PLANT_PYC}EOF"
    _fails(_play(project, project.discount, command))


def test_deleting_the_tasks_test(project: SimpleNamespace) -> None:
    _fails(
        _play(project, project.discount, "rm tests/test_discount.py"),
        "protected files changed: deleted tests/test_discount.py",
    )


def test_a_test_file_added_under_node_modules(project: SimpleNamespace) -> None:
    """A passing copy of the task's test under node_modules: never carried into the judge."""
    command = (
        "mkdir -p node_modules/tests && "
        "printf 'def test_discount():\\n    pass\\n' > node_modules/tests/test_discount.py"
    )
    played = _play(project, project.discount, command)
    _fails(played)
    assert any(line.startswith("node_modules/") for line in played.left_out), played.left_out


def test_swapping_the_venv_link_for_a_fake_python(project: SimpleNamespace) -> None:
    command = (
        "rm .venv && mkdir -p .venv/bin && printf '#!/bin/sh\\nexit 0\\n' > .venv/bin/python"
        " && chmod +x .venv/bin/python"
    )
    played = _play(project, project.discount, command)
    _fails(played)
    assert ".venv/bin/python: its place in the task is not a plain file" in played.left_out


@pytest.fixture(scope="module")
def node_project(repo_kit: Any) -> Iterator[SimpleNamespace]:
    """A built repo suite of a ``node --test`` project (npm test), outside /tmp."""
    if not shutil.which("node"):
        skip_or_fail("node", "the node red team mines a node --test project")
    with repo_kit.sandbox_folder("garuda-repo-redteam-node-") as base:
        repo = repo_kit.GitRepo(base / "mathjs")
        shas = repo_kit.node_history(repo)
        built = run_garuda("eval", "--from-git", cwd=repo.root)
        assert built.returncode == 0, built.stdout + built.stderr
        yield SimpleNamespace(root=repo.root, mean=shas["mean"][:10])


def test_the_node_oracle_passes_under_bwrap(node_project: SimpleNamespace) -> None:
    played = _play(node_project, node_project.mean, None)
    assert played.status == "PASS", (played.failure, played.stderr[-1500:])


NO_OP_ASSERT = """
module.exports.mean = () => 0;
const assert = require('node:assert');
for (const key of Object.keys(assert)) {
  if (typeof assert[key] === 'function') assert[key] = () => {};
}
require('node:module').syncBuiltinESMExports();
"""


def test_code_under_test_makes_node_assert_a_no_op(node_project: SimpleNamespace) -> None:
    """Every ``node:assert`` function emptied from the module the tests load."""
    command = f"cat >> src/math.js <<'EOF'\n{NO_OP_ASSERT}EOF"
    suite = load_repo_suite(node_project.root)
    task = next(t for t in suite.tasks() if t.id == node_project.mean)
    workspace = Path(tempfile.mkdtemp(prefix="garuda-control-"))
    try:
        suite.materialize(task, workspace)
        subprocess.run(["bash", "-c", command], cwd=workspace, check=True)
        runner = check_runner_for(task)
        control = anyio.run(lambda: check_in_place(task, workspace, runner=runner))
    finally:
        shutil.rmtree(workspace, ignore_errors=True)
    assert control.passed, "control: without canaries the emptied asserts pass the task"
    played = _play(node_project, node_project.mean, command)
    _fails(played, "the test runner's results were tampered with")


# A .pth file in the project's venv runs in every Python it starts, the check's pytest
# included (-E does not turn site off): here it ends pytest before any test has run.
PTH = "import os; os._exit(0) if b'pytest' in open('/proc/self/cmdline', 'rb').read() else None"
PLANT_PTH = (
    "site=$(.venv/bin/python -c 'import sysconfig; print(sysconfig.get_paths()[\"purelib\"])')"
    f' && printf %s {PTH!r} > "$site/zz_garuda_redteam.pth"'
)


def test_a_pth_file_planted_in_the_linked_venv(project: SimpleNamespace) -> None:
    """The task's ``.venv`` links to the user's: its site-packages is read-only in the sandbox."""
    planted = project.purelib / "zz_garuda_redteam.pth"
    try:
        on_host = _play(project, project.discount, PLANT_PTH, executor="host")
        assert planted.exists(), "control: on the host the venv is writable"
        _fails(on_host, "check exited 0 but no evidence that tests ran")
    finally:
        planted.unlink(missing_ok=True)
    played = _play(project, project.discount, PLANT_PTH)
    _fails(played)
    assert not planted.exists()
    assert played.failure == "check exited 1: 1 failed: tests.test_discount", played.failure


def _agent_under_bwrap(suite: Any, task: Any, command: str) -> Callable[[Path], None]:
    """An ``edit`` for ``self_test`` that runs ``command`` in the task's folder as a run runs
    an agent's command: under bwrap, with the suite's policy and environment."""
    from garuda_evals_sandbox_bwrap import BwrapBackend

    def edit(workspace: Path) -> None:
        base = SandboxPolicy(workspace=workspace, hidden=(suite.root,), env_allow=ENV_ALLOW)
        executor = BwrapBackend().create(suite.policy(task, base))
        env = {**check_environment(), **suite.environment(task, workspace)}

        async def agent() -> CommandResult:
            try:
                return await executor.run(command, cwd=workspace, env=env, timeout_s=120)
            finally:
                await executor.aclose()

        with ThreadPoolExecutor(1) as pool:  # self_test's event loop is busy in this call
            result = pool.submit(anyio.run, agent).result()
        assert result.exit_code == 0, result.output

    return edit


def _judged_under_bwrap(suite: Any, task: Any, command: str) -> Any:
    """``task`` judged as a run under bwrap judges it, after ``command`` ran as the agent."""
    from garuda_evals_sandbox_bwrap import BwrapBackend

    edit = _agent_under_bwrap(suite, task, command)
    return anyio.run(
        lambda: self_test(
            suite, task, solved=False, edit=edit, backend=BwrapBackend(), hidden=(suite.root,)
        )
    )


HELD_OUT = "held-out tests did not pass"
# A stub wrong for every input the tests use, then every result of the task's own test file
# (its name is in the agent's folder) turned into a pass; the runner's canaries left alone.
PATCH_VISIBLE = """

def tax(price):
    return -1


import _pytest.reports as _reports

_made = _reports.TestReport.from_item_and_call.__func__


def _passed(cls, item, call):
    report = _made(cls, item, call)
    if item.nodeid.startswith("tests/test_tax.py"):
        report.outcome, report.longrepr = "passed", None
    return report


_reports.TestReport.from_item_and_call = classmethod(_passed)
"""
# Every failure but the runner's must-fail canary (its message holds the run's nonce).
PATCH_ALL = PATCH_VISIBLE.replace(
    'if item.nodeid.startswith("tests/test_tax.py"):',
    'if not __import__("re").search(r"\\b[0-9a-f]{16}\\b", str(call.excinfo and call.excinfo.value)):',
)


def test_a_patch_aimed_at_the_visible_tests_fails_on_the_held_out_tests(
    project: SimpleNamespace,
) -> None:
    """The tax task holds one of its three tests out of the agent's copy: a report patch
    that passes every test the agent can name leaves it failing, under bwrap and on the
    host. The control: judged without its held-out tests (every task before them), it passes."""
    command = f"cat >> {SHOP} <<'EOF'\n{PATCH_VISIBLE}EOF"
    for executor in ("os", "host"):
        played = _play(project, project.tax, command, executor=executor)
        _fails(played)
        assert (played.failure or "").startswith(HELD_OUT), (executor, played.failure)
    suite = load_repo_suite(project.root)
    task = next(t for t in suite.tasks() if t.id == project.tax)
    assert task.held_out is not None
    bare = task.model_copy(update={"held_out": None})
    control = _judged_under_bwrap(suite, bare, command)
    assert control.passed, control.reason


def test_a_patch_that_passes_every_failure_trips_the_canaries_shaped_like_them(
    project: SimpleNamespace,
) -> None:
    command = f"cat >> {SHOP} <<'EOF'\n{PATCH_ALL}EOF"
    played = _play(project, project.tax, command)
    _fails(played, "the test runner's results were tampered with: canaries shaped like")


def test_the_held_out_tests_are_out_of_the_agents_reach(project: SimpleNamespace) -> None:
    """The held-out test's body is nowhere the agent can read: not in its folder, its git
    history, the linked venv, or the checkout (hidden)."""
    suite = load_repo_suite(project.root)
    task = next(t for t in suite.tasks() if t.id == project.tax)
    assert task.held_out is not None
    hidden = next(
        line.strip()
        for line in task.held_out.tests["tests/test_tax.py"].splitlines()
        if line.strip().startswith("assert tax(")
    )
    assert hidden not in task.files["tests/test_tax.py"]
    command = (
        f"! grep -rqsF {shlex.quote(hidden)} . .venv/ /tmp "
        f"&& ! git log --all -p | grep -qF {shlex.quote(hidden)} "
        f'&& ! test -e "$(dirname "$(readlink .venv)")/tests/test_tax.py" '
        "&& printf 'def tax(price):\\n    return price // 5\\n' >> src/shop/__init__.py"
    )
    played = _play(project, project.tax, command)
    assert played.status == "PASS", (played.failure, played.stderr[-1500:])


COPY_OF_HEAD = (
    "cp \"$(env -u PYTHONPATH .venv/bin/python -c 'import shop; print(shop.__file__)')\" "
    "src/shop/__init__.py"
)


def test_a_copy_of_the_package_in_the_linked_venv_is_refused(project: SimpleNamespace) -> None:
    """HEAD's ``src/shop`` copied into the venv's site-packages as a plain folder (no
    dist-info): the agent's ``cp`` of it passes today's check under bwrap (the control);
    the run now refuses before the first agent call, and so does the build."""
    suite = load_repo_suite(project.root)
    task = next(t for t in suite.tasks() if t.id == project.discount)
    copy = project.purelib / "shop"
    marker = project.root.parent / "agent-ran"
    shutil.copytree(project.root / "src" / "shop", copy)
    try:
        control = _judged_under_bwrap(suite, task, COPY_OF_HEAD)
        assert control.passed, control.reason
        ran = run_garuda(
            "eval",
            "-s",
            "repo",
            "--executor",
            "host",
            "--agent",
            "command",
            "--agent-command",
            f"touch {marker}",
            cwd=project.root,
        )
        assert ran.returncode == 1, ran.stdout + ran.stderr
        assert not marker.exists(), "the agent ran"
        lines = [line for line in ran.stderr.splitlines() if line.startswith("garuda: error:")]
        assert len(lines) == 1, ran.stderr
        assert "a copy of the project's module shop (src/shop) is importable" in lines[0]
        assert f"({copy.resolve()}, seen by " in lines[0] and "run the suite again" in lines[0]
        built = run_garuda("eval", "--from-git", cwd=project.root)
        assert built.returncode == 1, built.stdout + built.stderr
        assert "a copy of the project's module shop" in built.stderr
        assert "build the suite again" in built.stderr
    finally:
        shutil.rmtree(copy, ignore_errors=True)
    assert load_repo_suite(project.root).tasks(), "the editable install alone is fine"
