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

# What ``node --version`` reads: the version is built into the program file (its real path,
# so that a launcher that picks another node is never taken for it) or, where node is built
# shared, into the libnode it loads. Debian's /usr/bin/node is a small program linked to
# libnode.so.NNN, and the two come in separate packages, upgraded apart; the library loaded
# is read from /proc/self/maps (absent off Linux, where only the program is named).
VERSION_FILES_COMMAND = (
    "node -e '"
    "console.log(process.execPath); "
    'let maps = ""; '
    'try { maps = require("fs").readFileSync("/proc/self/maps", "utf8"); } catch {} '
    'for (const line of maps.split("\\n")) { '
    'const at = line.indexOf("/"); '
    "if (at >= 0 && /\\/libnode\\.[^/]*$/.test(line)) console.log(line.slice(at)); }'"
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
        version_files_command=VERSION_FILES_COMMAND,
    )
