"""An anytime-valid sequential test for paired pass/fail runs: a betting e-process.

Each pair is one run of a task in arm A and one in arm B. Pairs where both passed or both
failed say nothing about which arm is better; on the discordant ones (one passed, the other
failed), equal arms make "B won" and "A won" equally likely, whatever the task's difficulty.

A gambler starts with wealth 1 and, before each discordant pair, stakes a fraction
``λ = (B wins − A wins) / (discordant + 1)`` of it on B (a negative λ stakes on A), the
Krichevsky–Trofimov bet. Wealth multiplies by ``1 + λ`` when B wins and ``1 − λ`` when A wins.
Under equal arms the wealth is a nonnegative martingale, so by Ville's inequality it ever
reaches ``1/α`` with probability at most α: the test may look after every pair and stop as
soon as it does, and still keeps its false-decision rate at or below α. The wealth equals the
likelihood ratio of a Beta(½, ½) mixture against a fair coin, so it is two-sided.
"""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass
class PairedBettingTest:
    """The e-process over paired runs; ``update`` after each pair, then read ``decision``."""

    alpha: float = 0.05
    b_wins: int = 0
    a_wins: int = 0
    pairs: int = 0
    log_wealth: float = 0.0

    def __post_init__(self) -> None:
        if not 0 < self.alpha < 1:
            raise ValueError(f"alpha must be between 0 and 1, got {self.alpha}")

    @property
    def threshold(self) -> float:
        """Wealth that decides: ``1/α``."""
        return 1 / self.alpha

    @property
    def wealth(self) -> float:
        """The e-value so far (1 at the start)."""
        return math.exp(self.log_wealth)

    def bet(self) -> float:
        """The fraction of wealth staked on B for the next discordant pair (negative: on A)."""
        return (self.b_wins - self.a_wins) / (self.b_wins + self.a_wins + 1)

    def update(self, a_passed: bool, b_passed: bool) -> None:
        """Add one pair of runs of the same task."""
        self.pairs += 1
        if a_passed == b_passed:
            return
        stake = self.bet()
        self.log_wealth += math.log1p(stake if b_passed else -stake)
        if b_passed:
            self.b_wins += 1
        else:
            self.a_wins += 1

    @property
    def decided(self) -> bool:
        """True once the wealth has reached ``1/α`` (the arms differ)."""
        return self.log_wealth >= math.log(self.threshold) - 1e-12

    @property
    def decision(self) -> str | None:
        """``"B"`` or ``"A"`` (the arm that passes more) once decided, else None."""
        if not self.decided:
            return None
        return "B" if self.b_wins > self.a_wins else "A"


def mixture_log_wealth(b_wins: int, a_wins: int) -> float:
    """Closed form of the wealth: log of Beta(b+½, a+½)/Beta(½, ½) · 2^(a+b)."""
    n = b_wins + a_wins

    def log_beta(x: float, y: float) -> float:
        return math.lgamma(x) + math.lgamma(y) - math.lgamma(x + y)

    return log_beta(b_wins + 0.5, a_wins + 0.5) - log_beta(0.5, 0.5) + n * math.log(2)
