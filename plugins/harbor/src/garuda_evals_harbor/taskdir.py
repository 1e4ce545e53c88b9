"""A Harbor (Terminal-Bench 2) task folder read as the parts of a task.

```
instruction.md          the prompt
task.toml               metadata and limits ([verifier] timeout_sec, [agent] timeout_sec)
environment/Dockerfile  the image, read by ``dockerfile`` and met by this host (``host``)
tests/test.sh           the verifier: run after the agent, writes /logs/verifier/reward.txt
solution/solve.sh       the reference solution (run once at import, see ``reference``)
```

A folder that cannot be a task here is ``Refused`` with one line naming the file and what.
"""

from __future__ import annotations

import fnmatch
import hashlib
import json
import posixpath
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from garuda_evals.api import FileFormatError, describe_validation_error, parse_toml
from garuda_evals_harbor.dockerfile import Environment, Need, read_dockerfile
from garuda_evals_harbor.refusal import Refused

MAX_FILE_BYTES = 1 << 20
DEFAULT_VERIFIER_S = 600.0
DEFAULT_AGENT_S = 600.0
CONTEXT_LEFT_OUT = frozenset(
    {"Dockerfile", ".dockerignore", "docker-compose.yaml", "docker-compose.yml"}
)


class Limits(BaseModel):
    """``[verifier]`` or ``[agent]`` of task.toml (other keys ignored)."""

    model_config = ConfigDict(extra="ignore")

    timeout_sec: float | None = Field(default=None, gt=0)


class EnvironmentConfig(BaseModel):
    """``[environment]`` of task.toml: only a prebuilt image is read (and refused)."""

    model_config = ConfigDict(extra="ignore")

    docker_image: str | None = None


class TaskToml(BaseModel):
    """The parts of task.toml an import reads."""

    model_config = ConfigDict(extra="ignore")

    verifier: Limits = Field(default_factory=Limits)
    agent: Limits = Field(default_factory=Limits)
    environment: EnvironmentConfig = Field(default_factory=EnvironmentConfig)
    metadata: dict[str, Any] = Field(default_factory=dict)


@dataclass(frozen=True)
class HarborTask:
    """One task folder, read."""

    id: str
    folder: Path
    instruction: str
    config: TaskToml
    environment: Environment
    files: dict[str, str]
    tests: dict[str, str]
    solution: dict[str, str]
    digest: str


def _text(path: Path, folder: Path) -> str:
    shown = path.relative_to(folder.parent)
    if path.is_symlink() or not path.is_file():
        raise Refused(f"{shown}: not a regular file")
    if path.stat().st_size > MAX_FILE_BYTES:
        raise Refused(f"{shown}: larger than {MAX_FILE_BYTES} bytes")
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise Refused(
            f"{shown}: not UTF-8 text (byte {error.start}): a task holds text files"
        ) from error


def _tree(root: Path, folder: Path, left_out: frozenset[str] = frozenset()) -> dict[str, str]:
    """Every file below ``root`` (relative posix path -> text)."""
    files: dict[str, str] = {}
    if not root.is_dir():
        return files
    for path in sorted(root.rglob("*")):
        relative = path.relative_to(root).as_posix()
        if relative in left_out or "__pycache__" in path.parts:
            continue
        if path.is_symlink():
            raise Refused(f"{path.relative_to(folder.parent)}: a symbolic link")
        if path.is_file():
            files[relative] = _text(path, folder)
    return files


def _config(folder: Path) -> TaskToml:
    path = folder / "task.toml"
    if not path.is_file():
        return TaskToml()
    try:
        return TaskToml.model_validate(parse_toml(path))
    except FileFormatError as error:
        raise Refused(str(error)) from error
    except ValidationError as error:
        raise Refused(describe_validation_error(path, error)) from error


def _workspace(env: Environment, context: dict[str, str], dockerfile: str) -> dict[str, str]:
    """The files ``COPY``/``ADD`` put below the working folder (relative to it)."""
    files: dict[str, str] = {}
    for copy in env.copies:
        source = posixpath.normpath(copy.source)
        if source.startswith("..") or source.startswith("/"):
            raise Refused(
                f"{dockerfile}:{copy.line}: COPY {copy.source}: outside the build context"
            )
        if source == ".":
            matched = {path: path for path in context}
        elif any(char in source for char in "*?["):
            matched = {p: p.rsplit("/", 1)[-1] for p in context if fnmatch.fnmatch(p, source)}
        elif source in context:
            name = source.rsplit("/", 1)[-1]
            matched = {source: name if copy.folder_target else ""}
        else:
            matched = {p: p[len(source) + 1 :] for p in context if p.startswith(source + "/")}
        if not matched:
            raise Refused(
                f"{dockerfile}:{copy.line}: COPY {copy.source}: no such file in environment/"
            )
        for path, below in matched.items():
            target = posixpath.join(copy.target, below) if below else copy.target
            if not (target + "/").startswith(env.workdir.rstrip("/") + "/"):
                raise Refused(
                    f"{dockerfile}:{copy.line}: COPY to {target}: outside the working folder "
                    f"{env.workdir} (the task's folder is all it has here)"
                )
            files[target[len(env.workdir.rstrip("/")) + 1 :]] = context[path]
    return files


def read_task(folder: Path) -> HarborTask:
    """The task in ``folder``; ``Refused`` names the file and what stops it."""
    name = folder.name
    for required in ("instruction.md", "tests/test.sh"):
        if not (folder / required).is_file():
            raise Refused(f"{name}/{required}: missing")
    config = _config(folder)
    if config.environment.docker_image:
        raise Refused(
            f"{name}/task.toml: field 'environment.docker_image': a prebuilt image "
            f"({config.environment.docker_image}) cannot run without Docker"
        )
    if not (folder / "solution" / "solve.sh").is_file():
        raise Refused(
            f"{name}/solution/solve.sh: missing (no reference solution to prove the task)"
        )
    dockerfile = f"{name}/environment/Dockerfile"
    if not (folder / "environment" / "Dockerfile").is_file():
        raise Refused(f"{dockerfile}: missing")
    try:
        env = read_dockerfile(_text(folder / "environment" / "Dockerfile", folder))
    except Refused as error:
        raise Refused(f"{dockerfile}{error.reason}") from None
    context = _tree(folder / "environment", folder, CONTEXT_LEFT_OUT)
    for requirements, line in env.requirements_files:
        if requirements not in context:
            raise Refused(
                f"{dockerfile}:{line}: pip install -r {requirements}: not in environment/"
            )
        for raw in context[requirements].splitlines():
            wanted = raw.split("#", 1)[0].strip()
            if wanted and not wanted.startswith("-"):
                env.needs.append(Need("pip", wanted, line))
    files = _workspace(env, context, dockerfile)
    instruction = _text(folder / "instruction.md", folder)
    tests = _tree(folder / "tests", folder)
    solution = _tree(folder / "solution", folder)
    digest = hashlib.sha256(
        json.dumps(
            [instruction, config.model_dump(), context, tests, solution, files], sort_keys=True
        ).encode()
    ).hexdigest()[:16]
    return HarborTask(
        id=name,
        folder=folder,
        instruction=instruction,
        config=config,
        environment=env,
        files=files,
        tests=tests,
        solution=solution,
        digest=digest,
    )


def find_tasks(root: Path) -> list[Path]:
    """The task folders of ``root`` (a folder holding ``instruction.md``), or ``root`` itself."""
    if (root / "instruction.md").is_file():
        return [root]
    return sorted(
        (path for path in root.iterdir() if (path / "instruction.md").is_file()),
        key=lambda path: path.name,
    )
