"""The package folders of installed garuda plugins, which the sandbox hides: suite data
(reference solutions) lives inside them.

A regular install puts each plugin's packages in the environment's site-packages; they are
found through ``importlib.metadata`` (the distributions with entry points in group
``garuda_evals``) and each package folder is hidden. An editable install keeps its sources in
the project tree, which the sandbox does not show; its site-packages holds only a ``.pth``.
"""

from __future__ import annotations

import functools
import importlib.metadata
from collections.abc import Iterable
from pathlib import Path, PurePosixPath

PLUGIN_GROUP = "garuda_evals"
SITE_PATTERNS = (
    "lib/python3*/site-packages",
    "lib64/python3*/site-packages",
    "lib/python3*/dist-packages",
    "lib/python3/dist-packages",
    "local/lib/python3*/dist-packages",
    "Lib/site-packages",
)
NOT_PACKAGES = (".dist-info", ".egg-info", ".data")


def site_dirs(prefix: Path) -> list[Path]:
    """The site-packages folders of the Python environment at ``prefix``."""
    found: list[Path] = []
    for pattern in SITE_PATTERNS:
        found += sorted(path for path in prefix.glob(pattern) if path.is_dir())
    return list(dict.fromkeys(found))


def _is_plugin(dist: importlib.metadata.Distribution) -> bool:
    try:
        return any(point.group == PLUGIN_GROUP for point in dist.entry_points)
    except (OSError, ValueError):
        return False


def _top_folder(file: PurePosixPath) -> str | None:
    parts = file.parts
    if len(parts) < 2 or parts[0] in ("..", "__pycache__") or parts[0].endswith(NOT_PACKAGES):
        return None
    return parts[0]


@functools.lru_cache(maxsize=64)
def _plugin_folders(site: str, stamp: int) -> tuple[Path, ...]:
    """Cached per site-packages folder and its mtime (which changes when a package comes or
    goes), so each command of a run does not read every distribution's metadata again."""
    del stamp
    folders: set[Path] = set()
    for dist in importlib.metadata.distributions(path=[site]):
        if not _is_plugin(dist):
            continue
        for file in dist.files or ():
            top = _top_folder(PurePosixPath(str(file)))
            if top is not None and (Path(site) / top).is_dir():
                folders.add(Path(site) / top)
    return tuple(sorted(folders))


def plugin_folders(prefixes: Iterable[Path]) -> list[Path]:
    """Every package folder of an installed garuda plugin in the environments at ``prefixes``."""
    found: list[Path] = []
    for prefix in prefixes:
        for site in site_dirs(prefix):
            try:
                stamp = site.stat().st_mtime_ns
            except OSError:
                continue
            found += _plugin_folders(str(site), stamp)
    return list(dict.fromkeys(found))
