"""The installed entry points of garuda's groups, scanned once and remembered across runs.

``importlib.metadata.entry_points()`` reads every installed distribution's
``entry_points.txt``, and importing ``importlib.metadata`` itself pulls in the email and zip
modules. Here the entry points of garuda's groups, with each distribution's name and version
(from the header of its METADATA or PKG-INFO, read once per distribution), are written to a
small cache file (``$GARUDA_ENTRY_POINT_CACHE``, else ``$XDG_CACHE_HOME/garuda/``, one file
per interpreter and import path). The next process takes them from there while the stamp is
unchanged, without importing ``importlib.metadata``.

The stamp covers everything the scan reads: each ``sys.path`` entry (a folder, or a file's
modification time, inode and size) and, inside each folder, every ``*.dist-info``, ``*.egg-info``,
``*.egg-link`` and ``*.pth`` entry with the ``entry_points.txt`` and ``METADATA`` (or
``PKG-INFO``) inside. An install or an uninstall adds or removes such an entry, an upgrade
renames it, an edit in place changes a file's time or size (only a rewrite of the same size
within one tick of a coarse-time filesystem would go unseen). (A folder's own time is left out:
the current folder, on the path of ``python -m``, changes whenever a file is made there.) It is
taken before the scan, so a change made during the scan is seen by the next run. With a
distribution finder other than the standard path finder on ``sys.meta_path`` the cache is
not used. Within a process the scan is kept while ``sys.path`` and the times of its folders
are unchanged (a plugin installed while the process runs, as tests do, is seen).
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import zlib
from dataclasses import dataclass
from importlib import import_module
from importlib.machinery import PathFinder
from pathlib import Path
from typing import Any

GROUPS = ("garuda_evals", "garuda_evals.executors", "garuda_evals.agents")
"""The groups garuda reads: plugins, executors, agents."""
CACHE_ENV = "GARUDA_ENTRY_POINT_CACHE"
CACHE_FORMAT = 1
MARKED = (".dist-info", ".egg-info", ".egg-link", ".pth")
READ_INSIDE = {
    "dist-info": ("entry_points.txt", "METADATA"),
    "egg-info": ("entry_points.txt", "PKG-INFO"),
}
"""The files a scan reads inside a distribution's folder (an ``.egg-info`` file has none)."""


@dataclass(frozen=True)
class FoundEntryPoint:
    """One entry point of a garuda group and the distribution that declares it."""

    name: str
    value: str
    group: str
    distribution: str | None = None
    """The distribution's name; None when the entry point has none."""
    version: str = ""

    def _parts(self) -> tuple[str, str]:
        """``value``'s module and attribute path, without its extras."""
        module, _, attributes = self.value.split("[", 1)[0].partition(":")
        return module.strip(), attributes.strip()

    @property
    def module(self) -> str:
        """The module part of ``value`` (``pkg.mod`` of ``pkg.mod:Class [extra]``)."""
        return self._parts()[0]

    def load(self) -> Any:
        """Import the module and return the object ``value`` names (as ``EntryPoint.load``)."""
        module, attributes = self._parts()
        found: Any = import_module(module)
        for attribute in filter(None, attributes.split(".")):
            found = getattr(found, attribute)
        return found


_scanned: dict[str, Any] = {}


def _fingerprint() -> tuple[tuple[str, int], ...]:
    stamps = []
    for entry in sys.path:
        try:
            stamps.append((entry, os.stat(entry or ".").st_mtime_ns))
        except OSError:
            stamps.append((entry, -1))
    return tuple(stamps)


def entry_points(group: str) -> tuple[FoundEntryPoint, ...]:
    """The entry points of ``group`` (one of ``GROUPS``), as installed now."""
    if group not in GROUPS:
        raise ValueError(f"{group!r} is not one of garuda's entry-point groups {GROUPS}")
    fingerprint = _fingerprint()
    if _scanned.get("fingerprint") != fingerprint:
        _scanned.clear()
        _scanned["fingerprint"] = fingerprint
        _scanned["all"] = _remembered_or_scanned()
    found: tuple[FoundEntryPoint, ...] = _scanned["all"]
    return tuple(ep for ep in found if ep.group == group)


def name_and_version(ep: FoundEntryPoint) -> tuple[str, str] | None:
    """The distribution's name and version for ``ep`` (None when it has no distribution)."""
    return None if ep.distribution is None else (ep.distribution, ep.version)


