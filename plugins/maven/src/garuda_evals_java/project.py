"""The suite folder on disk, its shared pom.xml, and the one-test probe project built on it."""

from __future__ import annotations

from pathlib import Path

SUITE_ROOT = Path(__file__).resolve().parent / "suite_data" / "java"
SHARED_POM = SUITE_ROOT / "shared" / "pom.xml"

PROBE_MAIN = """\
package probe;

/** The probe's one class. */
public final class Greeter {
    private Greeter() {
    }

    /** Greets {@code name}. */
    public static String greet(String name) {
        return "Hello, " + name;
    }
}
"""

PROBE_TEST = """\
package probe;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class GreeterTest {
    @Test
    void greets() {
        assertEquals("Hello, Maven", Greeter.greet("Maven"));
    }
}
"""


def shared_pom() -> str:
    """The pom.xml every java task and the probe use (fixed plugin and JUnit versions)."""
    return SHARED_POM.read_text(encoding="utf-8")


def probe_files() -> dict[str, str]:
    """A one-test project on the shared pom: it compiles main and test code and runs Surefire.

    It walks the same plugins and dependencies as every task, so when it passes offline,
    every task's check can run offline too.
    """
    return {
        "pom.xml": shared_pom(),
        "src/main/java/probe/Greeter.java": PROBE_MAIN,
        "src/test/java/probe/GreeterTest.java": PROBE_TEST,
    }
