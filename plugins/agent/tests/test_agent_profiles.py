"""Output limits and thinking per model, and the request shapes sent to each provider."""

import pytest

from garuda_evals.testing import run_settings
from garuda_evals_agent.messages import Message, ModelRequest, TextPart
from garuda_evals_agent.providers.anthropic_models import profile
from garuda_evals_agent.providers.base import ClientOptions
from garuda_evals_agent.providers.openai_provider import OpenAICompatibleProvider
from garuda_evals_agent.tools.registry import TOOLS


@pytest.mark.parametrize(
    ("model", "max_tokens", "thinking"),
    [
        ("claude-haiku-4-5", 16_384, "enabled"),
        ("claude-sonnet-4-5-20250929", 16_384, "enabled"),
        ("claude-3-7-sonnet-latest", 16_384, "enabled"),
        ("claude-opus-4-6", 16_384, "adaptive"),
        ("claude-sonnet-5", 16_384, "adaptive"),
        ("claude-3-5-haiku-latest", 8_192, None),
    ],
)
def test_claude_models_that_think_get_16384_tokens(model, max_tokens, thinking):
    chosen = profile(model)
    assert chosen.max_tokens == max_tokens
    assert (chosen.thinking or {}).get("type") == thinking
    if thinking == "enabled":
        assert chosen.thinking["budget_tokens"] < max_tokens


def request() -> ModelRequest:
    return ModelRequest("sys", [Message("user", [TextPart("hi")])], TOOLS, 0, 1)


@pytest.mark.parametrize(
    ("model", "param", "limit"),
    [("gpt-5", "max_completion_tokens", 16_384), ("gpt-4o", "max_completion_tokens", 8_192)],
)
def test_openai_itself_gets_max_completion_tokens(model_env, model, param, limit):
    model_env.setenv("OPENAI_API_KEY", "k")
    client = OpenAICompatibleProvider("openai").open(model, run_settings(), ClientOptions())
    asked = request()
    asked.max_tokens = client.max_output_tokens
    body = client.request_body(asked)
    assert body[param] == limit and "max_tokens" not in body
    assert body["messages"][0] == {"role": "system", "content": "sys"}
    assert client.prices.provider_id == "openai"


def test_compatible_servers_get_max_tokens_and_no_price_source(model_env):
    model_env.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    client = OpenAICompatibleProvider("openai").open("local", run_settings(), ClientOptions())
    assert "max_tokens" in client.request_body(request())
    assert client.prices.provider_id is None and client.prices.api_url == "http://127.0.0.1:9/v1"
