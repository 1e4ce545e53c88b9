"""Progress lines for the import log."""

from __future__ import annotations


def format_progress(done: int, total: int) -> str:
    """``batch 3/5 (60%)``."""
    if total <= 0:
        return "batch 0/0 (100%)"
    percent = done * 100 // total
    return f"batch {done}/{total} ({percent}%)"
