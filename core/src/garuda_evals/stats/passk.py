"""pass@k and pass^k from n runs of one task with c passes (the unbiased estimators).

pass@k is the chance that at least one of k runs passes (Chen et al., 2021): the share of the
k-subsets of the n runs that hold a pass, ``1 - C(n-c, k) / C(n, k)``. pass^k is the chance
that all k runs pass: ``C(c, k) / C(n, k)``. Both are exact averages over every k-subset, so
they are unbiased for k <= n, unlike ``1 - (1 - c/n)^k``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence


def _check(n: int, c: int, k: int) -> None:
    if not 0 <= c <= n:
        raise ValueError(f"passes must be between 0 and n={n}, got {c}")
    if not 1 <= k <= n:
        raise ValueError(f"k must be between 1 and n={n}, got {k}")


def pass_at_k(n: int, c: int, k: int) -> float:
    """The unbiased pass@k for ``c`` passes in ``n`` runs: at least one of k runs passes."""
    _check(n, c, k)
    if n - c < k:
        return 1.0
    return 1.0 - math.comb(n - c, k) / math.comb(n, k)


def pass_hat_k(n: int, c: int, k: int) -> float:
    """The unbiased pass^k for ``c`` passes in ``n`` runs: all k runs pass."""
    _check(n, c, k)
    return math.comb(c, k) / math.comb(n, k)


def per_k(n: int, c: int) -> tuple[dict[int, float], dict[int, float]]:
    """pass@k and pass^k of one task for every k from 1 to n (empty when n is 0)."""
    ks = range(1, n + 1)
    return ({k: pass_at_k(n, c, k) for k in ks}, {k: pass_hat_k(n, c, k) for k in ks})


def overall(counts: Sequence[tuple[int, int]]) -> tuple[dict[int, float], dict[int, float]]:
    """Means over tasks of pass@k and pass^k, given ``(runs, passes)`` per task.

    Tasks without runs are left out; k goes up to the fewest runs of the others, so every
    task weighs the same in every k.
    """
    counted = [(n, c) for n, c in counts if n > 0]
    if not counted:
        return {}, {}
    top = min(n for n, _ in counted)
    at = {k: sum(pass_at_k(n, c, k) for n, c in counted) / len(counted) for k in range(1, top + 1)}
    hat = {
        k: sum(pass_hat_k(n, c, k) for n, c in counted) / len(counted) for k in range(1, top + 1)
    }
    return at, hat
