"""An Exercism practice exercise read from its folder: files, instructions, reference.

``.meta/config.json`` names the exercise's files (``files.solution``, ``files.test``,
``files.example``); the instructions are ``.docs/introduction.md``, ``.docs/instructions.md``
and ``.docs/instructions.append.md`` (each optional but ``instructions.md``). The workspace
is every other file of the folder (``.meta/``, ``.docs/`` and the example left out); the
example files are the reference solution, written at the solution paths.

An exercise that cannot be read is a ``Refused`` with one line naming the file and field:
the import skips it and says why.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from garuda_evals.api import FileFormatError, describe_validation_error, parse_json

CONFIG = ".meta/config.json"
DOCS = (".docs/introduction.md", ".docs/instructions.md", ".docs/instructions.append.md")
LEFT_OUT = frozenset({".meta", ".docs", ".exercism", ".git", "node_modules", "__pycache__"})
MAX_FILE_BYTES = 1 << 20


class Refused(Exception):
    """An exercise that cannot be a task: ``reason`` is one line naming the file and field."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class ConfigFiles(BaseModel):
    """``files`` of ``.meta/config.json`` (other keys, such as ``editor``, are ignored)."""

    model_config = ConfigDict(extra="ignore")

    solution: list[str] = Field(min_length=1)
    test: list[str] = Field(min_length=1)
    example: list[str] = Field(default_factory=list)
    exemplar: list[str] = Field(default_factory=list)


class Config(BaseModel):
    """The part of ``.meta/config.json`` an import reads."""

    model_config = ConfigDict(extra="ignore")

    files: ConfigFiles
    blurb: str = ""


@dataclass(frozen=True)
class Exercise:
    """One exercise, read: what the task is made of."""

    slug: str
    folder: Path
    blurb: str
    instructions: str
    files: dict[str, str]
    solution_paths: tuple[str, ...]
    test_paths: tuple[str, ...]
    reference: dict[str, str]
    digest: str = field(default="")


def find_exercises(root: Path) -> list[Path]:
    """The exercise folders of ``root``: a track (``exercises/practice/*``), a folder of
    exercises, or one exercise; sorted by name."""
    if (root / CONFIG).is_file():
        return [root]
    practice = root / "exercises" / "practice"
    parent = practice if practice.is_dir() else root
    return sorted(
        (path for path in parent.iterdir() if (path / CONFIG).is_file()),
        key=lambda path: path.name,
    )


def _relative(value: str, where: str) -> str:
    parts = value.split("/")
    if (
        not value
        or value.startswith("/")
        or "\\" in value
        or any(p in ("", ".", "..") for p in parts)
    ):
        raise Refused(f"{where}: {value!r} must be a relative path inside the exercise")
    return value


def _read(folder: Path, relative: str, where: str) -> str:
    path = folder / relative
    if path.is_symlink() or not path.is_file():
        raise Refused(f"{where}: {relative} is not a file of the exercise")
    if path.stat().st_size > MAX_FILE_BYTES:
        raise Refused(f"{folder / relative}: larger than {MAX_FILE_BYTES} bytes")
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise Refused(f"{folder / relative}: not UTF-8 text (byte {error.start})") from error


def _config(folder: Path) -> Config:
    path = folder / CONFIG
    try:
        return Config.model_validate(parse_json(path))
    except FileFormatError as error:
        raise Refused(str(error)) from error
    except ValidationError as error:
        raise Refused(describe_validation_error(path, error)) from error


def _workspace(folder: Path, examples: set[str]) -> dict[str, str]:
    """Every regular file of ``folder`` but ``LEFT_OUT`` folders and the examples."""
    files: dict[str, str] = {}
    for current, folders, names in os.walk(folder):
        folders[:] = sorted(name for name in folders if name not in LEFT_OUT)
        base = Path(current)
        for name in sorted(names):
            relative = (base / name).relative_to(folder).as_posix()
            if relative in examples:
                continue
            if (base / name).is_symlink():
                raise Refused(f"{base / name}: a symbolic link (a task holds files only)")
            files[relative] = _read(folder, relative, str(base / name))
    return files


def _pairs(solutions: list[str], examples: list[str], where: str) -> dict[str, str]:
    """Each example file's solution path: by file name, else one to one, else in order."""
    by_name = {path.rsplit("/", 1)[-1]: path for path in solutions}
    if all(path.rsplit("/", 1)[-1] in by_name for path in examples):
        return {path: by_name[path.rsplit("/", 1)[-1]] for path in examples}
    if len(examples) == len(solutions):
        return dict(zip(examples, solutions, strict=True))
    raise Refused(
        f"{where}: {len(examples)} example file(s) for {len(solutions)} solution file(s), "
        "and their names do not match"
    )


def read_exercise(folder: Path) -> Exercise:
    """The exercise in ``folder``; ``Refused`` names the file and field that stop it."""
    config = _config(folder)
    where = f"{folder / CONFIG}: field 'files"
    solutions = [_relative(p, f"{where}.solution'") for p in config.files.solution]
    tests = [_relative(p, f"{where}.test'") for p in config.files.test]
    examples = config.files.example or config.files.exemplar
    if not examples:
        raise Refused(f"{where}.example': no example (reference) solution")
    examples = [_relative(p, f"{where}.example'") for p in examples]
    pairs = _pairs(solutions, examples, f"{where}.example'")
    reference = {
        target: _read(folder, source, f"{where}.example'") for source, target in pairs.items()
    }
    files = _workspace(folder, set(examples))
    for path in tests:
        if path not in files:
            raise Refused(f"{where}.test': {path} is not a file of the exercise")
    docs = [(folder / doc) for doc in DOCS]
    if not docs[1].is_file():
        raise Refused(f"{folder / DOCS[1]}: missing (the exercise's instructions)")
    text = "\n\n".join(_read(folder, doc, doc).strip() for doc in DOCS if (folder / doc).is_file())
    digest = hashlib.sha256(
        json.dumps([config.model_dump(), text, files, reference], sort_keys=True).encode()
    ).hexdigest()[:16]
    return Exercise(
        slug=folder.name,
        folder=folder,
        blurb=config.blurb,
        instructions=text,
        files=files,
        solution_paths=tuple(solutions),
        test_paths=tuple(tests),
        reference=reference,
        digest=digest,
    )
