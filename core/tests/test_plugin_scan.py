"""Entry points scanned once per process: the same entry points, names and versions as
``importlib.metadata`` gives, scanned again when the import path changes."""

from __future__ import annotations

import sys
from collections.abc import Callable
from importlib import metadata
from pathlib import Path

import pytest

from garuda_evals.plugins import scan
from garuda_evals.plugins.drivers import AGENTS, EXECUTORS
from garuda_evals.plugins.manager import ENTRY_POINT_GROUP


@pytest.mark.parametrize("group", [ENTRY_POINT_GROUP, AGENTS, EXECUTORS])
def test_the_same_entry_points_names_and_versions_as_importlib_metadata(group: str) -> None:
    expected = metadata.entry_points(group=group)
    found = scan.entry_points(group)
    assert sorted((ep.name, ep.value) for ep in found) == sorted(
        (ep.name, ep.value) for ep in expected
    )
    for ep in found:
        assert ep.dist is not None
        assert scan.name_and_version(ep) == (ep.dist.metadata["Name"], ep.dist.version)


def test_groups_asked_one_after_another_share_one_scan(monkeypatch: pytest.MonkeyPatch) -> None:
    scans: list[int] = []
    real = scan.scan_entry_points

    def counted() -> metadata.EntryPoints:
        scans.append(1)
        return real()

    monkeypatch.setattr(scan, "scan_entry_points", counted)
    monkeypatch.setattr(scan, "_scanned", {})
    for group in (ENTRY_POINT_GROUP, AGENTS, EXECUTORS, AGENTS):
        scan.entry_points(group)
    assert len(scans) == 1


def test_a_distribution_installed_after_a_scan_is_seen(
    fake_dist: Callable[..., Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    site = fake_dist("garuda-evals-first", {"garuda_evals.agents": {"one": "m1:A"}}, {})
    monkeypatch.syspath_prepend(str(site))
    assert [ep.name for ep in scan.entry_points(AGENTS) if ep.value == "m1:A"] == ["one"]
    fake_dist("garuda-evals-second", {"garuda_evals.agents": {"two": "m2:B"}}, {})
    names = {ep.name: scan.name_and_version(ep) for ep in scan.entry_points(AGENTS)}
    assert names["two"] == ("garuda-evals-second", "0.9")
    assert str(site) in sys.path


def test_a_header_without_name_or_version_falls_back_to_the_parser(tmp_path: Path) -> None:
    assert scan._header_fields("Metadata-Version: 2.1\nName: x\nVersion: 1\n\nName: no\n") == {
        "Name": "x",
        "Version": "1",
    }
    assert scan._header_fields("Metadata-Version: 2.1\n\nName: body\n") == {}
