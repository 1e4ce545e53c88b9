"""``--ray-address`` to a cluster started with ``ray start --head``, Ray's token set-up.

One head for the module, started the way Ray's docs say: a token made by ``ray
get-auth-token --generate`` in its HOME (``~/.ray/auth_token``), so ``ray start --head``
turns token authentication on. ``garuda`` joins it by address as a user would, in a
subprocess with the token set-up each test names.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from garuda_evals.api import UsageError
from garuda_evals.testing import GARUDA_SCRIPT, import_or_skip, only_report, run_garuda
from garuda_evals_ray.joining import check_address, token_source
from garuda_evals_ray.testing import with_env

RAY = GARUDA_SCRIPT.parent / "ray"
STARTED = "Ray runtime started."
START_S = 300
FIX = (
    "RAY_AUTH_TOKEN, a file named by RAY_AUTH_TOKEN_PATH, or ~/.ray/auth_token "
    "(`ray get-auth-token` on the head prints it)"
)


@dataclass(frozen=True)
class Head:
    """The module's head node: its address, the HOME that holds its token, the token."""

    address: str
    home: Path
    token: str


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def base_env(home: Path, **extra: str) -> dict[str, str]:
    """This process's environment less Ray's auth variables (an in-process Ray of another
    test sets RAY_AUTH_MODE), with ``home`` as HOME and ``extra`` added."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("RAY_AUTH", "RAY_ADDRESS"))}
    return {**env, "HOME": str(home), **extra}


def start_head(root: Path, env: dict[str, str]) -> tuple[subprocess.Popen[bytes], int]:
    """``ray start --head --block`` until it says it started; a try whose raylet died (on a
    busy machine Ray's dashboard agent can miss the raylet's 15 s wait) is tried again."""
    failures = []
    for attempt in range(3):
        port = free_port()
        log = root / f"head-{attempt}.log"
        with log.open("wb") as out:
            process = subprocess.Popen(
                [
                    str(RAY), "start", "--head", "--block", "--port", str(port),
                    "--temp-dir", str(root / f"ray{attempt}"), "--num-cpus", "1",
                    "--resources", '{"garuda": 1}', "--include-dashboard", "false",
                    "--disable-usage-stats",
                ],
                env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
            )  # fmt: skip
        deadline = time.monotonic() + START_S
        try:
            while process.poll() is None and STARTED not in log.read_text(errors="replace"):
                if time.monotonic() > deadline:
                    stop_head(process)
                time.sleep(0.2)
        except BaseException:
            stop_head(process)
            raise
        said = log.read_text(errors="replace")
        if STARTED in said:
            assert "Token authentication is enabled" in said, said
            return process, port
        failures.append(said.strip().splitlines()[-1] if said.strip() else "no output")
    pytest.fail(f"ray start --head failed 3 times: {failures}")


def stop_head(process: subprocess.Popen[bytes]) -> None:
    """SIGTERM to ``ray start --block``, which stops every process it started."""
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=60)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=30)


@pytest.fixture(scope="module")
def head() -> Iterator[Head]:
    """A head with a token in its HOME, for the module; stopped by its own pid."""
    import_or_skip("ray", "ray")
    root = Path(tempfile.mkdtemp(prefix="gk-"))
    home, scratch = root / "home", root / "tmp"
    home.mkdir()
    scratch.mkdir()
    tag = uuid.uuid4().hex
    env = {**base_env(home), "TMPDIR": str(scratch), "GARUDA_TEST_TAG": tag}
    process = None
    try:
        subprocess.run([str(RAY), "get-auth-token", "--generate"], env=env, check=True,
                       capture_output=True, timeout=120)  # fmt: skip
        token = (home / ".ray" / "auth_token").read_text().strip()
        process, port = start_head(root, env)
        yield Head(f"127.0.0.1:{port}", home, token)
    finally:
        if process is not None:
            stop_head(process)
        left = with_env("GARUDA_TEST_TAG", tag)
        for pid in left:
            os.kill(pid, signal.SIGKILL)
        shutil.rmtree(root, ignore_errors=True)
        assert left == [], f"the head left processes {left}"


def join(head: Head, project: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return run_garuda(
        "eval", "--backend", "ray", "--ray-address", head.address, "-s", "python",
        "-t", "equal-scores-order", "--agent", "oracle",
        cwd=project, env=env, timeout=300,
    )  # fmt: skip


def only_error(done: subprocess.CompletedProcess[str]) -> str:
    """The run's one error line; nothing else but the executor line (no Ray retries)."""
    lines = [line for line in done.stderr.splitlines() if not line.startswith("executor: ")]
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("garuda: error: "), done.stderr
    return lines[0].removeprefix("garuda: error: ")


