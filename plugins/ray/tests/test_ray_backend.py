"""``--backend ray`` end to end on a local 2-CPU Ray cluster.

Most runs are in process: this process is the cluster's driver, so the runs reuse its Ray
connection and warm workers. Ctrl-C and a killed worker go through the ``garuda`` script.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import signal
import subprocess
import uuid
from pathlib import Path
from typing import Any

import anyio
import pytest

from garuda_evals.errors import GarudaError
from garuda_evals.plugins.manager import get_registry
from garuda_evals.runner.selection import select
from garuda_evals.runner.session import EvalOutcome, run_eval
from garuda_evals.testing import (
    GARUDA_SCRIPT,
    only_report,
    processes_matching,
    run_settings,
    sleep_marker,
    wait_for_processes,
)
from garuda_evals_ray.testing import Cluster, with_env


def python_task_order() -> list[str]:
    return [item.task.id for item in select(get_registry(), ["python"], [])]


def files_containing(folder: Path, needle: bytes) -> list[Path]:
    found = []
    for path in folder.rglob("*"):
        try:
            if path.is_file() and needle in path.read_bytes():
                found.append(path)
        except OSError:
            continue
    return found


def garuda_leftovers(folder: Path) -> list[Path]:
    return sorted(folder.rglob("garuda-*"))


def evaluate(project: Path, **values: Any) -> tuple[EvalOutcome, str, str]:
    """``garuda eval --backend ray -s python ...`` in this process (on the test cluster)."""
    settings = run_settings(**{"backend": "ray", "suites": ["python"], **values})
    out, err = io.StringIO(), io.StringIO()
    outcome = anyio.run(
        lambda: run_eval(settings, registry=get_registry(), cwd=project, stdout=out, stderr=err)
    )
    return outcome, out.getvalue(), err.getvalue()


def test_oracle_passes_every_python_task_in_task_order(
    cluster: Cluster, project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    outcome, out, err = evaluate(project, agent="oracle", parallel=2)
    assert outcome.exit_code == 0, err
    report = only_report(project)
    assert report["backend"] == "ray" and report["settings"]["backend"] == "ray"
    assert [r["task"] for r in report["results"]] == python_task_order()
    assert [r["status"] for r in report["results"]] == ["PASS"] * 5
    assert all(r["node"] and "/" in r["node"] for r in report["results"])
    run_dir = next((project / ".garuda" / "evals").iterdir())
    for row in report["results"]:
        assert Path(row["transcript"]).parent == run_dir
        assert (run_dir / row["change"]).read_bytes(), row["task"]
    assert "5/5 scored runs passed" in out
    said = capsys.readouterr().err
    assert "backend: ray (the Ray this process had joined; 1 node(s), 2 run(s) at most" in said
    assert garuda_leftovers(cluster.scratch) == []


def test_noop_fails_every_python_task(cluster: Cluster, project: Path) -> None:
    outcome, out, err = evaluate(project, agent="noop", parallel=2)
    assert outcome.exit_code == 2, err
    report = only_report(project)
    assert [r["status"] for r in report["results"]] == ["FAIL"] * 5
    assert "0/5 scored runs passed" in out


def test_keys_reach_the_worker_but_no_log_or_report(
    cluster: Cluster, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Keys travel in the task's arguments: the agent sees them, Ray's logs do not."""
    key = f"sk-planted-{uuid.uuid4().hex}"
    model_key = f"sk-model-{uuid.uuid4().hex}"
    proof = hashlib.sha256(f"{key}\n".encode()).hexdigest()
    monkeypatch.setenv("PLANTED_KEY", key)
    monkeypatch.setenv("OPENAI_API_KEY", model_key)
    outcome, out, err = evaluate(
        project,
        task_ids=["equal-scores-order"],
        agent="command",
        agent_command='echo "$PLANTED_KEY" | sha256sum',
        agent_env=["PLANTED_KEY"],
    )
    assert outcome.exit_code == 2, err
    run_dir = next((project / ".garuda" / "evals").iterdir())
    assert files_containing(run_dir, proof.encode()), "the key never reached the agent"
    for secret in (key, model_key):
        assert files_containing(run_dir, secret.encode()) == []
        assert files_containing(cluster.temp_dir, secret.encode()) == []
        assert secret not in out + err


