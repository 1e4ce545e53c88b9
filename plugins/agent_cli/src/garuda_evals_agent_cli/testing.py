"""Helpers for tests of agent CLIs: install once, write a solution, run ``garuda eval``."""

from __future__ import annotations

import base64
import os
import shutil
from pathlib import Path
from typing import Any

from garuda_evals.api import only_report, run_garuda, skip_or_fail
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
