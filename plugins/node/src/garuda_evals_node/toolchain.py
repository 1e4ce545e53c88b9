"""The node toolchain: ``node --test`` on a one-test probe project."""

from __future__ import annotations

from garuda_evals.api import Toolchain

MIN_NODE = "20.8"
"""The lowest Node.js the suites need: the junit reporter of ``node --test`` came in 20.8.0."""

HINT = (
    f"Install Node.js {MIN_NODE} or newer so that `node` is on PATH "
    "(https://nodejs.org, or a distribution package when it is that new: Debian 12's is 18). "
    "The suites need no npm packages."
)

PROBE_FILES = {
    "package.json": (
        '{\n  "name": "garuda-node-probe",\n  "private": true,\n  "type": "module"\n}\n'
    ),
    "test/probe.test.js": (
        "import { test } from 'node:test';\n"
        "import assert from 'node:assert/strict';\n\n"
        "test('node --test runs', () => {\n"
        "  assert.equal([1, 2, 3].map((n) => n * 2).join(','), '2,4,6');\n"
        "});\n"
    ),
}

PROBE_COMMAND = (
    "node --test --test-reporter=junit --test-reporter-destination=probe.xml test/probe.test.js "
    "&& grep -q '<testcase name=\"node --test runs\"' probe.xml"
)


def node_toolchain() -> Toolchain:
    """The node toolchain record's ``load``: probe, hint and the minimum version."""
    return Toolchain(
        name="node",
        description="Node.js with its built-in test runner (node --test)",
        hint=HINT,
        probe_files=PROBE_FILES,
        probe_command=PROBE_COMMAND,
        aliases=("nodejs",),
        version_command="node --version",
        version_pattern=r"v?(\d+\.\d+\.\d+)",
        min_version=MIN_NODE,
    )
