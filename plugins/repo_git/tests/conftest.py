"""Helpers that build real git repositories with a history for the repo_git tests."""

from __future__ import annotations

import contextlib
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace

import pytest


class GitRepo:
    """A real git repository in a test folder, written commit by commit."""

    def __init__(self, root: Path) -> None:
        self.root = root
        root.mkdir(parents=True, exist_ok=True)
        self.git("init", "-q", "-b", "main")
        self.git("config", "user.name", "Test Author")
        self.git("config", "user.email", "author@example.com")
        self.git("config", "commit.gpgsign", "false")

    def git(self, *args: str) -> str:
        """Run git in the repository and return stdout."""
        result = subprocess.run(
            ["git", "-C", str(self.root), *args], capture_output=True, text=True, check=True
        )
        return result.stdout

    def commit(
        self,
        message: str,
        files: dict[str, str | bytes] | None = None,
        delete: tuple[str, ...] = (),
    ) -> str:
        """Write ``files``, delete ``delete``, commit everything; return the new hash."""
        for relative, content in (files or {}).items():
            path = self.root / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(content, bytes):
                path.write_bytes(content)
            else:
                path.write_text(content, encoding="utf-8")
        for relative in delete:
            (self.root / relative).unlink()
        self.git("add", "-A")
        self.git("commit", "-q", "--allow-empty", "-m", message)
        return self.head()

    def head(self) -> str:
        """The hash of HEAD."""
        return self.git("rev-parse", "HEAD").strip()

    def state(self) -> tuple[str, str, str, bytes]:
        """HEAD, the branch, ``git status --porcelain`` and the index file's bytes."""
        index = (self.root / ".git" / "index").read_bytes()
        return (
            self.head(),
            self.git("symbolic-ref", "-q", "HEAD").strip(),
            self.git("status", "--porcelain", "--untracked-files=all"),
            index,
        )


@pytest.fixture
def make_repo(tmp_path: Path) -> Callable[[str], GitRepo]:
    """``make_repo(name)`` makes an empty repository under the test's folder."""
    return lambda name: GitRepo(tmp_path / name)


def link_python_env(root: Path) -> None:
    """Give a test project a ``.venv`` that is this interpreter's environment (it has pytest)."""
    (root / ".venv").symlink_to(Path(sys.prefix), target_is_directory=True)


PYPROJECT = """[project]
name = "calc"
version = "0.1.0"

[tool.pytest.ini_options]
pythonpath = ["src"]
"""
CALC = "def add(a, b):\n    return a + b\n"
TEST_CALC = "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n"
FLAKY_TEST = """from pathlib import Path

from calc import multiply


def test_multiply():
    counter = Path(".flaky-count")
    runs = int(counter.read_text()) if counter.exists() else 0
    counter.write_text(str(runs + 1))
    assert multiply(2, 3) == 6
    assert runs % 2 == 0, "fails every second run"
"""


