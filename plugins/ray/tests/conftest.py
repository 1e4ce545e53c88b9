"""One local Ray cluster (2 CPUs, 2 ``garuda`` slots) shared by every Ray test.

The cluster's nodes get a PATH without Go (so a Go task is refused on them while the
driver has Go) and a TMPDIR of their own (so a scratch folder left on a node is seen).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from garuda_evals.testing import import_or_skip
from garuda_evals_ray.testing import Cluster, without_go

SLOTS = 2


@pytest.fixture(scope="session")
def cluster() -> Iterator[Cluster]:
    """Start Ray (2 CPUs) in this process for the whole session; shut it down at the end."""
    ray = import_or_skip("ray", "ray")
    root = Path(tempfile.mkdtemp(prefix="gr-"))
    scratch = root / "tmp"
    scratch.mkdir()
    saved = {name: os.environ.get(name) for name in ("PATH", "TMPDIR")}
    os.environ["PATH"] = without_go(os.environ["PATH"])
    os.environ["TMPDIR"] = str(scratch)
    try:
        context = ray.init(
            address="local",
            num_cpus=2,
            resources={"garuda": SLOTS},
            include_dashboard=False,
            _temp_dir=str(root / "ray"),
            log_to_driver=False,
        )
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
    try:
        yield Cluster(context.address_info["gcs_address"], root / "ray", scratch)
    finally:
        ray.shutdown()
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    folder = tmp_path / "project"
    (folder / ".git").mkdir(parents=True)
    return folder


@pytest.fixture
def scratch() -> Iterator[Path]:
    """A TMPDIR short enough for Ray's socket paths (a run that starts its own Ray)."""
    folder = Path(tempfile.mkdtemp(prefix="gs-"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)
