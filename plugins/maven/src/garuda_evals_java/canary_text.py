"""The text of the JUnit canaries: a test class named and placed like a task's own tests."""

from __future__ import annotations

import random
from collections.abc import Collection

from garuda_evals.api import Canaries

WORDS = (
    "Amount", "Batch", "Bounds", "Buffer", "Cache", "Config", "Counter", "Cursor", "Defaults",
    "Dates", "Encoding", "Entry", "Errors", "Export", "Field", "Filter", "Format", "Grouping",
    "Header", "History", "Import", "Input", "Item", "Key", "Label", "Layout", "Limit", "Line",
    "Lookup", "Merge", "Name", "Note", "Offset", "Order", "Output", "Parser", "Path", "Queue",
    "Range", "Record", "Report", "Retry", "Row", "Rule", "Schema", "Search", "Sorting", "State",
    "Status", "Summary", "Tag", "Text", "Timing", "Total", "Unit", "Update", "Value", "Window",
)  # fmt: skip
VERBS = (
    "accepts", "adds", "builds", "counts", "drops", "finds", "formats", "groups", "handles",
    "keeps", "loads", "maps", "merges", "orders", "parses", "reads", "rejects", "returns",
    "skips", "splits", "stores", "trims", "updates", "writes",
)  # fmt: skip


def class_name(rng: random.Random, taken: Collection[str], folder: str) -> str:
    """A class name ``<Word>Test`` whose file in ``folder`` is not among ``taken`` paths."""
    for _ in range(4 * len(WORDS)):
        name = f"{rng.choice(WORDS)}Test"
        if f"{folder}/{name}.java" not in taken:
            return name
    return f"{rng.choice(WORDS)}{rng.randrange(10**6)}Test"


def method_name(rng: random.Random, avoid: str = "") -> str:
    """A test method name ``<verb><Word>`` other than ``avoid``."""
    while True:
        name = f"{rng.choice(VERBS)}{rng.choice(WORDS)}"
        if name != avoid:
            return name


def junit_canary(folder: str, package: str, taken: Collection[str], nonce: str) -> Canaries:
    """A JUnit 5 class ``<Word>Test`` in ``folder`` (package ``package``) with a test that
    must fail (``nonce`` in its ``assertEquals`` message) and one that must pass, in a
    random order; ids as Surefire's XML gives them (``package.Class::method``)."""
    rng = random.Random(nonce)
    name = class_name(rng, taken, folder)
    failing = method_name(rng)
    passing = method_name(rng, avoid=failing)
    left, right = rng.randint(2, 60), rng.randint(2, 60)
    bodies = {
        failing: f"assertEquals({left + right + 1}, {left} + {right}, {_java_string(nonce)});",
        passing: f"assertEquals({left * right}, {left} * {right});",
    }
    order = [failing, passing]
    rng.shuffle(order)
    methods = "\n\n".join(
        f"    @Test\n    void {method}() {{\n        {bodies[method]}\n    }}" for method in order
    )
    header = f"package {package};\n\n" if package else ""
    text = (
        f"{header}import static org.junit.jupiter.api.Assertions.assertEquals;\n\n"
        f"import org.junit.jupiter.api.Test;\n\nclass {name} {{\n{methods}\n}}\n"
    )
    qualified = f"{package}.{name}" if package else name
    path = f"{folder}/{name}.java"
    return Canaries(
        files={path: text},
        must_fail=f"{qualified}::{failing}",
        must_pass=f"{qualified}::{passing}",
    )


def _java_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