def python_history(repo: GitRepo) -> dict[str, str]:
    """A pytest project whose history hits every file rule and every proof outcome."""
    shas: dict[str, str] = {}
    shas["root"] = repo.commit(
        "Start calc",
        {
            ".gitignore": ".venv\n__pycache__/\n",
            "pyproject.toml": PYPROJECT,
            "src/calc.py": CALC,
            "tests/test_calc.py": TEST_CALC,
            "tests/test_legacy.py": "from calc import legacy\n\n\ndef test_legacy():\n"
            "    assert legacy() == 1\n",
            "src/legacy_note.py": "",
        },
    )
    repo.commit("Add legacy", {"src/calc.py": CALC + "\n\ndef legacy():\n    return 1\n"})
    calc = CALC + "\n\ndef legacy():\n    return 1\n"
    calc_sub = calc + "\n\ndef subtract(a, b):\n    return a - b\n"
    shas["subtract"] = repo.commit(
        "Add subtract (#12)\n\nNeeded by the report, see https://example.com/issues/12.",
        {
            "src/calc.py": calc_sub,
            "tests/test_subtract.py": "from calc import subtract\n\n\ndef test_subtract():\n"
            "    assert subtract(5, 3) == 2\n",
        },
    )
    shas["docs"] = repo.commit("Describe calc", {"README.md": "# calc\n"})
    calc_mul = calc_sub + "\n\ndef multiply(a, b):\n    return a * b\n"
    shas["flaky"] = repo.commit(
        "Add multiply", {"src/calc.py": calc_mul, "tests/test_multiply.py": FLAKY_TEST}
    )
    shas["already"] = repo.commit(
        "Tidy add",
        {
            "src/calc.py": calc_mul.replace("return a + b", "return b + a"),
            "tests/test_add_more.py": "from calc import add\n\n\ndef test_add_zero():\n"
            "    assert add(0, 4) == 4\n",
        },
    )
    calc_now = calc_mul.replace("return a + b", "return b + a")
    many = {f"src/mod{i}.py": f"VALUE = {i}\n" for i in range(11)}
    shas["too_many"] = repo.commit(
        "Add many modules",
        {
            **many,
            "tests/test_mods.py": "import mod0\n\n\ndef test_mod():\n    assert mod0.VALUE == 0\n",
        },
    )
    shas["binary"] = repo.commit(
        "Add a logo",
        {
            "src/logo.bin": b"\x00\x01\x02binary\x00",
            "tests/test_logo.py": "def test_logo():\n    assert True\n",
        },
    )
    shas["manifest"] = repo.commit(
        "Depend on attrs",
        {
            "pyproject.toml": PYPROJECT.replace(
                'version = "0.1.0"', 'version = "0.1.0"\ndependencies = ["attrs"]'
            ),
            "src/calc.py": calc_now + "\n# uses attrs\n",
            "tests/test_attrs.py": "def test_attrs():\n    assert True\n",
        },
    )
    calc_now += "\n# uses attrs\n"
    shas["only_tests"] = repo.commit(
        "Test add with negatives",
        {
            "tests/test_neg.py": "from calc import add\n\n\ndef test_neg():\n    assert add(-1, -1) == -2\n"
        },
    )
    shas["broken"] = repo.commit(
        "Add halve",
        {
            "src/calc.py": calc_now + "\n\ndef halve(a):\n    return a / 2\n",
            "tests/test_halve.py": "from calc import halve\n\n\ndef test_halve():\n"
            "    assert halve(5) == 2\n",
        },
    )
    calc_now += "\n\ndef halve(a):\n    return a / 2\n"
    calc_pow = calc_now.replace("\n\ndef legacy():\n    return 1\n", "") + (
        "\n\ndef power(a, b):\n    return a**b\n"
    )
    shas["power"] = repo.commit(
        "Add power and drop legacy (#45)\n\nFollow-up to 1a2b3c4d5e6f, details in "
        "<https://example.com/pr/45>. Fixes #44.\n\nSigned-off-by: Test Author <author@example.com>",
        {
            "src/calc.py": calc_pow,
            "tests/test_power.py": "from calc import power\n\n\ndef test_power():\n"
            "    assert power(2, 10) == 1024\n",
        },
        delete=("tests/test_legacy.py",),
    )
    shas["negate"] = repo.commit(
        "Add negate",
        {
            "src/calc.py": calc_pow + "\n\ndef negate(a):\n    return -a\n",
            "tests/test_calc.py": TEST_CALC + "\n\ndef test_negate():\n"
            "    from calc import negate\n\n    assert negate(3) == -3\n",
        },
    )
    calc_neg = calc_pow + "\n\ndef negate(a):\n    return -a\n"
    shas["empty"] = repo.commit("Nothing")
    shas["data_only"] = repo.commit(
        "Refresh sample data",
        {"src/calc.py": calc_neg + "\n# data v2\n", "tests/data.json": "[1, 2]\n"},
    )
    repo.git("checkout", "-q", "-b", "side", "HEAD~1")
    shas["side"] = repo.commit("Note on the side", {"NOTES.txt": "side\n"})
    repo.git("checkout", "-q", "main")
    repo.git("merge", "-q", "--no-ff", "-m", "Merge side", "side")
    shas["merge"] = repo.head()
    return shas


@dataclass
class Mined:
    """A mined project: its repository, commits, the build's output and exit code."""

    repo: GitRepo
    shas: dict[str, str]
    output: str
    code: int
    before: tuple[str, str, str, bytes]


def mine(repo: GitRepo, shas: dict[str, str], cwd: Path, **options: object) -> Mined:
    """Run ``--from-git`` on ``repo`` (from ``cwd``) and keep what it said."""
    from garuda_evals_repo_git.builder import GitSuiteBuilder

    repo.git("status")
    before = repo.state()
    lines: list[str] = []
    code = GitSuiteBuilder().build(options, cwd=cwd, echo=lines.append)
    return Mined(repo, shas, "\n".join(lines), code, before)


