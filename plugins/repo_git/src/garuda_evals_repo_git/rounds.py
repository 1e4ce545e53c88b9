"""Prove, measure and keep: with ``--min-strength``, weak tasks are replaced by more proofs.

Without ``--min-strength`` one round proves candidates (newest first) until ``--max-tasks``
are kept, then measures their strength. With it, a task below the bar does not count: while
fewer than ``--max-tasks`` strong tasks are kept, the next round proves further candidates
for the missing ones. The rounds stop when enough strong tasks are kept, when the candidates
run out, or when ``REPLACE_FACTOR`` × ``--max-tasks`` tasks have had their strength measured
(each costs up to ``--mutants`` runs of its tests), so a history of weak tests cannot make a
build run without end.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import anyio

from garuda_evals_repo_git.cache import Verdict, VerdictCache
from garuda_evals_repo_git.heldout import MIN_FAILING, failing_functions
from garuda_evals_repo_git.heldoutproof import held_out_candidates
from garuda_evals_repo_git.mining import Outcome, mine
from garuda_evals_repo_git.prove import Candidate, Prover
from garuda_evals_repo_git.strength import measure
from garuda_evals_repo_git.summary import kept_in_order

REPLACE_FACTOR = 3

Kept = list[tuple[Candidate, Verdict]]


@dataclass
class Rounds:
    """The proofs and strength measures of one build."""

    prover: Prover
    candidates: list[Candidate]
    cache: VerdictCache
    deps: list[str]
    opts: dict[str, Any]
    echo: Callable[[str], None]
    progress_every_s: float

    def run(self, skipped: Counter[str]) -> tuple[Kept, dict[str, Outcome], Outcome | None]:
        """The kept tasks (newest first), every proof's outcome, the first failure at a commit.

        Adds each skip reason (and each task below ``--min-strength``) to ``skipped``.
        """
        max_tasks, minimum = int(self.opts["max_tasks"]), self.opts["min_strength"]
        outcomes: dict[str, Outcome] = {}
        measured: Kept = []
        first_failure: Outcome | None = None
        remaining, need = self.candidates, max_tasks
        while True:
            found = self._mine(remaining, need)
            outcomes.update(found)
            # Without a bar the first max_tasks kept are the tasks; with one, every task a
            # round kept is measured (a parallel round may keep more than it needed).
            cap = need if minimum is None else len(remaining)
            kept, failure = kept_in_order(remaining, found, cap, skipped)
            first_failure = first_failure or failure
            measured += self._measure(kept)
            strong = [(c, v) for c, v in measured if _reaches(v, minimum)]
            remaining = [c for c in remaining if c.commit.sha not in found]
            if minimum is None or len(strong) >= max_tasks or not remaining:
                break
            if len(measured) >= REPLACE_FACTOR * max_tasks:
                self.echo(
                    f"{len(measured)} task(s) measured, {REPLACE_FACTOR} x --max-tasks: no more "
                    "candidates are proved to replace weak tasks."
                )
                break
            need = max_tasks - len(strong)
            self.echo(
                f"{len(strong)} of {max_tasks} task(s) reach --min-strength {minimum:g}: "
                f"proving more candidates for {need} more."
            )
        if minimum is None:
            return measured, outcomes, first_failure
        order = {c.commit.sha: i for i, c in enumerate(self.candidates)}
        weak = len(measured) - len([1 for _, v in measured if _reaches(v, minimum)])
        if weak:
            skipped[f"strength below --min-strength {minimum:g}"] += weak
        strong = sorted(
            ((c, v) for c, v in measured if _reaches(v, minimum)),
            key=lambda pair: order[pair[0].commit.sha],
        )
        return strong[:max_tasks], outcomes, first_failure

    def _mine(self, candidates: list[Candidate], need: int) -> dict[str, Outcome]:
        return anyio.run(
            mine,
            self.prover,
            candidates,
            self.cache,
            need,
            int(self.opts["parallel"]),
            self.echo,
            self.progress_every_s,
        )

    def _measure(self, kept: Kept) -> Kept:
        """Each kept task's strength (cached with its verdict), one line per task."""
        limit, parallel = int(self.opts["mutants"]), max(2, int(self.opts["parallel"]))
        measured: Kept = []
        for candidate, verdict in kept:
            sha = candidate.commit.sha
            verdict = self._held_out(candidate, verdict)
            if verdict.strength is None and verdict.mutants == 0 and limit > 0:
                found = anyio.run(measure, self.prover, candidate, self.deps, parallel, limit)
                verdict = verdict.model_copy(
                    update={
                        "strength": found.score,
                        "mutants": found.mutants,
                        "survivors": found.survivors,
                    }
                )
                self.cache.put(sha, self.prover.command.cache_key, verdict)
            measured.append((candidate, verdict))
            if verdict.mutants:
                survivors = "; ".join(verdict.survivors[:3]) or "none"
                self.echo(
                    f"strength {verdict.strength:.2f} {sha[:12]}: its tests reject "
                    f"{verdict.mutants - len(verdict.survivors)} of {verdict.mutants} mutant(s) "
                    f"(survivors: {survivors})"
                )
            elif limit > 0:
                self.echo(f"strength  -   {sha[:12]}: no mutant could be made of its change")
        self.cache.save()
        return measured

    def _held_out(self, candidate: Candidate, verdict: Verdict) -> Verdict:
        """A pytest task's tests that can be held out, proved once (cached with its verdict)."""
        if verdict.held_out is not None or self.prover.command.kind != "pytest":
            return verdict
        found = anyio.run(held_out_candidates, self.prover, candidate, verdict)
        verdict = verdict.model_copy(update={"held_out": found})
        self.cache.put(candidate.commit.sha, self.prover.command.cache_key, verdict)
        failing = failing_functions(verdict.fail_to_pass)
        if failing >= MIN_FAILING:
            self.echo(
                f"held-out candidates {candidate.commit.sha[:12]}: {len(found)} of {failing} "
                "test(s) that fail at the parent (new, one number asserted, canaries that fail "
                "at the parent and at the commit)"
            )
        return verdict


def _reaches(verdict: Verdict, minimum: float | None) -> bool:
    """Whether the task's strength reaches ``minimum`` (any task when there is no bar)."""
    if minimum is None:
        return True
    return verdict.strength is not None and verdict.strength >= minimum
