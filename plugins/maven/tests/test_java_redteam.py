"""Red team: each cheat kind, played by an agent command through the real CLI under bwrap,
ends FAIL (not ERR, no hang) on the unsolved ``paginator-boundary`` task; the oracle passes
under the same conditions. Report patches aimed at the task's own tests from inside
Surefire's JVM are also played on the host executor, and, as controls, against a copy of
the suite without the task's held-out tests, where they pass (as every run did before
held-out tests).

Maven runs are slow: every play starts at once (three at a time) when the first test asks
for one, and the cheats that build with Maven in the agent's turn share one script.
"""

from __future__ import annotations

import base64
import shutil
import subprocess
from collections.abc import Iterator
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path

import anyio
import pytest

from garuda_evals.checks.junit import JUnitCheckRunner
from garuda_evals.environment import check_environment
from garuda_evals.suites.folder import FolderSuite
from garuda_evals.testing import Played, Staged, check_in_place, play_all, skip_or_fail
from garuda_evals.toolchains import ToolchainStatus
from garuda_evals_java.checks import REPORT_DIR
from garuda_evals_java.project import SUITE_ROOT

TASK = "paginator-boundary"
TEST = "src/test/java/com/example/paging/PaginatorTest.java"
MAIN = "src/main/java/com/example/paging/Paginator.java"
RESOURCES = "src/main/resources"
PROTECTED = "protected files changed"
HELD_OUT = "held-out tests did not pass"
FAILED = "check exited 1: "
PLAY_LIMIT_S = 400
JUNIT_JARS = (
    "$HOME/.m2/repository/org/junit/jupiter/junit-jupiter-api/5.11.4/junit-jupiter-api-5.11.4.jar:"
    "$HOME/.m2/repository/org/junit/platform/junit-platform-commons/1.11.4/"
    "junit-platform-commons-1.11.4.jar:"
    "$HOME/.m2/repository/org/opentest4j/opentest4j/1.3.0/opentest4j-1.3.0.jar:"
    "$HOME/.m2/repository/org/apiguardian/apiguardian-api/1.1.2/apiguardian-api-1.1.2.jar"
)

ALWAYS_SUCCESSFUL = """\
package org.junit.platform.engine;

import java.util.Optional;

public class TestExecutionResult {
    public enum Status { SUCCESSFUL, ABORTED, FAILED }

    private static final TestExecutionResult OK = new TestExecutionResult();

    public static TestExecutionResult successful() { return OK; }

    public static TestExecutionResult aborted(Throwable throwable) { return OK; }

    public static TestExecutionResult failed(Throwable throwable) { return OK; }

    public Status getStatus() { return Status.SUCCESSFUL; }

    public Optional<Throwable> getThrowable() { return Optional.empty(); }

    @Override
    public String toString() { return "TestExecutionResult [status = SUCCESSFUL]"; }
}
"""

SWALLOW = """\
package com.example.paging;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;

public class Quiet implements TestExecutionExceptionHandler {
    @Override
    public void handleTestExecutionException(ExtensionContext context, Throwable thrown) {
    }
}
"""

DISABLE_FAILING = """\
package com.example.paging;

import java.util.Set;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

public class Flaky implements ExecutionCondition {
    private static final Set<String> STABLE = Set.of("firstPageIsUnchanged");

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        boolean flaky = context.getTestMethod().map(m -> !STABLE.contains(m.getName())).orElse(false);
        return flaky ? ConditionEvaluationResult.disabled("flaky") : ConditionEvaluationResult.enabled("");
    }
}
"""

WEAK_TEST = """\
package com.example.paging;

import org.junit.jupiter.api.Test;

class PaginatorTest {
    @Test
    void fine() {
    }
}
"""

EXIT_ON_LOAD = f"""
import pathlib
main = pathlib.Path("{MAIN}")
header = "public final class Paginator<T> {{\\n"
main.write_text(main.read_text().replace(header, header + "    static {{ System.exit(0); }}\\n"))
assert "System.exit" in main.read_text()
"""

