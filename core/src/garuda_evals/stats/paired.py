"""Paired A/B statistics over tasks: a bootstrap interval, an exact test, and a power estimate.

Tasks are the unit: the same task is run in both arms, so the per-task differences are
paired, and a task's repeats stay together when tasks are resampled.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from statistics import NormalDist

from garuda_evals.stats.intervals import binomial_cdf, z_value

DEFAULT_RESAMPLES = 2000
DEFAULT_SEED = 15


def mean(values: Sequence[float]) -> float:
    """The arithmetic mean (of a non-empty sequence)."""
    return sum(values) / len(values)


Group = tuple[Sequence[float], Sequence[float]]


def mean_difference(groups: Sequence[Group]) -> float:
    """Mean over tasks of (B's mean − A's mean); each group is one task's A and B values."""
    return mean([mean(b) - mean(a) for a, b in groups])


def bootstrap_interval(
    groups: Sequence[Group],
    *,
    confidence: float = 0.95,
    resamples: int = DEFAULT_RESAMPLES,
    seed: int = DEFAULT_SEED,
) -> tuple[float, float]:
    """Percentile interval of ``mean_difference``: resample tasks, then each task's runs.

    A group is one task's runs in arm A and in arm B (non-empty both). Tasks are drawn with
    replacement, so a task's repeats stay together; within a drawn task each arm's runs are
    drawn again, so a task with noisy repeats widens the interval even when there are few
    tasks. Seeded: the same reports give the same interval.
    """
    if not groups or any(not a or not b for a, b in groups):
        raise ValueError("every task needs values in both arms")
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be between 0 and 1, got {confidence}")
    rng = random.Random(seed)
    count = len(groups)
    statistics = []
    for _ in range(resamples):
        total = 0.0
        for a, b in rng.choices(groups, k=count):
            total += sum(rng.choices(b, k=len(b))) / len(b) - sum(rng.choices(a, k=len(a))) / len(a)
        statistics.append(total / count)
    statistics.sort()
    tail = (1 - confidence) / 2
    low = statistics[max(0, math.floor(tail * resamples))]
    high = statistics[min(resamples - 1, math.ceil((1 - tail) * resamples) - 1)]
    return (low, high)


def sign_test(wins: int, losses: int) -> float:
    """Exact two-sided p-value that ``wins`` and ``losses`` came from a fair coin (ties dropped).

    On discordant run pairs (one arm passed, the other failed) this is the exact McNemar test.
    """
    if wins < 0 or losses < 0:
        raise ValueError("counts must not be negative")
    n = wins + losses
    if n == 0:
        return 1.0
    return min(1.0, 2 * binomial_cdf(min(wins, losses), n, 0.5))


def pairs_needed(
    difference: float, discordance: float, *, alpha: float = 0.05, power: float = 0.8
) -> int:
    """Run pairs an exact paired test needs to detect ``difference`` in pass rate with ``power``.

    ``discordance`` is the share of run pairs where the arms disagree (it is at least the
    difference). The normal approximation for McNemar's test (Connor, 1987).
    """
    if not 0 < difference < 1:
        raise ValueError(f"difference must be between 0 and 1, got {difference}")
    psi = min(1.0, max(discordance, difference))
    z_alpha = z_value(1 - alpha)
    z_beta = NormalDist().inv_cdf(power)
    root = z_alpha * math.sqrt(psi) + z_beta * math.sqrt(max(psi - difference**2, 0.0))
    return max(1, math.ceil(root**2 / difference**2))
