"""The run's spend cap (``--max-cost``): one budget shared by every task of the run."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

from garuda_evals.api import Usage


@dataclass
class Budget:
    """The cap in USD (None: no cap) and what every task of the run has spent so far.

    Spend is counted as calls are priced; a call is refused (or a task not started) once the
    spend has reached the cap, so a run may end a little past it: by the calls already on
    their way when the cap was reached.
    """

    max_cost_usd: float | None = None
    spent_usd: float = 0.0
    incomplete: bool = False
    """True once a task's spend is a minimum (a call's usage or price unknown)."""
    lock: threading.Lock = field(default_factory=threading.Lock)
    reserve_usd_per_token: float = 0.0
    """What a reserved token of a call without a usage report counts: the dearest token of
    the run's model(s) (``spend_cap.cap_rate``), so such a call counts the most it can cost."""

    def counted(self, usage: Usage) -> float:
        """What the cap counts of ``usage``: its priced cost, plus the reservations of its
        calls without a usage report at ``reserve_usd_per_token``."""
        return usage.cost_usd + usage.unreported_tokens * self.reserve_usd_per_token

    def exhausted(self) -> bool:
        """True once the spend reached the cap."""
        with self.lock:
            return self.max_cost_usd is not None and self.spent_usd >= self.max_cost_usd

    def spend(self, usd: float) -> None:
        """Count a priced call."""
        with self.lock:
            self.spent_usd += usd

    def reason(self) -> str | None:
        """Why no further model call or task may start, or None while there is money left."""
        if not self.exhausted():
            return None
        spent = f"{'at least ' if self.incomplete else ''}{self.spent_usd:.4f} USD spent"
        return f"the run's spend cap is reached (--max-cost {self.max_cost_usd:g} USD, {spent})"


@dataclass
class TurnSpend:
    """One task's share of the budget: counts the growth of the task's running cost."""

    budget: Budget
    counted_usd: float = 0.0

    def update(self, total_usd: float, incomplete: bool = False) -> None:
        """The task has spent ``total_usd`` so far (a minimum when ``incomplete``): count what
        is new since the last update."""
        self.budget.spend(total_usd - self.counted_usd)
        self.counted_usd = total_usd
        if incomplete:
            self.budget.incomplete = True
