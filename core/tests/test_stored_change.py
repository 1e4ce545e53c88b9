"""The stored change and the results file: exact rebuilds, refusals, torn lines."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path

import anyio
import pytest

from garuda_evals.errors import UsageError
from garuda_evals.models.result import Status, TaskResult
from garuda_evals.runner.journal import append_result, latest, read_results, still_to_run
from garuda_evals.runner.stored_change import (
    ChangeError,
    ChangeRecorder,
    ChangeStore,
    apply_stored_change,
    folder_digest,
)

BINARY = bytes(range(256)) * 3


def tree(root: Path) -> dict[str, tuple[str, bytes]]:
    """Every entry under root: kind and content (link target for links)."""
    found: dict[str, tuple[str, bytes]] = {}
    for folder, dirs, files in os.walk(root):
        for name in dirs + files:
            path = Path(folder) / name
            relative = path.relative_to(root).as_posix()
            if path.is_symlink():
                found[relative] = ("link", os.readlink(path).encode())
            elif path.is_file():
                mode = "exec" if os.access(path, os.X_OK) else "file"
                found[relative] = (mode, path.read_bytes())
    return found


def start(folder: Path) -> None:
    (folder / "src").mkdir(parents=True)
    (folder / "src" / "calc.py").write_text("def add(a, b):\n    return a - b\n")
    (folder / "old.txt").write_text("to be deleted\n")
    (folder / "image.bin").write_bytes(BINARY)
    (folder / "run.sh").write_text("echo hi\n")


def agent_changes(folder: Path) -> None:
    (folder / "src" / "calc.py").write_text("def add(a, b):\n    return a + b\n")
    (folder / "old.txt").unlink()
    (folder / "image.bin").write_bytes(BINARY[::-1] + b"\x00\r\n")
    (folder / "new.bin").write_bytes(b"\x00\xff\x00 no newline")
    (folder / "run.sh").chmod(0o755)
    (folder / "link").symlink_to("src/calc.py")
    (folder / ".gitignore").write_text("*\n")  # must not hide anything from the diff
    # nor may the agent's attributes convert what it wrote
    (folder / ".gitattributes").write_text("* text eol=lf ident\n")
    (folder / "crlf.txt").write_bytes(b"line one\r\n$Id$\r\nline two\r\n")
    (folder / "hidden.txt").write_text("ignored by the agent's .gitignore, still kept\n")
    (folder / "node_modules" / "x").mkdir(parents=True)
    (folder / "node_modules" / "x" / "index.js").write_text("left out like the judge does\n")


async def record(
    folder: Path, patch: Path, store: ChangeStore | None = None, change=agent_changes
) -> None:
    recorder = ChangeRecorder(store)
    try:
        before = await recorder.snapshot(folder)
        await anyio.sleep(0)  # let runs that share a store interleave
        change(folder)
        patch.write_bytes(await recorder.diff(before, await recorder.snapshot(folder), folder))
    finally:
        recorder.close()


def test_a_stored_change_rebuilds_the_agents_folder_exactly(tmp_path: Path) -> None:
    agent, fresh, patch = tmp_path / "agent", tmp_path / "fresh", tmp_path / "change.diff"
    start(agent)
    anyio.run(record, agent, patch)
    text = patch.read_bytes()
    assert b"GIT binary patch" in text and b"index " in text
    assert len(text.split(b"index ")[1].split(b"..")[0]) == 40  # full hashes
    start(fresh)
    anyio.run(apply_stored_change, patch, fresh)
    expected = {k: v for k, v in tree(agent).items() if not k.startswith("node_modules")}
    assert tree(fresh) == expected
    assert "hidden.txt" in tree(fresh) and not (fresh / "node_modules").exists()


def test_a_change_that_does_not_fit_its_task_is_refused(tmp_path: Path) -> None:
    agent, other, patch = tmp_path / "agent", tmp_path / "other", tmp_path / "change.diff"
    start(agent)
    anyio.run(record, agent, patch)
    start(other)
    (other / "image.bin").write_bytes(b"a different start")
    with pytest.raises(ChangeError, match="git apply"):
        anyio.run(apply_stored_change, patch, other)


def other_changes(folder: Path) -> None:
    (folder / "src" / "calc.py").write_text("def add(a, b):\n    return b + a\n")
    (folder / "image.bin").unlink()
    (folder / "notes.md").write_text("x\n")


def test_runs_sharing_a_store_at_the_same_time_each_rebuild_exactly(tmp_path: Path) -> None:
    store = ChangeStore()
    agents = [tmp_path / f"agent{i}" for i in range(4)]
    patches = [tmp_path / f"change{i}.diff" for i in range(4)]

    async def all_at_once() -> None:
        async with anyio.create_task_group() as group:
            for i, (agent, patch) in enumerate(zip(agents, patches, strict=True)):
                start(agent)
                change = agent_changes if i % 2 else other_changes
                group.start_soon(record, agent, patch, store, change)

    try:
        anyio.run(all_at_once)
        shared = store.folder()
        assert shared is not None and not list(shared.glob("index-*"))  # each run's own index went
        for i, (agent, patch) in enumerate(zip(agents, patches, strict=True)):
            fresh = tmp_path / f"fresh{i}"
            start(fresh)
            anyio.run(apply_stored_change, patch, fresh)
            expected = {k: v for k, v in tree(agent).items() if not k.startswith("node_modules")}
            assert tree(fresh) == expected, i
    finally:
        store.close()
    assert not shared.exists()


def test_a_store_copied_into_another_process_gives_no_folder(tmp_path: Path) -> None:
    store = ChangeStore()
    pid = os.fork()
    if pid == 0:  # the child: a recorder there must keep (and remove) a folder of its own
        recorder = ChangeRecorder(store)
        own = store.folder() is None and recorder.git_dir.is_dir()
        recorder.close()
        os._exit(0 if own and not recorder.git_dir.exists() else 1)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    store.close()


@pytest.fixture
def git_log(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A ``git`` first on PATH that logs each call, then runs the real git."""
    real = shutil.which("git")
    assert real is not None
    folder, log = tmp_path / "logged-bin", tmp_path / "git.log"
    folder.mkdir()
    (folder / "git").write_text(f'#!/bin/sh\necho "$*" >> {log}\nexec {real} "$@"\n')
    (folder / "git").chmod(0o755)
    monkeypatch.setenv("PATH", f"{folder}{os.pathsep}{os.environ['PATH']}")
    return log


