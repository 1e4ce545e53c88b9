"""The toolchain probe cache: a passing probe is trusted again only while nothing it was
keyed by changed (the program's file, its version, the environment), never a failing one,
never with ``--reprobe``, and never from an entry planted for another program or mtime."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import anyio
import pytest

from garuda_evals.api import Toolchain, ToolchainRecord, hookimpl
from garuda_evals.environment import check_environment
from garuda_evals.errors import GarudaError
from garuda_evals.plugins.manager import PluginRegistry
from garuda_evals.runner.toolchain_check import check_toolchains
from garuda_evals.toolchains.base import ToolchainStatus
from garuda_evals.toolchains.cache import (
    ProbeCache,
    _digest,
    cache_file,
    probe_key,
    programs_of,
)

TOOL = """#!/bin/sh
if [ "$1" = "--version" ]; then echo "mytool $(cat {version})"; exit 0; fi
echo probed >> {log}
exit {code}
"""


class Fixture:
    """A program ``mytool`` on PATH whose probe runs are counted in a log."""

    def __init__(self, root: Path) -> None:
        self.bin = root / "bin"
        self.bin.mkdir()
        self.log = root / "probes.log"
        self.version = root / "version.txt"
        self.version.write_text("1.2.3\n")
        self.cache = Path(os.environ["GARUDA_PROBE_CACHE"])
        self.install()

    template = TOOL

    def install(self, code: int = 0, extra: str = "") -> None:
        """Write the program anew (a new file, so a new inode), as an upgrade would."""
        reads = self.log.parent / "reads.log"
        text = self.template.format(version=self.version, log=self.log, code=code, reads=reads)
        text += extra
        fresh = self.bin / ".mytool.new"
        fresh.write_text(text)
        fresh.chmod(0o755)
        os.replace(fresh, self.bin / "mytool")

    def probes(self) -> int:
        return len(self.log.read_text().splitlines()) if self.log.exists() else 0


def _toolchain(watch: tuple[str, ...] = ()) -> Toolchain:
    return Toolchain(
        name="mytool",
        description="a program on PATH whose probe is counted",
        hint="install mytool",
        probe_files={"probe.txt": "x"},
        probe_command="mytool probe",
        version_command="mytool --version",
        version_pattern=r"mytool (\d+\.\d+\.\d+)",
        watch=watch,
    )


class Plugin:
    @staticmethod
    @hookimpl
    def garuda_toolchains() -> Iterator[ToolchainRecord]:
        yield ToolchainRecord(name="mytool", description="mytool", load=_toolchain)


@pytest.fixture
def tool(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Fixture:
    fixture = Fixture(tmp_path)
    monkeypatch.setenv("PATH", f"{fixture.bin}{os.pathsep}{os.environ['PATH']}")
    return fixture


@pytest.fixture
def registry() -> PluginRegistry:
    plugins = PluginRegistry(load_entry_points=False)
    plugins.register(Plugin(), name="mytool", distribution="test", version="0")
    return plugins


def check(registry: PluginRegistry, *, reprobe: bool = False) -> ToolchainStatus:
    statuses = anyio.run(lambda: check_toolchains(registry, {"mytool"}, reprobe=reprobe))
    return statuses["mytool"]


def test_a_passing_probe_is_remembered_and_trusted_while_nothing_changed(
    tool: Fixture, registry: PluginRegistry
) -> None:
    first = check(registry)
    assert (first.ok, first.cached, tool.probes()) == (True, False, 1)
    second = check(registry)
    assert (second.ok, second.cached, second.version, tool.probes()) == (True, True, "1.2.3", 1)
    assert tool.cache.is_file()


def test_a_replaced_program_is_probed_again(tool: Fixture, registry: PluginRegistry) -> None:
    check(registry)
    tool.install(extra="# a new build\n")
    assert check(registry).cached is False
    assert tool.probes() == 2


def test_a_program_touched_in_place_is_probed_again(
    tool: Fixture, registry: PluginRegistry
) -> None:
    check(registry)
    program = tool.bin / "mytool"
    stamp = program.stat()
    os.utime(program, ns=(stamp.st_atime_ns, stamp.st_mtime_ns + 10**9))
    assert check(registry).cached is False
    assert tool.probes() == 2


def test_a_new_version_is_probed_again_though_the_program_file_is_the_same(
    tool: Fixture, registry: PluginRegistry
) -> None:
    check(registry)
    tool.version.write_text("1.2.4\n")
    status = check(registry)
    assert (status.cached, status.version, tool.probes()) == (False, "1.2.4", 2)


def test_a_removed_program_is_probed_and_fails(tool: Fixture, registry: PluginRegistry) -> None:
    check(registry)
    (tool.bin / "mytool").unlink()
    with pytest.raises(GarudaError, match="toolchain mytool is not ready"):
        check(registry)


def test_a_failing_probe_is_not_remembered(tool: Fixture, registry: PluginRegistry) -> None:
    tool.install(code=1)
    with pytest.raises(GarudaError):
        check(registry)
    assert not tool.cache.exists()
    with pytest.raises(GarudaError):
        check(registry)
    assert tool.probes() == 2


def test_a_program_that_starts_failing_after_a_change_is_caught(
    tool: Fixture, registry: PluginRegistry
) -> None:
    check(registry)
    tool.install(code=1)
    with pytest.raises(GarudaError):
        check(registry)


def test_reprobe_probes_though_a_passing_probe_is_remembered(
    tool: Fixture, registry: PluginRegistry
) -> None:
    check(registry)
    status = check(registry, reprobe=True)
    assert (status.cached, tool.probes()) == (False, 2)
    assert check(registry).cached is True


def _current_key(tool: Fixture) -> dict[str, object]:
    key = probe_key(_toolchain(), check_environment(), "1.2.3", {})
    assert key is not None
    return key


def _plant(tool: Fixture, digest: str, key: object) -> None:
    entry = {"key": key, "status": {"ok": True, "versions": {}}, "probed_at": 0}
    tool.cache.parent.mkdir(parents=True, exist_ok=True)
    tool.cache.write_text(json.dumps({"format": 1, "entries": {digest: entry}}))


@pytest.mark.parametrize(
    "field,value",
    [("mtime_ns", 1), ("path", "/elsewhere/mytool"), ("resolved", "/elsewhere/mytool")],
)
def test_a_planted_ok_entry_for_another_program_file_is_not_trusted(
    tool: Fixture, registry: PluginRegistry, field: str, value: object
) -> None:
    key = _current_key(tool)
    planted = json.loads(json.dumps(key))
    planted["programs"][0][field] = value
    # Under the digest the current key looks up, but keyed by another file: not trusted.
    _plant(tool, _digest(key), planted)
    assert check(registry).cached is False
    # Under its own digest it is simply never looked up.
    _plant(tool, _digest(planted), planted)
    assert check(registry).cached is False
    assert tool.probes() == 2


def test_the_check_of_the_planted_entries_fails_when_the_key_is_not_compared(
    tool: Fixture, registry: PluginRegistry
) -> None:
    """The planted entry above is the exact current key but for one field: stored whole,
    it is trusted (so the test above fails if lookups stop comparing what is stored)."""
    key = _current_key(tool)
    _plant(tool, _digest(key), key)
    assert check(registry).cached is True
    assert tool.probes() == 0


@pytest.mark.parametrize(
    "text",
    ["{not json", "[]", '{"format": 99, "entries": {}}', '{"format": 1, "entries": [1]}', "\xff"],
)
def test_a_corrupt_cache_file_is_ignored_with_one_line_and_rewritten(
    tool: Fixture, registry: PluginRegistry, text: str, capsys: pytest.CaptureFixture[str]
) -> None:
    tool.cache.parent.mkdir(parents=True, exist_ok=True)
    tool.cache.write_bytes(text.encode("latin-1"))
    assert check(registry).cached is False
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"garuda: ignoring the probe cache {tool.cache}")
    assert json.loads(tool.cache.read_text())["format"] == 1
    assert check(registry).cached is True


def test_an_unwritable_cache_folder_is_one_line_and_the_run_goes_on(
    tool: Fixture, registry: PluginRegistry, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv("GARUDA_PROBE_CACHE", str(blocker / "probes.json"))
    warnings = io.StringIO()
    cache = ProbeCache(cache_file(), warn=warnings)
    cache.remember(_current_key(tool), ToolchainStatus(name="mytool", ok=True))
    assert warnings.getvalue().count("\n") == 1 and "was not written" in warnings.getvalue()
    assert check(registry).ok


def test_the_cache_file_follows_xdg_cache_home() -> None:
    assert cache_file({"XDG_CACHE_HOME": "/x"}) == Path("/x/garuda/probes.json")
    assert cache_file({"XDG_CACHE_HOME": "/x", "GARUDA_PROBE_CACHE": "/y.json"}) == Path("/y.json")
    assert cache_file({}) == Path.home() / ".cache" / "garuda" / "probes.json"


def test_programs_default_to_each_commands_first_word() -> None:
    assert programs_of(_toolchain()) == ("mytool",)
    pytest_like = Toolchain(
        name="p",
        description="",
        hint="",
        probe_files={},
        probe_command="A=1 B=2 python3 -P -m pytest",
        version_command="python3 --version",
        extra_versions={"jdk": ("mvn -v", "x")},
    )
    assert programs_of(pytest_like) == ("python3", "mvn")


class WatchingPlugin:
    @staticmethod
    @hookimpl
    def garuda_toolchains() -> Iterator[ToolchainRecord]:
        yield ToolchainRecord(
            name="mytool", description="mytool", load=lambda: _toolchain(("~/mytool-cache",))
        )


def test_a_replaced_watched_folder_is_probed_again(
    tool: Fixture, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A watched folder (``~`` is the check environment's HOME) that is wiped and made
    again, as after cleaning a local repository, probes again; untouched, it is trusted."""
    home = tmp_path / "home"
    (home / "mytool-cache").mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    plugins = PluginRegistry(load_entry_points=False)
    plugins.register(WatchingPlugin(), name="mytool", distribution="test", version="0")
    check(plugins)
    assert check(plugins).cached is True
    (home / "mytool-cache").rename(home / "old-cache")
    (home / "mytool-cache").mkdir()
    assert check(plugins).cached is False
    (home / "mytool-cache").rmdir()
    assert check(plugins).cached is False
    assert tool.probes() == 3


