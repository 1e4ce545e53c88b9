"""Passing toolchain probes remembered across runs, keyed by what the probe depended on.

A probe runs a whole tiny project (a pytest run, a Maven build), so garuda remembers the
ones that passed in ``$XDG_CACHE_HOME/garuda/probes.json`` (``~/.cache`` without it;
``$GARUDA_PROBE_CACHE`` names another file). An entry is used only when everything it was
keyed by is unchanged: the toolchain's definition (probe project, commands, minimum
version), the check environment (PATH, HOME, JAVA_HOME, VIRTUAL_ENV, ...), the versions its
version commands print now, and for each of its programs the path PATH resolves it to, the
file that path points at, and that file's inode, size and modification and change times.
Replacing, upgrading, moving or removing a program therefore probes again, as does
``--reprobe``. A failing probe is never remembered. A cache file that cannot be read is
ignored with one line on stderr and rewritten by the next passing probe.

Several runs may share the file (two ``garuda eval`` at once). A write holds an exclusive
lock on ``<file>.lock`` while it reads the file again, adds the entries this process stored
over what it finds there, and replaces the file whole; so no run drops another's entry, and
a reader never sees half a file.

Reading the versions costs a process per version command. A toolchain that names the files
its versions are read from (``Toolchain.version_files_command``) has them stamped when its
probe is remembered (as programs are, but by content up to ``HASHED_BYTES``); a later run
whose definition, environment and programs match and whose version files are all unchanged
takes the remembered versions without running a version command (``lookup_unread``). Each
program must be one of those files (the version command ran that very file, not a launcher
that picks another).
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import re
import shlex
import shutil
import stat
import sys
import tempfile
import time
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any, TextIO, cast

from garuda_evals.toolchains.base import Toolchain, ToolchainStatus

CACHE_ENV = "GARUDA_PROBE_CACHE"
FORMAT = 1
MAX_ENTRIES = 64
ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")


def cache_file(env: Mapping[str, str] | None = None) -> Path:
    """``$GARUDA_PROBE_CACHE``, else ``$XDG_CACHE_HOME/garuda/probes.json`` (``~/.cache``)."""
    env = os.environ if env is None else env
    if env.get(CACHE_ENV):
        return Path(env[CACHE_ENV])
    base = env.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "garuda" / "probes.json"


def programs_of(toolchain: Toolchain) -> tuple[str, ...]:
    """The toolchain's declared programs, else the first word of each of its commands."""
    if toolchain.programs:
        return toolchain.programs
    commands = [toolchain.probe_command, toolchain.version_command or ""]
    commands += [command for command, _ in toolchain.extra_versions.values()]
    found: list[str] = []
    for command in commands:
        try:
            words = shlex.split(command)
        except ValueError:
            continue
        words = [word for word in words if not ASSIGNMENT.match(word)]
        if words and words[0] not in found:
            found.append(words[0])
    return tuple(found)


def _stamp(path: str) -> dict[str, Any]:
    info = os.stat(path)
    return {
        "ino": info.st_ino,
        "dev": info.st_dev,
        "size": info.st_size,
        "mtime_ns": info.st_mtime_ns,
        "ctime_ns": info.st_ctime_ns,
    }


HASHED_BYTES = 1 << 20
"""Version files up to this size are stamped by their content rather than their change time:
installers hard-link package files from a shared cache (uv does), and every new link to the
same file changes its change time though nothing in it changed."""


def _file_stamp(path: str) -> dict[str, Any]:
    stamp = _stamp(path)
    if stat.S_ISREG(os.stat(path).st_mode) and stamp["size"] <= HASHED_BYTES:
        del stamp["ctime_ns"]
        with open(path, "rb") as stream:
            stamp["sha256"] = hashlib.sha256(stream.read(HASHED_BYTES + 1)).hexdigest()
    return stamp


def file_stamps(paths: Iterable[str]) -> list[dict[str, Any]]:
    """Each path's stamp (followed through links), or that it is missing."""
    stamps: list[dict[str, Any]] = []
    for path in paths:
        try:
            stamps.append({"path": path, **_file_stamp(path)})
        except OSError:
            stamps.append({"path": path, "missing": True})
    return stamps


