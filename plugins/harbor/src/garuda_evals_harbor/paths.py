"""The container's absolute paths, written as this host's.

A Harbor task names container paths: its working folder (``WORKDIR``, ``/app`` mostly),
``/tests`` (where the verifier's files are put), ``/logs/verifier`` (where it writes the
reward) and ``/solution``. Without a container those are rewritten, in the scripts and test
files, to the folders that stand for them in each run: a path is replaced only whole (at a
word boundary, ``/app/x`` and ``"/app"`` and ``/app.`` ending a sentence, but not ``/apple``, ``/app.py`` or ``x/app``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

BEFORE = r"(?<![\w./-])"
AFTER = r"(?![\w-]|\.\w)"


def rewrite(text: str, mapping: Mapping[str, str]) -> str:
    """``text`` with each container path of ``mapping`` (longest first) replaced."""
    for path in sorted(mapping, key=len, reverse=True):
        pattern = re.compile(BEFORE + re.escape(path.rstrip("/")) + AFTER)
        text = pattern.sub(lambda _match, value=mapping[path]: value, text)
    return text


def prompt_text(instruction: str, workdir: str) -> str:
    """The instruction with the working folder written relative to the agent's folder."""
    base = re.escape(workdir.rstrip("/"))
    relative = re.sub(BEFORE + base + "/", "./", instruction)
    relative = re.sub(BEFORE + base + AFTER, ".", relative)
    return (
        f"(This task was written for a container whose working folder is {workdir}: that "
        f"folder is your current folder here, so {workdir}/x is ./x.)\n\n{relative}"
    )
