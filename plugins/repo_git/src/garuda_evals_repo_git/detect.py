"""Which command runs the project's tests, when ``--test-command`` is not given."""

from __future__ import annotations

import shlex
import shutil
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from garuda_evals.api import UsageError
from garuda_evals_repo_git.runners import CHECK_RUNNER, TestCommand, package_scripts
from garuda_evals_repo_git.scripts import ASSIGNMENT, find_runner

NPM_PLACEHOLDER = "no test specified"
PYTHON_MARKERS = frozenset(
    {"pyproject.toml", "setup.py", "setup.cfg", "pytest.ini", "tox.ini", "conftest.py"}
)
# A runner garuda finds but cannot read results of by itself, and a command that would work.
EXAMPLES = {
    "mocha": "node_modules/.bin/mocha --reporter xunit --reporter-option output={junit} {files}",
}
GENERIC_EXAMPLE = "./run-tests --junit-report {junit} {files}"
RUN_EXAMPLES = {
    "node": "node --test {files}",
    "vitest": "npx vitest run {files}",
    "jest": "npx jest {files}",
    "borp": "npx borp {files}",
    "tap": "npx tap {files}",
    "pytest": "python3 -m pytest {files}",
    "unittest": "python3 -m unittest {files}",
    "maven": "./mvnw -B test",
    "go": "go test ./...",
}


@dataclass(frozen=True)
class Detected:
    """The detected command and how it was found (printed when mining starts)."""

    command: str
    source: str


def _package_manager(tree: set[str]) -> str:
    if "pnpm-lock.yaml" in tree:
        return "pnpm"
    return "yarn" if "yarn.lock" in tree else "npm"


def detect(package_json: str | None, tree: set[str], venv_python: str | None) -> Detected:
    """The project's test command: the runner its package ``test`` script calls (called
    directly), else pytest for a Python project, else an error naming ``--test-command``."""
    scripts = package_scripts(package_json)
    test_script = scripts.get("test", "")
    if test_script and NPM_PLACEHOLDER not in test_script:
        found = find_runner(scripts)
        if found is not None and found.kind in CHECK_RUNNER:
            return Detected(
                found.direct,
                f"the runner of package.json's test script {test_script!r}, called directly",
            )
        if found is not None:
            raise UsageError(
                f"package.json's test script runs {found.kind}, whose results garuda cannot "
                f"read by itself: give --test-command with {{junit}} where the runner writes "
                f'JUnit XML, for example --test-command "{EXAMPLES[found.kind]}"'
            )
        manager = _package_manager(tree)
        return Detected(f"{manager} test", f"package.json's test script {test_script!r}")
    if "go.mod" in tree:
        return Detected("go test ./...", "a Go module (go.mod)")
    if "pom.xml" in tree:
        return Detected("mvn test", "a Maven project (pom.xml)")
    if PYTHON_MARKERS & tree or any(
        PurePosixPath(p).name.startswith("test_") and p.endswith(".py") for p in tree
    ):
        return Detected(f"{venv_python or 'python3'} -m pytest", "a Python project")
    raise UsageError("no test command found in this project: give --test-command")


def venv_python(root: Path) -> str | None:
    """``.venv/bin/python`` or ``venv/bin/python`` when the checkout has one."""
    for name in (".venv", "venv"):
        if (root / name / "bin" / "python").exists():
            return f"{name}/bin/python"
    return None


def program(command: str) -> str | None:
    """The program a shell command starts (after ``VAR=value`` words); None when unclear."""
    try:
        words = shlex.split(command)
    except ValueError:
        return None
    while words and ASSIGNMENT.match(words[0]):
        words = words[1:]
    return words[0] if words else None


def require_program(command: TestCommand, root: Path) -> None:
    """Stop before any proof when the proof's program is not here (exit 1, one line)."""
    name = program(command.prefix or command.proof([]))
    if name is None or name.startswith("{"):
        return
    if "/" in name:
        found = (root / name).exists() if not name.startswith("/") else Path(name).exists()
    else:
        found = shutil.which(name) is not None
    if found:
        return
    hint = RUN_EXAMPLES.get(command.kind, GENERIC_EXAMPLE)
    raise UsageError(
        f"cannot run the tests: {name} is not installed here (the test command is "
        f"'{command.base}'); nothing was proved. Install it, or give the command that runs "
        f'the tests, for example --test-command "{hint}"'
    )
