"""``--resume``/``--retry-errors`` find the run and refuse one whose setup differs: a version,
an agent setting or a suite's tasks that changed, or that one side has and the other lacks.

Focused on ``runner/resume.py`` (its mutants run these), on real run folders.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from garuda_evals.errors import UsageError
from garuda_evals.models.settings import RunSettings
from garuda_evals.runner.journal import RunManifest, write_manifest
from garuda_evals.runner.resume import Resume, check_same, find_run, load_resume

VERSIONS = {"garuda-evals": "1.0", "garuda-evals-agent": "1.0"}
AGENT = {"agent": "garuda", "model": "anthropic/m", "batch": "off"}
SUITES = {"mini": "aaaa", "python": "bbbb"}


def manifest(**update: dict[str, str]) -> RunManifest:
    fields = {"versions": VERSIONS, "agent": AGENT, "suites": SUITES, **update}
    return RunManifest(run_id="r1", started=0.0, settings=RunSettings(), jobs=[], **fields)


def refusal(
    run: RunManifest,
    *,
    versions: dict[str, str] = VERSIONS,
    agent: dict[str, str] = AGENT,
    suites: dict[str, str] = SUITES,
    retry_errors: bool = False,
) -> str:
    with pytest.raises(UsageError) as raised:
        check_same(
            Resume(Path("r1"), run, retry_errors),
            versions=versions,
            agent=agent,
            suites=suites,
        )
    return str(raised.value)


def test_the_same_setup_is_resumed() -> None:
    check_same(
        Resume(Path("r1"), manifest()),
        versions=dict(VERSIONS),
        agent=dict(AGENT),
        suites=dict(SUITES),
    )


@pytest.mark.parametrize(
    ("field", "what", "key"),
    [
        ("versions", "version of", "garuda-evals-java"),
        ("agent", "agent setting", "maxCostUsd"),
        ("suites", "suite", "java"),
    ],
)
def test_a_key_on_one_side_only_is_a_difference(field: str, what: str, key: str) -> None:
    base = {"versions": VERSIONS, "agent": AGENT, "suites": SUITES}[field]
    more = {**base, key: "7"}
    # present now, absent in the run
    now = refusal(manifest(), **{field: more})
    assert now == f"--resume r1: refused, {what} {key} is 7 here but absent in the run"
    # absent now, present in the run
    before = refusal(manifest(**{field: more}))
    assert before == f"--resume r1: refused, {what} {key} is absent here but 7 in the run"


@pytest.mark.parametrize(
    ("field", "what", "key"),
    [("versions", "version of", "garuda-evals"), ("agent", "agent setting", "batch")],
)
def test_a_changed_value_is_a_difference(field: str, what: str, key: str) -> None:
    base = {"versions": VERSIONS, "agent": AGENT}[field]
    message = refusal(manifest(), **{field: {**base, key: "2.0"}})
    old = base[key]
    assert message == f"--resume r1: refused, {what} {key} is 2.0 here but {old} in the run"


def test_a_suite_whose_tasks_changed_names_both_fingerprints() -> None:
    message = refusal(manifest(), suites={**SUITES, "mini": "cccc"}, retry_errors=True)
    assert message == (
        "--retry-errors r1: refused, the tasks of suite mini changed since the run "
        "(fingerprint cccc here, aaaa in the run)"
    )


def test_the_first_difference_is_named_and_the_others_counted() -> None:
    one = refusal(manifest(), agent={**AGENT, "batch": "on"})
    assert one.endswith("is on here but off in the run")  # one difference: no count
    three = refusal(
        manifest(),
        versions={**VERSIONS, "garuda-evals": "2.0"},
        agent={**AGENT, "model": "anthropic/n"},
        suites={"mini": "aaaa"},
    )
    assert three == (
        "--resume r1: refused, version of garuda-evals is 2.0 here but 1.0 in the run (and 2 more)"
    )
    two = refusal(manifest(), agent={"agent": "garuda", "model": "x", "batch": "on"})
    assert two == (
        "--resume r1: refused, agent setting batch is on here but off in the run (and 1 more)"
    )


def test_resume_names_its_flag() -> None:
    assert Resume(Path("r1"), manifest()).flag == "--resume"
    assert Resume(Path("r1"), manifest(), retry_errors=True).flag == "--retry-errors"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    folder = tmp_path / "project"
    (folder / ".git").mkdir(parents=True)
    return folder


def saved_run(project: Path, run_id: str) -> Path:
    run_dir = project / ".garuda" / "evals" / run_id
    run_dir.mkdir(parents=True)
    write_manifest(manifest().model_copy(update={"run_id": run_id}), run_dir)
    return run_dir


def test_a_run_is_found_by_id_folder_or_report(project: Path) -> None:
    run_dir = saved_run(project, "20260101-000000-abcd")
    inner = project / "src"
    inner.mkdir()
    assert find_run(inner, "20260101-000000-abcd", "--resume") == run_dir
    assert find_run(inner, str(run_dir), "--resume") == run_dir
    assert find_run(inner, str(run_dir / "report.json"), "--resume") == run_dir
    with pytest.raises(UsageError) as missing:
        find_run(inner, "nope", "--retry-errors")
    assert str(missing.value) == (
        f"--retry-errors nope: no such run (not a folder, nor a run id in "
        f"{project.resolve() / '.garuda' / 'evals'})"
    )
    plain = project / "plain.txt"
    plain.write_text("not a run\n")
    with pytest.raises(UsageError, match=re.escape(f"--resume {plain}: no such run")):
        find_run(project, str(plain), "--resume")


def test_load_resume_reads_the_manifest_and_the_flag(project: Path) -> None:
    run_dir = saved_run(project, "20260101-000000-abcd")
    resume = load_resume(project, "20260101-000000-abcd", retry_errors=False)
    assert (resume.run_dir, resume.manifest.run_id, resume.flag) == (
        run_dir,
        "20260101-000000-abcd",
        "--resume",
    )
    retry = load_resume(project, str(run_dir), retry_errors=True)
    assert retry.retry_errors and retry.flag == "--retry-errors"
    with pytest.raises(UsageError, match="--retry-errors gone: no such run"):
        load_resume(project, "gone", retry_errors=True)
    with pytest.raises(UsageError, match="--resume gone: no such run"):
        load_resume(project, "gone", retry_errors=False)
    empty = project / ".garuda" / "evals" / "empty"
    empty.mkdir()
    with pytest.raises(UsageError, match=re.escape(f"--resume empty: {empty} is not a run folder")):
        load_resume(project, "empty", retry_errors=False)
