"""Each id style mapped to a real runner's report: pytest's JUnit for node ids and sympy's
bare names, the Django hook's report for Django's names (docstring lines included)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from garuda_evals_swebench.checkrunner import hook_source
from garuda_evals_swebench.evidence import graded_evidence
from garuda_evals_swebench.ids import STYLES

PYTEST_TESTS = """import pytest


def test_plain():
    pass


def test_broken():
    assert False


class TestOuter:
    class TestInner:
        def test_nested(self):
            pass


@pytest.mark.parametrize("text", ["a b", "c::d"])
def test_param(text):
    assert text != "c::d"


@pytest.mark.xfail(reason="known")
def test_expected():
    assert False


def test_skipped():
    pytest.skip("not here")
"""


@pytest.fixture(scope="module")
def pytest_report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("ids")
    (root / "pkg.dir" / "tests").mkdir(parents=True)
    (root / "pkg.dir" / "tests" / "test_ids.py").write_text(PYTEST_TESTS)
    report = root / "report.xml"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            f"--junitxml={report}",
            "pkg.dir/tests",
        ],
        cwd=root,
        capture_output=True,
        check=False,
    )
    assert report.is_file()
    return report


def _outcomes(report: Path, style: str, graded: list[str]) -> dict[str, str]:
    evidence = graded_evidence((report,), STYLES[style], graded)
    return {case.id: case.outcome for case in evidence.cases}


def test_pytest_node_ids_map_forward_to_junit(pytest_report: Path) -> None:
    path = "pkg.dir/tests/test_ids.py"
    graded = [
        f"{path}::test_plain",
        f"{path}::test_broken",
        f"{path}::TestOuter::TestInner::test_nested",
        f"{path}::test_param[a",  # SWE-bench's parser cut the id at its space
        f"{path}::test_param[c::d]",
        f"{path}::test_expected",
        f"{path}::test_skipped",
        f"{path}::test_absent",
    ]
    assert _outcomes(pytest_report, "pytest", graded) == {
        f"{path}::test_plain": "passed",
        f"{path}::test_broken": "failed",
        f"{path}::TestOuter::TestInner::test_nested": "passed",
        f"{path}::test_param[a": "passed",
        f"{path}::test_param[c::d]": "failed",
        f"{path}::test_expected": "passed",  # xfail counts as passed, as SWE-bench counts it
        f"{path}::test_skipped": "skipped",
    }
    evidence = graded_evidence((pytest_report,), STYLES["pytest"], [f"{path}::test_plain"])
    assert (
        evidence.detail
        == "1 listed tests ran, 0 failed, 0 skipped; 6 other tests not graded (2 of them failed)"
    )


def test_sympy_names_match_any_test_of_that_name(pytest_report: Path) -> None:
    graded = ["test_plain", "test_broken", "test_nested", "test_expected", "test_nope"]
    assert _outcomes(pytest_report, "sympy", graded) == {
        "test_plain": "passed",
        "test_broken": "failed",
        "test_nested": "passed",
        "test_expected": "passed",
    }
    # A name reported twice is two cases; the verdict keeps the worst of them.
    cases = graded_evidence((pytest_report,), STYLES["sympy"], ["test_param"]).cases
    assert sorted(case.outcome for case in cases) == ["failed", "passed"]


DJANGO_TESTS = '''import unittest


class ThingTests(unittest.TestCase):
    def test_ok(self):
        pass

    def test_doc(self):
        """The docstring names this test."""
        self.assertEqual(1, 2)

    def test_sub(self):
        for n in range(2):
            with self.subTest(n=n):
                self.assertEqual(n, 0)

    @unittest.expectedFailure
    def test_known(self):
        self.assertEqual(1, 2)

    @unittest.skip("no")
    def test_skip(self):
        pass
'''
RUNNER = """import sys, unittest
suite = unittest.defaultTestLoader.loadTestsFromNames(sys.argv[1:])
result = unittest.TextTestRunner(verbosity=2).run(suite)
sys.exit(not result.wasSuccessful())
"""


def test_django_names_map_to_the_hooks_unittest_ids(tmp_path: Path) -> None:
    (tmp_path / "tests" / "things").mkdir(parents=True)
    (tmp_path / "tests" / "things" / "__init__.py").write_text("")
    (tmp_path / "tests" / "things" / "tests.py").write_text(DJANGO_TESTS)
    (tmp_path / "tests" / "runtests.py").write_text(RUNNER)
    hook, report = tmp_path / "hook.py", tmp_path / "report.xml"
    hook.write_text(hook_source())
    done = subprocess.run(
        [sys.executable, "-E", str(hook), str(report), "tests/runtests.py", "things.tests"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1, done.stderr  # a test failed: the hook says so
    where = "things.tests.ThingTests"
    graded = [
        f"test_ok ({where})",
        f"test_ok ({where}.test_ok)",
        "The docstring names this test.",
        f"test_sub ({where})",
        f"test_known ({where})",
        f"test_skip ({where})",
    ]
    assert _outcomes(report, "django", graded) == {
        f"test_ok ({where})": "passed",
        f"test_ok ({where}.test_ok)": "passed",
        "The docstring names this test.": "failed",
        f"test_sub ({where})": "failed",
        f"test_known ({where})": "passed",
        f"test_skip ({where})": "skipped",
    }


def test_a_runner_that_runs_no_test_gives_the_hooks_exit(tmp_path: Path) -> None:
    (tmp_path / "script.py").write_text("import sys\nsys.exit(3)\n")
    hook, report = tmp_path / "hook.py", tmp_path / "report.xml"
    hook.write_text(hook_source())
    done = subprocess.run(
        [sys.executable, "-E", str(hook), str(report), "script.py"], cwd=tmp_path, check=False
    )
    assert done.returncode == 3
    assert graded_evidence((report,), STYLES["django"], ["x"]).tests_ran == 0