def test_a_node_without_a_toolchain_is_named_and_refuses(cluster: Cluster, project: Path) -> None:
    with pytest.raises(GarudaError) as refused:
        evaluate(project, suites=["go"], agent="noop")
    message = str(refused.value)
    assert message.startswith("--backend ray: node ") and "toolchain go" in message
    assert message.endswith("fix the node or add --skip-nodes to run on the others")
    with pytest.raises(GarudaError, match=r"^--skip-nodes: no node is left to run on \(node "):
        evaluate(project, suites=["go"], agent="noop", skip_nodes=True)
    assert not list(project.glob(".garuda/evals/*/report.json"))


def test_a_killed_worker_makes_one_err_and_the_rest_finish(
    cluster: Cluster, project: Path, tmp_path: Path
) -> None:
    """Through the script, joining by address, with a runtime environment for the workers."""
    marker = sleep_marker(3)
    mark = f"mark-{uuid.uuid4().hex}"
    runtime_env = tmp_path / "runtime_env.json"
    runtime_env.write_text(json.dumps({"env_vars": {"RT_MARK": mark}}))
    process = subprocess.Popen(
        [
            str(GARUDA_SCRIPT), "eval", "--backend", "ray", "--ray-address", cluster.address,
            "-s", "python", "-t", "equal-scores-order,last-short-chunk",
            "--agent", "command", "--agent-command", f'echo "runtime env: $RT_MARK"; sleep {marker}',
            "--agent-env", "RT_MARK", "--ray-runtime-env", str(runtime_env), "--parallel", "2",
        ],
        cwd=project, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    sleeper = wait_for_processes(f"^sleep {marker}$", started=process)[0]
    worker = _ray_worker_of(sleeper)
    os.kill(worker, signal.SIGKILL)
    stdout, stderr = process.communicate(timeout=300)
    assert process.returncode == 2, stderr
    report = only_report(project)
    statuses = [r["status"] for r in report["results"]]
    assert sorted(statuses) == ["ERR", "FAIL"], stdout
    finished = next(r for r in report["results"] if r["status"] == "FAIL")
    assert f"runtime env: {mark}".encode() in Path(finished["transcript"]).read_bytes()
    lost = next(r for r in report["results"] if r["status"] == "ERR")
    assert lost["failure"].startswith(f"on node {lost['node']}: ") and "Worker" in lost["failure"]
    assert processes_matching(f"^sleep {marker}$") == []
    assert garuda_leftovers(cluster.scratch) == []


def _ray_worker_of(pid: int) -> int:
    """The Ray worker process (``ray::...``) that ``pid`` descends from."""
    current = pid
    while current > 1:
        cmdline = Path(f"/proc/{current}/cmdline").read_bytes()
        if cmdline.startswith(b"ray::"):
            return current
        current = int(Path(f"/proc/{current}/stat").read_text().rsplit(")", 1)[1].split()[1])
    pytest.fail(f"process {pid} runs under no Ray worker")


def test_ctrl_c_cancels_every_run_and_leaves_no_process(project: Path, scratch: Path) -> None:
    """Without --ray-address the run starts its own Ray; Ctrl-C stops every run and that Ray."""
    marker = sleep_marker(47)
    tag = f"run-{uuid.uuid4().hex[:8]}"
    process = subprocess.Popen(
        [
            str(GARUDA_SCRIPT), "eval", "--backend", "ray", "-s", "python",
            "--agent", "command", "--agent-command", f"sleep {marker}", "--parallel", "2",
        ],
        cwd=project, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "TMPDIR": str(scratch), "GARUDA_TEST_TAG": tag},
    )  # fmt: skip
    wait_for_processes(f"^sleep {marker}$", count=2, started=process)
    assert len(with_env("GARUDA_TEST_TAG", tag)) > 3  # the driver, Ray's own, its workers
    process.send_signal(signal.SIGINT)
    _, stderr = process.communicate(timeout=120)
    assert process.returncode == 130, stderr
    assert "backend: ray (a local Ray started for this run; 1 node(s), 2 run(s)" in stderr
    report = only_report(project)
    assert report["interrupted"] is True and report["backend"] == "ray"
    assert [r["status"] for r in report["results"]] == ["INT", "INT"]
    assert all(r["node"] for r in report["results"])
    for row in report["results"]:  # what they used stayed on the killed workers: unknown
        usage = row["usage"]
        assert row["steps"] is None and not usage["tokensKnown"] and usage["costIncomplete"]
        assert usage["notes"] == [
            f"the run was cancelled on node {row['node']}; what its agent had used stayed on "
            "the worker: tokens unknown, cost incomplete"
        ]
    assert report["summary"]["tokens"] is None and report["summary"]["costIncomplete"]
    assert processes_matching(f"^sleep {marker}$") == []
    assert with_env("GARUDA_TEST_TAG", tag) == []
    assert garuda_leftovers(scratch) == []