def program_stamps(toolchain: Toolchain, env: Mapping[str, str]) -> list[dict[str, Any]] | None:
    """Each program as PATH resolves it now; None when one is not found (nothing to key by)."""
    stamps = []
    for program in programs_of(toolchain):
        found = shutil.which(program, path=env.get("PATH"))
        if found is None:
            return None
        resolved = os.path.realpath(found)
        try:
            stamp = _stamp(resolved)
        except OSError:
            return None
        stamps.append({"program": program, "path": found, "resolved": resolved, **stamp})
    for watched in toolchain.watch:
        home = env.get("HOME")
        path = home + watched[1:] if watched.startswith("~") and home else watched
        try:
            stamps.append({"watch": watched, "path": path, **_stamp(path)})
        except OSError:
            stamps.append({"watch": watched, "path": path, "missing": True})
    return stamps


def definition(toolchain: Toolchain) -> dict[str, Any]:
    """What of the toolchain's definition a passing probe depends on."""
    return {
        "name": toolchain.name,
        "probe_files": toolchain.probe_files,
        "probe_command": toolchain.probe_command,
        "version_command": toolchain.version_command,
        "version_pattern": toolchain.version_pattern,
        "min_version": toolchain.min_version,
        "extra_versions": {k: list(v) for k, v in toolchain.extra_versions.items()},
        "version_files_command": toolchain.version_files_command,
    }


def probe_key(
    toolchain: Toolchain,
    env: Mapping[str, str],
    version: str | None,
    versions: Mapping[str, str],
) -> dict[str, Any] | None:
    """Everything a cached probe is keyed by, or None when a program is missing."""
    stamps = program_stamps(toolchain, env)
    if stamps is None:
        return None
    return {
        "definition": definition(toolchain),
        "environment": dict(sorted(env.items())),
        "version": version,
        "versions": dict(sorted(versions.items())),
        "programs": stamps,
    }


def _digest(key: Mapping[str, Any]) -> str:
    return hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()


def _plain(value: Any) -> Any:
    """``value`` as it reads back from the cache file (tuples become lists)."""
    return json.loads(json.dumps(value))


