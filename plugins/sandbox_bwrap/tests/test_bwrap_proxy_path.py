"""The agent's path to its proxy under bwrap: the proxy answers, nothing else is reachable.

Each guard is shown to catch what it guards: on the host the loopback row fails, and a
prologue that leaves the channel open fails the channel row.
"""

from __future__ import annotations

import shutil

import anyio
import pytest

from garuda_evals.executors.host import HostExecutor
from garuda_evals.testing import skip_or_fail
from garuda_evals_sandbox import netpath
from garuda_evals_sandbox.lab import Lab
from garuda_evals_sandbox.proxy_path import check_proxy_path
from garuda_evals_sandbox_bwrap import BwrapBackend


def bwrap() -> BwrapBackend:
    backend = BwrapBackend()
    if shutil.which("bwrap") is None or not backend.availability().ok:
        skip_or_fail("bwrap", "install bubblewrap (apt-get install bubblewrap)")
    return backend


async def outcomes(make_executor) -> dict[str, bool]:  # type: ignore[no-untyped-def]
    with Lab() as lab:
        executor = make_executor(lab)
        try:
            return {o.name: o.ok for o in await check_proxy_path(executor, lab)}
        finally:
            await executor.aclose()


def test_under_bwrap_only_the_proxy_is_reachable() -> None:
    backend = bwrap()
    found = anyio.run(outcomes, lambda lab: backend.create(lab.policy()))
    assert found and all(found.values()), found


def test_on_the_host_the_loopback_row_fails() -> None:
    found = anyio.run(outcomes, lambda lab: HostExecutor(lab.policy()))
    assert found["agent reaches the host's loopback beside its proxy"] is False


def test_a_channel_left_open_fails_its_row(monkeypatch: pytest.MonkeyPatch) -> None:
    backend = bwrap()
    prologue = netpath.Channel.prologue

    def leaky(self: netpath.Channel, port: int = netpath.SANDBOX_PORT) -> str:
        return prologue(self, port).replace(f"exec {self.fd}>&-\n", "")

    monkeypatch.setattr(netpath.Channel, "prologue", leaky)
    found = anyio.run(outcomes, lambda lab: backend.create(lab.policy()))
    assert found["agent uses the proxy channel's descriptor"] is False
    assert found["agent reaches its proxy (listener passed out of the sandbox)"] is True
