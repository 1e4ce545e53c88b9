"""The Ray plugin's options, typed."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class RayOptions(BaseModel):
    """``--ray-address`` and ``--skip-nodes``."""

    model_config = ConfigDict(extra="forbid")

    ray_address: str | None = None
    ray_runtime_env: str | None = None
    skip_nodes: bool = False
