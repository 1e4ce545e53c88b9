"""``--executor auto|os|host``: pick the backend, and say why."""

from __future__ import annotations

import sys
from dataclasses import dataclass

from garuda_evals.errors import UsageError
from garuda_evals.executors.base import ExecutorBackend
from garuda_evals.executors.host import HostBackend
from garuda_evals.plugins.drivers import EXECUTORS, driver_names, load_driver
from garuda_evals.plugins.known import EXECUTORS as KNOWN_EXECUTORS
from garuda_evals.plugins.known import OS_SANDBOX_FOR_PLATFORM
from garuda_evals.plugins.manager import PluginRegistry


@dataclass(frozen=True)
class Choice:
    """The chosen backend and a one-line reason."""

    backend: ExecutorBackend
    reason: str


def _install_hint() -> str:
    dist = OS_SANDBOX_FOR_PLATFORM.get(sys.platform)
    return f"install {dist}" if dist else "no OS sandbox exists for this platform yet"


def os_backends(registry: PluginRegistry) -> tuple[list[ExecutorBackend], list[str]]:
    """Installed OS sandbox backends that work here, and why the others do not.

    When this platform's own sandbox is not installed, the reasons say which to install.
    """
    working: list[ExecutorBackend] = []
    refusals: list[str] = []
    installed = driver_names(EXECUTORS)
    for name in installed:
        if name == HostBackend.name:
            continue
        backend = load_driver(
            EXECUTORS, name, what="executor", known=KNOWN_EXECUTORS, plugins=registry
        )
        if backend.kind != "os":
            continue
        availability = backend.availability()
        if availability.ok:
            working.append(backend)
        else:
            refusals.append(f"{name}: {availability.reason}")
    own = OS_SANDBOX_FOR_PLATFORM.get(sys.platform)
    if not working and own is not None and own not in installed.values():
        refusals.append(f"no OS sandbox for this platform installed (install {own})")
    return working, refusals


def choose_executor(mode: str, registry: PluginRegistry) -> Choice:
    """``host`` always; ``os`` a working OS sandbox or an error; ``auto`` the sandbox if any."""
    if mode == "host":
        return Choice(HostBackend(), "--executor host: commands run on the host, no sandbox")
    working, refusals = os_backends(registry)
    if working:
        return Choice(working[0], f"OS sandbox {working[0].name}")
    why = "; ".join(refusals) if refusals else f"no OS sandbox installed ({_install_hint()})"
    if mode == "os":
        raise UsageError(f"--executor os: {why}")
    return Choice(HostBackend(), f"{why}; commands run on the host")
