"""Mutation testing's test lists grow with the modules: a test file that imports a mutated
module is run against its mutants, or listed as not run, never silently left out."""

from __future__ import annotations

import importlib.util
import io
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def run() -> ModuleType:
    spec = importlib.util.spec_from_file_location("mutation_run", ROOT / "mutation" / "run.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_every_test_file_that_imports_a_mutated_module_is_listed(run: ModuleType) -> None:
    assert run.unlisted_tests(run.MODULES) == []


def test_the_listed_files_exist(run: ModuleType) -> None:
    listed = {test for module in run.MODULES for test in module.tests}
    listed |= {test for tests in run.NOT_RUN.values() for test in tests}
    assert sorted(test for test in listed if not (ROOT / test).is_file()) == []
    assert set(run.NOT_RUN) <= {module.name for module in run.MODULES}


IMPORTS = {
    "test_from_module.py": "from garuda_evals.judging.verdict import Verdict\n",
    "test_from_package.py": "from garuda_evals.judging import verdict\n",
    "test_import_as.py": "import garuda_evals.judging.verdict as v\n",
    "test_nested.py": "def f():\n    from garuda_evals.judging.verdict import x\n",
    "test_other.py": "from garuda_evals.judging.verdict_extra import x\n",
    "test_package_only.py": "from garuda_evals.judging import judge\n",
    "test_listed.py": "from garuda_evals.judging.verdict import Verdict\n",
    "helpers.py": "from garuda_evals.judging.verdict import Verdict\n",
}


def test_a_new_test_file_that_imports_a_mutated_module_is_named(
    run: ModuleType, tmp_path: Path
) -> None:
    source = tmp_path / "core/src/garuda_evals/judging/verdict.py"
    source.parent.mkdir(parents=True)
    source.write_text("")
    tests = tmp_path / "core/tests"
    tests.mkdir(parents=True)
    for name, text in IMPORTS.items():
        (tests / name).write_text(text)
    module = run.Module(
        "verdict", "core/src/garuda_evals/judging/verdict.py", ("core/tests/test_listed.py",)
    )
    found = sorted(test for _, test in run.unlisted_tests((module,), tmp_path))
    assert found == [
        "core/tests/test_from_module.py",
        "core/tests/test_from_package.py",
        "core/tests/test_import_as.py",
        "core/tests/test_nested.py",
    ]


def test_the_run_warns_with_one_line_per_file(
    run: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    verdict = next(module for module in run.MODULES if module.name == "verdict")
    monkeypatch.setitem(run.NOT_RUN, "verdict", ())
    stream = io.StringIO()
    run.warn_unlisted((verdict,), stream)
    assert stream.getvalue().splitlines() == [
        "warning: core/tests/test_judge.py imports garuda_evals.judging.verdict but is not "
        "among the tests of the 'verdict' mutants (add it to its Module in MODULES, or to "
        "NOT_RUN with why)"
    ]
