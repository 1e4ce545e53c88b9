"""The base model: strict (unknown fields are errors) and camelCase on the wire."""

from typing import Any

from pydantic import BaseModel, ConfigDict
from pydantic.alias_generators import to_camel


class Model(BaseModel):
    """Base of every saved or exchanged record: ``extra="forbid"``, camelCase JSON aliases."""

    model_config = ConfigDict(
        extra="forbid",
        alias_generator=to_camel,
        populate_by_name=True,
        frozen=False,
    )

    def to_json_dict(self) -> dict[str, Any]:
        """The record as JSON-ready data with camelCase keys."""
        return self.model_dump(mode="json", by_alias=True)
