"""Retry transient model errors with exponential backoff, visibly."""

from __future__ import annotations

import os
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TypeVar

import anyio

from garuda_evals_agent.providers.base import ModelCallError, TransientModelError

T = TypeVar("T")

DELAY_VAR = "GARUDA_AGENT_RETRY_DELAY_S"
ATTEMPTS_VAR = "GARUDA_AGENT_RETRIES"


@dataclass(frozen=True)
class RetryPolicy:
    """Up to ``retries`` more attempts, waiting base, 2x base, ... (at most max_delay_s)."""

    retries: int = 5
    base_delay_s: float = 2.0
    max_delay_s: float = 60.0

    @classmethod
    def from_env(cls) -> RetryPolicy:
        """Defaults, or GARUDA_AGENT_RETRY_DELAY_S and GARUDA_AGENT_RETRIES (tests wait less)."""
        base = float(os.environ.get(DELAY_VAR, cls.base_delay_s))
        retries = int(os.environ.get(ATTEMPTS_VAR, cls.retries))
        return cls(retries=retries, base_delay_s=base, max_delay_s=max(base, cls.max_delay_s))

    def delay(self, attempt: int, retry_after_s: float | None) -> float:
        """The wait before retry number ``attempt`` (1-based); Retry-After wins when larger."""
        backoff = min(self.max_delay_s, self.base_delay_s * 2 ** (attempt - 1))
        backoff *= 1 + random.random() * 0.25
        if retry_after_s is not None:
            backoff = max(backoff, min(retry_after_s, self.max_delay_s))
        return backoff


async def with_retries(
    call: Callable[[], Awaitable[T]],
    policy: RetryPolicy,
    on_error: Callable[[int, float | None, TransientModelError], None],
) -> T:
    """Run ``call``; on TransientModelError wait and try again, then raise ModelCallError.

    ``on_error(attempt, wait, error)`` hears of every failure; ``wait`` is None for the last.
    """
    attempt = 0
    while True:
        try:
            return await call()
        except TransientModelError as error:
            attempt += 1
            if attempt > policy.retries:
                on_error(attempt, None, error)
                raise ModelCallError(
                    f"model call failed after {policy.retries} retries: {error}"
                ) from error
            wait = policy.delay(attempt, error.retry_after_s)
            on_error(attempt, wait, error)
            await anyio.sleep(wait)
