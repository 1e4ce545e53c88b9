"""Entry points scanned once and remembered across runs: the same entry points, names and
versions as ``importlib.metadata`` gives, scanned again when anything the scan reads changes
(an install, an uninstall, an upgrade, an edit in place)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from importlib import metadata
from pathlib import Path

import pytest

from garuda_evals.plugins import scan
from garuda_evals.plugins.drivers import AGENTS, EXECUTORS
from garuda_evals.plugins.manager import ENTRY_POINT_GROUP

Scans = list[int]


@pytest.fixture
def scans(monkeypatch: pytest.MonkeyPatch) -> Scans:
    """Count real scans; each test starts as a new process would (nothing scanned yet)."""
    counted: Scans = []
    real = scan._scan

    def counting() -> tuple[scan.FoundEntryPoint, ...]:
        counted.append(1)
        return real()

    monkeypatch.setattr(scan, "_scan", counting)
    monkeypatch.setattr(scan, "_scanned", {})
    return counted


def new_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """Forget this process's scan, as the next ``garuda`` would start without it."""
    monkeypatch.setattr(scan, "_scanned", {})


def listed(group: str = AGENTS) -> dict[str, tuple[str, tuple[str, str] | None]]:
    return {ep.name: (ep.value, scan.name_and_version(ep)) for ep in scan.entry_points(group)}


def expected(group: str) -> list[tuple[str, str, str, str]]:
    return sorted(
        (ep.name, ep.value, ep.dist.metadata["Name"], ep.dist.version)
        for ep in metadata.entry_points(group=group)
        if ep.dist is not None
    )


@pytest.mark.parametrize("group", [ENTRY_POINT_GROUP, AGENTS, EXECUTORS])
def test_the_same_entry_points_names_and_versions_as_importlib_metadata(
    group: str, scans: Scans, monkeypatch: pytest.MonkeyPatch
) -> None:
    for _ in ("scanned", "remembered"):
        new_process(monkeypatch)
        found = sorted(
            (ep.name, ep.value, *(scan.name_and_version(ep) or ("", "")))
            for ep in scan.entry_points(group)
        )
        assert found == expected(group)
    assert scans == [1]


def test_groups_asked_one_after_another_share_one_scan(scans: Scans) -> None:
    for group in (ENTRY_POINT_GROUP, AGENTS, EXECUTORS, AGENTS):
        scan.entry_points(group)
    assert scans == [1]


def test_another_group_is_refused() -> None:
    with pytest.raises(ValueError, match="pytest11"):
        scan.entry_points("pytest11")


def test_install_upgrade_edit_and_uninstall_are_each_seen_by_the_next_run(
    fake_dist: Callable[..., Path], scans: Scans, monkeypatch: pytest.MonkeyPatch
) -> None:
    site = fake_dist("garuda-evals-first", {AGENTS: {"one": "m1:A"}}, {})
    monkeypatch.syspath_prepend(str(site))
    assert listed()["one"] == ("m1:A", ("garuda-evals-first", "0.9"))
    new_process(monkeypatch)
    listed()
    assert scans == [1], "nothing changed: the next run takes the remembered scan"

    fake_dist("garuda-evals-second", {AGENTS: {"two": "m2:B"}}, {})
    new_process(monkeypatch)
    assert listed()["two"] == ("m2:B", ("garuda-evals-second", "0.9"))

    second = site / "garuda_evals_second-0.9.dist-info"
    second.rename(site / "garuda_evals_second-1.0.dist-info")
    second = site / "garuda_evals_second-1.0.dist-info"
    (second / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: garuda-evals-second\nVersion: 1.0\n"
    )
    new_process(monkeypatch)
    assert listed()["two"] == ("m2:B", ("garuda-evals-second", "1.0"))

    (second / "entry_points.txt").write_text(f"[{AGENTS}]\ntwo = m2:Better\n")
    new_process(monkeypatch)
    assert listed()["two"] == ("m2:Better", ("garuda-evals-second", "1.0"))

    shutil.rmtree(second)
    new_process(monkeypatch)
    assert "two" not in listed()
    assert "one" in listed()
    assert len(scans) == 5


def test_an_edit_in_place_at_the_same_time_is_seen_by_its_size(
    fake_dist: Callable[..., Path], scans: Scans, monkeypatch: pytest.MonkeyPatch
) -> None:
    site = fake_dist("garuda-evals-first", {AGENTS: {"one": "m1:A"}}, {})
    monkeypatch.syspath_prepend(str(site))
    points = site / "garuda_evals_first-0.9.dist-info" / "entry_points.txt"
    listed()
    times = os.stat(points)
    points.write_text(f"[{AGENTS}]\none = m1:Another\n")
    os.utime(points, ns=(times.st_atime_ns, times.st_mtime_ns))
    new_process(monkeypatch)
    assert listed()["one"][0] == "m1:Another"


def test_a_corrupt_or_unwritable_cache_means_a_scan(
    tmp_path: Path, scans: Scans, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = tmp_path / "entry-points.json"
    monkeypatch.setenv(scan.CACHE_ENV, str(cache))
    cache.write_text('{"key": ')
    assert "oracle" in listed()
    new_process(monkeypatch)
    assert "oracle" in listed()
    assert scans == [1]
    monkeypatch.setenv(scan.CACHE_ENV, str(tmp_path / "a-file" / "entry-points.json"))
    (tmp_path / "a-file").write_text("")
    new_process(monkeypatch)
    assert "oracle" in listed()
    assert scans == [1, 1]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a-file", "entry-points.json"]


def test_another_distribution_finder_is_never_cached(
    scans: Scans, monkeypatch: pytest.MonkeyPatch
) -> None:
    class Finder:
        @staticmethod
        def find_spec(*_: object) -> None:
            return None

        @staticmethod
        def find_distributions(*_: object) -> list[object]:
            return []

    monkeypatch.setattr(sys, "meta_path", [*sys.meta_path, Finder()])
    listed()
    new_process(monkeypatch)
    listed()
    assert scans == [1, 1]


def test_a_remembered_scan_imports_no_importlib_metadata(tmp_path: Path) -> None:
    code = (
        "import sys; from garuda_evals.plugins import scan; "
        "print(sorted(scan.name_and_version(ep)[0] for ep in scan.entry_points('garuda_evals')), "
        "'importlib.metadata' in sys.modules)"
    )
    env = {**os.environ, scan.CACHE_ENV: str(tmp_path / "entry-points.json")}
    runs = [
        subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
        for _ in range(2)
    ]
    first, second = (run.stdout.rsplit(" ", 1) for run in runs)
    assert first[0] == second[0], runs
    assert "garuda-evals-python" in first[0]
    assert (first[1].strip(), second[1].strip()) == ("True", "False")


@pytest.mark.parametrize(
    "value", ["os.path", "os.path:join", "os:path.join", "os.path : join [extra]", "os.path [x]"]
)
def test_load_and_module_as_importlib_metadata_read_a_value(value: str) -> None:
    found = scan.FoundEntryPoint("n", value, AGENTS)
    expected = metadata.EntryPoint("n", value, AGENTS)
    assert (found.module, found.load()) == (expected.module, expected.load())
