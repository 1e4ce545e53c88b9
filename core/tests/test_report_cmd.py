"""``garuda report RUN [B] --format``, and a third party's formatter added through the hook."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

GARUDA = [sys.executable, "-c", "from garuda_evals.cli.main import entry; entry()"]
MINI = Path(__file__).parent / "suite_data" / "mini"

CSV_PLUGIN = """
from garuda_evals.api import FormatterRecord, ReportFormatter, hookimpl


class Csv(ReportFormatter):
    name = "csv"

    def render(self, report):
        return "".join(f"{r.suite},{r.task},{r.status.value}\\n" for r in report.results)


@hookimpl
def garuda_report_formatters():
    yield FormatterRecord(name="csv", description="one line per run", load=Csv)
"""


def garuda(*args: str, cwd: Path, site: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, **({"PYTHONPATH": str(site)} if site else {})}
    return subprocess.run(
        [*GARUDA, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=300
    )


@pytest.fixture(scope="module")
def csv_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An installed-looking distribution whose plugin adds the ``csv`` format."""
    site = tmp_path_factory.mktemp("site")
    info = site / "garuda_evals_csv-0.9.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: garuda-evals-csv\nVersion: 0.9\n")
    (info / "entry_points.txt").write_text("[garuda_evals]\ncsv = csv_plugin\n")
    (site / "csv_plugin.py").write_text(CSV_PLUGIN)
    return site


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory, csv_site: Path) -> tuple[Path, Path, str]:
    """A run of the mini suite made with the third party's csv format; its folder and output."""
    project = tmp_path_factory.mktemp("report-cmd") / "project"
    (project / ".git").mkdir(parents=True)
    done = garuda(
        "eval",
        "--agent",
        "oracle",
        "-s",
        str(MINI),
        "--executor",
        "host",
        "--report-format",
        "csv",
        cwd=project,
        site=csv_site,
    )
    assert done.returncode == 0, done.stderr
    runs = list(project.glob(".garuda/evals/*"))
    assert len(runs) == 1
    return project, runs[0], done.stdout


def test_a_third_party_formatter_serves_eval_and_report(
    saved: tuple[Path, Path, str], csv_site: Path
) -> None:
    project, run, printed = saved
    assert printed == "mini,add,PASS\nmini,greet,PASS\n"
    again = garuda("report", str(run), "--format", "csv", cwd=project, site=csv_site)
    assert again.returncode == 0 and again.stdout == printed
    pair = garuda("report", str(run), str(run), "--format", "csv", cwd=project, site=csv_site)
    assert pair.returncode == 1
    assert pair.stderr.strip() == (
        "garuda: error: --format csv: this format has no A/B form for two runs"
    )


def test_report_writes_a_file_and_the_table_pair_is_compare(saved: tuple[Path, Path, str]) -> None:
    project, run, _ = saved
    table = garuda("report", str(run / "report.json"), cwd=project)
    assert table.returncode == 0 and "mini/add" in table.stdout
    out = project / "out.json"
    written = garuda("report", str(run), "--format", "json", "-o", str(out), cwd=project)
    assert written.returncode == 0 and written.stdout == ""
    assert out.read_text(encoding="utf-8") == (run / "report.json").read_text(encoding="utf-8")
    pair = garuda("report", str(run), str(run), cwd=project)
    compared = garuda("compare", str(run), str(run), cwd=project)
    assert pair.returncode == 0 and pair.stdout == compared.stdout


def test_report_errors_are_one_line(saved: tuple[Path, Path, str]) -> None:
    project, run, _ = saved
    unknown = garuda("report", str(run), "--format", "nope", cwd=project)
    assert unknown.returncode == 1
    assert unknown.stderr.startswith("garuda: error: --format nope: unknown; choose one of: ")
    assert len(unknown.stderr.strip().splitlines()) == 1
    missing = garuda("report", str(project / "absent"), cwd=project)
    assert missing.returncode == 1
    assert len(missing.stderr.strip().splitlines()) == 1
    assert str(project / "absent") in missing.stderr
