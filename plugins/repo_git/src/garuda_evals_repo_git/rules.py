"""The file rules: which commits can become tasks, and why the others are skipped."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import PurePosixPath

from garuda_evals_repo_git.gitcmd import Change

MAX_FILES = 10
DOC_SUFFIXES = frozenset({".md", ".markdown", ".mdx", ".txt", ".rst"})
DOC_FOLDERS = frozenset({"docs", "doc"})
LOCK_FILES = frozenset(
    {
        "package-lock.json",
        "npm-shrinkwrap.json",
        "pnpm-lock.yaml",
        "yarn.lock",
        "bun.lockb",
        "bun.lock",
        "poetry.lock",
        "uv.lock",
        "pdm.lock",
        "Pipfile.lock",
        "Cargo.lock",
        "go.sum",
        "Gemfile.lock",
        "composer.lock",
    }
)
MANIFESTS = frozenset(
    {
        "pyproject.toml",
        "setup.py",
        "setup.cfg",
        "Pipfile",
        "Cargo.toml",
        "go.mod",
        "Gemfile",
        "composer.json",
        "pom.xml",
        "build.gradle",
        "build.gradle.kts",
    }
)
REQUIREMENTS = re.compile(r"^requirements[\w.-]*\.(txt|in)$")
DEPENDENCY_KEYS = (
    "dependencies",
    "devDependencies",
    "peerDependencies",
    "optionalDependencies",
    "bundledDependencies",
    "overrides",
    "resolutions",
)
TEST_FOLDERS = frozenset({"test", "tests", "__tests__", "spec", "specs"})
# The test runner's own files count as tests: a commit's version is given with the task and
# protected, never left for the agent to change.
TEST_SUPPORT = frozenset(
    {"conftest.py", "pytest.toml", ".pytest.toml", "pytest.ini", ".pytest.ini", "tox.ini"}
)
TEST_NAME = re.compile(
    r"(^test_.*\.py$|.*_test\.py$|.*\.(test|spec)\.[cm]?[jt]sx?$|.*_test\.go$|.*Tests?\.java$)"
)

NO_FILES = "no files"
TOO_MANY = f"more than {MAX_FILES} files"
BINARY = "a binary file"
LOCK_OR_MANIFEST = "a changed lock file or non-npm manifest"
DEPENDENCIES = "package.json changes dependencies"
NO_TEST = "no test change"
ONLY_TESTS = "only test changes"
ROOT_COMMIT = "the first commit (no parent)"
NOT_TEXT = "a file that is not UTF-8 text"


def is_test_path(path: str) -> bool:
    """A test file: in a test folder (test/, tests/, __tests__/, spec/), named like a test,
    or the test runner's own (``conftest.py``, ``pytest.ini``, ``tox.ini``, ...)."""
    parts = PurePosixPath(path).parts
    return (
        bool(TEST_FOLDERS.intersection(parts[:-1]))
        or bool(TEST_NAME.match(parts[-1]))
        or parts[-1] in TEST_SUPPORT
    )


def is_doc_path(path: str) -> bool:
    """Markdown, text and anything under docs/ do not count toward the file limit."""
    pure = PurePosixPath(path)
    return pure.suffix.lower() in DOC_SUFFIXES or pure.parts[0] in DOC_FOLDERS


def is_lock_or_manifest(path: str) -> bool:
    """A lock file or a manifest other than package.json (its dependencies would change)."""
    name = PurePosixPath(path).name
    return name in LOCK_FILES or name in MANIFESTS or bool(REQUIREMENTS.match(name))


def dependency_change(before: str | None, after: str | None) -> bool:
    """Whether a package.json diff changes dependencies (a version or script change is fine)."""
    try:
        old = json.loads(before) if before else {}
        new = json.loads(after) if after else {}
    except json.JSONDecodeError:
        return True
    if not isinstance(old, dict) or not isinstance(new, dict):
        return True
    return any(old.get(key) != new.get(key) for key in DEPENDENCY_KEYS)


def skip_reason(
    files: list[Change], package_json: Callable[[str], tuple[str | None, str | None]]
) -> str | None:
    """The first file rule a commit breaks, or None. ``package_json(path)`` gives both sides."""
    if not files:
        return NO_FILES
    if sum(1 for f in files if not is_doc_path(f.path)) > MAX_FILES:
        return TOO_MANY
    if any(f.binary for f in files):
        return BINARY
    if any(is_lock_or_manifest(f.path) for f in files):
        return LOCK_OR_MANIFEST
    for change in files:
        if PurePosixPath(change.path).name == "package.json" and dependency_change(
            *package_json(change.path)
        ):
            return DEPENDENCIES
    tests = [f for f in files if is_test_path(f.path)]
    if not tests:
        return NO_TEST
    if all(is_test_path(f.path) or is_doc_path(f.path) for f in files):
        return ONLY_TESTS
    return None
