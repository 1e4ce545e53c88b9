"""SWE-bench predictions: ``instance_id``, ``model_name_or_path``, ``model_patch``.

The file is JSON lines, or JSON holding a list of predictions or an object keyed by
instance id (the forms SWE-bench's harness reads). A bad entry is one error naming the file,
the entry and the field; an instance predicted twice is an error.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from garuda_evals.api import FileFormatError, describe_validation_error, parse_json
from garuda_evals_swebench.instances import ID_PATTERN, read_jsonl


class PredictionOptions(BaseModel):
    """The ``swe-bench`` options of ``garuda eval``."""

    model_config = ConfigDict(extra="forbid")

    predictions: str | None = None


class Prediction(BaseModel):
    """One patch made elsewhere for one instance (``model_patch`` empty: no patch)."""

    model_config = ConfigDict(extra="ignore")

    instance_id: str = Field(pattern=ID_PATTERN)
    model_name_or_path: str = ""
    model_patch: str | None = None


def _entries(path: Path) -> list[tuple[str, dict[str, Any]]]:
    if path.suffix == ".json":
        data = parse_json(path)
        if isinstance(data, dict):
            items = [
                {"instance_id": key, **value} if isinstance(value, dict) else value
                for key, value in data.items()
            ]
        elif isinstance(data, list):
            items = data
        else:
            raise FileFormatError(f"{path}: not a list of predictions nor an object of them")
        return [(f"{path}: entry {n}", item) for n, item in enumerate(items)]
    return [(f"{path}:{number}", data) for number, data in read_jsonl(path)]


def load_predictions(path: Path) -> dict[str, Prediction]:
    """Predictions by instance id, in the file's order."""
    if not path.is_file():
        raise FileFormatError(f"{path}: not found")
    found: dict[str, Prediction] = {}
    where: dict[str, str] = {}
    for place, data in _entries(path):
        if not isinstance(data, dict):
            raise FileFormatError(f"{place}: not a JSON object")
        try:
            prediction = Prediction.model_validate(data)
        except ValidationError as error:
            raise FileFormatError(describe_validation_error(place, error)) from error
        if prediction.instance_id in found:
            raise FileFormatError(
                f"{place}: field 'instance_id': {prediction.instance_id} is also predicted at "
                f"{where[prediction.instance_id]}"
            )
        found[prediction.instance_id] = prediction
        where[prediction.instance_id] = place
    if not found:
        raise FileFormatError(f"{path}: no prediction in it")
    return found


def models(predictions: dict[str, Prediction]) -> str:
    """The models named, comma-separated (``?`` when none is)."""
    names = sorted({p.model_name_or_path for p in predictions.values() if p.model_name_or_path})
    return ", ".join(names) or "?"
