"""The one line that says why a Maven check failed, read from real ``mvn -B -q -o test``
output recorded from the java suite's tasks (``data/``): the shipped paginator-boundary
(test failures), the shipped rename-across-classes (a test compile error) and a pom asking
for Java 99 (a fatal compiler error)."""

from __future__ import annotations

from pathlib import Path

from garuda_evals_java.summary import NO_OUTPUT, maven_failure

DATA = Path(__file__).parent / "data"
TEST_FAILURES = (DATA / "mvn-test-failures.txt").read_text(encoding="utf-8")
COMPILE_ERROR = (DATA / "mvn-compile-error.txt").read_text(encoding="utf-8")
RELEASE_ERROR = (DATA / "mvn-release-error.txt").read_text(encoding="utf-8")
FIRST_COMPILE_ERROR = (
    "compilation error: ShippingCostCalculatorTest.java:[16,19] cannot find symbol"
)


def test_failed_tests_give_surefire_counts_and_the_first_failure() -> None:
    assert maven_failure(TEST_FAILURES) == (
        "Tests run: 14, Failures: 5, Errors: 1, Skipped: 0; "
        "first: PaginatorTest.countsEveryPage:30 expected: <10> but was: <9>"
    )


def test_a_compile_error_names_the_file_line_and_message() -> None:
    assert maven_failure(COMPILE_ERROR) == FIRST_COMPILE_ERROR


def test_a_compile_error_comes_before_test_counts_in_the_same_output() -> None:
    """As ``mvn -fae`` prints a reactor: one module's tests failed, the next did not compile."""
    assert maven_failure(TEST_FAILURES + COMPILE_ERROR) == FIRST_COMPILE_ERROR
    assert maven_failure(COMPILE_ERROR + TEST_FAILURES) == FIRST_COMPILE_ERROR


def test_a_compile_error_without_a_source_position_is_still_named() -> None:
    output = "[ERROR] COMPILATION ERROR : \n[ERROR] error: invalid flag: --bogus\n"
    assert maven_failure(output) == "compilation error"


def test_counts_without_a_failure_list_stand_alone() -> None:
    output = "[ERROR] Tests run: 3, Failures: 1, Errors: 0, Skipped: 0\n[ERROR] Failures: \n"
    assert maven_failure(output) == "Tests run: 3, Failures: 1, Errors: 0, Skipped: 0"


def test_the_last_counts_and_a_failure_on_the_last_line_are_read() -> None:
    output = (
        "[ERROR] Tests run: 3, Failures: 1, Errors: 0, Skipped: 0\n"
        "[ERROR] Tests run: 4, Failures: 2, Errors: 0, Skipped: 0\n"
        "[ERROR] Failures: \n"
        "[ERROR]   CartTest.total:12 expected: <3> but was: <2>\n"
    )
    assert maven_failure(output) == (
        "Tests run: 4, Failures: 2, Errors: 0, Skipped: 0; "
        "first: CartTest.total:12 expected: <3> but was: <2>"
    )


def test_other_failures_give_mavens_first_error_without_its_prefix() -> None:
    assert maven_failure(RELEASE_ERROR) == (
        "Failed to execute goal org.apache.maven.plugins:maven-compiler-plugin:3.13.0:compile "
        "(default-compile) on project task: Fatal error compiling: error: release version 99 "
        "not supported -> [Help 1]"
    )


def test_output_without_errors_gives_its_last_line_and_no_output_says_so() -> None:
    assert maven_failure("\x1b[0mBUILD FAILURE\nTotal time: 1 s\nkilled\n\n") == "killed"
    assert maven_failure("\x1b[0m\n  \n") == NO_OUTPUT
    assert maven_failure("") == NO_OUTPUT
