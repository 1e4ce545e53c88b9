"""Which agent-changed files the surefire runner refuses, and which it lets through."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from garuda_evals_java.refusals import declared_packages, java_refusals

SHADOW = """\
package org.junit.platform.engine;

public class TestExecutionResult {
}
"""


def _write(workspace: Path, path: str, text: str = "x\n") -> None:
    target = workspace / path
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text, encoding="utf-8")


@pytest.mark.parametrize(
    ("path", "says"),
    [
        ("src/main/java/org/junit/platform/engine/X.java", "under org/junit/, a JUnit package"),
        ("src/main/resources/org/junit/x.txt", "under org/junit/"),
        ("src/main/java/org/opentest4j/AssertionFailedError.java", "under org/opentest4j/"),
        ("src/main/java/org/apiguardian/api/API.java", "under org/apiguardian/"),
        ("src/main/resources/META-INF/services/x.Y", "under META-INF/services/"),
        ("src/main/resources/junit-platform.properties", "would configure the JUnit Platform"),
        ("junit-platform.properties", "would configure the JUnit Platform"),
        (".mvn/maven.config", "would configure Maven"),
    ],
)
def test_refused_by_path(tmp_path: Path, path: str, says: str) -> None:
    _write(tmp_path, path)
    lines = java_refusals(tmp_path, [path])
    assert len(lines) == 1 and lines[0].startswith(path) and says in lines[0], lines


@pytest.mark.parametrize(
    "declaration",
    [
        "package org.junit.platform.engine;",
        "package org . junit . platform . engine ;",
        "package org/* hidden */.junit.platform.engine;",
        "\\u0070ackage org.junit.platform.engine;",
        "package org.opentest4j;",
        "package org.apiguardian.api;",
        '/* "/*" */ package org.junit.jupiter.api;',
    ],
)
def test_a_source_anywhere_that_declares_a_junit_package_is_refused(
    tmp_path: Path, declaration: str
) -> None:
    path = "src/main/java/com/example/paging/Result.java"
    _write(tmp_path, path, SHADOW.replace("package org.junit.platform.engine;", declaration))
    lines = java_refusals(tmp_path, [path])
    assert len(lines) == 1 and "declares package org." in lines[0], lines


@pytest.mark.parametrize(
    "path",
    [
        "src/main/java/com/example/paging/Paginator.java",
        "src/main/java/com/example/junit/Helper.java",
        "src/main/java/org/junitx/Helper.java",
        "src/main/resources/META-INF/MANIFEST.MF",
        "src/main/resources/services/x.txt",
        "README.md",
    ],
)
def test_allowed(tmp_path: Path, path: str) -> None:
    _write(tmp_path, path, "package com.example.paging;\n\nclass Paginator {}\n")
    assert java_refusals(tmp_path, [path]) == []


def test_declared_packages_reads_what_javac_reads() -> None:
    assert declared_packages("// package org.junit;\npackage a.b;\n") == {"a.b", "org.junit"}
    assert declared_packages("/* x */ package a . b ;") == {"a.b"}
    assert declared_packages("class X {}") == set()


def test_a_link_or_fifo_is_never_opened(tmp_path: Path) -> None:
    _write(tmp_path, "real/X.java", SHADOW)
    (tmp_path / "Link.java").symlink_to(tmp_path / "real" / "X.java")
    os.mkfifo(tmp_path / "Pipe.java")
    assert java_refusals(tmp_path, ["Link.java", "Pipe.java"]) == []
