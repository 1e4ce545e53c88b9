"""``garuda eval -m anthropic/...`` end to end: the console script against the fake server."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from garuda_evals.plugins.manager import PluginRegistry
from garuda_evals.testing import only_report, run_garuda, skip_or_fail
from garuda_evals_agent.testing import Fault, Reply, Text, Tokens, Use

GARUDA = Path(sys.executable).parent / "garuda"
MODEL = "anthropic/claude-haiku-4-5"
SOLVING = Tokens(input=2000, output=300, cache_read=5000)


@pytest.fixture(scope="module")
def python_tasks() -> list[Any]:
    """The python suite's tasks (from garuda-evals-python)."""
    suites = PluginRegistry().collect("garuda_suites")
    if "python" not in suites:
        skip_or_fail("garuda-evals-python", "the python suite is not installed")
    return suites["python"].record.load().tasks()


def solve(task: Any, usage: Tokens | None = SOLVING) -> list[Reply]:
    """A model that writes the reference solution, then says it is done."""
    writes = [Use("write_file", {"path": p, "content": c}) for p, c in task.solution.files.items()]
    return [Reply(writes, usage=usage), Reply([Text("done")], usage=Tokens(input=100, output=10))]


def garuda_eval(
    cwd: Path, server_url: str, *args: str, suite: str = "python", executor: str = "host"
) -> tuple[subprocess.CompletedProcess[str], dict]:
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("ANTHROPIC_", "OPENAI_", "GARUDA_"))
    }
    env.update(
        ANTHROPIC_API_KEY="test-key",
        ANTHROPIC_BASE_URL=server_url,
        GARUDA_AGENT_RETRY_DELAY_S="0.01",
        GARUDA_AGENT_RETRIES="2",
        GARUDA_BATCH_POLL_S="0.01",
    )
    done = run_garuda(
        "eval", "-m", MODEL, "-s", suite, "--executor", executor, *args,
        cwd=cwd, env=env, timeout=600,
    )  # fmt: skip
    return done, only_report(cwd, done.stdout + done.stderr)


def row(stdout: str, task_id: str) -> str:
    return next(line for line in stdout.splitlines() if line.startswith(f"python/{task_id}"))


def test_eval_with_a_model_solves_a_task_with_usage_and_cost(tmp_path, fake_server, python_tasks):
    task = python_tasks[0]
    server = fake_server(solve(task))
    done, report = garuda_eval(tmp_path, server.url, "-t", task.id)
    assert done.returncode == 0, done.stdout + done.stderr
    result = report["results"][0]
    assert result["status"] == "PASS" and result["steps"] == 2
    usage = result["usage"]
    assert (usage["inputTokens"], usage["cacheReadTokens"], usage["outputTokens"]) == (
        2100,
        5000,
        310,
    )
    assert usage["tokensKnown"] and not usage["costIncomplete"] and usage["costUsd"] > 0
    assert report["agent"]["model"] == MODEL and report["agent"]["keepThinking"] == "on"
    assert report["summary"]["cacheReadShare"] == pytest.approx(5000 / 7100)  # of input tokens
    assert "PASS" in row(done.stdout, task.id) and "$0.0" in row(done.stdout, task.id)
    transcript = Path(result["transcript"])
    kinds = [json.loads(line)["type"] for line in transcript.read_text().splitlines()]
    assert kinds.count("request") == 2 and kinds.count("tool_result") == len(task.solution.files)


def test_eval_without_usage_shows_unknown_tokens_and_a_minimum_cost(
    tmp_path, fake_server, python_tasks
):
    task = python_tasks[0]
    server = fake_server(solve(task, usage=None))
    done, report = garuda_eval(tmp_path, server.url, "-t", task.id)
    assert done.returncode == 0, done.stdout + done.stderr
    line = row(done.stdout, task.id)
    assert "tok ?" in line and "(incomplete)" in line and "≥ $" in line
    usage = report["results"][0]["usage"]
    assert (
        not usage["tokensKnown"] and usage["costIncomplete"] and usage["unreportedTokens"] > 16_384
    )
    assert report["summary"]["tokens"] is None and report["summary"]["costIncomplete"]


