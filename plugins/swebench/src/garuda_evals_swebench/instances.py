"""SWE-bench instances as the published sets write them, one JSON object a line.

``FAIL_TO_PASS`` and ``PASS_TO_PASS`` come as JSON lists or as JSON-encoded strings of
lists (the published sets use both); other fields the sets carry (``hints_text``,
``created_at``, ...) are ignored. A bad line is one error naming the file, the line and the
field.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from garuda_evals.api import FileFormatError, describe_validation_error

ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.-]*$"
REPO_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.-]*/[A-Za-z0-9][A-Za-z0-9_.-]*$"


def _id_list(value: Any) -> Any:
    """A list of test ids, or the JSON text of one."""
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except json.JSONDecodeError as error:
            raise ValueError(f"not a JSON list of test ids: {error}") from error
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise ValueError("must be a list of test ids (strings)")
    return value


class Instance(BaseModel):
    """One SWE-bench task instance (the fields garuda uses)."""

    model_config = ConfigDict(extra="ignore")

    instance_id: str = Field(pattern=ID_PATTERN)
    repo: str = Field(pattern=REPO_PATTERN)
    base_commit: str = Field(pattern=r"^[0-9a-f]{7,40}$")
    problem_statement: str = Field(min_length=1)
    patch: str = Field(min_length=1)
    test_patch: str = Field(min_length=1)
    FAIL_TO_PASS: list[str] = Field(min_length=1)
    PASS_TO_PASS: list[str] = Field(default_factory=list)
    environment_setup_commit: str | None = Field(default=None, pattern=r"^[0-9a-f]{7,40}$")
    version: str | None = None

    _ids = field_validator("FAIL_TO_PASS", "PASS_TO_PASS", mode="before")(_id_list)

    @field_validator("version", mode="before")
    @classmethod
    def _version(cls, value: Any) -> Any:
        """Some sets write the version as a number (``3.0``): kept as its text."""
        return str(value) if isinstance(value, int | float) else value

    def digest(self) -> str:
        """A hash of every field garuda uses: a changed instance is imported again."""
        data = json.dumps(self.model_dump(mode="json"), sort_keys=True).encode()
        return hashlib.sha256(data).hexdigest()[:16]


def read_jsonl(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """``(line number, object)`` for each non-blank line; a line that is not a JSON object
    is an error naming the file and the line."""
    try:
        stream = path.open(encoding="utf-8")
    except OSError as error:
        raise FileFormatError(f"{path}: cannot read: {error.strerror}") from error
    with stream:
        try:
            for number, line in enumerate(stream, 1):
                if not line.strip():
                    continue
                try:
                    data = json.loads(line)
                except json.JSONDecodeError as error:
                    raise FileFormatError(f"{path}:{number}: not valid JSON: {error}") from error
                if not isinstance(data, dict):
                    raise FileFormatError(f"{path}:{number}: not a JSON object")
                yield number, data
        except UnicodeDecodeError as error:
            raise FileFormatError(f"{path}: not UTF-8 text (byte {error.start})") from error


def load_instances(path: Path) -> list[Instance]:
    """Every instance of the file, in order; a repeated ``instance_id`` is an error."""
    found: list[Instance] = []
    seen: dict[str, int] = {}
    for number, data in read_jsonl(path):
        try:
            instance = Instance.model_validate(data)
        except ValidationError as error:
            raise FileFormatError(describe_validation_error(f"{path}:{number}", error)) from error
        if instance.instance_id in seen:
            raise FileFormatError(
                f"{path}:{number}: field 'instance_id': {instance.instance_id} is also on line "
                f"{seen[instance.instance_id]}"
            )
        seen[instance.instance_id] = number
        found.append(instance)
    return found
