"""A JUnit report for ``python -m unittest``, written by a result hook inside the test run.

unittest prints no machine-readable report, and its exit code says nothing about how many
tests ran. The check and the proof run this module's source with ``python -c`` (standard
library only, so any interpreter of the project runs it): it loads the given test files,
records every test's outcome through a ``TestResult`` and writes JUnit XML, so the counts come
from the runner's own result object, never from the exit code or printed lines.

Usage: ``python -c "<this source>" REPORT ROOTS FILE...``; ``ROOTS`` is the package roots
joined with ``:`` (relative to the working folder, ``.`` for it). A test file is imported by
its dotted path from the working folder, as ``python -m unittest tests/test_a.py`` does.
"""

import os
import shlex
import sys
import time
import traceback
import unittest
import xml.etree.ElementTree as ET
from pathlib import Path

# Nothing from the working folder may load before the runner's own modules: ``-c`` puts it
# first on sys.path, where an agent's ``unittest.py`` or ``xml/`` would shadow them.
SAFE_START = 'import sys; sys.path[:] = [p for p in sys.path if p not in ("", ".")]'

MESSAGE_CHARS = 2000


class RecordingResult(unittest.TestResult):
    """Every test's outcome, in run order: ``(test id, outcome, message, seconds)``."""

    def __init__(self) -> None:
        super().__init__()
        self.records: list[tuple[str, str, str, float]] = []
        self._started = 0.0

    def startTest(self, test: unittest.TestCase) -> None:
        self._started = time.monotonic()
        super().startTest(test)

    def _record(self, test: unittest.TestCase, outcome: str, message: str = "") -> None:
        seconds = time.monotonic() - self._started if self._started else 0.0
        self.records.append((test.id(), outcome, message[:MESSAGE_CHARS], seconds))

    def addSuccess(self, test: unittest.TestCase) -> None:
        super().addSuccess(test)
        self._record(test, "passed")

    def addFailure(self, test, err) -> None:  # type: ignore[no-untyped-def]
        super().addFailure(test, err)
        self._record(test, "failure", "".join(traceback.format_exception(*err)))

    def addError(self, test, err) -> None:  # type: ignore[no-untyped-def]
        super().addError(test, err)
        self._record(test, "error", "".join(traceback.format_exception(*err)))

    def addSkip(self, test: unittest.TestCase, reason: str) -> None:
        super().addSkip(test, reason)
        self._record(test, "skipped", reason)

    def addExpectedFailure(self, test, err) -> None:  # type: ignore[no-untyped-def]
        super().addExpectedFailure(test, err)
        self._record(test, "passed")

    def addUnexpectedSuccess(self, test: unittest.TestCase) -> None:
        super().addUnexpectedSuccess(test)
        self._record(test, "failure", "unexpected success")

    def addSubTest(self, test, subtest, err) -> None:  # type: ignore[no-untyped-def]
        super().addSubTest(test, subtest, err)
        if err is not None:
            kind = "failure" if issubclass(err[0], test.failureException) else "error"
            self._record(subtest, kind, "".join(traceback.format_exception(*err)))


def module_name(path: str) -> str:
    """``tests/test_a.py`` -> ``tests.test_a`` (the dotted path from the working folder)."""
    stem = path[:-3] if path.endswith(".py") else path
    return os.path.normpath(stem).replace(os.sep, ".")


def junit(records: list[tuple[str, str, str, float]]) -> ET.Element:
    """The records as a ``<testsuite>``: ``classname`` is the test's dotted class path."""
    suite = ET.Element("testsuite", name="unittest", tests=str(len(records)))
    for test_id, outcome, message, seconds in records:
        classname, _, name = test_id.partition(" ")[0].rpartition(".")
        case = ET.SubElement(
            suite, "testcase", classname=classname, name=name or test_id, time=f"{seconds:.3f}"
        )
        if outcome != "passed":
            lines = message.strip().splitlines()
            ET.SubElement(case, outcome, message=lines[-1] if lines else "").text = message
    return suite


def main(argv: list[str]) -> int:
    """Run the files' tests, write the report; exit 1 when a test failed or erred, else 0."""
    report, roots, files = argv[0], argv[1], argv[2:]
    here = os.getcwd()
    paths = [here if root in ("", ".") else os.path.join(here, root) for root in roots.split(":")]
    sys.path[:0] = [*dict.fromkeys([*paths, here])]
    loader = unittest.TestLoader()
    result = RecordingResult()
    suite = unittest.TestSuite()
    misplaced = []
    for path in files:
        name = module_name(path)
        tests = loader.loadTestsFromName(name)
        found = getattr(sys.modules.get(name), "__file__", None)
        if found is not None and os.path.realpath(found) != os.path.realpath(path):
            # A package ``tests/test_a/`` outranks ``tests/test_a.py``: its tests are not the file's.
            misplaced.append((name, "error", f"{name} was imported from {found}, not {path}", 0.0))
            continue
        suite.addTest(tests)
    result.records.extend(misplaced)
    suite.run(result)
    for test_id, outcome, _, _ in result.records:
        print(f"{outcome}: {test_id}")
    ET.ElementTree(junit(result.records)).write(report, encoding="utf-8", xml_declaration=True)
    ran = sum(1 for record in result.records if record[1] != "skipped")
    failed = len(result.failures) + len(result.errors) + len(misplaced)
    print(f"unittest: {ran} ran, {failed} failed")
    return 0 if result.wasSuccessful() and not misplaced else 1


def hook_source() -> str:
    """What ``python -c`` runs: this module's source, started safely, calling ``main``."""
    return "\n".join(
        [SAFE_START, Path(__file__).read_text(encoding="utf-8"), "sys.exit(main(sys.argv[1:]))"]
    )


def command(python: str, roots: tuple[str, ...], report: str, files: str) -> str:
    """The shell command that runs this module's source with ``python -E -c`` (``files`` is
    shell text: the task's files, then ``{canaries}``).

    ``-E``: the ``PYTHONPATH`` the caller sets for the Pythons a test starts is not read here.
    """
    words = [*shlex.split(python), "-E", "-c", hook_source(), report, ":".join(roots) or "."]
    return f"{shlex.join(words)} {files}".rstrip()


def refreshed(check: str) -> str:
    """A saved check with this version's hook in place of the one it was built with (a
    suite built before a fix to the hook gets the fix without being built again)."""
    try:
        words = shlex.split(check)
    except ValueError:
        return check
    at = words.index("-c") + 1 if "-c" in words else len(words)
    if at >= len(words) or not words[at].startswith(SAFE_START):
        return check
    return check.replace(shlex.quote(words[at]), shlex.quote(hook_source()), 1)
