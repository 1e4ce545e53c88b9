"""A JUnit report for Django's test runner, written by a result hook inside the test run.

Django's ``tests/runtests.py`` prints names, not a report. The check runs this file (standard
library only, so any interpreter of the repository runs it) as
``python -E HOOK REPORT SCRIPT ARGS...``: it loads its own modules first (``-E``: the
``PYTHONPATH`` that puts the task's folder first is not read yet), then puts those folders
first on ``sys.path``, wraps ``unittest.TestResult``'s outcome methods (every runner's result
class ends in them) and runs ``SCRIPT`` as ``__main__``. Each test's unittest id, docstring
line and outcome come from the runner's own result object, never from printed lines.

Exit: 0 when every test recorded passed or was skipped, 1 when one failed, the script's own
status (or 2) when it recorded no test.
"""

import os
import runpy
import sys
import traceback
import unittest
import xml.etree.ElementTree as ET

MESSAGE_CHARS = 2000
SEVERITY = {"passed": 0, "skipped": 1, "failure": 2, "error": 3}
RECORDS: dict = {}


def _record(test, outcome, message=""):
    """Keep the worst outcome of each test (a failed subtest fails its test)."""
    test_id = test.id()
    doc = ""
    describe = getattr(test, "shortDescription", None)
    if callable(describe):
        doc = describe() or ""
    known = RECORDS.get(test_id)
    if known is None or SEVERITY[outcome] > SEVERITY[known[0]]:
        RECORDS[test_id] = (outcome, message[:MESSAGE_CHARS], doc)


def _error_text(err):
    return "".join(traceback.format_exception(*err)) if err else ""


def _wrap(name, outcome):
    original = getattr(unittest.TestResult, name)

    def method(self, test, *args):
        message = _error_text(args[0]) if args and isinstance(args[0], tuple) else ""
        if outcome == "skipped" and args:
            message = str(args[0])
        _record(test, outcome, message)
        return original(self, test, *args)

    setattr(unittest.TestResult, name, method)


def _wrap_subtests():
    original = unittest.TestResult.addSubTest

    def method(self, test, subtest, err):
        if err is not None:
            failed = issubclass(err[0], test.failureException)
            _record(test, "failure" if failed else "error", _error_text(err))
        return original(self, test, subtest, err)

    unittest.TestResult.addSubTest = method


def install():
    """Wrap the outcome methods of ``unittest.TestResult``."""
    _wrap("addSuccess", "passed")
    _wrap("addExpectedFailure", "passed")
    _wrap("addFailure", "failure")
    _wrap("addError", "error")
    _wrap("addUnexpectedSuccess", "failure")
    _wrap("addSkip", "skipped")
    _wrap_subtests()


def junit():
    """The records as a ``<testsuite>``: ``classname`` is the dotted class, ``doc`` the
    docstring's first line."""
    suite = ET.Element("testsuite", name="django", tests=str(len(RECORDS)))
    for test_id, (outcome, message, doc) in RECORDS.items():
        classname, _, name = test_id.partition(" ")[0].rpartition(".")
        case = ET.SubElement(suite, "testcase", classname=classname, name=name or test_id)
        if doc:
            case.set("doc", doc)
        if outcome != "passed":
            lines = message.strip().splitlines()
            ET.SubElement(case, outcome, message=lines[-1] if lines else "").text = message
    return suite


def main(argv):
    """Run SCRIPT with the hook installed; write REPORT whatever happens."""
    report, script, args = argv[0], argv[1], argv[2:]
    roots = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    sys.path[:1] = [os.path.dirname(os.path.abspath(script))]
    sys.path[1:1] = roots
    sys.dont_write_bytecode = True
    install()
    sys.argv = [script, *args]
    status = 0
    try:
        runpy.run_path(script, run_name="__main__")
    except SystemExit as done:
        status = done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
    except BaseException:
        traceback.print_exc()
        status = 2
    finally:
        ET.ElementTree(junit()).write(report, encoding="utf-8", xml_declaration=True)
    if not RECORDS:
        return status or 2
    failed = any(outcome in ("failure", "error") for outcome, _, _ in RECORDS.values())
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
