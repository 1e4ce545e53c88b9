"""Agent-changed files that would change how JUnit runs or reports, named one per line.

Main classes and resources come before the JUnit jars on the test class path, so a class in
a JUnit package shadows JUnit's own (``TestExecutionResult``, ``Assertions``); a
``META-INF/services`` entry registers a launcher listener, an auto-detected extension or an
annotation processor that rewrites the tests while they compile; ``junit-platform.properties``
deactivates conditions or turns extension auto-detection on.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Sequence
from pathlib import Path

JUNIT_PACKAGES = ("org.junit", "org.opentest4j", "org.apiguardian")
SERVICES = ("META-INF", "services")
PROPERTIES = "junit-platform.properties"
MAVEN_CONFIG = ".mvn"
JAVA_SOURCE_LIMIT = 1 << 20

UNICODE_ESCAPE = re.compile(r"\\u+([0-9a-fA-F]{4})")
COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.DOTALL)
PACKAGE = re.compile(r"\bpackage\s+([\w$]+(?:\s*\.\s*[\w$]+)*)\s*;")


def _in_packages(name: str) -> bool:
    return any(name == package or name.startswith(f"{package}.") for package in JUNIT_PACKAGES)


def _contains(parts: list[str], run: Sequence[str]) -> bool:
    return any(parts[i : i + len(run)] == list(run) for i in range(len(parts) - len(run) + 1))


def _path_refusal(path: str) -> str | None:
    parts = path.split("/")
    for package in JUNIT_PACKAGES:
        if _contains(parts[:-1], package.split(".")):
            return f"{path} is under {package.replace('.', '/')}/, a JUnit package"
    if _contains(parts[:-1], SERVICES):
        return f"{path} is under META-INF/services/, which registers JUnit extensions"
    if parts[-1] == PROPERTIES:
        return f"{path} would configure the JUnit Platform"
    if parts[0] == MAVEN_CONFIG:
        return f"{path} would configure Maven"
    return None


def _decoded(source: str) -> str:
    return UNICODE_ESCAPE.sub(lambda found: chr(int(found.group(1), 16)), source)


def source_package(source: str) -> str:
    """The package a well-formed Java source is in (``""``: the default package)."""
    found = PACKAGE.search(COMMENT.sub(" ", _decoded(source)))
    return re.sub(r"\s+", "", found.group(1)) if found else ""


def declared_packages(source: str) -> set[str]:
    """Every ``package`` declaration a Java source could hold, read as javac reads it
    (unicode escapes first, comments as spaces, spaces around the dots allowed), and read
    again with comments kept, so that text which only looks like a comment opener (a
    string holding a slash and a star) cannot hide a declaration."""
    text = _decoded(source)
    found = PACKAGE.findall(COMMENT.sub(" ", text)) + PACKAGE.findall(text)
    return {re.sub(r"\s+", "", name) for name in found}


def _read_source(file: Path) -> str | None:
    try:
        descriptor = os.open(file, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    with os.fdopen(descriptor, "rb") as handle:
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            return None
        return handle.read(JAVA_SOURCE_LIMIT).decode("utf-8", errors="replace")


def _package_refusal(path: str, workspace: Path) -> str | None:
    if not path.endswith(".java"):
        return None
    source = _read_source(workspace / path)
    packages = sorted(declared_packages(source)) if source is not None else []
    for package in packages:
        if _in_packages(package):
            return f"{path} declares package {package}, a JUnit package"
    return None


def java_refusals(workspace: Path, changed: Sequence[str]) -> list[str]:
    """One line per changed path under a JUnit package folder or ``META-INF/services``,
    named ``junit-platform.properties``, under ``.mvn``, or a ``.java`` file whose
    ``package`` declaration is a JUnit package wherever the file lies."""
    lines = []
    for path in changed:
        line = _path_refusal(path) or _package_refusal(path, workspace)
        if line:
            lines.append(line)
    return lines
