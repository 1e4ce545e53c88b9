"""The end of a build's output: the first failure at a commit, the kept count, the skip reasons."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from garuda_evals_repo_git.cache import Verdict
from garuda_evals_repo_git.mining import Outcome
from garuda_evals_repo_git.prove import Candidate
from garuda_evals_repo_git.suitefile import SUITE_FILE


def kept_in_order(
    candidates: list[Candidate], outcomes: dict[str, Outcome], max_tasks: int, skipped: Counter[str]
) -> tuple[list[tuple[Candidate, Verdict]], Outcome | None]:
    """The first ``max_tasks`` kept candidates (newest first) and the first failure at a commit.

    Adds each proof's skip reason to ``skipped``.
    """
    kept: list[tuple[Candidate, Verdict]] = []
    first_failure: Outcome | None = None
    for candidate in candidates:
        outcome = outcomes.get(candidate.commit.sha)
        if outcome is None:
            continue
        if outcome.verdict.reason is None:
            if len(kept) < max_tasks:
                kept.append((candidate, outcome.verdict))
            continue
        skipped[outcome.verdict.reason] += 1
        if first_failure is None and outcome.verdict.failure_tail:
            first_failure = outcome
    return kept, first_failure


def print_summary(
    echo: Callable[[str], None],
    *,
    kept: int,
    proved: int,
    candidates: int,
    skipped: Counter[str],
    first_failure: Outcome | None,
) -> None:
    """Print the first failure's tail, the kept count and each skip reason with its count."""
    if first_failure is not None:
        commit = first_failure.candidate.commit
        echo(f"\nFirst failure at a commit ({commit.sha[:12]} {commit.subject}):")
        echo("\n".join(f"  | {line}" for line in first_failure.verdict.failure_tail.splitlines()))
    saved = f"saved {SUITE_FILE} (run it with garuda eval -s repo)" if kept else "nothing saved"
    echo(
        f"\nKept {kept} task(s) of {proved} candidate(s) proved "
        f"({candidates} after the file rules); {saved}."
    )
    if candidates:
        echo(
            f"Yield: {kept} of {candidates} candidate(s) kept ({100 * kept // candidates}%); "
            "why the others were not, and the commits the file rules skipped, below."
        )
    if skipped:
        echo("Skipped:")
        for reason, count in sorted(skipped.items(), key=lambda item: (-item[1], item[0])):
            echo(f"  {count:4d}  {reason}")