def test_retries_exhausted_is_an_error_run_counted_in_both_rates(
    tmp_path, fake_server, python_tasks
):
    first, second = python_tasks[0], python_tasks[1]
    server = fake_server([*solve(first), *[Fault(drop=True)] * 3])
    done, report = garuda_eval(tmp_path, server.url, "-t", first.id, "-t", second.id)
    assert done.returncode == 2, done.stdout + done.stderr
    assert "ERR" in row(done.stdout, second.id)
    summary = report["summary"]
    assert (summary["attempted"], summary["errors"], summary["scored"], summary["passed"]) == (
        2,
        1,
        1,
        1,
    )
    assert (summary["scoredRate"], summary["attemptedRate"]) == (1.0, 0.5)
    assert "1/1 scored runs passed (100%) · 1/2 of all attempted runs (50%)" in done.stdout
    error = report["results"][1]
    assert error["status"] == "ERR" and "after 2 retries" in error["failure"]
    assert error["usage"]["unreportedRequests"] == 3  # broken streams may have been billed


def test_eval_with_a_model_and_no_key_stops_before_any_task(tmp_path, model_env):
    done = subprocess.run(
        [str(GARUDA), "eval", "-m", MODEL, "-s", "python", "--executor", "host"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert "ANTHROPIC_API_KEY" in done.stderr
    assert not list(tmp_path.glob(".garuda/evals/*/report.json"))


def test_eval_in_batch_mode_is_half_price(tmp_path, fake_server, python_tasks):
    task = python_tasks[0]
    server = fake_server(solve(task))
    done, report = garuda_eval(tmp_path, server.url, "-t", task.id, "--batch", "on")
    assert done.returncode == 0, done.stdout + done.stderr
    assert report["batch"] is True and report["parallel"] == 1 and report["wallMs"] > 0
    assert report["agent"]["batch"] == "on"
    assert report["results"][0]["usage"]["cacheReadTokens"] == 5000
    assert "batch: wall time" in done.stdout
    paths = [r["path"] for r in server.requests if r["method"] == "POST"]
    assert paths == ["/v1/messages/batches", "/v1/messages/batches"]
    lines = Path(report["results"][0]["transcript"]).read_text().splitlines()
    factors = [row["priceFactor"] for row in map(json.loads, lines) if row["type"] == "response"]
    assert factors == [0.5, 0.5]


# The A/B features: the tool in the request, the task solved with it, the flag and the tool
# counts in report.json, and `garuda compare` of the off and on runs.

SUB_MODEL = "anthropic/claude-sonnet-4-5"


def writes(task: Any) -> list[Use]:
    return [Use("write_file", {"path": p, "content": c}) for p, c in task.solution.files.items()]


def tool_names(body: dict[str, Any]) -> list[str]:
    return [tool["name"] for tool in body["tools"]]


def test_todo_on_offers_the_tool_counts_its_calls_and_compares_with_off(
    tmp_path, fake_server, python_tasks
):
    task = python_tasks[0]
    plan = [{"content": "fix the code", "status": "in_progress"}]
    server = fake_server(
        [
            Reply([Use("todo_write", {"items": plan})]),
            Reply([Use("todo_read", {}), *writes(task)]),
            Reply([Use("todo_write", {"items": [{**plan[0], "status": "done"}]})]),
            Reply([Text("done")]),
            *solve(task),  # the off run
        ]
    )
    on_dir, off_dir = tmp_path / "on", tmp_path / "off"
    on_dir.mkdir(), off_dir.mkdir()
    done, report = garuda_eval(on_dir, server.url, "-t", task.id, "--todo", "on")
    assert done.returncode == 0, done.stdout + done.stderr
    bodies = [call["body"] for call in server.model_calls()]
    assert {"todo_write", "todo_read"} <= set(tool_names(bodies[0]))
    second = bodies[1]["messages"][-1]["content"]
    assert any("[>] fix the code" in str(block.get("content")) for block in second)
    result = report["results"][0]
    assert result["status"] == "PASS"
    assert result["toolCalls"]["todo_write"] == 2 and result["toolCalls"]["todo_read"] == 1
    assert result["toolCalls"]["read_file"] == 0 and result["toolCalls"]["run_command"] == 0
    assert (
        report["agent"]["todo"] == "on" and report["settings"]["options"]["agent"]["todo"] == "on"
    )
    assert report["tasks"][0]["meanToolCalls"]["todo_write"] == 2.0
    assert report["summary"]["toolCalls"]["todo_write"] == 2
    assert "tool calls: " in done.stdout and "todo_write 2 (2.0/run)" in done.stdout

    done_off, report_off = garuda_eval(off_dir, server.url, "-t", task.id, "--todo", "off")
    assert done_off.returncode == 0, done_off.stdout + done_off.stderr
    assert "todo_write" not in tool_names(server.model_calls()[-1]["body"])
    assert "todo_write" not in report_off["results"][0]["toolCalls"]
    compared = run_garuda(
        "compare", str(next(off_dir.glob(".garuda/evals/*"))), str(next(on_dir.glob(".garuda/evals/*"))),
        cwd=tmp_path,
    )  # fmt: skip
    assert compared.returncode == 0, compared.stderr
    assert "todo: off -> on" in compared.stdout
    assert "B: tool calls:" in compared.stdout and "todo_write 2 (2.0/run)" in compared.stdout


def test_explore_subagent_answers_on_its_model_with_read_only_tools(
    tmp_path, fake_server, python_tasks
):
    task = python_tasks[0]
    path = next(iter(task.solution.files))
    server = fake_server(
        [
            Reply([Use("explore", {"question": "Where is the bug?"})]),
            Reply([Use("read_file", {"path": path})], usage=Tokens(input=1000, output=100)),
            Reply([Text(f"The bug is in {path}.")], usage=Tokens(input=1000, output=100)),
            Reply(writes(task)),
            Reply([Text("done")]),
        ]
    )
    done, report = garuda_eval(
        tmp_path, server.url, "-t", task.id, "--subagents", "on", "--subagent-model", SUB_MODEL
    )
    assert done.returncode == 0, done.stdout + done.stderr
    bodies = [call["body"] for call in server.model_calls()]
    assert "explore" in tool_names(bodies[0]) and bodies[0]["model"] == "claude-haiku-4-5"
    assert bodies[1]["model"] == "claude-sonnet-4-5"
    assert sorted(tool_names(bodies[1])) == ["list_files", "read_file", "search_files"]
    answer = bodies[3]["messages"][-1]["content"][0]
    assert answer["type"] == "tool_result" and f"The bug is in {path}." in str(answer["content"])
    result = report["results"][0]
    assert result["status"] == "PASS" and result["steps"] == 3
    assert result["toolCalls"]["explore"] == 1 and result["toolCalls"]["explore.read_file"] == 1
    by_model = result["usageByModel"]
    assert set(by_model) == {MODEL, SUB_MODEL}
    assert by_model[SUB_MODEL]["requests"] == 2 and by_model[MODEL]["requests"] == 3
    assert result["usage"]["requests"] == 5
    total = by_model[MODEL]["costUsd"] + by_model[SUB_MODEL]["costUsd"]
    assert result["usage"]["costUsd"] == pytest.approx(total)
    # the same tokens cost more on the larger model: each model is priced by its own prices
    assert by_model[SUB_MODEL]["costUsd"] > 2000 * 1e-6
    assert report["summary"]["usageByModel"][SUB_MODEL]["requests"] == 2
    assert report["agent"]["subagents"] == "on" and report["agent"]["subagentModel"] == SUB_MODEL
    transcript = Path(result["transcript"]).read_text()
    assert '"subagent": "explore"' in transcript


def test_index_all_puts_a_code_map_in_the_prompt_and_lookup_finds_the_symbol(
    tmp_path, fake_server, python_tasks
):
    task = python_tasks[0]
    server = fake_server([Reply([Use("lookup_symbol", {"name": "add"})]), *solve(task)])
    done, report = garuda_eval(tmp_path, server.url, "-t", task.id, "--index", "all")
    assert done.returncode == 0, done.stdout + done.stderr
    bodies = [call["body"] for call in server.model_calls()]
    assert "lookup_symbol" in tool_names(bodies[0])
    system = bodies[0]["system"][0]["text"]
    assert "Code map" in system and ".py: " in system
    answer = bodies[1]["messages"][-1]["content"][0]
    assert answer["type"] == "tool_result" and not answer.get("is_error")
    result = report["results"][0]
    assert result["status"] == "PASS" and result["toolCalls"]["lookup_symbol"] == 1
    assert report["agent"]["index"] == "all"


@pytest.fixture(scope="module")
def managed_tools() -> None:
    """Biome and the language servers in garuda's tools folder (CI: ``garuda lsp --install``)."""
    from garuda_evals_agent.managed import BIOME, PYRIGHT, TYPESCRIPT_LS

    missing = [tool.name for tool in (BIOME, PYRIGHT, TYPESCRIPT_LS) if not tool.installed()]
    if missing:
        skip_or_fail("lsp", f"{', '.join(missing)} not installed (garuda lsp --install)")


@pytest.fixture(scope="module")
def basic_tasks() -> list[Any]:
    """The basic (JavaScript) suite's tasks."""
    suites = PluginRegistry().collect("garuda_suites")
    if "basic" not in suites:
        skip_or_fail("garuda-evals-node", "the basic suite is not installed")
    return suites["basic"].record.load().tasks()


def unformatted(text: str) -> str:
    """The same code with its indentation and spacing spoilt (Biome puts them back)."""
    return "\n".join(line.strip().replace(" = ", "=") for line in text.splitlines()) + "\n"


def test_format_on_formats_first_and_after_each_edit_and_compares_with_off(
    tmp_path, fake_server, basic_tasks, managed_tools
):
    task = basic_tasks[0]
    (path, solution), *_ = task.solution.files.items()
    messy = [Use("write_file", {"path": path, "content": unformatted(solution)})]
    server = fake_server([Reply(messy), Reply([Text("done")])] * 2)
    runs = {}
    for arm in ("off", "on"):
        folder = tmp_path / arm
        folder.mkdir()
        done, report = garuda_eval(
            folder, server.url, "-t", task.id, "--format", arm, suite="basic"
        )
        assert done.returncode == 0, done.stdout + done.stderr
        assert "--format: biome 2.6.8 formatted" in done.stdout + done.stderr
        runs[arm] = (report, Path(report["results"][0]["transcript"]))
        assert report["agent"]["format"] == arm and report["agent"]["formatter"] == "biome 2.6.8"
    on_result = [
        json.loads(line) for line in runs["on"][1].read_text().splitlines()
        if json.loads(line)["type"] == "tool_result"
    ]  # fmt: skip
    assert "formatted with Biome (changed)" in on_result[0]["content"]
    off_result = [line for line in runs["off"][1].read_text().splitlines() if "tool_result" in line]
    assert "Biome" not in off_result[0]
    compared = run_garuda(
        "compare", *(str(Path(runs[arm][0]["results"][0]["transcript"]).parent) for arm in ("off", "on")),
        cwd=tmp_path,
    )  # fmt: skip
    assert "format: off -> on" in compared.stdout, compared.stdout + compared.stderr


def lsp_lines(report: dict) -> list[str]:
    transcript = Path(report["results"][0]["transcript"])
    rows = [json.loads(line) for line in transcript.read_text().splitlines()]
    return [row["content"] for row in rows if row["type"] == "tool_result"]


@pytest.mark.parametrize(
    ("suite", "scratch", "error"),
    [
        ("python", ("scratch.py", "x: str = 1\n"), 'scratch.py:1:10: Type "Literal[1]"'),
        ("basic", ("scratch.ts", "const s: string = 1;\n"), "scratch.ts:1:7: Type 'number'"),
    ],
)
def test_lsp_on_appends_the_servers_diagnostics_from_inside_the_sandbox(
    tmp_path, fake_server, python_tasks, basic_tasks, managed_tools, suite, scratch, error
):
    if shutil.which("bwrap") is None:
        skip_or_fail("bwrap", "bubblewrap is not installed")
    task = (python_tasks if suite == "python" else basic_tasks)[0]
    name, text = scratch
    server = fake_server(
        [
            Reply([Use("write_file", {"path": name, "content": text})]),
            Reply([Use("run_command", {"command": f"rm {name}"}), *writes(task)]),
            Reply([Text("done")]),
        ]
    )
    done, report = garuda_eval(
        tmp_path, server.url, "-t", task.id, "--lsp", "on", suite=suite, executor="os"
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert report["executor"]["kind"] == "os"
    assert (
        "--lsp: python: basedpyright 1.40.2; javascript/typescript: typescript-language-server"
        in (done.stdout + done.stderr)
    )
    results = lsp_lines(report)
    assert "1 error(s)" in results[0] and error in results[0], results[0]
    assert results[2].endswith("No errors"), results[2]
    assert report["agent"]["lsp"] == "on" and "basedpyright 1.40.2" in report["agent"]["lspServers"]


def test_garuda_lsp_lists_the_servers_and_finds_the_type_errors(tmp_path, managed_tools):
    done = run_garuda("lsp", cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    python = next(line for line in lines if line.startswith("python: "))
    assert "basedpyright 1.40.2: works" in python and 'sample.py:4:10: Type "int"' in python
    typescript = next(line for line in lines if line.startswith("javascript/typescript: "))
    assert "typescript-language-server 5.3.0: works" in typescript
    assert "sample.ts:4:7: Type 'number' is not assignable to type 'string'" in typescript
    assert any(line.startswith("java: none: jdtls is not available") for line in lines)
