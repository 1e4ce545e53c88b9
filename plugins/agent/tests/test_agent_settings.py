"""Model choice, keys, refused flags, and --keep-thinking as the fake server saw it."""

import pytest

from garuda_evals.errors import UsageError
from garuda_evals.testing import run_settings
from garuda_evals_agent.factory import GarudaAgentFactory
from garuda_evals_agent.testing import Reply, Text, Think, Use

FACTORY = GarudaAgentFactory()


def test_missing_key_names_the_variable(model_env):
    with pytest.raises(UsageError, match="ANTHROPIC_API_KEY"):
        FACTORY.check_settings(run_settings(model="anthropic/claude-haiku-4-5"))
    with pytest.raises(UsageError, match="OPENAI_API_KEY"):
        FACTORY.check_settings(run_settings(model="openai/gpt-4o"))


def test_ollama_and_a_custom_base_url_need_no_key(model_env):
    FACTORY.check_settings(run_settings(model="ollama/qwen3-coder:30b"))
    model_env.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    FACTORY.check_settings(run_settings(model="openai/my-vllm-model"))


def test_no_model_says_how_to_pick_one(model_env):
    with pytest.raises(UsageError, match=r"-m provider/model.*GARUDA_MODEL.*--agent oracle"):
        FACTORY.check_settings(run_settings())


def test_model_comes_from_garuda_model(model_env):
    model_env.setenv("GARUDA_MODEL", "anthropic/claude-haiku-4-5")
    model_env.setenv("ANTHROPIC_API_KEY", "k")
    FACTORY.check_settings(run_settings())
    described = FACTORY.describe(run_settings())
    assert described["model"] == "anthropic/claude-haiku-4-5"
    assert described["keepThinking"] == "on" and described["batch"] == "off"


@pytest.mark.parametrize("spec", ["claude-haiku-4-5", "nosuch/model"])
def test_bad_model_spec_lists_the_providers(model_env, spec):
    with pytest.raises(UsageError, match="anthropic, ollama, openai"):
        FACTORY.check_settings(run_settings(model=spec))


def test_format_is_refused_for_the_repo_suite_and_needs_biome(model_env, tmp_path):
    model_env.setenv("ANTHROPIC_API_KEY", "k")
    model_env.setenv("GARUDA_TOOLS_DIR", str(tmp_path / "tools"))
    main = "anthropic/claude-haiku-4-5"
    with pytest.raises(UsageError, match="--format does not work with -s repo"):
        FACTORY.check_settings(run_settings(model=main, format="off", suites=["repo"]))
    with pytest.raises(UsageError, match=r"--format needs Biome .* garuda lsp --install"):
        FACTORY.check_settings(run_settings(model=main, format="on", suites=["basic"]))


def test_lsp_needs_the_os_sandbox_and_an_installed_server(model_env, tmp_path):
    model_env.setenv("ANTHROPIC_API_KEY", "k")
    model_env.setenv("GARUDA_TOOLS_DIR", str(tmp_path / "tools"))
    main = "anthropic/claude-haiku-4-5"
    with pytest.raises(UsageError, match="--lsp on runs the language servers inside the OS"):
        FACTORY.check_settings(run_settings(model=main, lsp="on", executor="host"))
    with pytest.raises(UsageError, match=r"--lsp on needs a language server.*garuda lsp --install"):
        FACTORY.check_settings(run_settings(model=main, lsp="on"))


def test_subagent_model_needs_subagents_on_and_a_known_provider_with_its_key(model_env):
    model_env.setenv("ANTHROPIC_API_KEY", "k")
    main = "anthropic/claude-haiku-4-5"
    with pytest.raises(UsageError, match="--subagent-model needs --subagents on"):
        FACTORY.check_settings(run_settings(model=main, subagent_model="anthropic/x"))
    with pytest.raises(UsageError, match="unknown model provider 'nosuch'"):
        FACTORY.check_settings(run_settings(model=main, subagents="on", subagent_model="nosuch/x"))
    with pytest.raises(UsageError, match="OPENAI_API_KEY"):
        FACTORY.check_settings(
            run_settings(model=main, subagents="on", subagent_model="openai/gpt-4o-mini")
        )
    FACTORY.check_settings(
        run_settings(model=main, subagents="on", subagent_model="anthropic/claude-sonnet-4-5")
    )


def test_off_values_of_those_flags_are_fine(model_env):
    model_env.setenv("ANTHROPIC_API_KEY", "k")
    FACTORY.check_settings(
        run_settings(
            model="anthropic/claude-haiku-4-5",
            subagents="off",
            todo="off",
            lsp="off",
            index="off",
            keep_thinking="off",
        )
    )


SCRIPT = [
    Reply([Think("plan", signature="sig-1"), Use("list_files", {})]),
    Reply([Think("next", signature="sig-2"), Use("list_files", {})]),
    Reply([Text("done")]),
]


@pytest.mark.parametrize(
    ("keep", "first", "second"),
    [
        (None, ["thinking", "tool_use"], ["thinking", "tool_use"]),
        ("off", ["tool_use"], ["thinking", "tool_use"]),
    ],
)
def test_keep_thinking_is_visible_in_the_requests(fake_server, run_turn, keep, first, second):
    server = fake_server(list(SCRIPT))
    run = run_turn(run_settings(model="anthropic/claude-haiku-4-5", keep_thinking=keep))
    assert run.error is None, run.error
    messages = server.model_calls()[2]["body"]["messages"]
    assistants = [m["content"] for m in messages if m["role"] == "assistant"]
    assert [b["type"] for b in assistants[0]] == first
    # the newest assistant message keeps its thinking: the API needs it during tool use
    assert [b["type"] for b in assistants[1]] == second
    assert assistants[1][0]["signature"] == "sig-2"


@pytest.mark.parametrize("amount", [0.0, -1.0])
def test_max_cost_must_be_a_positive_amount(model_env, amount):
    model_env.setenv("ANTHROPIC_API_KEY", "k")
    with pytest.raises(UsageError, match=r"--max-cost .*positive amount in USD"):
        FACTORY.check_settings(run_settings(model="anthropic/claude-haiku-4-5", max_cost=amount))


def test_max_cost_is_recorded_and_refused_by_an_agent_that_calls_no_model(model_env):
    from garuda_evals.agents.refusals import refuse_foreign_options
    from garuda_evals.plugins.manager import get_registry
    from garuda_evals.runner.session import choose_agent

    model_env.setenv("ANTHROPIC_API_KEY", "k")
    settings = run_settings(model="anthropic/claude-haiku-4-5", max_cost=0.5)
    assert FACTORY.describe(settings)["maxCostUsd"] == "0.5"
    registry = get_registry()
    noop = run_settings(agent="noop", max_cost=0.5)
    with pytest.raises(UsageError, match=r"--max-cost 0.5: the noop agent"):
        refuse_foreign_options(choose_agent(noop, registry), noop, registry)


def test_max_cost_is_refused_by_a_backend_without_one_shared_budget(model_env):
    from garuda_evals.agents.refusals import refuse_backend_options
    from garuda_evals.plugins.manager import get_registry

    model_env.setenv("ANTHROPIC_API_KEY", "k")
    registry = get_registry()
    refuse_backend_options(run_settings(max_cost=0.5), registry)
    on_ray = run_settings(max_cost=0.5, backend="ray")
    with pytest.raises(UsageError) as error:
        refuse_backend_options(on_ray, registry)
    assert str(error.value) == (
        "--max-cost 0.5: the ray backend cannot honour it; --max-cost is an option of "
        "garuda-evals-agent for --backend local: drop it or use that backend"
    )
