"""Confidence intervals for a pass rate from few runs (Wilson score and Clopper-Pearson)."""

from __future__ import annotations

import math
from collections.abc import Callable
from statistics import NormalDist


def _check(successes: int, n: int, confidence: float) -> None:
    if n <= 0:
        raise ValueError(f"n must be positive, got {n}")
    if not 0 <= successes <= n:
        raise ValueError(f"successes must be between 0 and n={n}, got {successes}")
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be between 0 and 1, got {confidence}")


def z_value(confidence: float) -> float:
    """The two-sided normal quantile for ``confidence`` (1.96 for 0.95)."""
    return NormalDist().inv_cdf(0.5 + confidence / 2)


def wilson(successes: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson score interval for ``successes`` out of ``n``; stays inside [0, 1] and is not
    empty at 0/n or n/n, unlike the large-sample (Wald) interval."""
    _check(successes, n, confidence)
    z = z_value(confidence)
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == n else min(1.0, centre + half)
    return (low, high)


def binomial_cdf(k: int, n: int, p: float) -> float:
    """P(X <= k) for X ~ Binomial(n, p), summed exactly."""
    if k < 0:
        return 0.0
    if k >= n:
        return 1.0
    return min(1.0, sum(math.comb(n, i) * p**i * (1 - p) ** (n - i) for i in range(k + 1)))


def _solve(target: float, tail: Callable[[float], float], increasing: bool) -> float:
    """The p in [0, 1] where the monotone ``tail(p)`` crosses ``target`` (60 bisections)."""
    low, high = 0.0, 1.0
    for _ in range(60):
        middle = (low + high) / 2
        if (tail(middle) < target) == increasing:
            low = middle
        else:
            high = middle
    return (low + high) / 2


def clopper_pearson(successes: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """Exact (Clopper-Pearson) interval: never below its confidence, wider than Wilson."""
    _check(successes, n, confidence)
    alpha = 1 - confidence
    low, high = 0.0, 1.0
    if successes > 0:
        low = _solve(alpha / 2, lambda p: 1.0 - binomial_cdf(successes - 1, n, p), True)
    if successes < n:
        high = _solve(alpha / 2, lambda p: binomial_cdf(successes, n, p), False)
    return (low, high)