def test_with_token_mode_and_the_heads_token_the_run_passes(head: Head, project: Path) -> None:
    done = join(head, project, base_env(head.home, RAY_AUTH_MODE="token"))
    assert done.returncode == 0, done.stderr
    report = only_report(project)
    assert report["backend"] == "ray"
    assert [r["status"] for r in report["results"]] == ["PASS"]


def test_without_token_mode_one_line_names_the_cause_and_fix(head: Head, project: Path) -> None:
    """Ray sends no token to an address given explicitly, even with ~/.ray/auth_token."""
    done = join(head, project, base_env(head.home))
    assert done.returncode == 1, done.stderr
    assert only_error(done) == (
        f"--ray-address {head.address}: the cluster requires Ray token authentication: "
        f"set RAY_AUTH_MODE=token, with the cluster's token in {FIX}"
    )
    assert not (project / ".garuda").exists()


def test_a_wrong_token_is_named_with_where_it_came_from(
    head: Head, project: Path, tmp_path: Path
) -> None:
    wrong = uuid.uuid4().hex
    assert wrong != head.token
    done = join(head, project, base_env(head.home, RAY_AUTH_MODE="token", RAY_AUTH_TOKEN=wrong))
    assert done.returncode == 1, done.stderr
    assert only_error(done) == (
        f"--ray-address {head.address}: the cluster refused the Ray token from "
        f"RAY_AUTH_TOKEN: give the cluster's token in {FIX}"
    )
    assert wrong not in done.stderr


def test_token_mode_without_a_token_is_one_line(head: Head, project: Path, tmp_path: Path) -> None:
    empty = tmp_path / "home"
    empty.mkdir()
    done = join(head, project, base_env(empty, RAY_AUTH_MODE="token"))
    assert done.returncode == 1, done.stderr
    assert only_error(done) == (
        f"--ray-address {head.address}: RAY_AUTH_MODE=token, but there is no token to send "
        "(Token authentication is enabled but no authentication token was found): "
        f"put the cluster's token in {FIX}"
    )


def test_an_address_where_nothing_listens_fails_at_once(project: Path, tmp_path: Path) -> None:
    import_or_skip("ray", "ray")
    port = free_port()
    done = run_garuda(
        "eval", "--backend", "ray", "--ray-address", f"127.0.0.1:{port}", "-s", "python",
        "--agent", "oracle", cwd=project, env=base_env(tmp_path), timeout=300,
    )  # fmt: skip
    assert done.returncode == 1, done.stderr
    error = only_error(done)
    assert error.startswith(f"--ray-address 127.0.0.1:{port}: cannot reach the cluster at ")
    assert error.endswith(
        f":{port}: Connection refused; start its head there with ray start --head "
        "--port PORT, or fix the address"
    )


@pytest.mark.parametrize(
    ("address", "said"),
    [
        ("head", "--ray-address head: not an address (give host:port, or auto)"),
        ("head:port", "--ray-address head:port: the port must be a number from 1 to 65535"),
        ("head:70000", "--ray-address head:70000: the port must be a number from 1 to 65535"),
    ],
)
def test_an_address_that_is_not_host_port_is_a_flag_error(address: str, said: str) -> None:
    import_or_skip("ray", "ray")
    with pytest.raises(UsageError) as refused:
        check_address(address)
    assert str(refused.value) == said


def test_the_token_source_follows_rays_order() -> None:
    both = {"RAY_AUTH_TOKEN": "t", "RAY_AUTH_TOKEN_PATH": "/p"}
    assert token_source(both) == "RAY_AUTH_TOKEN"
    assert token_source({**both, "RAY_AUTH_TOKEN": ""}) == "RAY_AUTH_TOKEN_PATH (/p)"
    assert token_source({}) == "~/.ray/auth_token"
