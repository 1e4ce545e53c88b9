"""Every java task fails as shipped and passes with its reference solution, and the tests
its solution makes pass are the ones pinned in expected-tests.json; every task has three or
more held-out tests, each with two canaries, which fail as shipped (the canaries also
solved) and pass solved."""

from __future__ import annotations

from garuda_evals.suites.folder import FolderSuite
from garuda_evals.testing import assert_sound, check_soundness
from garuda_evals.toolchains import ToolchainStatus
from garuda_evals_java.project import shared_pom

TASK_IDS = [
    "paginator-boundary",
    "money-equals",
    "rename-across-classes",
    "lru-cache",
    "stream-report",
]
CHECK = "test ! -e .mvn && mvn -B -q -o test"
SELF_TEST_LIMIT_S = 180.0
REPIN = "run `garuda suite check java --pin`"
SHIPPED_REASONS = {
    "lru-cache": "11 failed: com.example.cache.LruCacheTest::",
    "money-equals": "10 failed: com.example.money.MoneyTest::",
    "paginator-boundary": "6 failed: com.example.paging.PaginatorTest::",
    "rename-across-classes": "compilation error: ShippingCostCalculatorTest.java:",
    "stream-report": "5 failed: com.example.sales.SalesReportTest::",
}


def test_suite_holds_the_five_tasks_on_one_pom(java_suite: FolderSuite) -> None:
    tasks = java_suite.tasks()

    assert [task.id for task in tasks] == TASK_IDS
    for task in tasks:
        assert task.files["pom.xml"] == shared_pom(), task.id
        assert task.check.command == CHECK
        assert task.check.runner == "surefire"
        assert task.requires == ["maven"]
        assert task.solution is not None and task.solution.files, task.id
        assert {"src/test/", "pom.xml", "org/junit/"} <= set(task.protected), task.id
        assert not any(path.startswith(".mvn") for path in task.files), task.id
        assert any(path.startswith("src/test/java/") for path in task.files), task.id


def test_shared_pom_pins_every_version() -> None:
    pom = shared_pom()

    for pinned in (
        "<version>5.11.4</version>",
        "<artifactId>maven-resources-plugin</artifactId>\n        <version>3.3.1</version>",
        "<artifactId>maven-compiler-plugin</artifactId>\n        <version>3.13.0</version>",
        "<artifactId>maven-surefire-plugin</artifactId>\n        <version>3.5.2</version>",
        "<maven.compiler.release>17</maven.compiler.release>",
    ):
        assert pinned in pom


def test_every_task_fails_as_shipped_and_passes_solved(
    java_suite: FolderSuite, maven: ToolchainStatus
) -> None:
    soundness = check_soundness(java_suite, timeout_s=SELF_TEST_LIMIT_S)
    assert_sound(soundness)
    for item in soundness.tasks:
        task_id, shipped, solved = item.task, item.shipped, item.solved[0]
        assert shipped.check is not None and shipped.check.exit_code != 0, task_id
        assert shipped.reason is not None
        assert shipped.reason.startswith(f"check exited 1: {SHIPPED_REASONS[task_id]}"), task_id
        assert solved.check is not None and (solved.check.tests_ran or 0) >= 2, task_id
        assert item.pinned, f"{task_id}: not pinned ({REPIN})"
        assert item.held_out >= 3 and item.canaries == 2 * item.held_out, task_id
        assert set(shipped.held_out.values()) <= {"failed", "error", "missing"}, task_id
        assert set(solved.held_out.values()) == {"passed"}, task_id
        assert set(solved.held_out_canaries.values()) == {"failed"}, task_id
