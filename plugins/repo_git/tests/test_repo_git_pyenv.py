"""The project's Python environment: its pytest plugins are named, a regular install is refused.

A real venv in the project (``.venv``, with this environment's pytest through a ``.pth``),
the project installed into it by uv, offline: editable first, then from a built wheel.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path
from typing import Any

import anyio
import pytest

from garuda_evals.errors import UsageError
from garuda_evals.testing import run_garuda, self_test, skip_or_fail
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
ASYNC_TOTAL = "\n\nasync def fetch_total(prices):\n    return sum(prices)\n"
TEST_ASYNC = """import pytest

from shop import fetch_total


@pytest.mark.anyio
async def test_fetch_total():
    assert await fetch_total([1, 2]) == 3
"""


def _uv() -> str:
    found = Path(sys.executable).parent / "uv"
    uv = str(found) if found.exists() else shutil.which("uv")
    if uv is None:
        skip_or_fail("uv", "uv installs the test project into its venv, offline")
    return str(uv)


def _run(*args: str, cwd: Path, env: dict[str, str]) -> None:
    result = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.fixture(scope="module")
def shop(tmp_path_factory: pytest.TempPathFactory, repo_kit: Any) -> Any:
    """A src-layout project with its own ``.venv``, installed editable, and mined."""
    base = tmp_path_factory.mktemp("shop")
    repo = repo_kit.GitRepo(base / "shop")
    shas = {
        "start": repo.commit(
            "Start shop",
            {
                ".gitignore": ".venv\n__pycache__/\n",
                "pyproject.toml": PYPROJECT,
                "src/shop/__init__.py": TOTAL,
                "tests/test_total.py": "from shop import total\n\n\ndef test_total():\n"
                "    assert total([1, 2]) == 3\n",
            },
        )
    }
    shas["discount"] = repo.commit(
        "Add discount",
        {
            "src/shop/__init__.py": TOTAL + DISCOUNT,
            "tests/test_discount.py": "from shop import discount\n\n\ndef test_discount():\n"
            "    assert discount(200, 25) == 150\n",
        },
    )
    shas["async"] = repo.commit(
        "Add an async total",
        {
            "src/shop/__init__.py": TOTAL + DISCOUNT + ASYNC_TOTAL,
            "tests/test_async.py": TEST_ASYNC,
        },
    )
    venv = repo.root / ".venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    site = Path(
        subprocess.run(
            [
                str(venv / "bin" / "python"),
                "-c",
                "import sysconfig; print(sysconfig.get_paths()['purelib'])",
            ],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    )
    (site / "pytest_from_garuda.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    env = {**os.environ, "UV_CACHE_DIR": str(base / "uv-cache")}
    python = str(venv / "bin" / "python")
    uv = _uv()
    _run(
        uv,
        "pip",
        "install",
        "--offline",
        "--no-deps",
        "--python",
        python,
        "-e",
        ".",
        cwd=repo.root,
        env=env,
    )
    mined = repo_kit.mine(repo, shas, repo.root)
    assert mined.code == 0, mined.output

    def install_wheel() -> None:
        """Replace the editable install with a regular one, built from HEAD's tree."""
        tree = base / "head-tree"
        tree.mkdir()
        archive = subprocess.run(
            ["git", "-C", str(repo.root), "archive", "HEAD"], capture_output=True, check=True
        )
        subprocess.run(["tar", "-x", "-C", str(tree)], input=archive.stdout, check=True)
        _run(uv, "build", "--offline", "--wheel", "-o", str(base / "dist"), ".", cwd=tree, env=env)
        wheel = next((base / "dist").glob("shop-*.whl"))
        _run(
            uv,
            "pip",
            "install",
            "--offline",
            "--no-deps",
            "--python",
            python,
            str(wheel),
            cwd=base,
            env=env,
        )

    mined.site = site
    mined.install_wheel = install_wheel
    return mined


def test_the_projects_plugins_are_named_and_needed(shop: Any) -> None:
    """Autoload is off, so a test that needs a plugin of the venv (anyio) relies on ``-p``."""
    suite = load_repo_suite(shop.repo.root)
    task = next(t for t in suite.tasks() if t.metadata["commit"] == shop.shas["async"])
    assert " -p anyio " in task.check.command
    assert anyio.run(lambda: self_test(suite, task, solved=True)).passed
    command = re.sub(r" -p (?!no:)\S+", "", task.check.command)
    bare = task.model_copy(update={"check": task.check.model_copy(update={"command": command})})
    verdict = anyio.run(lambda: self_test(suite, bare, solved=True))
    assert not verdict.passed, "control: without -p anyio the async test cannot run"


def test_a_regular_install_of_the_project_is_refused(shop: Any) -> None:
    suite = load_repo_suite(shop.repo.root)
    task = next(t for t in suite.tasks() if t.metadata["commit"] == shop.shas["discount"])
    shop.install_wheel()
    installed = shop.site / "shop" / "__init__.py"
    assert "def fetch_total" in installed.read_text(), "HEAD's code, newer than the task"

    def cheat(workspace: Path) -> None:
        site = next((workspace / ".venv" / "lib").glob("python3*/site-packages"))
        (workspace / "src" / "shop" / "__init__.py").write_text(
            (site / "shop" / "__init__.py").read_text()
        )

    control = anyio.run(lambda: self_test(suite, task, solved=False, edit=cheat))
    assert control.passed, "control: the installed copy answers the task"

    with pytest.raises(UsageError, match=r"the project itself is installed, not editable") as error:
        load_repo_suite(shop.repo.root).tasks()
    message = str(error.value)
    assert "shop 0.1.0" in message and "shop/__init__.py" in message
    assert "run the suite again" in message and "\n" not in message

    built = run_garuda("eval", "--from-git", cwd=shop.repo.root)
    assert built.returncode != 0
    assert "the project itself is installed, not editable" in built.stderr
    assert "build the suite again" in built.stderr
    ran = run_garuda(
        "eval", "-s", "repo", "--agent", "oracle", "--executor", "host", cwd=shop.repo.root
    )
    assert ran.returncode != 0 and "the project itself is installed" in ran.stderr
