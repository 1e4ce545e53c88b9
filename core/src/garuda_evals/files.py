"""Reading a file the user gave or saved: one error naming the file, never a traceback."""

from __future__ import annotations

import json
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from garuda_evals.errors import FileFormatError, describe_validation_error

M = TypeVar("M", bound=BaseModel)


def read_text_file(path: Path) -> str:
    """The file's UTF-8 text; unreadable or not UTF-8 is a FileFormatError naming it."""
    try:
        return path.read_text(encoding="utf-8")
    except OSError as error:
        raise FileFormatError(f"{path}: cannot read: {error.strerror}") from error
    except UnicodeDecodeError as error:
        raise FileFormatError(f"{path}: not UTF-8 text (byte {error.start})") from error


def parse_json(path: Path) -> Any:
    """The file's JSON data; an error names the file."""
    try:
        return json.loads(read_text_file(path))
    except json.JSONDecodeError as error:
        raise FileFormatError(f"{path}: not valid JSON: {error}") from error


def parse_toml(path: Path) -> Any:
    """The file's TOML data; an error names the file."""
    try:
        return tomllib.loads(read_text_file(path))
    except tomllib.TOMLDecodeError as error:
        raise FileFormatError(f"{path}: not valid TOML: {error}") from error


def load_model(path: Path, model: type[M], parse: Callable[[Path], Any] = parse_json) -> M:
    """Read ``path`` with ``parse`` and validate it; errors name the file and the field."""
    data = parse(path)
    try:
        return model.model_validate(data)
    except ValidationError as error:
        raise FileFormatError(describe_validation_error(path, error)) from error