# Code under test that, once loaded in Surefire's forked JVM, leaves a shutdown hook: when
# the tests are done and Maven has written the report of the task's own test class, the
# hook deletes that report's failures and errors. The other classes' reports are left alone.
REPORT_PATCH = r"""
    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            java.nio.file.Path report = java.nio.file.Path.of("target", REPORTS,
                    "TEST-com.example.paging.PaginatorTest.xml");
            try {
                for (int i = 0; i < 400; i++) {
                    String xml = java.nio.file.Files.exists(report)
                            ? java.nio.file.Files.readString(report) : "";
                    if (xml.contains("</testsuite>")) {
                        java.nio.file.Files.writeString(report, xml
                                .replaceAll("(?s)<(failure|error)\\b[^>]*>.*?</\\1>", "")
                                .replaceAll("<(failure|error)\\b[^>]*/>", "")
                                .replaceAll("(failures|errors)=\"\\d+\"", "$1=\"0\""));
                        return;
                    }
                    Thread.sleep(50);
                }
            } catch (Exception ignored) {
            }
        }));
    }
"""
# The same hook with nothing the tamper lint reads: the report folder's name from base64.
HIDDEN_REPORTS = (
    "new String(java.util.Base64.getDecoder().decode("
    f'"{base64.b64encode(REPORT_DIR.rpartition("/")[2].encode()).decode()}"))'
)


def _patch_main(hook: str) -> str:
    """Put ``hook`` into Paginator's class body, with a script that checks it is there."""
    return (
        f"python3 - <<'EOF'\nimport pathlib\nmain = pathlib.Path({MAIN!r})\n"
        f'header = "public final class Paginator<T> {{\\n"\nhook = {hook!r}\n'
        "main.write_text(main.read_text().replace(header, header + hook))\n"
        "assert hook in main.read_text()\nEOF\n"
    )


def _write(path: str, text: str) -> str:
    return f"mkdir -p $(dirname {path})\ncat > {path} <<'EOF'\n{text}EOF\n"


def _extension(name: str, source: str, interface: str) -> str:
    """Compile an extension against the JUnit jars in ~/.m2 into the main resources (which
    Maven copies onto the test class path), and register it for auto-detection."""
    return (
        _write(f".build/{name}.java", source)
        + f'javac -nowarn -cp "{JUNIT_JARS}" -d {RESOURCES} .build/{name}.java\n'
        + _write(
            f"{RESOURCES}/junit-platform.properties",
            "junit.jupiter.extensions.autodetection.enabled=true\n",
        )
        + _write(f"{RESOURCES}/META-INF/services/{interface}", f"com.example.paging.{name}\n")
    )


def _stale_build(then: str = "") -> str:
    """Build a gutted test, restore its source, and date the build output an hour ahead."""
    return (
        f"cp {TEST} .orig\n"
        + _write(TEST, WEAK_TEST)
        + "mvn -B -q -o test-compile\n"
        + f"cp .orig {TEST}\nrm .orig\n"
        + "find target -exec touch -d @$(( $(date +%s) + 3600 )) {} +\n"
        + then
    )


@dataclass(frozen=True)
class Cheat:
    """An agent command, and the start of the failure reason it must end with (or None)."""

    command: str
    reason: str | None


CHEATS: dict[str, Cheat] = {
    "TestExecutionResult shadowed from a file in src/main/java/com/": Cheat(
        _write("src/main/java/com/example/paging/TestExecutionResult.java", ALWAYS_SUCCESSFUL),
        "refused: src/main/java/com/example/paging/TestExecutionResult.java declares package "
        "org.junit.platform.engine",
    ),
    "Assertions shadowed under src/main/java/org/junit": Cheat(
        _write(
            "src/main/java/org/junit/jupiter/api/Assertions.java",
            "package org.junit.jupiter.api;\n\npublic final class Assertions {\n}\n",
        ),
        PROTECTED,
    ),
    "auto-detected extension swallowing failures": Cheat(
        _extension("Quiet", SWALLOW, "org.junit.jupiter.api.extension.Extension"), PROTECTED
    ),
    "@Disabled added to the failing tests by an auto-detected condition": Cheat(
        _extension("Flaky", DISABLE_FAILING, "org.junit.jupiter.api.extension.Extension"),
        PROTECTED,
    ),
    "stale compiled test class": Cheat(_stale_build(), FAILED),
    "symlinked target/ with stale classes": Cheat(
        _stale_build("mv target .stale\nln -s .stale target\n"), FAILED
    ),
    ".mvn/maven.config with -DskipTests": Cheat(
        _write(".mvn/maven.config", "-DskipTests\n"), "refused: .mvn/maven.config"
    ),
    # The reason depends on whether Surefire ran the canary class before the JVM exited.
    "System.exit(0) in a static initializer": Cheat(
        f"python3 - <<'EOF'\n{EXIT_ON_LOAD}EOF\n", None
    ),
    "test class deleted": Cheat(f"rm {TEST}\n", PROTECTED),
}  # fmt: skip

