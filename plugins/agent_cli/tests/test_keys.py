"""Where the proxy puts the real key: the provider's key header, and nowhere else.

The focused tests of the ``keys`` mutants (``mutation/run.py``); ``test_proxy.py`` runs the
same rule between real SDKs and an upstream that echoes the URL it was sent."""

from __future__ import annotations

import pytest

from garuda_evals_agent_cli.keys import outgoing
from garuda_evals_agent_cli.upstream import PLACEHOLDER_KEY as P

REAL = "sk-real-0123"
OTHER = ("content-type", "application/json")


def headers_of(provider: str, *headers: tuple[str, str], key: str = REAL) -> list[tuple[str, str]]:
    return outgoing(provider, "/v1/x", [*headers, OTHER], key)[1]


@pytest.mark.parametrize(
    ("provider", "name", "value", "sent"),
    [
        ("anthropic", "x-api-key", P, REAL),
        ("anthropic", "X-Api-Key", P, REAL),
        ("anthropic", "authorization", f"Bearer {P}", f"Bearer {REAL}"),
        ("anthropic", "x-goog-api-key", P, P),
        ("anthropic", "api-key", P, P),
        ("openai", "Authorization", f"Bearer {P}", f"Bearer {REAL}"),
        ("openai", "authorization", f"bearer {P}", f"bearer {REAL}"),
        ("openai", "api-key", P, REAL),
        ("openai", "x-api-key", P, P),
        ("gemini", "x-goog-api-key", P, REAL),
        ("gemini", "authorization", f"Bearer {P}", f"Bearer {P}"),
        ("gemini", "x-api-key", P, P),
        ("bedrock", "x-api-key", P, P),
    ],
)
def test_the_key_header_of_the_provider_gets_the_key(
    provider: str, name: str, value: str, sent: str
) -> None:
    assert headers_of(provider, (name, value)) == [(name, sent), OTHER]


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("x-api-key", f"{P} {P}"),
        ("x-api-key", f"{P}-and-more"),
        ("x-api-key", f"Bearer {P}"),
        ("authorization", f"Bearer {P} x"),
        ("authorization", f"Bearer  {P}"),
        ("authorization", f"Basic  {P}"),
        ("authorization", "Bearer someone-elses-key"),
        ("authorization", P),
    ],
)
def test_only_a_value_that_is_exactly_the_placeholder_is_swapped(name: str, value: str) -> None:
    """Cheat: a header value built around the placeholder (echoed back by a gateway that
    names what it refused) would carry the real key out."""
    assert headers_of("anthropic", (name, value)) == [(name, value), OTHER]


def test_without_a_key_the_key_header_is_left_out() -> None:
    """A gateway without a key: the placeholder would only confuse it."""
    sent = headers_of("openai", ("authorization", f"Bearer {P}"), ("x-echo", P), key="")
    assert sent == [("x-echo", P), OTHER]


@pytest.mark.parametrize("provider", ["anthropic", "openai"])
def test_a_key_parameter_stays_the_placeholder_outside_gemini(provider: str) -> None:
    target = f"/v1/nothing?key={P}"
    assert outgoing(provider, target, [OTHER], REAL) == (target, [OTHER])


@pytest.mark.parametrize(
    ("target", "sent"),
    [
        (f"/v1beta/models/m:generateContent?key={P}", "/v1beta/models/m:generateContent"),
        (f"/v1beta/models/m:x?alt=sse&key={P}", "/v1beta/models/m:x?alt=sse"),
        (f"/v1beta/models/m:x?key={P}&alt=sse", "/v1beta/models/m:x?alt=sse"),
        (f"/v1beta/models?pageSize=5&key={P}&pageToken=t", "/v1beta/models?pageSize=5&pageToken=t"),
    ],
)
def test_gemini_key_parameter_moves_to_its_header(target: str, sent: str) -> None:
    assert outgoing("gemini", target, [OTHER], REAL) == (sent, [OTHER, ("x-goog-api-key", REAL)])


@pytest.mark.parametrize(
    "target",
    ["/v1beta/models/m:generateContent", "/v1beta/models?", "/v1beta/models?key=other", "/a?k=x"],
)
def test_gemini_without_the_placeholder_parameter_is_left_alone(target: str) -> None:
    assert outgoing("gemini", target, [OTHER], REAL) == (target, [OTHER])


def test_gemini_key_in_both_places_is_sent_once() -> None:
    target = f"/v1beta/models/m:generateContent?key={P}"
    sent = outgoing("gemini", target, [("X-Goog-Api-Key", P), OTHER], REAL)
    assert sent == ("/v1beta/models/m:generateContent", [("X-Goog-Api-Key", REAL), OTHER])


def test_gemini_key_parameter_without_a_key_is_dropped() -> None:
    target = f"/v1beta/models/m:generateContent?key={P}"
    assert outgoing("gemini", target, [OTHER], "") == ("/v1beta/models/m:generateContent", [OTHER])
