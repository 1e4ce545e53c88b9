"""Keys of ``SandboxPolicy.extra`` that every OS sandbox backend honours."""

from __future__ import annotations

from garuda_evals.api import SandboxPolicy

NETWORK = "network"
HOST_NETWORK = "host"


def host_network(policy: SandboxPolicy) -> bool:
    """True when ``extra["network"] == "host"``: the command shares the host's network.

    For an agent CLI that must reach its model API; writes, secrets and Unix sockets stay
    denied. Checks never ask for it.
    """
    return policy.extra.get(NETWORK) == HOST_NETWORK
