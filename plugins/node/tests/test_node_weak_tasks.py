"""extract-helper and unused are checked by behaviour and syntax tree, not by names.

Each cheat here passed the earlier checks (a regex for ``Number.isInteger``, ``grep -w``
for the dead functions' names); each must now fail, and the reference solutions pass.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from garuda_evals.agents.oracle import apply_solution
from garuda_evals.runner.check import Verdict
from garuda_evals_node.inventory import INVENTORY, inventory_path, record_inventory
from garuda_evals_node.suites import load_basic, load_hard

Edit = Callable[[Path], None]


def _replace(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} not once in {path}"
    path.write_text(text.replace(old, new), encoding="utf-8")


def _solve(task_id: str, suite_loader: Callable[[], object]) -> Edit:
    def solve(ws: Path) -> None:
        task = next(t for t in suite_loader().tasks() if t.id == task_id)  # type: ignore[attr-defined]
        apply_solution(ws, task.solution)

    return solve


# extract-helper: the helper exists and is called, but a copy of the check is kept.


def keep_a_copy_spelled_differently(ws: Path) -> None:
    """Call the helper, and keep a copy of the check written ``Number['isInteger']``."""
    _solve("extract-helper", load_basic)(ws)
    _replace(
        ws / "src/orders.js",
        "  requirePositiveInt(unitCents, 'unitCents');\n",
        "  requirePositiveInt(unitCents, 'unitCents');\n"
        "  if (!Number['isInteger'](quantity) || quantity <= 0) {\n"
        "    throw new RangeError(`quantity must be positive, got ${quantity}`);\n"
        "  }\n",
    )


def call_a_local_helper(ws: Path) -> None:
    """Import the helper for the structure check, but call a private copy of it."""
    _solve("extract-helper", load_basic)(ws)
    text = (ws / "src/validate.js").read_text().replace("export function", "function")
    text = text.replace("Number.isInteger", "Number['isInteger']")
    _replace(
        ws / "src/inventory.js",
        "import { requirePositiveInt } from './validate.js';\n",
        "import { requirePositiveInt as unused } from './validate.js';\n" + text + "void unused;\n",
    )


def alias_the_helper(ws: Path) -> None:
    """Not a cheat: import the helper under another name."""
    _solve("extract-helper", load_basic)(ws)
    for name in ("orders.js", "inventory.js"):
        path = ws / "src" / name
        text = path.read_text().replace(
            "import { requirePositiveInt } from './validate.js';",
            "import { requirePositiveInt as positive } from './validate.js';",
        )
        path.write_text(text.replace("requirePositiveInt(", "positive("))


# unused: the dead code is kept under another name or in another place.


def rename_the_dead_function(ws: Path) -> None:
    """Delete the rest, but keep ``padCenter`` as ``padCentre``."""
    _solve("unused", load_hard)(ws)
    task = next(t for t in load_hard().tasks() if t.id == "unused")
    original = task.files["src/util/strings.js"]
    start = original.index("/** Centers `text`")
    end = original.index("/** Fills `{name}` placeholders")
    kept = original[start:end].replace("padCenter", "padCentre")
    _replace(
        ws / "src/util/strings.js",
        "/** Fills `{name}` placeholders",
        kept + "/** Fills `{name}` placeholders",
    )


def rename_the_dead_module(ws: Path) -> None:
    """Keep the unimported module under another name."""
    _solve("unused", load_hard)(ws)
    task = next(t for t in load_hard().tasks() if t.id == "unused")
    (ws / "src/util/oldMoney.js").write_text(task.files["src/util/legacyMoney.js"])


def hide_the_private_function(ws: Path) -> None:
    """Keep ``mergeLines`` as an arrow function inside another module under a new name."""
    _solve("unused", load_hard)(ws)
    path = ws / "src/util/strings.js"
    path.write_text(
        path.read_text()
        + "\nconst combine = (first, second) => [...first, ...second].map((line) => line);\n"
    )


def delete_used_code(ws: Path) -> None:
    """Delete a function the tests never call but src/ uses: a reviewer's 'used' rule."""
    _solve("unused", load_hard)(ws)
    path = ws / "src/util/strings.js"
    text = path.read_text()
    start = text.index("export function slugify")
    end = text.index("\n}\n", start) + 3
    path.write_text(text[:start] + text[end:])


