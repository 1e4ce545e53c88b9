"""Cut long tool output so one result cannot flood the context."""

TOOL_OUTPUT_LIMIT = 30_000


def clip(text: str, limit: int = TOOL_OUTPUT_LIMIT) -> str:
    """Keep the head and the tail of ``text`` with a marker of what was left out."""
    if len(text) <= limit:
        return text
    half = limit // 2
    dropped = len(text) - 2 * half
    return f"{text[:half]}\n[... {dropped} characters left out ...]\n{text[-half:]}"
