"""Unknown usage is never shown as zero: the units every format uses, the table's rows and
totals, and the warning about attempts ``--resume``/``--retry-errors`` replaced."""

from __future__ import annotations

import pytest

from garuda_evals.models.result import Status, TaskResult
from garuda_evals.models.usage import Usage
from garuda_evals.report import units
from garuda_evals.report.summary import summarize
from garuda_evals.report.table import totals_line
from garuda_evals.runner.report_build import run_notes

UNKNOWN = Usage.unreported("the command agent's usage is not reported")
KNOWN = Usage(input_tokens=1200, output_tokens=300, cost_usd=0.0125, requests=2)


def _row(usage: Usage, status: Status = Status.INTERRUPTED) -> TaskResult:
    return TaskResult(task="t", suite="s", status=status, steps=None, usage=usage)


def test_a_cost_is_shown_as_known_as_a_minimum_or_too_small_to_show() -> None:
    assert units.cost(0.0125, False) == "$0.013"
    assert units.cost(0.0, False) == "$0.000"
    assert units.cost(0.0004, False) == "<$0.001"
    assert units.cost(0.0005, False) == "$0.001"
    assert units.cost(0.0, True) == "≥ $0.000 (incomplete)"
    assert units.cost(0.0004, True) == "≥ $0.000 (incomplete)"
    assert units.cost(0.25, True) == "≥ $0.250 (incomplete)"
    assert units.cost(None, False) == "-"


def test_unknown_tokens_are_a_question_mark_with_what_was_reserved() -> None:
    assert units.usage_tokens(KNOWN) == "1.5k"
    assert units.usage_tokens(UNKNOWN) == "tok ?"
    reserved = Usage(tokens_known=False, unreported_tokens=20_000, cost_incomplete=True)
    assert units.usage_tokens(reserved) == "tok ? (20.0k reserved)"


@pytest.mark.parametrize(
    ("count", "shown"),
    [
        (None, "?"),
        (0, "0"),
        (812, "812"),
        (999.4, "999"),
        (999.6, "1000"),
        (1000, "1.0k"),
        (12_345, "12.3k"),
        (999_949, "999.9k"),
        (999_999, "1000.0k"),
        (1_000_000, "1.00M"),
        (1_234_567, "1.23M"),
        (1_004_999, "1.00M"),
        (1_005_001, "1.01M"),
    ],
)
def test_token_counts_are_short(count: float | None, shown: str) -> None:
    assert units.tokens(count) == shown


@pytest.mark.parametrize(
    ("ms", "shown"),
    [
        (None, "-"),
        (0, "0.0s"),
        (4200, "4.2s"),
        (59_940, "59.9s"),
        (59_999, "60.0s"),
        (60_000, "1m00s"),
        (185_000, "3m05s"),
        (3_725_900, "62m05s"),
    ],
)
def test_durations_are_seconds_then_minutes(ms: float | None, shown: str) -> None:
    assert units.seconds(ms) == shown


def test_rates_and_intervals_are_whole_percents() -> None:
    assert units.percent(None) == "-"
    assert (units.percent(0.0), units.percent(0.936), units.percent(1.0)) == ("0%", "94%", "100%")
    assert units.interval(None) == "-"
    assert units.interval((0.5712, 1.0)) == "57–100%"
    assert units.rate(3, 5) == "3/5 60% (23–88%)"
    assert (units.rate(0, 0), units.rate(0, -1)) == ("0/0", "0/-1")
    assert units.rate(0, 1) == "0/1 0% (0–79%)"


def test_totals_with_an_unknown_run_are_never_zero() -> None:
    line = totals_line(summarize([_row(UNKNOWN)]))
    assert "tok ? (some usage unreported)" in line and "≥ $0.000 (incomplete)" in line
    assert "0 tokens" not in line and "· $0.000 ·" not in line


def test_replaced_attempts_of_unknown_usage_never_read_as_zero() -> None:
    (note,) = run_notes([], [_row(UNKNOWN), _row(KNOWN, Status.ERR)])
    assert note == (
        "replaced: 2 earlier attempt(s) (ERR, INT) were run again; they used "
        "≥ $0.013 (incomplete), kept under 'replaced' and not in the totals"
    )


def test_replaced_attempts_of_a_known_cost_say_it() -> None:
    (note,) = run_notes([], [_row(KNOWN)])
    assert "they used $0.013, kept under 'replaced'" in note
    (tiny,) = run_notes([], [_row(Usage(input_tokens=40, cost_usd=0.00004, requests=1))])
    assert "they used <$0.001," in tiny and "$0.000" not in tiny
    (nothing,) = run_notes([], [_row(Usage.known_zero())])
    assert "they used $0.000," in nothing


def test_no_replaced_attempt_no_note() -> None:
    assert run_notes([_row(KNOWN, Status.PASS)], []) == []
