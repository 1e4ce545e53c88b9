"""The installed entry points, scanned once per process rather than once per group asked.

``importlib.metadata.entry_points(group=...)`` reads every installed distribution's
``entry_points.txt`` on each call, and ``dist.metadata`` parses a whole METADATA file with
the email parser for two fields. A run asks for three groups (plugins, executors, agents) and
a dozen distributions' names: here the scan happens once and each distribution's name and
version are read once, from the header of its METADATA (or PKG-INFO). The scan is made again
when ``sys.path`` or the modification time of one of its folders changes (a plugin installed
while the process runs, as tests do).
"""

from __future__ import annotations

import os
import sys
from importlib.metadata import EntryPoint
from importlib.metadata import entry_points as scan_entry_points
from pathlib import Path
from typing import Any

_scanned: dict[str, Any] = {}
_headers: dict[str, tuple[str, str]] = {}


def _fingerprint() -> tuple[tuple[str, int], ...]:
    stamps = []
    for entry in sys.path:
        try:
            stamps.append((entry, os.stat(entry or ".").st_mtime_ns))
        except OSError:
            stamps.append((entry, -1))
    return tuple(stamps)


def entry_points(group: str) -> tuple[EntryPoint, ...]:
    """The entry points of ``group`` as ``importlib.metadata`` gives them (one scan of all
    groups per process while the import path is unchanged)."""
    fingerprint = _fingerprint()
    if _scanned.get("fingerprint") != fingerprint:
        _scanned.clear()
        _headers.clear()
        _scanned["fingerprint"] = fingerprint
        _scanned["all"] = scan_entry_points()
    return tuple(_scanned["all"].select(group=group))


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


def name_and_version(ep: EntryPoint) -> tuple[str, str] | None:
    """The distribution's name and version for ``ep`` (None when it has no distribution),
    read once per distribution folder."""
    dist = ep.dist
    if dist is None:
        return None
    folder = getattr(dist, "_path", None)
    key = str(folder) if isinstance(folder, Path) else None
    if key is not None and key in _headers:
        return _headers[key]
    fields: dict[str, str] = {}
    if key is not None:
        for name in ("METADATA", "PKG-INFO"):
            text = dist.read_text(name)
            if text is not None:
                fields = _header_fields(text)
                break
    if "Name" not in fields or "Version" not in fields:
        found = (dist.metadata["Name"], dist.version)
    else:
        found = (fields["Name"], fields["Version"])
    if key is not None:
        _headers[key] = found
    return found
