"""OpenAI-compatible chat completions with streamed tool calls: openai/, ollama/."""

from garuda_evals.testing import run_settings
from garuda_evals_agent.providers.openai_provider import ollama_base_url
from garuda_evals_agent.testing import Reply, Text, Think, Tokens, Use


def test_ollama_model_runs_tools_through_chat_completions(fake_server, run_turn):
    server = fake_server(
        [
            Reply([Think("hmm"), Use("write_file", {"path": "out.txt", "content": "hi"})]),
            Reply([Text("done")], usage=Tokens(input=40, output=3)),
        ],
        provider="ollama",
    )
    run = run_turn(run_settings(model="ollama/qwen3-coder:30b"))
    assert run.error is None, run.error
    assert (run.outcome.steps, run.outcome.stop_reason) == (2, "done")
    assert (run.transcript.parent / "work" / "out.txt").read_text() == "hi"
    first, second = (call["body"] for call in server.model_calls())
    assert first["model"] == "qwen3-coder:30b" and first["stream"] is True
    assert first["max_tokens"] == 8192 and first["tools"][0]["type"] == "function"
    assistant, tool = second["messages"][2], second["messages"][3]
    assert assistant["tool_calls"][0]["function"]["name"] == "write_file"
    assert "reasoning" not in assistant and tool["role"] == "tool"
    # a local model has no price: tokens known, cost a minimum
    assert run.outcome.usage.tokens_known and run.outcome.usage.cost_incomplete


def test_ollama_base_url_from_the_environment(model_env):
    assert ollama_base_url() == "http://localhost:11434/v1"
    model_env.setenv("OLLAMA_HOST", "gpu-box:11434")
    assert ollama_base_url() == "http://gpu-box:11434/v1"
    model_env.setenv("OLLAMA_BASE_URL", "http://other:8080/v1/")
    assert ollama_base_url() == "http://other:8080/v1"


def test_openai_cut_tool_call_is_recovered(fake_server, run_turn):
    fake_server(
        [
            Reply([Use("write_file", {"path": "x.txt", "content": "abc"})], cut=True),
            Reply([Text("done")]),
        ],
        provider="openai",
    )
    run = run_turn(run_settings(model="openai/my-model"))
    assert run.error is None, run.error
    assert run.outcome.stop_reason == "done"
    assert any(kind == "notice" and "output limit" in line for kind, line in run.events)
