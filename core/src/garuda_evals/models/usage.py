"""Token usage and cost, provider-reported only; unknown is never shown as zero."""

from pydantic import Field

from garuda_evals.models.base import Model


class Usage(Model):
    """What one agent turn used.

    Token counts are what the provider reported, kept apart. ``unreported_tokens`` holds the
    reservations of requests that came back without a usage report; ``tokens_known`` is
    false when any request's usage is unknown, and ``cost_incomplete`` when the cost is a
    minimum (unreported usage or an unknown price).
    """

    input_tokens: int = 0
    cache_read_tokens: int = 0
    cache_write_tokens: int = 0
    output_tokens: int = 0
    reasoning_tokens: int = 0
    unreported_tokens: int = 0
    tokens_known: bool = True
    cost_usd: float = 0.0
    cost_incomplete: bool = False
    requests: int = 0
    unreported_requests: int = 0
    notes: list[str] = Field(default_factory=list)

    @property
    def total_tokens(self) -> int:
        """Reported tokens of every kind (reasoning is part of output where providers say so)."""
        return (
            self.input_tokens
            + self.cache_read_tokens
            + self.cache_write_tokens
            + self.output_tokens
        )

    @classmethod
    def known_zero(cls) -> "Usage":
        """Usage of an agent that calls no model: zero, and known to be zero."""
        return cls()

    @classmethod
    def unreported(cls, note: str) -> "Usage":
        """Usage of an agent that reports nothing: tokens unknown, cost a minimum."""
        return cls(tokens_known=False, cost_incomplete=True, notes=[note])

    def __add__(self, other: "Usage") -> "Usage":
        return Usage(
            input_tokens=self.input_tokens + other.input_tokens,
            cache_read_tokens=self.cache_read_tokens + other.cache_read_tokens,
            cache_write_tokens=self.cache_write_tokens + other.cache_write_tokens,
            output_tokens=self.output_tokens + other.output_tokens,
            reasoning_tokens=self.reasoning_tokens + other.reasoning_tokens,
            unreported_tokens=self.unreported_tokens + other.unreported_tokens,
            tokens_known=self.tokens_known and other.tokens_known,
            cost_usd=self.cost_usd + other.cost_usd,
            cost_incomplete=self.cost_incomplete or other.cost_incomplete,
            requests=self.requests + other.requests,
            unreported_requests=self.unreported_requests + other.unreported_requests,
            notes=[*self.notes, *(n for n in other.notes if n not in self.notes)],
        )
