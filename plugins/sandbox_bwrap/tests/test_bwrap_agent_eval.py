"""``garuda eval --executor os`` with the model agent: its tool commands run under bwrap.

A scripted model first tries to escape through ``run_command`` (read a planted key, write
outside the folder, call the model server on the host's loopback), then writes the reference
solution. The run must pass, record bwrap in report.json, and none of the escapes may land.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import subprocess
import sys
from pathlib import Path

from garuda_evals.plugins.manager import PluginRegistry
from garuda_evals.testing import import_or_skip, skip_or_fail
from garuda_evals_sandbox_bwrap import BwrapBackend

GARUDA = Path(sys.executable).parent / "garuda"
MODEL = "anthropic/claude-haiku-4-5"

READ_ONLY = "Read-only file system"


def test_agent_tool_commands_run_in_the_sandbox(tmp_path: Path) -> None:
    testing = import_or_skip("garuda_evals_agent.testing", "garuda-evals-agent")
    suites = PluginRegistry().collect("garuda_suites")
    if "python" not in suites:
        skip_or_fail("garuda-evals-python", "the python suite is not installed")
    if shutil.which("bwrap") is None:
        skip_or_fail("bwrap", "install bubblewrap (apt-get install bubblewrap)")
    if not BwrapBackend().availability().ok:
        skip_or_fail("bwrap", BwrapBackend().availability().reason)
    task = suites["python"].record.load().tasks()[0]
    token = secrets.token_hex(8)
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "id_ed25519").write_text(f"KEY-{token}\n")
    outside = Path("/var/tmp") / f"garuda-agent-pwned-{token}"

    with testing.FakeModelServer([]) as server:
        port = server.url.rsplit(":", 1)[1]
        escape = (
            f'cat "$HOME/.ssh/id_ed25519"; echo x > {outside}; '
            f"python3 -c \"import urllib.request as u; u.urlopen('http://127.0.0.1:{port}/')\""
        )
        writes = [
            testing.Use("write_file", {"path": p, "content": c})
            for p, c in task.solution.files.items()
        ]
        server.script = [
            testing.Reply([testing.Use("run_command", {"command": escape})]),
            testing.Reply(writes),
            testing.Reply([testing.Text("done")]),
        ]
        env = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "GARUDA_"))}
        env.update(HOME=str(home), ANTHROPIC_API_KEY="test-key", ANTHROPIC_BASE_URL=server.url)
        done = subprocess.run(
            [str(GARUDA), "eval", "-m", MODEL, "-s", "python", "-t", task.id, "--executor", "os"],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
        )
        requests = [r for r in server.requests if r["method"] == "POST"]
    try:
        assert done.returncode == 0, done.stdout + done.stderr
        assert "executor: bwrap" in done.stderr
        report_path = next(tmp_path.glob(".garuda/evals/*/report.json"))
        report = json.loads(report_path.read_text())
        assert report["executor"]["name"] == "bwrap"
        assert "garuda-evals-sandbox-bwrap" in report["versions"]  # the executor that ran
        assert "network" in report["executor"]["denies"]
        assert "home secrets" in report["executor"]["denies"]
        transcript = Path(report["results"][0]["transcript"]).read_text()
        assert token not in transcript.replace(str(outside), "")
        # /var/tmp is absent, or read-only where garuda's own environment lives below it.
        assert any(
            f"{outside}: {why}" in transcript for why in ("No such file or directory", READ_ONLY)
        )
        assert "Connection refused" in transcript
        assert not outside.exists()
        assert len(requests) == 3, "only the agent's own model calls reached the server"
    finally:
        outside.unlink(missing_ok=True)
