"""The Ray plugin costs ``garuda --help`` nothing: its options show, ray is not imported."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from garuda_evals.api import RunSettings, UsageError
from garuda_evals_ray.backend import forwarded_env, read_runtime_env

HELP_THEN_MODULES = """
import sys
from garuda_evals.cli.main import entry
sys.argv = ["garuda", "eval", "--help"]
try:
    entry()
except SystemExit:
    pass
print("RAY-LOADED" if "ray" in sys.modules else "RAY-NOT-LOADED")
"""


def test_eval_help_lists_the_ray_options_without_importing_ray() -> None:
    done = subprocess.run(
        [sys.executable, "-c", HELP_THEN_MODULES], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert "--ray-address" in done.stdout and "--skip-nodes" in done.stdout
    assert "--backend" in done.stdout
    assert done.stdout.strip().endswith("RAY-NOT-LOADED")


def test_forwarded_variables_are_the_keys_and_the_named_ones_only() -> None:
    environ = {
        "OPENAI_API_KEY": "k1",
        "ANTHROPIC_BASE_URL": "http://127.0.0.1:1",
        "GARUDA_MODEL": "openai/x",
        "MY_TOKEN": "t",
        "HOME": "/root",
        "PATH": "/usr/bin",
    }
    settings = RunSettings(agent_env=["MY_TOKEN"])
    assert forwarded_env(settings, environ) == {
        "OPENAI_API_KEY": "k1",
        "ANTHROPIC_BASE_URL": "http://127.0.0.1:1",
        "GARUDA_MODEL": "openai/x",
        "MY_TOKEN": "t",
    }


def test_a_runtime_env_with_a_key_in_env_vars_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "env.json"
    path.write_text(json.dumps({"env_vars": {"OPENAI_API_KEY": "sk-x", "MODE": "a"}}))
    with pytest.raises(UsageError) as error:
        read_runtime_env(str(path))
    assert str(error.value) == (
        f"--ray-runtime-env {path}: field 'env_vars': OPENAI_API_KEY looks like a key, and Ray "
        "writes these variables to its logs; leave it in your environment (the runs get it)"
    )
    path.write_text(json.dumps({"env_vars": {"MODE": "a"}, "pip": ["garuda-evals-python"]}))
    assert read_runtime_env(str(path)) == {
        "env_vars": {"MODE": "a"},
        "pip": ["garuda-evals-python"],
    }
    path.write_text("[1]")
    with pytest.raises(UsageError, match="must be a JSON object"):
        read_runtime_env(str(path))
    with pytest.raises(UsageError, match="not a readable JSON file"):
        read_runtime_env(str(tmp_path / "missing.json"))


@pytest.mark.parametrize(
    ("given", "shown"),
    [
        ({"ray_address": "10.0.0.1:6379"}, "--ray-address 10.0.0.1:6379"),
        ({"skip_nodes": True}, "--skip-nodes"),
        ({"ray_runtime_env": "env.json"}, "--ray-runtime-env env.json"),
    ],
)
def test_a_ray_option_without_the_ray_backend_is_refused(
    given: dict[str, object], shown: str
) -> None:
    from garuda_evals.agents.refusals import refuse_backend_options
    from garuda_evals.plugins.manager import get_registry
    from garuda_evals.testing import run_settings

    registry = get_registry()
    refuse_backend_options(run_settings(backend="ray", **given), registry)
    with pytest.raises(UsageError) as error:
        refuse_backend_options(run_settings(**given), registry)
    flag = shown.split()[0]
    assert str(error.value) == (
        f"{shown}: the local backend cannot honour it; {flag} is an option of "
        f"garuda-evals-ray for --backend ray: drop it or use that backend"
    )