def calls(log: Path) -> int:
    return len(log.read_text().splitlines()) if log.exists() else 0


def test_a_folder_seen_before_in_the_store_is_not_snapshotted_again(
    tmp_path: Path, git_log: Path
) -> None:
    store = ChangeStore()
    try:
        for i in range(3):
            agent, patch = tmp_path / f"agent{i}", tmp_path / f"change{i}.diff"
            start(agent)
            anyio.run(record, agent, patch, store)
            if i == 0:
                first = calls(git_log)
                assert first == 1  # the diff: both snapshots are written without git
            assert patch.read_bytes() == (tmp_path / "change0.diff").read_bytes()
        assert calls(git_log) == first
    finally:
        store.close()


def test_an_unchanged_folder_gives_an_empty_change_without_git(
    tmp_path: Path, git_log: Path
) -> None:
    agent, patch = tmp_path / "agent", tmp_path / "change.diff"
    start(agent)
    anyio.run(record, agent, patch, None, lambda folder: None)
    assert patch.read_bytes() == b"" and calls(git_log) == 0


def _exec_bit(folder: Path) -> None:
    (folder / "src" / "calc.py").chmod(0o755)


def _link_target(folder: Path) -> None:
    (folder / "link").unlink()
    (folder / "link").symlink_to("src/calx.py")