@pytest.fixture(scope="module")
def mined_python(tmp_path_factory: pytest.TempPathFactory) -> Mined:
    """The pytest project, mined once per module with two proofs at a time."""
    repo = GitRepo(tmp_path_factory.mktemp("py") / "calc")
    shas = python_history(repo)
    link_python_env(repo.root)
    return mine(repo, shas, repo.root / "src", parallel=2)


@pytest.fixture
def git_repo() -> type[GitRepo]:
    """The GitRepo class, for tests that build their own repository."""
    return GitRepo


def _package(version: str = "1.0.0", deps: str = "") -> str:
    extra = f',\n  "dependencies": {{{deps}}}' if deps else ""
    return (
        f'{{\n  "name": "mathjs",\n  "version": "{version}",\n'
        f'  "scripts": {{"test": "node --test"}}{extra}\n}}\n'
    )


def _node_test(name: str, call: str, expected: str) -> str:
    return (
        "const test = require('node:test');\nconst assert = require('node:assert');\n"
        f"const {{ {name} }} = require('../src/math.js');\n\n"
        f"test('{name}', () => {{\n  assert.strictEqual({call}, {expected});\n}});\n"
    )


def _math(*functions: str) -> str:
    bodies = {
        "sum": "function sum(a, b) {\n  return a + b;\n}\n",
        "max": "function max(a, b) {\n  return a > b ? a : b;\n}\n",
        "min": "function min(a, b) {\n  return a < b ? a : b;\n}\n",
        "mean": "function mean(xs) {\n  return xs.reduce((s, x) => s + x, 0) / xs.length;\n}\n",
        "abs": "function abs(a) {\n  return a < 0 ? -a : a;\n}\n",
        "sign": "function sign(a) {\n  return Math.sign(a);\n}\n",
    }
    code = "\n".join(bodies[f] for f in functions)
    return f"{code}\nmodule.exports = {{ {', '.join(functions)} }};\n"


def node_history(repo: GitRepo) -> dict[str, str]:
    """A ``node --test`` project (npm test): package.json rules, lock files and good commits."""
    shas: dict[str, str] = {}
    shas["root"] = repo.commit(
        "Start mathjs",
        {
            ".gitignore": "node_modules\n",
            "package.json": _package(),
            "src/math.js": _math("sum"),
            "test/sum.test.js": _node_test("sum", "sum(1, 2)", "3"),
        },
    )
    shas["max"] = repo.commit(
        "Add max (#3)",
        {
            "src/math.js": _math("sum", "max"),
            "test/max.test.js": _node_test("max", "max(1, 2)", "2"),
        },
    )
    shas["release"] = repo.commit(
        "Add min for 1.1.0",
        {
            "package.json": _package("1.1.0"),
            "src/math.js": _math("sum", "max", "min"),
            "test/min.test.js": _node_test("min", "min(1, 2)", "1"),
        },
    )
    shas["dependency"] = repo.commit(
        "Use left-pad",
        {
            "package.json": _package("1.1.0", '"left-pad": "^1.3.0"'),
            "src/math.js": _math("sum", "max", "min", "abs"),
            "test/abs.test.js": _node_test("abs", "abs(-2)", "2"),
        },
    )
    shas["lock"] = repo.commit(
        "Lock and add sign",
        {
            "package-lock.json": '{"lockfileVersion": 3}\n',
            "src/math.js": _math("sum", "max", "min", "abs", "sign"),
            "test/sign.test.js": _node_test("sign", "sign(-2)", "-1"),
        },
    )
    shas["already"] = repo.commit(
        "Cover sum with zero",
        {
            "src/math.js": _math("sum", "max", "min", "abs", "sign").replace("a + b", "b + a"),
            "test/sum_zero.test.js": _node_test("sum", "sum(0, 5)", "5"),
        },
    )
    shas["mean"] = repo.commit(
        "Add mean",
        {
            "src/math.js": _math("sum", "max", "min", "abs", "sign", "mean").replace(
                "a + b", "b + a"
            ),
            "test/mean.test.js": _node_test("mean", "mean([1, 2, 3])", "2"),
            "docs/api.md": "# API\n\nmean(xs)\n",
        },
    )
    return shas


@pytest.fixture(scope="module")
def mined_node(tmp_path_factory: pytest.TempPathFactory) -> Mined:
    """The node --test project, mined once per module (npm test is detected)."""
    repo = GitRepo(tmp_path_factory.mktemp("node") / "mathjs")
    return mine(repo, node_history(repo), repo.root)