def reformat_and_recomment(ws: Path) -> None:
    """Not a cheat: the solution with comments removed and quotes and spacing changed."""
    _solve("unused", load_hard)(ws)
    path = ws / "src/util/money.js"
    text = path.read_text()
    lines = [line for line in text.splitlines() if not line.strip().startswith(("/**", "*", "//"))]
    path.write_text("\n\n".join(lines).replace("'", '"') + "\n")


BASIC_CASES: list[tuple[Edit, str]] = [
    (keep_a_copy_spelled_differently, "orders.js keeps no copy of the check"),
    (call_a_local_helper, "inventory.js checks quantities with requirePositiveInt"),
]
HARD_CASES: list[tuple[Edit, str]] = [
    (rename_the_dead_function, "dead code left: src/util/strings.js has"),
    (rename_the_dead_module, "dead code left: src/util/oldMoney.js"),
    (hide_the_private_function, "dead code left: src/util/strings.js has"),
    (delete_used_code, "used code deleted: src/util/strings.js has"),
]
GOOD = [
    (alias_the_helper, load_basic, "extract-helper"),
    (reformat_and_recomment, load_hard, "unused"),
]


@pytest.fixture(scope="module")
def verdicts(node, self_tests) -> dict[tuple[str, bool, str], Verdict]:
    """Every attempt, judged concurrently."""
    found = self_tests(load_basic(), [("extract-helper", False, edit) for edit, _ in BASIC_CASES])
    found |= self_tests(load_hard(), [("unused", False, edit) for edit, _ in HARD_CASES])
    for edit, loader, task_id in GOOD:
        found |= self_tests(loader(), [(task_id, False, edit)])
    return found


@pytest.mark.parametrize(
    ("task_id", "edit", "expected"),
    [("extract-helper", e, x) for e, x in BASIC_CASES] + [("unused", e, x) for e, x in HARD_CASES],
    ids=[e.__name__ for e, _ in BASIC_CASES + HARD_CASES],
)
def test_weak_task_cheat_fails(verdicts, task_id: str, edit: Edit, expected: str) -> None:
    verdict = verdicts[(task_id, False, edit.__name__)]
    assert not verdict.passed
    where = (verdict.reason or "") + (verdict.check.output_tail if verdict.check else "")
    assert expected in where, where


@pytest.mark.parametrize(("edit", "loader", "task_id"), GOOD, ids=[e.__name__ for e, _, _ in GOOD])
def test_weak_task_honest_variant_passes(verdicts, edit: Edit, loader, task_id: str) -> None:
    verdict = verdicts[(task_id, False, edit.__name__)]
    assert verdict.passed, (verdict.reason, verdict.check.output_tail if verdict.check else "")


def test_unused_inventory_is_the_reference_solutions(node) -> None:
    """inventory.json is what the checker prints for the reference solution."""
    recorded = record_inventory()
    stored = json.loads(inventory_path().read_text())
    assert stored == recorded, f"regenerate {INVENTORY}: python -m garuda_evals_node.inventory"
    assert "src/util/legacyMoney.js" not in stored
    assert len(stored) >= 60


def test_the_dead_code_checker_needs_node_internals(node, tmp_path: Path) -> None:
    """Without --expose-internals the checker says why, instead of passing."""
    task = next(t for t in load_hard().tasks() if t.id == "unused")
    (tmp_path / "dead-code.cjs").write_text(task.files["test/hard/dead-code.cjs"])
    run = subprocess.run(
        [shutil.which("node") or "node", "dead-code.cjs", "{}"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert run.returncode == 2 and "--expose-internals" in run.stdout
