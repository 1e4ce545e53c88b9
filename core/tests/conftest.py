"""Shared fixtures of core's tests: the mini suite, a one-task shell-check suite, a call as
an unprivileged user and fake installed distributions."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest

DATA = Path(__file__).parent / "suite_data"


@pytest.fixture
def mini_suite(tmp_path: Path) -> Path:
    """A writable copy of the two-task mini suite."""
    target = tmp_path / "mini"
    shutil.copytree(DATA / "mini", target)
    return target


FakeDist = Callable[..., Path]


@pytest.fixture
def fake_dist(tmp_path: Path) -> FakeDist:
    """Make an installed-looking distribution under one folder to put on sys.path/PYTHONPATH."""
    site = tmp_path / "site"
    site.mkdir()

    def make(name: str, entry_points: dict[str, dict[str, str]], modules: dict[str, str]) -> Path:
        info = site / f"{name.replace('-', '_')}-0.9.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.9\n")
        lines: list[str] = []
        for group, items in entry_points.items():
            lines.append(f"[{group}]")
            lines += [f"{key} = {value}" for key, value in items.items()]
        (info / "entry_points.txt").write_text("\n".join(lines) + "\n")
        for filename, code in modules.items():
            (site / filename).write_text(code)
        return site

    return make


AnswerSuite = Callable[[str, str], Path]


@pytest.fixture
def answer_suite(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AnswerSuite:
    """Write a one-task suite ``t`` (``src/answer.txt`` holds 41, the fix is 42) whose check
    runs ``command`` with the script ``check`` as ``tests/check.sh`` (protected); temporary
    folders go under tmp_path. Returns the suite's folder."""

    def write(command: str, check: str) -> Path:
        root = tmp_path / "suite"
        (root / "t" / "files" / "src").mkdir(parents=True)
        (root / "t" / "files" / "tests").mkdir()
        (root / "suite.toml").write_text(
            'name = "unit"\nprotected = ["tests/"]\n\n[check]\n'
            f'command = "{command}"\nrunner = "junit"\ntimeout_s = 60\n'
        )
        (root / "t" / "task.toml").write_text('title = "Answer"\nprompt = "Answer 42."\n')
        (root / "t" / "files" / "src" / "answer.txt").write_text("41\n")
        (root / "t" / "files" / "tests" / "check.sh").write_text(check)
        scratch = tmp_path / "tmp"
        scratch.mkdir()
        monkeypatch.setattr(tempfile, "tempdir", str(scratch))
        return root

    return write


NOBODY = 65534
AsNobody = Callable[[Path, Callable[[], object]], object]


@pytest.fixture
def as_nobody() -> AsNobody:
    """Call ``work()`` in a forked child that became the unprivileged user ``nobody`` inside
    ``folder`` (root reads every folder; nobody does not); its JSON-able result."""

    def call(folder: Path, work: Callable[[], object]) -> object:
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:
            code = 1
            try:
                os.close(read)
                os.chdir(folder)
                os.setgroups([])
                os.setgid(NOBODY)
                os.setuid(NOBODY)
                os.write(write, json.dumps(work()).encode())
                code = 0
            finally:
                os._exit(code)
        os.close(write)
        with os.fdopen(read, "rb") as pipe:
            data = pipe.read()
        _, status = os.waitpid(pid, 0)
        assert os.waitstatus_to_exitcode(status) == 0
        return json.loads(data)

    return call