def _stat(path: str) -> list[int] | None:
    try:
        status = os.stat(path)
    except OSError:
        return None
    return [status.st_mtime_ns, status.st_ino, status.st_size]


def stamp() -> list[Any]:
    """What a scan reads, as times, inodes and sizes (see the module's docstring)."""
    stamps: list[Any] = []
    for entry in sys.path:
        try:
            children = list(os.scandir(entry or "."))
        except OSError:
            stamps.append([entry, _stat(entry)])  # a zip, or nothing: its own stat covers it
            continue
        stamps.append([entry, "folder"])  # its time is not needed: its entries are listed
        for child in children:
            if child.name.endswith(MARKED):
                stamps.append([child.name, _stat(child.path)])
                inside = READ_INSIDE.get(child.name.rpartition(".")[2], ())
                stamps += [[name, _stat(os.path.join(child.path, name))] for name in inside]
    return stamps


def cache_file() -> Path:
    """``$GARUDA_ENTRY_POINT_CACHE``, else a file per interpreter and import path under
    ``$XDG_CACHE_HOME/garuda`` (``~/.cache``)."""
    if os.environ.get(CACHE_ENV):
        return Path(os.environ[CACHE_ENV])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    key = zlib.crc32("\0".join([sys.executable, *sys.path]).encode())
    return Path(base) / "garuda" / f"entry-points-{key:08x}.json"


def _cacheable() -> bool:
    """Only the standard path finder lists distributions (what the stamp covers)."""
    return all(
        finder is PathFinder or not hasattr(finder, "find_distributions")
        for finder in sys.meta_path
    )


def _remembered_or_scanned() -> tuple[FoundEntryPoint, ...]:
    if not _cacheable():
        return _scan()
    key = {"format": CACHE_FORMAT, "executable": sys.executable, "stamp": stamp()}
    path = cache_file()
    try:
        stored = json.loads(path.read_text(encoding="utf-8"))
        if stored["key"] == key:
            return tuple(FoundEntryPoint(*row) for row in stored["entry_points"])
    except (OSError, ValueError, KeyError, TypeError):
        pass  # no cache yet, or an unreadable one: scan
    found = _scan()
    rows = [[ep.name, ep.value, ep.group, ep.distribution, ep.version] for ep in found]
    _write(path, json.dumps({"key": key, "entry_points": rows}))
    return found


def _write(path: Path, text: str) -> None:
    """Replace the cache file at once; a cache that cannot be written is only not kept."""
    temporary = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary.write_text(text, encoding="utf-8")
        os.replace(temporary, path)
    except OSError:
        with contextlib.suppress(OSError):
            temporary.unlink(missing_ok=True)


def _scan() -> tuple[FoundEntryPoint, ...]:
    from importlib.metadata import entry_points as scan_entry_points

    installed = scan_entry_points()  # one pass over the distributions for every group
    found: list[FoundEntryPoint] = []
    names: dict[Any, tuple[str, str]] = {}  # by distribution object (compared by identity)
    for group in GROUPS:
        for ep in installed.select(group=group):
            distribution, version = None, ""
            if ep.dist is not None:
                if ep.dist not in names:
                    names[ep.dist] = _name_and_version(ep.dist)
                distribution, version = names[ep.dist]
            found.append(FoundEntryPoint(ep.name, ep.value, group, distribution, version))
    return tuple(found)


def _name_and_version(dist: Any) -> tuple[str, str]:
    """``Name`` and ``Version`` from the METADATA header; the email parser only as a fallback."""
    fields: dict[str, str] = {}
    for name in ("METADATA", "PKG-INFO"):
        text = dist.read_text(name)
        if text is not None:
            fields = _header_fields(text)
            break
    if "Name" not in fields or "Version" not in fields:
        return dist.metadata["Name"], dist.version
    return fields["Name"], fields["Version"]


def _header_fields(text: str) -> dict[str, str]:
    """``Name`` and ``Version`` from a core-metadata header (they are single-line fields)."""
    fields: dict[str, str] = {}
    for line in text.splitlines():
        if not line.strip():
            break  # the header ends at the first blank line; the description follows
        key, colon, value = line.partition(":")
        if colon and key in ("Name", "Version") and key not in fields:
            fields[key] = value.strip()
    return fields
