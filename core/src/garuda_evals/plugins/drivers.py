"""One-per-run choices through stevedore: executors and agents.

Names are listed from entry-point metadata without importing anything; stevedore's
DriverManager imports only the chosen one.
"""

from __future__ import annotations

from typing import Any

from garuda_evals.errors import UsageError
from garuda_evals.plugins.known import install_hint
from garuda_evals.plugins.scan import entry_points, name_and_version

EXECUTORS = "garuda_evals.executors"
AGENTS = "garuda_evals.agents"


def driver_names(namespace: str) -> dict[str, str]:
    """``name -> distribution`` of every driver in ``namespace``, without importing one."""
    names: dict[str, str] = {}
    for ep in entry_points(namespace):
        names[ep.name] = (name_and_version(ep) or ("?", ""))[0]
    return dict(sorted(names.items()))


def load_driver(
    namespace: str, name: str, *, what: str, known: dict[str, str], plugins: Any = None
) -> Any:
    """Import and instantiate the driver ``name`` with the registry; an unknown name lists the
    choices."""
    available = driver_names(namespace)
    if name not in available:
        choices = ", ".join(available) or "none"
        raise UsageError(
            f"unknown {what} '{name}'{install_hint(known, name)}; choose one of: {choices}"
        )
    from stevedore import driver, extension

    # stevedore caches entry points per namespace for the life of the process; a process
    # that installs plugins on the fly (a test) must see them.
    extension.ExtensionManager.ENTRY_POINT_CACHE.pop(namespace, None)
    try:
        manager = driver.DriverManager(
            namespace=namespace,
            name=name,
            invoke_on_load=True,
            invoke_kwds={"plugins": plugins},
            on_load_failure_callback=_raise,
        )
    except Exception as error:
        raise UsageError(
            f"{what} '{name}' from {available[name]} failed to load: {error}"
        ) from error
    return manager.driver


def _raise(manager: Any, entrypoint: Any, exception: BaseException) -> None:
    raise exception
