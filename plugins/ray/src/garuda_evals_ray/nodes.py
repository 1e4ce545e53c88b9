"""The cluster's nodes as the Ray backend sees them: which may hold runs, and how many."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Node:
    """A live node that offers the ``garuda`` resource: ``slots`` runs at once."""

    node_id: str
    name: str
    slots: int

    def affinity(self) -> Any:
        """A scheduling strategy that runs a task on this node and nowhere else."""
        from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

        return NodeAffinitySchedulingStrategy(node_id=self.node_id, soft=False)


def node_label(address: str, node_id: str) -> str:
    """How rows and errors name a node: its address and the start of its Ray node id."""
    return f"{address}/{node_id[:8]}"


def cluster_nodes(entries: Iterable[dict[str, Any]], resource: str) -> list[Node]:
    """Live nodes (from ``ray.nodes()``) with at least one unit of ``resource``."""
    nodes = []
    for entry in entries:
        slots = int(entry.get("Resources", {}).get(resource, 0))
        if entry.get("Alive") and slots > 0:
            node_id = entry["NodeID"]
            nodes.append(Node(node_id, node_label(entry["NodeManagerAddress"], node_id), slots))
    return sorted(nodes, key=lambda node: node.name)


def refusal(problems: list[str], *, none_left: bool = False) -> str:
    """The one message that refuses a run for its nodes."""
    listed = "; ".join(problems)
    if none_left:
        return f"--skip-nodes: no node is left to run on ({listed})"
    return f"--backend ray: {listed}; fix the node or add --skip-nodes to run on the others"
