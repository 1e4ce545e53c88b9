"""Where the proxy puts the real key: only where the upstream's provider expects one.

The agent holds the placeholder. A request's placeholder becomes the real key only in the
key header of that provider, holding exactly the placeholder (``Bearer`` for
``authorization``). Anywhere else it stays the placeholder: an upstream that echoes what it
was sent (a 404 naming the URL, as OpenAI's "Invalid URL (GET /v1/...)" does) can only hand
back what the agent already had. Gemini's ``key=`` query parameter is the one key a URL
carries; it is taken out of the URL and sent in Gemini's key header instead.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from garuda_evals_agent_cli.upstream import PLACEHOLDER_KEY

KEY_HEADERS: Mapping[str, frozenset[str]] = {
    "anthropic": frozenset({"x-api-key", "authorization"}),
    "openai": frozenset({"authorization", "api-key"}),
    "gemini": frozenset({"x-goog-api-key"}),
}
"""The headers each provider reads its key from (lowercase)."""
GEMINI_KEY_HEADER = "x-goog-api-key"
KEY_PARAMETER = f"key={PLACEHOLDER_KEY}"
BEARER = "bearer "


def _swapped(name: str, value: str, key: str) -> str | None:
    """The value with the real key, or None when this value is not the placeholder key."""
    if name == "authorization":
        scheme, token = value[: len(BEARER)], value[len(BEARER) :]
        if scheme.lower() == BEARER and token == PLACEHOLDER_KEY:
            return scheme + key
        return None
    return key if value == PLACEHOLDER_KEY else None


def outgoing(
    provider: str, target: str, headers: Iterable[tuple[str, str]], key: str
) -> tuple[str, list[tuple[str, str]]]:
    """The request target (path and query) and headers as sent upstream.

    The placeholder in the provider's key header becomes ``key``; without a key (a gateway
    that needs none) that header is left out. Gemini's placeholder ``key=`` parameter is
    taken out of the URL, and the key sent in ``GEMINI_KEY_HEADER`` (unless one is there).
    """
    expected = KEY_HEADERS.get(provider, frozenset())
    sent: list[tuple[str, str]] = []
    for name, value in headers:
        swapped = _swapped(name.lower(), value, key) if name.lower() in expected else None
        if swapped is None:
            sent.append((name, value))
        elif key:
            sent.append((name, swapped))
    target, in_query = _without_key_parameter(target) if provider == "gemini" else (target, False)
    named = {name.lower() for name, _ in sent}
    if in_query and key and GEMINI_KEY_HEADER not in named:
        sent.append((GEMINI_KEY_HEADER, key))
    return target, sent


def _without_key_parameter(target: str) -> tuple[str, bool]:
    """``target`` without the placeholder ``key=`` parameter, and whether it had one."""
    base, _, query = target.partition("?")
    parts = query.split("&") if query else []
    kept = [part for part in parts if part != KEY_PARAMETER]
    if len(kept) == len(parts):
        return target, False
    return (f"{base}?{'&'.join(kept)}" if kept else base), True
