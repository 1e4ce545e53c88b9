"""The real Seatbelt run, on macOS only: escapes blocked, controls working."""

from __future__ import annotations

import sys

import anyio
import pytest

from garuda_evals_sandbox_seatbelt import SeatbeltBackend

# Seatbelt shares the host's localhost and has no PID namespace: these two go through.
NOT_BLOCKED_BY_SEATBELT = {"TCP to the host's loopback", "setsid process outliving the limit"}


def test_seatbelt_blocks_the_escapes_it_claims() -> None:
    if sys.platform != "darwin":
        pytest.skip("Seatbelt (sandbox-exec) exists only on macOS")
    from garuda_evals_sandbox.escapes import run_all
    from garuda_evals_sandbox.lab import Lab

    backend = SeatbeltBackend()
    assert backend.availability().ok, backend.availability().reason

    async def go() -> list:  # type: ignore[type-arg]
        with Lab() as lab:
            executor = backend.create(lab.policy())
            try:
                return await run_all(executor, lab)
            finally:
                await executor.aclose()

    outcomes = anyio.run(go)
    wrong = [o for o in outcomes if not o.ok and o.name not in NOT_BLOCKED_BY_SEATBELT]
    assert wrong == []
