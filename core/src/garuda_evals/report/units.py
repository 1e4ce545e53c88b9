"""Short human forms of tokens, cost, time and rates."""

from __future__ import annotations

from garuda_evals.models.usage import Usage
from garuda_evals.stats.intervals import wilson


def tokens(count: int | float | None) -> str:
    """``812``, ``12.3k``, ``1.20M``; None is ``?``."""
    if count is None:
        return "?"
    if count < 1000:
        return f"{count:.0f}"
    if count < 1_000_000:
        return f"{count / 1000:.1f}k"
    return f"{count / 1_000_000:.2f}M"


def counted(count: int | None, noun: str) -> str:
    """``1 step``, ``3 steps``; an unknown count is ``? steps``."""
    if count is None:
        return f"? {noun}s"
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def cost(usd: float | None, incomplete: bool) -> str:
    """``$0.012``, or ``≥ $0.012 (incomplete)`` when the cost is a minimum; a known cost too
    small to show is ``<$0.001``, never ``$0.000``."""
    if usd is None:
        return "-"
    text = f"${usd:.3f}"
    if incomplete:
        return f"≥ {text} (incomplete)"
    return "<$0.001" if usd > 0 and text == "$0.000" else text


def usage_tokens(usage: Usage) -> str:
    """Reported tokens, or ``tok ?`` (with the reservation) when unknown."""
    if usage.tokens_known:
        return tokens(usage.total_tokens)
    if usage.unreported_tokens:
        return f"tok ? ({tokens(usage.unreported_tokens)} reserved)"
    return "tok ?"


def seconds(ms: float | None) -> str:
    """``4.2s``, ``3m05s``."""
    if ms is None:
        return "-"
    total = ms / 1000
    if total < 60:
        return f"{total:.1f}s"
    minutes, rest = divmod(int(total), 60)
    return f"{minutes}m{rest:02d}s"


def percent(rate: float | None) -> str:
    """``94%``; None is ``-``."""
    return "-" if rate is None else f"{rate * 100:.0f}%"


def interval(bounds: tuple[float, float] | None) -> str:
    """``57–100%``; None is ``-``."""
    if bounds is None:
        return "-"
    return f"{bounds[0] * 100:.0f}–{bounds[1] * 100:.0f}%"


def rate(passes: int, runs: int) -> str:
    """``3/5 60% (23–88%)``: the count, the rate and its 95% Wilson interval; ``0/0`` alone."""
    if runs <= 0:
        return f"{passes}/{runs}"
    return f"{passes}/{runs} {percent(passes / runs)} ({interval(wilson(passes, runs))})"