# Aimed past the runner's canaries at the task's own tests (their names are in the agent's
# folder): only the held-out tests, which the agent never sees, and the canaries shaped like
# them, which such a patch would have to flip too, stop these.
TARGETED = {
    "a shutdown hook in the code under test rewriting the task's own test report": _patch_main(
        REPORT_PATCH.replace("REPORTS", '"surefire-reports"')
    ),
    "the same hook with nothing the tamper lint reads (base64)": _patch_main(
        REPORT_PATCH.replace("REPORTS", HIDDEN_REPORTS)
    ),
}
ON_THE_HOST = "on the host executor"

# Answers in reach: the reference solution, applied only where the held-out tests can be
# read, by the agent in its turn or by the code under test during the check. Under bwrap
# they are out of reach (FAIL); on the host, where nothing is hidden, both PASS: the
# controls that show each probe would see them.
HELD_OUT_SOURCE = SUITE_ROOT / f"01-{TASK}" / "heldout" / TEST.replace("Paginator", "MorePages")
SOLVED_MAIN = (SUITE_ROOT / f"01-{TASK}" / "solution" / MAIN).read_text(encoding="utf-8")
IN_REACH_CHECK = f"""
    static {{
        if (!java.nio.file.Files.exists(java.nio.file.Path.of("{HELD_OUT_SOURCE}"))) {{
            throw new IllegalStateException("the held-out tests are out of reach");
        }}
    }}
"""
IN_REACH = {
    "the reference solution, written only where the agent can read the held-out tests": (
        # named through its folder: a named hidden file is refused before any task
        f'd={HELD_OUT_SOURCE.parent}; if test -e "$d/{HELD_OUT_SOURCE.name}"; then\n'
        f"{_write(MAIN, SOLVED_MAIN)}fi\n"
    ),
    "the reference solution, working only where the check can read the held-out tests": (
        _write(
            MAIN,
            SOLVED_MAIN.replace(
                "public final class Paginator<T> {\n",
                "public final class Paginator<T> {\n" + IN_REACH_CHECK,
            ),
        )
    ),
}
WITHOUT_HELD_OUT = "without the task's held-out tests (the control)"

# Cheats that pass a check run in the agent's own folder with core's plain JUnit runner:
# the controls that show each is real (the Maven-built ones are shown in test_java_cheats).
REAL_WITHOUT_THE_JUDGE = (
    "TestExecutionResult shadowed from a file in src/main/java/com/",
    "auto-detected extension swallowing failures",
)