UNREAD_PARTS = ("definition", "environment", "programs")
"""The parts of a key compared when the versions are not read (they are implied by the
version files)."""


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    """Hold an exclusive lock on ``<path>.lock`` (created once, never removed: removing it
    would let two writers lock two different files)."""
    handle = os.open(path.with_name(path.name + ".lock"), os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield
    finally:
        os.close(handle)  # closing releases the lock


class ProbeCache:
    """The cache file, read once; ``remember`` merges its entry into the file at once."""

    def __init__(self, path: Path, *, warn: TextIO | None = None) -> None:
        self.path = path
        self._warn = warn if warn is not None else sys.stderr
        self._warned = False
        self._stored: set[str] = set()
        self.entries: dict[str, dict[str, Any]] = self._read()

    def _read(self) -> dict[str, dict[str, Any]]:
        try:
            text = self.path.read_text(encoding="utf-8")
        except (FileNotFoundError, NotADirectoryError):
            return {}  # nothing cached yet; a path that cannot be written says so on write
        except (OSError, UnicodeDecodeError) as error:
            return self._ignore(f"cannot be read ({error})")
        try:
            data = json.loads(text)
        except ValueError as error:
            return self._ignore(f"is not JSON ({error})")
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            return self._ignore(f"is not format {FORMAT}")
        entries = data.get("entries")
        if not isinstance(entries, dict) or not all(isinstance(e, dict) for e in entries.values()):
            return self._ignore("has no valid 'entries'")
        return entries

    def _ignore(self, reason: str) -> dict[str, dict[str, Any]]:
        if not self._warned:  # once per run, though a write reads the file again
            print(f"garuda: ignoring the probe cache {self.path}: it {reason}", file=self._warn)
        self._warned = True
        return {}

    def lookup(self, toolchain: Toolchain, key: Mapping[str, Any]) -> ToolchainStatus | None:
        """The passing status stored under exactly ``key``, else None."""
        entry = self.entries.get(_digest(key))
        if entry is None or entry.get("key") != _plain(key):
            return None
        return _passing(toolchain, entry)

    def lookup_unread(self, toolchain: Toolchain, env: Mapping[str, str]) -> ToolchainStatus | None:
        """A remembered passing probe whose definition, environment, programs and version
        files are all as they are now, with its versions; None when any differs, when the
        entry has no version files, or when a program is not one of them."""
        for paths, files, entry in self._same_programs(toolchain, env):
            if paths is not None and file_stamps(paths) == files:
                status = _passing(toolchain, entry)
                if status is not None:
                    return status
        return None

    def launcher_known(self, toolchain: Toolchain, env: Mapping[str, str]) -> bool:
        """An entry for these very programs says they are launchers (not among their version
        files): reading the version files again would not spare the version reads."""
        return any(paths is None for paths, _, _ in self._same_programs(toolchain, env))

    def _same_programs(
        self, toolchain: Toolchain, env: Mapping[str, str]
    ) -> Iterator[tuple[list[str] | None, list[Any], Mapping[str, Any]]]:
        """Entries with version files whose definition, environment and programs are as
        now: their version files' paths (None when a program is not among them), the
        files' stamps, and the entry."""
        current = probe_key(toolchain, env, None, {})
        if current is None:
            return
        wanted = {part: _plain(current[part]) for part in UNREAD_PARTS}
        programs = {stamp["resolved"] for stamp in current["programs"] if "resolved" in stamp}
        for entry in self.entries.values():
            key, files = entry.get("key"), entry.get("version_files")
            if not isinstance(key, dict) or not isinstance(files, list) or not files:
                continue
            if any(key.get(part) != value for part, value in wanted.items()):
                continue
            paths = [stamp.get("path") if isinstance(stamp, dict) else None for stamp in files]
            if not all(isinstance(path, str) for path in paths):
                continue
            found = cast(list[str], paths)
            yield (found if programs <= set(found) else None), files, entry

    def remember(
        self,
        key: Mapping[str, Any],
        status: ToolchainStatus,
        version_files: list[dict[str, Any]] | None = None,
    ) -> None:
        """Store a passing probe under ``key`` with the stamps of its version files (taken
        before the versions were read); the file is replaced whole, never half-written."""
        if not status.ok:
            return
        digest = _digest(key)
        known = self.entries.get(digest)
        if status.cached and known is not None:
            if not version_files or known.get("version_files") == version_files:
                return  # nothing new to store
            known["version_files"] = version_files
        else:
            self.entries[digest] = {
                "key": key,
                "status": {
                    "ok": True,
                    "version": status.version,
                    "versions": status.versions,
                    "duration_ms": status.duration_ms,
                },
                "probed_at": time.time(),
            }
            if version_files:
                self.entries[digest]["version_files"] = version_files
        self._stored.add(digest)
        self._write()

    def _write(self) -> None:
        """Under the lock: the file as it is now, with every entry this process stored put
        over it (the newest ``MAX_ENTRIES`` kept), replaces the file."""
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with _locked(self.path):
                merged = self._read()
                merged.update({d: self.entries[d] for d in self._stored if d in self.entries})
                newest = sorted(merged.items(), key=lambda item: -_probed_at(item[1]))
                self.entries = dict(newest[:MAX_ENTRIES])
                text = json.dumps(
                    {"format": FORMAT, "entries": self.entries}, indent=1, sort_keys=True
                )
                handle, temporary = tempfile.mkstemp(prefix=".probes-", dir=self.path.parent)
                with os.fdopen(handle, "w", encoding="utf-8") as stream:
                    stream.write(text)
                os.replace(temporary, self.path)
            self._stored.clear()
        except OSError as error:
            with contextlib.suppress(OSError, UnboundLocalError):
                os.unlink(temporary)
            print(f"garuda: the probe cache {self.path} was not written: {error}", file=self._warn)


def _passing(toolchain: Toolchain, entry: Mapping[str, Any]) -> ToolchainStatus | None:
    """The cached status of a passing entry (its versions from its key), else None."""
    key, status = entry.get("key"), entry.get("status")
    if not isinstance(key, dict) or not isinstance(status, dict) or status.get("ok") is not True:
        return None
    return ToolchainStatus(
        name=toolchain.name,
        ok=True,
        version=key.get("version"),
        versions=dict(key.get("versions", {})),
        duration_ms=0,
        cached=True,
    )


def _probed_at(entry: Mapping[str, Any]) -> float:
    value = entry.get("probed_at")
    return float(value) if isinstance(value, int | float) else 0.0
