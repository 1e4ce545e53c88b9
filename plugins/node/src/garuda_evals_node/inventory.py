"""The function inventory the unused task's dead-code check expects.

``test/hard/dead-code.cjs`` (in the task's files) prints, for every ``.js`` file outside
``test/``, the number of functions and a hash of their syntax trees. The check compares the
agent's project with the inventory of the reference solution, kept in the task folder as
``inventory.json``. Regenerate it after changing shopkit or the task::

    python -m garuda_evals_node.inventory
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from garuda_evals.api import apply_solution
from garuda_evals_node.suites import load_hard, suite_root

TASK = "unused"
CHECKER = "test/hard/dead-code.cjs"
INVENTORY = "inventory.json"


def record_inventory() -> dict[str, str]:
    """The inventory of the unused task's reference solution, printed by its own checker."""
    suite = load_hard()
    task = next(task for task in suite.tasks() if task.id == TASK)
    assert task.solution is not None
    workspace = Path(tempfile.mkdtemp(prefix="garuda-inventory-"))
    try:
        suite.materialize(task, workspace)
        apply_solution(workspace, task.solution)
        node = shutil.which("node") or "node"
        run = subprocess.run(
            [node, "--expose-internals", CHECKER],
            cwd=workspace,
            capture_output=True,
            text=True,
            check=True,
        )
        inventory: dict[str, str] = json.loads(run.stdout)
        return inventory
    finally:
        shutil.rmtree(workspace, ignore_errors=True)


def inventory_path() -> Path:
    """Where the unused task keeps its expected inventory."""
    return suite_root("hard") / TASK / INVENTORY


def main() -> int:
    """Write the reference solution's inventory into the task folder."""
    path = inventory_path()
    path.write_text(json.dumps(record_inventory(), indent=1, sort_keys=True) + "\n")
    print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
