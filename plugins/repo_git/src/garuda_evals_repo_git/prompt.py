"""The task prompt: the commit message, then the visible tests, with give-aways stripped."""

from __future__ import annotations

import re

HASH = re.compile(r"\b[0-9a-f]{7,40}\b")
PR_TRAILER = re.compile(r"\s*\(#\d+\)")
ISSUE_REF = re.compile(r"(?<![\w/])(?:[\w.-]+/[\w.-]+)?#\d+\b")
LINK = re.compile(r"<?\b(?:https?|ftp)://\S+>?|\bwww\.\S+")
TRAILER = re.compile(r"^[A-Za-z][\w-]*(?:-by|-on|-Id|-id|-URL|-url):\s.*$")
REVERT_OF = re.compile(r"^This reverts commit.*$", re.IGNORECASE)


def clean_message(message: str) -> str:
    """The commit message without hashes, ``(#123)`` trailers, issue references and links.

    Trailer lines (``Signed-off-by:``, ``Reviewed-on:``, ``Change-Id:``) are dropped whole.
    """
    lines: list[str] = []
    for line in message.splitlines():
        if TRAILER.match(line.strip()) or REVERT_OF.match(line.strip()):
            continue
        line = LINK.sub("", line)
        line = PR_TRAILER.sub("", line)
        line = ISSUE_REF.sub("", line)
        line = HASH.sub("", line)
        lines.append(re.sub(r"[ \t]{2,}", " ", line).rstrip())
    text = "\n".join(lines).strip()
    text = re.sub(r"\(\s*\)|<\s*>", "", text)
    text = re.sub(r"[ \t]+([,.;:])", r"\1", text)
    return re.sub(r"\n{3,}", "\n\n", text)


def task_prompt(
    message: str, test_files: list[str], deleted: list[str], held_out: bool = False
) -> str:
    """The commit message, then the tests that are already in the project (and, when some
    are held out, that more tests of the change will be run)."""
    listed = "\n".join(f"- {path}" for path in test_files)
    more = " More tests of this change, which you do not see, will be run too." if held_out else ""
    parts = [
        clean_message(message),
        f"The tests for this change are already in the project:\n{listed}\n"
        f"Make the change so that they pass. Do not change these test files.{more}",
    ]
    if deleted:
        gone = ", ".join(deleted)
        parts.append(f"These test files were removed as part of the change: {gone}.")
    return "\n\n".join(part for part in parts if part)