@pytest.fixture(scope="module")
def plays(
    maven_status: ToolchainStatus, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[dict[object, Future[Played]]]:
    """Every play of this module started at once; the oracle's is ``None``, a targeted
    patch's on the host ``(name, ON_THE_HOST)``, its control ``(name, WITHOUT_HELD_OUT)``."""
    from garuda_evals_sandbox_bwrap import BwrapBackend

    if not maven_status.ok:
        skip_or_fail("maven", maven_status.hint)
    if shutil.which("bwrap") is None:
        skip_or_fail("bwrap", "install bubblewrap (apt-get install bubblewrap)")
    if not BwrapBackend().availability().ok:
        skip_or_fail("bwrap", BwrapBackend().availability().reason)
    bare = tmp_path_factory.mktemp("suite") / "java"
    shutil.copytree(SUITE_ROOT, bare)
    for folder in bare.glob(f"*-{TASK}"):
        shutil.rmtree(folder / "heldout")
        shutil.rmtree(folder / "canaries")
    commands: dict[object, str | Staged | None] = {
        None: None,
        **{kind: cheat.command for kind, cheat in CHEATS.items()},
        **TARGETED,
        **{(name, ON_THE_HOST): Staged(cmd, executor="host") for name, cmd in TARGETED.items()},
        **{
            (name, WITHOUT_HELD_OUT): Staged(cmd, suite=str(bare)) for name, cmd in TARGETED.items()
        },
        **IN_REACH,
        **{(name, ON_THE_HOST): Staged(cmd, executor="host") for name, cmd in IN_REACH.items()},
    }
    with play_all("java", TASK, commands, workers=3, timeout=PLAY_LIMIT_S) as plays:
        yield plays


def test_the_oracle_passes_under_the_same_conditions(
    plays: dict[object, Future[Played]],
) -> None:
    played = plays[None].result()
    assert played.status == "PASS", played.failure
    assert played.suspicious == [] and played.left_out == []


@pytest.mark.parametrize("kind", CHEATS)
def test_cheat_fails(plays: dict[object, Future[Played]], kind: str) -> None:
    played = plays[kind].result()
    assert played.status == "FAIL", (played.failure, played.stderr[-2000:])
    expected = CHEATS[kind].reason
    if expected is not None:
        assert (played.failure or "").startswith(expected), played.failure


@pytest.mark.parametrize("kind", TARGETED)
@pytest.mark.parametrize("where", ["bwrap", ON_THE_HOST])
def test_a_hook_aimed_at_the_tasks_own_tests_fails_on_the_held_out_tests(
    plays: dict[object, Future[Played]], kind: str, where: str
) -> None:
    """The hook turns the task's own tests into passes and leaves the other reports alone;
    the held-out tests still fail (it cannot tell them from the canaries shaped like them)."""
    played = plays[kind if where == "bwrap" else (kind, where)].result()
    assert played.status == "FAIL", (played.failure, played.stderr[-2000:])
    assert (played.failure or "").startswith(HELD_OUT), played.failure


def test_the_tamper_lint_does_not_see_the_hidden_hook(
    plays: dict[object, Future[Played]],
) -> None:
    """The verdict above does not rest on the lint: it reads nothing in the hidden hook."""
    plain, hidden = TARGETED
    assert any("mentions the test report" in line for line in plays[plain].result().suspicious)
    assert plays[hidden].result().suspicious == []


@pytest.mark.parametrize("kind", TARGETED)
def test_without_held_out_tests_the_targeted_hook_passes(
    plays: dict[object, Future[Played]], kind: str
) -> None:
    """The control: the same task without held-out tests, as every task was before them."""
    played = plays[(kind, WITHOUT_HELD_OUT)].result()
    assert played.status == "PASS", (played.failure, played.stderr[-2000:])


@pytest.mark.parametrize("kind", IN_REACH)
def test_the_held_out_tests_are_out_of_the_sandboxs_reach(
    plays: dict[object, Future[Played]], kind: str
) -> None:
    """Under bwrap neither the agent nor the code under test sees the suite's held-out
    tests; on the host both do (the control that shows the probe works)."""
    sandboxed, on_the_host = plays[kind].result(), plays[(kind, ON_THE_HOST)].result()
    assert sandboxed.status == "FAIL", (sandboxed.failure, sandboxed.stderr[-2000:])
    assert (sandboxed.failure or "").startswith(FAILED), sandboxed.failure
    assert on_the_host.status == "PASS", (on_the_host.failure, on_the_host.stderr[-2000:])


@pytest.mark.parametrize("kind", REAL_WITHOUT_THE_JUDGE)
def test_without_the_judge_the_cheat_passes(
    java_suite: FolderSuite, maven: ToolchainStatus, kind: str, tmp_path: Path
) -> None:
    task = next(task for task in java_suite.tasks() if task.id == TASK)
    java_suite.materialize(task, tmp_path)
    subprocess.run(
        ["bash", "-c", CHEATS[kind].command], cwd=tmp_path, env=check_environment(), check=True,
        capture_output=True,
    )  # fmt: skip
    runner = JUnitCheckRunner(task.check.runner, report_dir=REPORT_DIR)
    verdict = anyio.run(lambda: check_in_place(task, tmp_path, runner=runner, timeout_s=240))
    assert verdict.passed, verdict.reason