def editable_venv(root: Path, cache: Path) -> Path:
    """Install the project at ``root`` editable into its own ``.venv`` (uv, offline), as a user
    would with ``pip install -e .``; pytest comes from this interpreter's environment."""
    import os
    import shutil
    import sysconfig

    from garuda_evals.testing import skip_or_fail

    found = Path(sys.executable).parent / "uv"
    uv = str(found) if found.exists() else shutil.which("uv")
    if uv is None:
        skip_or_fail("uv", "uv installs the test project into its venv, offline")
    venv = root / ".venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    purelib = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    # Resolved: run from a tree whose .venv is a link in /tmp, the link's path would be one
    # the OS sandbox hides.
    ours = Path(sysconfig.get_paths()["purelib"]).resolve()
    (Path(purelib) / "pytest_from_garuda.pth").write_text(f"{ours}\n")
    installed = subprocess.run(
        [str(uv), "pip", "install", "--offline", "--no-deps", "--python", str(python), "-e", "."],
        cwd=root,
        env={**os.environ, "UV_CACHE_DIR": str(cache)},
        capture_output=True,
        text=True,
        check=False,
    )
    assert installed.returncode == 0, installed.stdout + installed.stderr
    return python


@contextlib.contextmanager
def sandbox_folder(prefix: str) -> Iterator[Path]:
    """A folder for a project whose tasks run under bwrap (required), removed at the end.

    It is made under /var/tmp: the sandbox hides /tmp and the home by itself, so a project
    there would have no ``.venv`` to show, and the checkout it hides would be hidden anyway.
    """
    from garuda_evals.plugins.drivers import EXECUTORS, driver_names
    from garuda_evals.testing import skip_or_fail

    if "bwrap" not in driver_names(EXECUTORS):
        skip_or_fail("bwrap", "install garuda-evals-sandbox-bwrap to run repo tasks sandboxed")
    folder = Path(tempfile.mkdtemp(prefix=prefix, dir="/var/tmp"))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="session")
def repo_kit() -> SimpleNamespace:
    """``GitRepo`` and ``mine`` for fixtures in test modules (conftest cannot be imported)."""
    return SimpleNamespace(
        GitRepo=GitRepo,
        mine=mine,
        node_history=node_history,
        python_history=python_history,
        editable_venv=editable_venv,
        sandbox_folder=sandbox_folder,
    )


JS_RUNNERS = ("vitest@2.1.9", "jest@29.7.0", "mocha@10.8.2")
JS_BINARIES = ("vitest", "jest", "mocha")


@pytest.fixture(scope="session")
def js_runners(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A node_modules with vitest, jest and mocha, installed from npm once into a cache
    folder kept between test sessions (``~/.cache/garuda-evals-tests``), per version set."""
    return npm_cache(tmp_path_factory, JS_RUNNERS, JS_BINARIES)


TAP_BORP = ("tap@21.8.0", "borp@1.0.0")


@pytest.fixture(scope="session")
def tap_borp(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A node_modules with tap and borp (npm, cached like ``js_runners``)."""
    return npm_cache(tmp_path_factory, TAP_BORP, ("tap", "borp"))


def npm_cache(
    tmp_path_factory: pytest.TempPathFactory, packages: tuple[str, ...], binaries: tuple[str, ...]
) -> Path:
    """``packages`` installed from npm once into ``~/.cache/garuda-evals-tests`` (per version
    set, kept between sessions); its node_modules."""
    import hashlib
    import os
    import shutil

    from garuda_evals.testing import skip_or_fail

    if not shutil.which("npm"):
        skip_or_fail("npm", f"npm installs {' '.join(packages)} for the JavaScript projects")
    home = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    key = hashlib.sha256(" ".join(packages).encode()).hexdigest()[:12]
    cached = home / "garuda-evals-tests" / f"js-runners-{key}"
    if all((cached / "node_modules" / ".bin" / name).exists() for name in binaries):
        return cached / "node_modules"
    folder = tmp_path_factory.mktemp("js-runners")
    (folder / "package.json").write_text('{"name": "runners", "private": true}\n')
    result = subprocess.run(
        ["npm", "install", "--no-audit", "--no-fund", "--silent", *packages],
        cwd=folder,
        capture_output=True,
        text=True,
    )
    if result.returncode != 0:
        skip_or_fail("npm", f"npm install {' '.join(packages)} failed: {result.stderr[-300:]}")
    cached.parent.mkdir(parents=True, exist_ok=True)
    staged = cached.parent / f".{cached.name}-{os.getpid()}"
    shutil.copytree(folder, staged, symlinks=True)
    try:
        staged.rename(cached)
    except OSError:  # another session filled the cache first
        shutil.rmtree(staged, ignore_errors=True)
    return cached / "node_modules"
