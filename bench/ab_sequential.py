"""The sequential A/B test (garuda ab) by simulation: false decisions and runs saved.

Usage: python bench/ab_sequential.py [--tasks 10] [--max-repeat 10] [--trials 2000] [--seed 15]

Each simulated A/B has --tasks tasks of different difficulty (a task's pass probability is
drawn from 0.2..0.8) and runs them as ``garuda ab`` does: round r runs repeat r of every task
in arm A and arm B, pair by pair, and the betting e-process may stop after any pair. Arm B
passes each task with A's probability plus the difference. Printed side by side:

- equal arms: how often each procedure wrongly decides (should be at most α = 0.05): the
  e-process looking after every pair; an exact sign test re-run after every pair (peeking);
  the same exact test once, after all --max-repeat rounds (the fixed design);
- real differences: how often each decides for B, and the runs each spends on average; the
  e-process's share of the fixed design's runs is the saving.
- the runs a fixed design needs to reach the e-process's power (where that is 50-99.9%);
- the power line of ``garuda compare``: a fixed exact test with the run pairs
  ``pairs_needed`` asks for, and the power it reaches (target 80%).
"""

from __future__ import annotations

import argparse
import random
from dataclasses import dataclass

from garuda_evals.stats.paired import pairs_needed, sign_test
from garuda_evals.stats.sequential import PairedBettingTest

ALPHA = 0.05


@dataclass
class Tally:
    """Decisions for B, for A, and the runs spent, over trials."""

    for_b: int = 0
    for_a: int = 0
    runs: int = 0


def simulate(
    rng: random.Random, tasks: int, rounds: int, difference: float
) -> tuple[tuple[str | None, int], str | None, str | None]:
    """One A/B: (e-process decision, runs spent), the peeking test's and the fixed test's."""
    chances = [rng.uniform(0.2, 0.8) for _ in range(tasks)]
    test = PairedBettingTest(alpha=ALPHA)
    peek: str | None = None
    sequential: tuple[str | None, int] | None = None
    b_wins = a_wins = 0
    pairs = 0
    for _round in range(rounds):
        for chance in chances:
            a = rng.random() < chance
            b = rng.random() < min(1.0, chance + difference)
            pairs += 1
            b_wins, a_wins = b_wins + (b and not a), a_wins + (a and not b)
            if sequential is None:
                test.update(a, b)
                if test.decided:
                    sequential = (test.decision, 2 * pairs)
            if peek is None and sign_test(b_wins, a_wins) < ALPHA:
                peek = "B" if b_wins > a_wins else "A"
    fixed = None
    if sign_test(b_wins, a_wins) < ALPHA:
        fixed = "B" if b_wins > a_wins else "A"
    return sequential or (None, 2 * pairs), peek, fixed


def fixed_power(rng: random.Random, pairs: int, difference: float, trials: int) -> float:
    """Share of fixed exact tests on ``pairs`` run pairs that decide for B."""
    hits = 0
    for _ in range(trials):
        b_wins = a_wins = 0
        for _ in range(pairs):
            chance = rng.uniform(0.2, 0.8)
            a = rng.random() < chance
            b = rng.random() < min(1.0, chance + difference)
            b_wins, a_wins = b_wins + (b and not a), a_wins + (a and not b)
        hits += sign_test(b_wins, a_wins) < ALPHA and b_wins > a_wins
    return hits / trials


def same_power(difference: float, power: float) -> str:
    """Runs a fixed exact test needs for the e-process's power (independent runs at 50%)."""
    if difference == 0 or not 0.5 <= power < 0.999:
        return "-"
    return str(2 * pairs_needed(difference, 0.5, alpha=ALPHA, power=power))


def main() -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", type=int, default=10)
    parser.add_argument("--max-repeat", type=int, default=10)
    parser.add_argument("--trials", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=15)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    fixed_runs = 2 * args.tasks * args.max_repeat
    print(
        f"{args.tasks} tasks, at most {args.max_repeat} repeats (fixed design: {fixed_runs} "
        f"runs), α {ALPHA}, {args.trials} simulated A/Bs per row"
    )
    print(
        f"{'B − A':>6}  {'e-process: decides':>19}  {'wrong':>6}  {'mean runs':>9}  "
        f"{'saved':>6}  {'peeking: decides':>16}  {'fixed: decides':>14}  "
        f"{'fixed runs, same power':>22}"
    )
    for difference in (0.0, 0.1, 0.2, 0.3, 0.5):
        sequential, peek, fixed = Tally(), Tally(), Tally()
        for _ in range(args.trials):
            (decision, runs), peeked, fixed_decision = simulate(
                rng, args.tasks, args.max_repeat, difference
            )
            sequential.runs += runs
            for tally, outcome in ((sequential, decision), (peek, peeked), (fixed, fixed_decision)):
                tally.for_b += outcome == "B"
                tally.for_a += outcome == "A"
        n = args.trials
        decides = (sequential.for_a + sequential.for_b) / n
        wrong = (sequential.for_a + (sequential.for_b if difference == 0 else 0)) / n
        mean_runs = sequential.runs / n
        print(
            f"{difference * 100:+5.0f}   {decides * 100:18.1f}%  {wrong * 100:5.1f}%  "
            f"{mean_runs:9.1f}  {(1 - mean_runs / fixed_runs) * 100:5.0f}%  "
            f"{(peek.for_a + peek.for_b) / n * 100:15.1f}%  "
            f"{(fixed.for_a + fixed.for_b) / n * 100:13.1f}%  {same_power(difference, decides):>22}"
        )
    print("\npower line check (fixed exact test with the pairs garuda compare asks for):")
    for difference in (0.1, 0.2, 0.3):
        discordance = 2 * 0.5 * 0.5  # independent runs at a 50% pass rate, as compare assumes
        pairs = pairs_needed(difference, discordance, alpha=ALPHA, power=0.8)
        power = fixed_power(rng, pairs, difference, max(200, args.trials // 10))
        print(f"  {difference * 100:+.0f} points: {pairs} run pairs -> power {power * 100:.0f}%")


if __name__ == "__main__":
    main()
