"""A small SWE-bench-format set made offline, for tests, the bench and trying the commands.

``python -m garuda_evals_swebench.fixture DIR [--per-repo N]`` writes ``DIR/repos/`` (two
git repositories), ``DIR/instances.jsonl`` (N instances of each, SWE-bench's fields),
``DIR/recipe.toml`` and ``DIR/predictions.jsonl`` (the first instance's reference patch, and
a wrong patch for the second). ``acme/calc`` uses pytest and its node ids; ``acme/shapes``
has Django's layout (``tests/runtests.py``, a unittest runner of its own) and Django's test
names, a docstring line among them. Each instance's base commit has one function wrong;
its fix commit (in the clone, as in a real clone's history) has the fix and more tests.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

IDENTITY = {
    "GIT_AUTHOR_NAME": "fixture",
    "GIT_AUTHOR_EMAIL": "fixture@localhost",
    "GIT_COMMITTER_NAME": "fixture",
    "GIT_COMMITTER_EMAIL": "fixture@localhost",
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": os.devnull,
}
RUNTESTS = '''"""A tiny runner with Django's command line: labels, --verbosity, --settings, --parallel."""
import argparse
import sys
import unittest

parser = argparse.ArgumentParser()
parser.add_argument("labels", nargs="*")
parser.add_argument("--verbosity", type=int, default=1)
parser.add_argument("--settings")
parser.add_argument("--parallel")
args = parser.parse_args()
suite = unittest.defaultTestLoader.loadTestsFromNames(args.labels)
result = unittest.TextTestRunner(verbosity=args.verbosity).run(suite)
sys.exit(not result.wasSuccessful())
'''


def _git(repo: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-C", str(repo), *args],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, **IDENTITY},
    )
    return done.stdout.strip()


def _write(repo: Path, files: dict[str, str]) -> None:
    for relative, text in files.items():
        path = repo / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def _commit(repo: Path, files: dict[str, str], message: str, parent: str | None) -> str:
    if parent is not None:
        _git(repo, "checkout", "-q", "--detach", parent)
    _write(repo, files)
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "--allow-empty", "-m", message)
    return _git(repo, "rev-parse", "HEAD")


@dataclass(frozen=True)
class Repo:
    """How one fixture repository's code and tests are written."""

    name: str
    runner: str

    def code(self, n: int, wrong: int | None = None) -> dict[str, str]:
        pkg = self.name.split("/")[1]
        lines = ['"""Adds a constant."""\n']
        for k in range(n):
            plus = k + 1 if k == wrong else k
            lines.append(f"\n\ndef f{k}(x):\n    return x + {plus}\n")
        return {f"{pkg}/__init__.py": "", f"{pkg}/funcs.py": "".join(lines)}

    def tests(self, n: int, extra: int | None = None) -> dict[str, str]:
        pkg = self.name.split("/")[1]
        if self.runner == "pytest":
            head = f"import pytest\n\nfrom {pkg}.funcs import *  # noqa: F403\n"
            body = [
                f"\n\ndef test_f{k}():\n    assert f{k}(1) == {k + 1}  # noqa: F405\n"
                for k in range(n)
            ]
            body.append(
                '\n\n@pytest.mark.parametrize("text", ["a b", "c"])\ndef test_text(text):\n    assert text\n'
            )
            if extra is not None:
                body.append(
                    f"\n\nclass TestMore:\n    def test_f{extra}_negative(self):\n"
                    f"        assert f{extra}(-{extra}) == 0  # noqa: F405\n"
                )
            return {"tests/test_funcs.py": head + "".join(body)}
        head = f"import unittest\n\nfrom {pkg}.funcs import *  # noqa: F403\n\n\nclass FuncTests(unittest.TestCase):\n"
        body = [
            f"    def test_f{k}(self):\n        self.assertEqual(f{k}(1), {k + 1})\n\n"
            for k in range(n)
        ]
        if extra is not None:
            body.append(
                f'    def test_f{extra}_zero(self):\n        """f{extra} of zero is {extra}."""\n'
                f"        self.assertEqual(f{extra}(0), {extra})\n\n"
                f"    def test_f{extra}_twice(self):\n"
                f"        self.assertEqual(f{extra}(f{extra}(0)), {2 * extra})\n\n"
            )
        return {
            "tests/runtests.py": RUNTESTS,
            "tests/funcs_tests/__init__.py": "",
            "tests/funcs_tests/tests.py": head + "".join(body).rstrip() + "\n",
        }

    def ids(self, n: int, k: int) -> tuple[list[str], list[str]]:
        """FAIL_TO_PASS and PASS_TO_PASS of instance ``k``, in this repository's id style."""
        if self.runner == "pytest":
            path = "tests/test_funcs.py"
            fail = [f"{path}::test_f{k}", f"{path}::TestMore::test_f{k}_negative"]
            passing = [f"{path}::test_f{j}" for j in range(n) if j != k]
            return fail, [*passing, f"{path}::test_text[a", f"{path}::test_text[c]"]
        where = "funcs_tests.tests.FuncTests"
        fail = [
            f"test_f{k} ({where})",
            f"f{k} of zero is {k}.",
            f"test_f{k}_twice ({where}.test_f{k}_twice)",
        ]
        return fail, [f"test_f{j} ({where})" for j in range(n) if j != k]


REPOS = (Repo("acme/calc", "pytest"), Repo("acme/shapes", "django"))


def _instances(repo: Repo, folder: Path, n: int) -> list[dict[str, object]]:
    root = folder / repo.name.replace("/", "__")
    root.mkdir(parents=True)
    _git(root, "init", "-q", "-b", "main")
    files = {**repo.code(n), **repo.tests(n), "README.md": f"{repo.name}\n"}
    start = _commit(root, files, "start", None)
    found = []
    for k in range(n):
        base = _commit(root, repo.code(n, wrong=k), f"f{k} off by one", start)
        fixed = _commit(root, {**repo.code(n), **repo.tests(n, extra=k)}, f"fix f{k}", base)
        _git(root, "branch", f"fix-{k}", fixed)  # the clone holds the future, as a real one does
        fail, passing = repo.ids(n, k)
        pkg = repo.name.split("/")[1]
        found.append(
            {
                "instance_id": f"{repo.name.replace('/', '__')}-{k + 1}",
                "repo": repo.name,
                "base_commit": base,
                "problem_statement": f"f{k}(x) should return x + {k}, but it returns x + {k + 1}.",
                "patch": _git(root, "diff", base, fixed, "--", pkg) + "\n",
                "test_patch": _git(root, "diff", base, fixed, "--", "tests") + "\n",
                "FAIL_TO_PASS": json.dumps(fail),
                "PASS_TO_PASS": json.dumps(passing),
                "environment_setup_commit": start,
                "version": "1.0",
                "created_at": "2024-01-01T00:00:00Z",
            }
        )
    _git(root, "checkout", "-q", "main")
    return found


def recipe(python: str = "python3") -> str:
    """The fixture's recipe: a venv of ``python`` that sees its packages (pytest)."""
    setup = f'setup = ["{python} -m venv --system-site-packages --without-pip {{env}}"]'
    return (
        f'[repos."acme/calc"]\n{setup}\nrunner = "pytest"\ntimeout_s = 120\n\n'
        f'[repos."acme/shapes"]\n{setup}\nrunner = "django"\ntimeout_s = 120\n'
    )


def wrong_patch(instance: dict[str, object]) -> str:
    """The reference patch with another wrong constant: it applies, and fixes nothing."""
    lines = str(instance["patch"]).splitlines(keepends=True)
    for n, line in enumerate(lines):
        if line.startswith("+    return x + "):
            lines[n] = f"+    return x + {int(line.split()[-1]) + 2}\n"
    return "".join(lines)


def make(folder: Path, per_repo: int = 3) -> dict[str, Path]:
    """Write the fixture into ``folder``; the paths of what it wrote."""
    repos = folder / "repos"
    instances = [item for repo in REPOS for item in _instances(repo, repos, per_repo)]
    paths = {
        "repos": repos,
        "instances": folder / "instances.jsonl",
        "recipe": folder / "recipe.toml",
        "predictions": folder / "predictions.jsonl",
    }
    paths["instances"].write_text(
        "".join(json.dumps(i) + "\n" for i in instances), encoding="utf-8"
    )
    paths["recipe"].write_text(recipe(), encoding="utf-8")
    right, wrong = instances[0], instances[1]
    predictions = [
        {
            "instance_id": right["instance_id"],
            "model_name_or_path": "fixture",
            "model_patch": right["patch"],
        },
        {
            "instance_id": wrong["instance_id"],
            "model_name_or_path": "fixture",
            "model_patch": wrong_patch(wrong),
        },
    ]
    paths["predictions"].write_text(
        "".join(json.dumps(p) + "\n" for p in predictions), encoding="utf-8"
    )
    return paths


def main(argv: list[str]) -> int:
    """Write the fixture; print what it wrote."""
    parser = argparse.ArgumentParser(prog="python -m garuda_evals_swebench.fixture")
    parser.add_argument("folder", type=Path)
    parser.add_argument("--per-repo", type=int, default=3)
    args = parser.parse_args(argv)
    for name, path in make(args.folder, args.per_repo).items():
        print(f"{name}: {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
