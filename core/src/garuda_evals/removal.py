"""Removing a folder an agent or a check wrote into, however it is shaped.

``shutil.rmtree`` recurses once per folder level, so on Python 3.11 a tree a thousand folders
deep (a line of shell for an agent) raises ``RecursionError``, which ``ignore_errors`` does
not cover: the whole run would stop with a traceback. What ``rmtree`` leaves is removed by
``rm -rf``, which walks any depth.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path


def _writable_then_retry(function: Callable[[str], object], failed: str, _: object) -> None:
    os.chmod(os.path.dirname(failed), 0o700)
    function(failed)


def remove_tree(path: Path) -> None:
    """Remove ``path`` and everything in it, folders left read-only included; never raises
    (what cannot be removed stays)."""
    if not os.path.lexists(path):
        return
    with contextlib.suppress(OSError, RecursionError):
        shutil.rmtree(path, onerror=_writable_then_retry)
    if os.path.lexists(path):
        for argv in (["chmod", "-R", "u+rwx", "--", str(path)], ["rm", "-rf", "--", str(path)]):
            with contextlib.suppress(OSError):
                subprocess.run(argv, capture_output=True, check=False)