READING_TOOL = """#!/bin/sh
if [ "$1" = "--version" ]; then echo read >> {reads}; echo "mytool $(cat {version})"; exit 0; fi
if [ "$1" = "--files" ]; then echo "$0"; echo {version}; exit 0; fi
echo probed >> {log}
exit 0
"""


class ReadingFixture(Fixture):
    """``mytool`` that also names its version files (itself and version.txt) and counts
    its version reads."""

    template = READING_TOOL

    def version_reads(self) -> int:
        reads = self.log.parent / "reads.log"
        return len(reads.read_text().splitlines()) if reads.exists() else 0


def _reading_toolchain(files_command: str = "mytool --files") -> Toolchain:
    return replace(_toolchain(), version_files_command=files_command)


class ReadingPlugin:
    files_command = "mytool --files"

    @hookimpl
    def garuda_toolchains(self) -> Iterator[ToolchainRecord]:
        command = self.files_command
        yield ToolchainRecord(
            name="mytool", description="mytool", load=lambda: _reading_toolchain(command)
        )


@pytest.fixture
def reading(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> ReadingFixture:
    fixture = ReadingFixture(tmp_path)
    monkeypatch.setenv("PATH", f"{fixture.bin}{os.pathsep}{os.environ['PATH']}")
    return fixture


def _reading_registry(files_command: str = "mytool --files") -> PluginRegistry:
    plugin = ReadingPlugin()
    plugin.files_command = files_command
    plugins = PluginRegistry(load_entry_points=False)
    plugins.register(plugin, name="mytool", distribution="test", version="0")
    return plugins


def test_unchanged_version_files_skip_the_version_reads(reading: ReadingFixture) -> None:
    plugins = _reading_registry()
    assert check(plugins).cached is False
    assert (reading.probes(), reading.version_reads()) == (1, 1)
    second = check(plugins)
    assert (second.cached, second.version) == (True, "1.2.3")
    assert (reading.probes(), reading.version_reads()) == (1, 1)


def test_a_changed_version_file_reads_the_version_and_probes_again(
    reading: ReadingFixture,
) -> None:
    plugins = _reading_registry()
    check(plugins)
    reading.version.write_text("1.2.4\n")
    status = check(plugins)
    assert (status.cached, status.version) == (False, "1.2.4")
    assert (reading.probes(), reading.version_reads()) == (2, 2)
    assert check(plugins).cached is True
    assert (reading.probes(), reading.version_reads()) == (2, 2)


def test_a_replaced_program_is_probed_again_though_its_version_files_were_stamped(
    reading: ReadingFixture,
) -> None:
    plugins = _reading_registry()
    check(plugins)
    reading.install(extra="# a new build\n")
    assert check(plugins).cached is False
    assert (reading.probes(), reading.version_reads()) == (2, 2)


def test_a_program_that_is_not_among_its_version_files_has_its_versions_read(
    reading: ReadingFixture, tmp_path: Path
) -> None:
    """A launcher (a pyenv shim) resolves to itself, while the version files name the
    program it picked: its probe is trusted only after the versions are read again."""
    files_log = tmp_path / "files.log"
    plugins = _reading_registry(f"echo read >> {files_log}; echo {reading.version}")
    check(plugins)
    assert check(plugins).cached is True
    assert check(plugins).cached is True
    assert (reading.probes(), reading.version_reads()) == (1, 3)
    # Known to be a launcher: its version files are not read again for nothing.
    assert len(files_log.read_text().splitlines()) == 1


def test_an_entry_from_before_version_files_gains_them_on_its_next_hit(
    reading: ReadingFixture,
) -> None:
    plugins = _reading_registry()
    check(plugins)
    data = json.loads(reading.cache.read_text())
    for entry in data["entries"].values():
        del entry["version_files"]
    reading.cache.write_text(json.dumps(data))
    assert check(plugins).cached is True
    assert check(plugins).cached is True
    assert (reading.probes(), reading.version_reads()) == (1, 2)


def test_a_new_hard_link_to_a_version_file_is_no_change_but_its_content_is(
    reading: ReadingFixture, tmp_path: Path
) -> None:
    """Installers hard-link package files from a shared cache: a new link changes the
    file's change time only, and the versions are still taken unread. New content of the
    same size under the old modification time is read again."""
    plugins = _reading_registry()
    check(plugins)
    os.link(reading.version, tmp_path / "another-venv-link")
    assert check(plugins).cached is True
    assert reading.version_reads() == 1
    stamp = reading.version.stat()
    reading.version.write_text("1.2.9\n")
    os.utime(reading.version, ns=(stamp.st_atime_ns, stamp.st_mtime_ns))
    status = check(plugins)
    assert (status.version, reading.version_reads(), reading.probes()) == ("1.2.9", 2, 2)


WRITER = """
import sys, time
from pathlib import Path
from garuda_evals.toolchains.base import ToolchainStatus
from garuda_evals.toolchains.cache import ProbeCache

cache_path, folder, writer, count = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3], int(sys.argv[4])
cache = ProbeCache(cache_path)  # every writer reads the file before any of them writes
(folder / f"ready-{writer}").touch()
while not (folder / "go").exists():
    time.sleep(0.005)
for n in range(count):
    cache.remember({"writer": writer, "n": n}, ToolchainStatus(name=f"t{writer}", ok=True))
"""


def _concurrent_writers(folder: Path, cache_path: Path, writers: int, count: int) -> None:
    """Start ``writers`` processes that all read the cache, then all store ``count`` entries
    at once."""
    processes = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, str(cache_path), str(folder), str(i), str(count)]
        )
        for i in range(writers)
    ]
    deadline = time.monotonic() + 60
    while len(list(folder.glob("ready-*"))) < writers and time.monotonic() < deadline:
        time.sleep(0.01)
    (folder / "go").touch()
    assert [process.wait(timeout=60) for process in processes] == [0] * writers


