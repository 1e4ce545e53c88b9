"""Which command runs the project's tests, when ``--test-command`` is not given."""

from __future__ import annotations

from pathlib import Path, PurePosixPath

from garuda_evals.api import UsageError
from garuda_evals_repo_git.runners import package_scripts

NPM_PLACEHOLDER = "no test specified"
PYTHON_MARKERS = frozenset(
    {"pyproject.toml", "setup.py", "setup.cfg", "pytest.ini", "tox.ini", "conftest.py"}
)


def detect(package_json: str | None, tree: set[str], venv_python: str | None) -> str:
    """The project's test command: its package ``test`` script, else pytest, else an error."""
    test_script = package_scripts(package_json).get("test", "")
    if test_script and NPM_PLACEHOLDER not in test_script:
        if "pnpm-lock.yaml" in tree:
            return "pnpm test"
        return "yarn test" if "yarn.lock" in tree else "npm test"
    if PYTHON_MARKERS & tree or any(
        PurePosixPath(p).name.startswith("test_") and p.endswith(".py") for p in tree
    ):
        return f"{venv_python or 'python3'} -m pytest"
    raise UsageError("no test command found in this project: give --test-command")


def venv_python(root: Path) -> str | None:
    """``.venv/bin/python`` or ``venv/bin/python`` when the checkout has one."""
    for name in (".venv", "venv"):
        if (root / name / "bin" / "python").exists():
            return f"{name}/bin/python"
    return None
