"""The Ray plugin's hooks: the ``ray`` run backend and its options. Ray loads only when used."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from garuda_evals.api import OptionsRecord, RunBackendRecord, hookimpl

if TYPE_CHECKING:
    from garuda_evals.api import RunBackend


def _backend() -> RunBackend:
    from garuda_evals_ray.backend import RayBackend

    return RayBackend()


@hookimpl
def garuda_run_backends() -> Iterator[RunBackendRecord]:
    """``ray``: each task run is a Ray task on a worker of a cluster."""
    yield RunBackendRecord(
        name="ray", description="each task run as a Ray task on a cluster", load=_backend
    )


@hookimpl
def garuda_options() -> Iterator[OptionsRecord]:
    """``--ray-address`` and ``--skip-nodes``."""
    from garuda_evals_ray.options import OPTIONS

    yield OPTIONS
