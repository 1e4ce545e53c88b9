"""Helpers for tests of agent CLIs: install once, write a solution, run ``garuda eval``."""

from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from garuda_evals.api import only_report, run_garuda, skip_or_fail
from garuda_evals_agent.testing import FakeModelServer, Reply, Tokens
from garuda_evals_agent_cli.adapters.registry import adapters
from garuda_evals_agent_cli.install import ROOT_VAR, install

PROVIDER_VARS = ("ANTHROPIC_", "OPENAI_", "GEMINI_", "GOOGLE_", "GARUDA_")


def installed(name: str, agents_dir: Path) -> Path:
    """The CLI's program, installed on first use (npm); skipped or failed without npm."""
    if shutil.which("npm") is None:
        skip_or_fail("npm", "agent CLIs install from npm")
    return install(adapters()[name])


def writes_solution(task: Any) -> str:
    """A shell command that writes the task's reference solution."""
    parts = []
    for path, content in task.solution.files.items():
        data = base64.b64encode(content.encode()).decode()
        folder = os.path.dirname(path) or "."
        parts.append(f"mkdir -p '{folder}' && echo {data} | base64 -d > '{path}'")
    return " && ".join(parts)


def aider_edits(task: Any) -> str:
    """A reply in aider's diff format: each solution file's whole old text replaced by its
    new text (aider edits through SEARCH/REPLACE blocks in the reply, not tool calls)."""
    blocks = [
        f"{path}\n```python\n<<<<<<< SEARCH\n{task.files[path]}=======\n{text}"
        ">>>>>>> REPLACE\n```\n"
        for path, text in task.solution.files.items()
    ]
    return "Here is the fix.\n\n" + "\n".join(blocks)


def eval_env(agents_dir: Path, **values: str) -> dict[str, str]:
    """The caller's environment without provider or garuda variables, plus ``values``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(PROVIDER_VARS)}
    env[ROOT_VAR] = str(agents_dir)
    env.update(values)
    return env


def garuda_eval(cwd: Path, env: dict[str, str], *args: str) -> tuple[Any, dict[str, Any] | None]:
    """``garuda eval ARGS`` in ``cwd``: the finished process and its report (None if none)."""
    done = run_garuda("eval", *args, cwd=cwd, env=env, timeout=600)
    reports = sorted(cwd.glob(".garuda/evals/*/report.json"))
    report = only_report(cwd, done.stdout + done.stderr) if reports else None
    return done, report


def key_search(key: str) -> str:
    """A shell command printing ``KEYHITS N``: places holding ``key`` among the environment,
    /tmp, HOME, the workspace and every visible process's environment and command line.

    The key is split in the command so that its own command line does not hold it.
    """
    half = len(key) // 2
    code = (
        "import os,glob\n"
        f"k={key[:half]!r}+{key[half:]!r}\n"
        "hits=[n for n,v in os.environ.items() if k in v]\n"
        "paths=glob.glob('/proc/[0-9]*/environ')+glob.glob('/proc/[0-9]*/cmdline')\n"
        "for root in ('/tmp',os.environ.get('HOME','/'),'.'):\n"
        "  for d,_,fs in os.walk(root):\n"
        "    paths+=[os.path.join(d,f) for f in fs]\n"
        "for p in paths:\n"
        "  try:\n"
        "    hits+=[p] if k.encode() in open(p,'rb').read() else []\n"
        "  except OSError: pass\n"
        "print('KEYHITS',len(hits),hits[:3])\n"
    )
    data = base64.b64encode(code.encode()).decode()
    return f"echo {data} | base64 -d | python3"


def sandbox_probe(key: str, url: str) -> str:
    """``key_search`` for ``key``, then a request straight to the model server at ``url``
    (bypassing the proxy): in the sandbox it prints ``Connection refused``."""
    port = url.rsplit(":", 1)[1]
    return (
        f"{key_search(key)}; "
        f"python3 -c \"import urllib.request as u; u.urlopen('http://127.0.0.1:{port}/')\""
    )


@dataclass(frozen=True)
class CliRun:
    """One ``garuda eval`` of one task by an agent CLI against the fake model server."""

    done: subprocess.CompletedProcess[str]
    report: dict[str, Any]
    result: dict[str, Any]
    transcript: str
    calls: list[dict[str, Any]]

    def sent(self, header: str) -> list[str | None]:
        """The value of ``header`` (in any case) in each model call, None where absent."""
        return [
            {name.lower(): value for name, value in call["headers"].items()}.get(header.lower())
            for call in self.calls
        ]


Script = list[Reply] | Callable[[str], list[Reply]]
# The tests' ``solve`` fixture: ``solve(agent, model, script, **env) -> CliRun``.
Solve = Callable[..., CliRun]


def solve_on_fake_model(
    cwd: Path,
    agents_dir: Path,
    task: Any,
    agent: str,
    model: str,
    script: Script,
    env: Mapping[str, str],
) -> CliRun:
    """``garuda eval`` of ``task`` by ``agent`` in the OS sandbox against a fake model server.

    The server plays ``script`` (or ``script(url)`` when it needs the server's URL); ``{url}``
    in the values of ``env`` becomes the server's URL. A run without a report fails here.
    """
    with FakeModelServer([]) as server:
        server.script = script(server.url) if callable(script) else script
        values = {name: value.replace("{url}", server.url) for name, value in env.items()}
        done, report = garuda_eval(
            cwd, eval_env(agents_dir, **values), "--agent", agent, "-m", model,
            "-s", "python", "-t", task.id, "--executor", "os",
        )  # fmt: skip
        calls = server.model_calls()
    assert report is not None, done.stdout + done.stderr
    result = report["results"][0]
    return CliRun(done, report, result, Path(result["transcript"]).read_text(), calls)


def check_metered_pass(run: CliRun, *, steps: int, usage: Tokens, key: tuple[str, str]) -> None:
    """The run passed in ``steps`` model calls, each carrying the real key (``key`` is the
    header and its value), metered to the token as ``usage`` (the script's sums), with a
    price and no notice."""
    assert run.result["status"] == "PASS", run.transcript[-4000:]
    kinds = [
        (line["type"], line.get("step"), line.get("status"))
        for line in map(json.loads, run.transcript.splitlines())
    ]
    assert run.result["steps"] == steps == len(run.calls), kinds
    metered = run.result["usage"]
    assert (
        metered["inputTokens"],
        metered["outputTokens"],
        metered["cacheReadTokens"],
        metered["cacheWriteTokens"],
    ) == (usage.input, usage.output, usage.cache_read, usage.cache_write)
    assert metered["tokensKnown"] and not metered["costIncomplete"] and metered["costUsd"] > 0
    header, value = key
    assert run.sent(header) == [value] * steps
    assert not run.result.get("notices"), run.result.get("notices")
