"""Prove, measure, check and keep: a task dropped after its proof is replaced by more proofs.

One round proves candidates (newest first) until as many are kept as are missing, measures
their strength and checks them where ``-s repo`` runs them (``settle``: the sandbox step). A
task dropped there (or below ``--min-strength``) does not count: while fewer than
``--max-tasks`` tasks are kept, the next round proves further candidates for the missing
ones, and when the candidates of ``--commits`` run out, ``more`` reads older commits for
the drops not replaced yet (a flaky proof counts as one). The rounds stop when enough tasks
are kept, when every drop is replaced, when history (or ``more``'s reach) ends, or when
``REPLACE_FACTOR`` × ``--max-tasks`` tasks have had their strength measured (each costs up
to ``--mutants`` runs of its tests), so a history of weak tests cannot make a build run
without end.
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
from garuda_evals_repo_git.prove import FLAKY_COMMIT, FLAKY_PARENT, Candidate, Prover
from garuda_evals_repo_git.strength import measure
from garuda_evals_repo_git.summary import kept_in_order

REPLACE_FACTOR = 3
FLAKY = (FLAKY_PARENT, FLAKY_COMMIT)

Kept = list[tuple[Candidate, Verdict]]


def _all_kept(kept: Kept) -> Kept:
    return kept


def _no_more() -> list[Candidate]:
    return []


@dataclass
class Rounds:
    """The proofs, strength measures and sandbox checks of one build.

    ``settle`` takes a round's kept tasks and returns those that stay (the sandbox step; it
    counts its own drop reasons); ``more`` returns the candidates of older commits (none
    when history ends).
    """

    prover: Prover
    candidates: list[Candidate]
    cache: VerdictCache
    deps: list[str]
    opts: dict[str, Any]
    echo: Callable[[str], None]
    progress_every_s: float
    settle: Callable[[Kept], Kept] = _all_kept
    more: Callable[[], list[Candidate]] = _no_more

    def run(self, skipped: Counter[str]) -> tuple[Kept, dict[str, Outcome], Outcome | None]:
        """The kept tasks (newest first), every proof's outcome, the first failure at a commit.

        Adds each skip reason (and each task below ``--min-strength``) to ``skipped``.
        """
        max_tasks, minimum = int(self.opts["max_tasks"]), self.opts["min_strength"]
        outcomes: dict[str, Outcome] = {}
        measured = 0
        good: Kept = []
        first_failure: Outcome | None = None
        order = {c.commit.sha: i for i, c in enumerate(self.candidates)}
        window = set(order)
        # Tasks dropped after their proof began (a flaky repeat, the sandbox step,
        # --min-strength), and tasks kept from beyond --commits: the build reads further
        # back only while some drop is not replaced yet.
        dropped = replaced = 0
        remaining, need = self.candidates, max_tasks
        while True:
            found = self._mine(remaining, need)
            outcomes.update(found)
            dropped += sum(o.verdict.reason in FLAKY for o in found.values())
            # Without a bar the first `need` kept are measured; with one, every task a round
            # kept (a parallel round may keep more than it needed).
            cap = need if minimum is None else len(remaining)
            kept, failure = kept_in_order(remaining, found, cap, skipped)
            first_failure = first_failure or failure
            used = {c.commit.sha for c, _ in kept}
            # The sandbox step (2 runs a task) before the strength (up to --mutants runs):
            # a task it drops is not measured.
            held = [(c, self._held_out(c, v)) for c, v in kept]
            self.cache.save()
            now = self._measure(self.settle(held) if held else [])
            measured += len(now)
            strong = [(c, v) for c, v in now if _reaches(v, minimum)]
            if len(strong) < len(now):
                skipped[f"strength below --min-strength {minimum:g}"] += len(now) - len(strong)
            good += strong
            dropped += len(held) - len(strong)
            replaced += sum(c.commit.sha not in window for c, _ in strong)
            # A kept candidate not used yet (a parallel round kept more) stays: its verdict
            # is cached, so the next round takes it at once.
            remaining = [
                c
                for c in remaining
                if c.commit.sha not in found
                or (found[c.commit.sha].verdict.reason is None and c.commit.sha not in used)
            ]
            if len(good) >= max_tasks:
                break
            need = max_tasks - len(good)
            if not remaining:
                if dropped <= replaced:
                    break
                need = min(need, dropped - replaced)
                remaining = self.more()
                order.update({c.commit.sha: len(order) + i for i, c in enumerate(remaining)})
                if not remaining:
                    break
            if measured >= REPLACE_FACTOR * max_tasks:
                self.echo(
                    f"{measured} task(s) measured, {REPLACE_FACTOR} x --max-tasks: no more "
                    "candidates are proved to replace dropped tasks."
                )
                break
            bar = f" reach --min-strength {minimum:g} and" if minimum is not None else ""
            self.echo(
                f"{len(good)} of {max_tasks} task(s){bar} pass the sandbox check: proving "
                f"more candidates for {need} more."
            )
        good.sort(key=lambda pair: order[pair[0].commit.sha])
        return good[:max_tasks], outcomes, first_failure

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
            verdict = self.cache.get(sha, self.prover.command.cache_key) or verdict
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
