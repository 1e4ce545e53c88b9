"""Each adapter's invocation, model mapping and own usage report (recorded CLI outputs)."""

from __future__ import annotations

from pathlib import Path

import pytest

from garuda_evals.errors import UsageError
from garuda_evals.models.usage import Usage
from garuda_evals_agent_cli.adapters.base import Invocation, OwnUsage
from garuda_evals_agent_cli.adapters.registry import adapters
from garuda_evals_agent_cli.agent import cross_check
from garuda_evals_agent_cli.upstream import PLACEHOLDER_KEY

DATA = Path(__file__).parent / "data"
CALL = Invocation("http://127.0.0.1:47800", "MODEL", "/tmp/garuda-agent-home", max_turns=7)


def test_claude_code_reads_its_result_usage_and_cost() -> None:
    adapter = adapters()["claude-code"]
    own = adapter.own_usage((DATA / "claude_stream_json_observed.jsonl").read_text())
    assert own == OwnUsage(20, 4000, 200, 50, 0.0027600000000000003, "success")
    own = adapter.own_usage((DATA / "claude_result_observed.json").read_text())
    assert own is not None and own.stop == "error_max_turns"
    assert adapter.own_usage("not json\n") is None


def test_codex_reads_turn_completed_with_cached_input_apart() -> None:
    own = adapters()["codex"].own_usage((DATA / "codex_exec_json_observed.jsonl").read_text())
    assert own == OwnUsage(input_tokens=400, cache_read_tokens=2000, output_tokens=60)


def test_gemini_cli_reads_its_stats() -> None:
    output = (
        '{"response": "done", "stats": {"models": {"gemini-2.5-pro": {"tokens": '
        '{"prompt": 1200, "candidates": 80, "total": 1300, "cached": 1000, "thoughts": 20}}}}}'
    )
    own = adapters()["gemini-cli"].own_usage("Loaded cached credentials.\n" + output)
    assert own == OwnUsage(input_tokens=200, cache_read_tokens=1000, output_tokens=100)


def test_opencode_sums_its_step_finish_parts() -> None:
    step = (
        '{"type":"step_finish","part":{"type":"step-finish","cost":0.01,"tokens":'
        '{"input":30,"output":5,"reasoning":1,"cache":{"read":300,"write":10}}}}'
    )
    own = adapters()["opencode"].own_usage(f"{step}\n{step}\n")
    assert own == OwnUsage(60, 600, 20, 12, 0.02)


@pytest.mark.parametrize(
    ("name", "flag", "base_var"),
    [
        ("claude-code", "--model", "ANTHROPIC_BASE_URL"),
        ("codex", "-m", None),
        ("gemini-cli", "-m", "GOOGLE_GEMINI_BASE_URL"),
        ("opencode", "-m", None),
        ("aider", "--model", "ANTHROPIC_API_BASE"),
    ],
)
def test_invocation_holds_only_the_placeholder_key(
    name: str, flag: str, base_var: str | None
) -> None:
    adapter = adapters()[name]
    provider = adapter.providers[0]
    call = Invocation(CALL.base_url, adapter.model_argument(provider, "MODEL"), CALL.home)
    command = adapter.command("/opt/cli/prog", call)
    env = adapter.environment(provider, call, PLACEHOLDER_KEY)
    files = adapter.home_files(provider, call)
    assert f"{flag} {call.model}" in command and '"$GARUDA_PROMPT"' in command
    assert PLACEHOLDER_KEY in env.values()
    if base_var:
        assert env[base_var] == CALL.base_url
    else:
        assert any(CALL.base_url in text for text in files.values())


def test_claude_code_maps_max_steps_to_max_turns() -> None:
    assert "--max-turns 7" in adapters()["claude-code"].command("claude.exe", CALL)


def test_model_spec_must_name_a_provider_the_cli_speaks() -> None:
    with pytest.raises(UsageError, match="speaks openai, not anthropic"):
        adapters()["codex"].provider_of("anthropic/claude-sonnet-4-5")
    with pytest.raises(UsageError, match="needs provider/model"):
        adapters()["claude-code"].provider_of("claude-sonnet-4-5")
    assert adapters()["opencode"].provider_of("openai/gpt-5") == ("openai", "gpt-5")


def test_cross_check_notices_a_mismatch_only() -> None:
    metered = Usage(
        input_tokens=20, cache_read_tokens=4000, cache_write_tokens=200, output_tokens=50
    )
    assert cross_check(metered, OwnUsage(20, 4000, 200, 50), "claude-code") == []
    (notice,) = cross_check(metered, OwnUsage(20, 4000, 200, 49), "claude-code")
    assert "output 49 vs 50" in notice
    assert "no usage report" in cross_check(metered, None, "codex")[0]
