"""The Dockerfile read without Docker: what it asks of the host, or the one line refusing it."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from garuda_evals_harbor.dockerfile import Need, read_dockerfile
from garuda_evals_harbor.host import missing
from garuda_evals_harbor.refusal import Refused
from garuda_evals_harbor.taskdir import read_task

HOST_PYTHON = f"{sys.version_info.major}.{sys.version_info.minor}"


def test_installs_copies_workdir_and_env_are_read() -> None:
    env = read_dockerfile(
        "# syntax=docker/dockerfile:1\n"
        "ARG PY=3.11\n"
        "FROM python:${PY}-slim-bookworm AS base\n"
        "RUN DEBIAN_FRONTEND=noninteractive apt-get update \\\n"
        "    && apt-get install -y --no-install-recommends git=1:2.39 curl \\\n"
        "    && rm -rf /var/lib/apt/lists/*\n"
        'RUN ["pip", "install", "--no-cache-dir", "pytest==8.*", "-i", "https://x/simple"]\n'
        "WORKDIR /srv\n"
        "WORKDIR app\n"
        "COPY data/ ./data/\n"
        'ENV A=1 B="two words"\n'
        "ENV C plain value\n"
        "USER nobody\n"
        'CMD ["bash"]\n'
    )
    assert env.image == "python:3.11-slim-bookworm"
    assert env.workdir == "/srv/app"
    assert env.env == {"A": "1", "B": "two words", "C": "plain value"}
    assert [(n.kind, n.name, n.line) for n in env.needs] == [
        ("python", "python3", 3),
        ("apt", "git", 4),
        ("apt", "curl", 4),
        ("pip", "pytest==8.*", 7),
    ]
    assert env.needs[0].version == "3.11"
    assert [(c.source, c.target, c.folder_target) for c in env.copies] == [
        ("data/", "/srv/app/data", True)
    ]


def test_terminal_bench_image_names_stand_for_their_toolchain() -> None:
    env = read_dockerfile("FROM ghcr.io/laude-institute/t-bench/python-3-13:20250620\n")
    assert (env.needs[0].kind, env.needs[0].version, env.workdir) == ("python", "3.13", "/app")
    assert read_dockerfile("FROM node:20-bookworm\n").needs[0].version == "20"
    assert read_dockerfile("FROM ubuntu-24-04\n").needs[0].kind == "system"


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        (
            "FROM alpine:3.20\n",
            ":1: FROM alpine:3.20: no toolchain of this host stands for this image",
        ),
        (
            "FROM python:3.11 AS b\nFROM debian\n",
            ":2: FROM debian: a second FROM (a multi-stage build)",
        ),
        (
            "FROM debian\nRUN curl -fsSL https://x/install.sh | sh\n",
            ":2: RUN curl -fsSL https://x/install.sh | sh: `|` (a pipe, redirection or sub-shell)",
        ),
        (
            "FROM debian\nRUN make install\n",
            ":2: RUN make install: runs make, which cannot be done without Docker",
        ),
        ("FROM debian\nRUN pip install -e .\n", ":2: RUN pip install -e: installs a local project"),
        ("FROM debian\nRUN <<EOF\necho hi\nEOF\n", ":2: RUN <<EOF: a heredoc"),
        (
            "FROM debian\nCOPY --from=build /out /app\n",
            ":2: COPY --from=build /out /app: copies from another image",
        ),
        (
            "FROM debian\nADD https://x/a.tgz /app/\n",
            ":2: ADD https://x/a.tgz /app/: a download or an archive",
        ),
        ("FROM debian\nWORKDIR /\n", ": WORKDIR /: the task's folder must be a folder of its own"),
        ("RUN true\n", ": no FROM"),
    ],
)
def test_what_cannot_run_without_docker_is_refused_naming_the_line(text: str, reason: str) -> None:
    with pytest.raises(Refused) as refused:
        read_dockerfile(text)
    assert refused.value.reason.startswith(reason), refused.value.reason


def test_the_host_meets_or_names_the_first_missing_need() -> None:
    assert missing([Need("python", "python3", 1, HOST_PYTHON), Need("apt", "bash", 2)]) is None
    newer = f"{sys.version_info.major}.{sys.version_info.minor + 1}"
    need, why = missing([Need("python", "python3", 1, newer)]) or (None, "")
    assert need is not None and why.startswith(
        f"FROM asks for Python {newer}; this host's python3 is"
    )
    assert missing([Need("apt", "garuda-no-such-package", 4)]) == (
        Need("apt", "garuda-no-such-package", 4),
        "the Debian package garuda-no-such-package is not installed on this host",
    )
    assert missing([Need("pip", "pytest>=7", 5)]) is None
    assert missing([Need("pip", "pytest<1", 5)])[1].startswith(  # type: ignore[index]
        "the Python package pytest <1 is wanted; this host's python3 has"
    )
    assert missing([Need("pip", "garuda-no-such-dist", 6)])[1] == (  # type: ignore[index]
        "the Python package garuda-no-such-dist is not installed for this host's python3 "
        "(the checks' interpreter)"
    )


def _task(root: Path, dockerfile: str, **more: str) -> Path:
    files = {
        "instruction.md": "Do it in /app.\n",
        "tests/test.sh": "echo 1 > /logs/verifier/reward.txt\n",
        "solution/solve.sh": "true\n",
        "environment/Dockerfile": dockerfile,
        **more,
    }
    for relative, text in files.items():
        (root / "t" / relative).parent.mkdir(parents=True, exist_ok=True)
        (root / "t" / relative).write_text(text)
    return root / "t"


def test_copies_fill_the_working_folder(tmp_path: Path) -> None:
    folder = _task(
        tmp_path,
        "FROM debian\nWORKDIR /app\nCOPY a.txt /app/\nCOPY src /app/src\nCOPY *.cfg conf/\n",
        **{"environment/a.txt": "a\n", "environment/src/m.py": "m\n", "environment/x.cfg": "x\n"},
    )
    assert read_task(folder).files == {"a.txt": "a\n", "src/m.py": "m\n", "conf/x.cfg": "x\n"}


@pytest.mark.parametrize(
    ("dockerfile", "more", "reason"),
    [
        (
            "FROM debian\nCOPY tool /usr/local/bin/tool\n",
            {"environment/tool": "x"},
            "t/environment/Dockerfile:2: COPY to /usr/local/bin/tool: outside the working folder /app",
        ),
        (
            "FROM debian\nCOPY nothere /app/\n",
            {},
            "t/environment/Dockerfile:2: COPY nothere: no such file in environment/",
        ),
        (
            "FROM debian\nRUN pip install -r req.txt\n",
            {},
            "t/environment/Dockerfile:2: pip install -r req.txt: not in environment/",
        ),
        (
            "FROM debian\n",
            {"task.toml": "[verifier]\ntimeout_sec = -1\n"},
            "t/task.toml: field 'verifier.timeout_sec'",
        ),
        (
            "FROM debian\n",
            {"task.toml": "[environment]\ndocker_image = 'x/y:1'\n"},
            "t/task.toml: field 'environment.docker_image': a prebuilt image (x/y:1)",
        ),
    ],
)
def test_a_task_folder_that_cannot_be_read_is_refused_in_one_line(
    tmp_path: Path, dockerfile: str, more: dict[str, str], reason: str
) -> None:
    with pytest.raises(Refused) as refused:
        read_task(_task(tmp_path, dockerfile, **more))
    assert "\n" not in refused.value.reason
    assert reason in refused.value.reason, refused.value.reason


def test_requirements_files_become_needs(tmp_path: Path) -> None:
    folder = _task(
        tmp_path,
        "FROM python:3.11\nRUN pip install -r requirements.txt\n",
        **{"environment/requirements.txt": "# pins\npytest>=7\n--hash x\n"},
    )
    assert [(n.kind, n.name) for n in read_task(folder).environment.needs][1:] == [
        ("pip", "pytest>=7")
    ]