def _same_size_content(folder: Path) -> None:
    (folder / "src" / "calc.py").write_text("def add(a, b):\n    return a * b\n")


def _empty_file(folder: Path) -> None:
    (folder / "src" / "empty.py").write_text("")


def _file_for_folder(folder: Path) -> None:
    shutil.rmtree(folder / "node_modules")
    (folder / "node_modules").write_text("a file now, kept like any file\n")


@pytest.mark.parametrize(
    "tweak", [_exec_bit, _link_target, _same_size_content, _empty_file, _file_for_folder]
)
def test_a_folder_that_differs_in_any_recorded_way_is_snapshotted_anew(
    tmp_path: Path, tweak: Callable[[Path], None]
) -> None:
    """The second run's folder differs from the first's by one detail git records: its
    stored change must rebuild the second folder, not the first (a stale memo would)."""
    store = ChangeStore()
    try:
        first, second = tmp_path / "first", tmp_path / "second"
        start(first)
        anyio.run(record, first, tmp_path / "first.diff", store)
        start(second)

        def changed(folder: Path) -> None:
            agent_changes(folder)
            tweak(folder)

        anyio.run(record, second, tmp_path / "second.diff", store, changed)
        fresh = tmp_path / "fresh"
        start(fresh)
        anyio.run(apply_stored_change, tmp_path / "second.diff", fresh)
        expected = {k: v for k, v in tree(second).items() if not k.startswith("node_modules/")}
        assert tree(fresh) == expected
    finally:
        store.close()


def test_a_folder_with_a_nested_repository_always_asks_git(tmp_path: Path, git_log: Path) -> None:
    store = ChangeStore()
    try:
        for i in range(2):
            agent = tmp_path / f"agent{i}"
            start(agent)
            (agent / "vendor" / ".git").mkdir(parents=True)
            assert folder_digest(agent) is None
            anyio.run(record, agent, tmp_path / f"change{i}.diff", store)
        snapshots = [line for line in git_log.read_text().splitlines() if "write-tree" in line]
        assert len(snapshots) == 4
    finally:
        store.close()


def row(task: str, status: Status, repeat: int = 1) -> TaskResult:
    return TaskResult(task=task, suite="mini", status=status, repeat=repeat)


def test_results_file_keeps_order_replacements_and_survives_a_torn_last_line(
    tmp_path: Path,
) -> None:
    for result in (row("add", Status.PASS), row("greet", Status.ERR), row("add", Status.PASS, 2)):
        append_result(tmp_path, result)
    append_result(tmp_path, row("greet", Status.FAIL))
    results = tmp_path / "results.jsonl"
    with results.open("ab") as handle:
        handle.write(b'{"task": "torn", "suite": "mi')  # a crash in the middle of a write
    rows = read_results(tmp_path)
    assert [(r.task, r.repeat) for r in rows] == [
        ("add", 1),
        ("greet", 1),
        ("add", 2),
        ("greet", 1),
    ]
    current, replaced = latest(rows)
    assert current["mini/greet#1"].status is Status.FAIL
    assert [r.status for r in replaced] == [Status.ERR]
    append_result(tmp_path, row("x", Status.INTERRUPTED))  # drops the torn tail first
    append_result(tmp_path, row("y", Status.ERR))
    current, _ = latest(read_results(tmp_path))
    assert len(current) == 5 and b"torn" not in results.read_bytes()
    assert still_to_run(current, retry_errors=False) == {"mini/x#1"}
    assert still_to_run(current, retry_errors=True) == {"mini/x#1", "mini/y#1"}
    lines = results.read_bytes().splitlines()
    lines[1] = b"not json"
    results.write_bytes(b"\n".join(lines) + b"\n")
    with pytest.raises(UsageError, match=r"results.jsonl:2: not a result line"):
        read_results(tmp_path)