@pytest.mark.parametrize("count", [1, 10])
def test_concurrent_writers_keep_every_entry(tmp_path: Path, count: int) -> None:
    """Real processes, each holding the file as it was before any wrote: every entry each of
    them stored is in the file afterwards (a last-writer-wins file keeps one writer's)."""
    cache_path = tmp_path / "cache" / "probes.json"
    writers = 6
    _concurrent_writers(tmp_path, cache_path, writers, count)
    entries = json.loads(cache_path.read_text())["entries"]
    wanted = {_digest({"writer": str(i), "n": n}) for i in range(writers) for n in range(count)}
    assert len(wanted) <= 64 and set(entries) == wanted


def test_a_writer_finding_a_corrupt_file_replaces_it_and_says_so_once(
    tmp_path: Path,
) -> None:
    """The file is read again under the lock before each write: a file that became corrupt
    meanwhile is ignored (one line for the run, however many writes) and replaced."""
    cache_path = tmp_path / "probes.json"
    warnings = io.StringIO()
    cache = ProbeCache(cache_path, warn=warnings)
    cache.remember({"n": 0}, ToolchainStatus(name="t", ok=True))
    cache_path.write_text("{not json")
    cache.remember({"n": 1}, ToolchainStatus(name="t", ok=True))
    cache.remember({"n": 2}, ToolchainStatus(name="t", ok=True))
    assert warnings.getvalue().count("ignoring the probe cache") == 1
    entries = json.loads(cache_path.read_text())["entries"]
    assert set(entries) == {_digest({"n": 1}), _digest({"n": 2})}
