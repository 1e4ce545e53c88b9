"""One line that says why a Maven build failed, picked from ``mvn -B -q`` output."""

from __future__ import annotations

import re

ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
TESTS_SUMMARY = re.compile(r"Tests run: \d+, Failures: \d+, Errors: \d+, Skipped: \d+$")
FIRST_FAILURE = re.compile(r"^\[ERROR\] (?:Failures|Errors):\s*$")
COMPILER_ERROR = re.compile(r"([^/\s]+\.java:\[\d+,\d+\].*)$")
ERROR_PREFIX = "[ERROR] "
NO_OUTPUT = "no output: the check stopped before Maven ran (is there a .mvn folder?)"


def _lines(output: str) -> list[str]:
    return [line.rstrip() for line in ANSI.sub("", output).splitlines() if line.strip()]


def _test_failures(lines: list[str]) -> str | None:
    summaries = [found for line in lines if (found := TESTS_SUMMARY.search(line))]
    if not summaries:
        return None
    text = summaries[-1].group(0)
    for index, line in enumerate(lines[:-1]):
        if FIRST_FAILURE.match(line):
            first = lines[index + 1].removeprefix(ERROR_PREFIX).strip()
            return f"{text}; first: {first}"
    return text


def _compile_error(lines: list[str]) -> str | None:
    if not any("COMPILATION ERROR" in line for line in lines):
        return None
    for line in lines:
        found = COMPILER_ERROR.search(line)
        if found:
            return f"compilation error: {found.group(1)}"
    return "compilation error"


def maven_failure(output: str) -> str:
    """A compile error, else failed tests (count and the first one), else Maven's first error.

    A compile error comes first: it is why the build stopped, and test counts beside it
    (another module's, with ``-fae``) would hide that.
    """
    lines = _lines(output)
    if not lines:
        return NO_OUTPUT
    found = _compile_error(lines) or _test_failures(lines)
    if found:
        return found
    errors = [line.removeprefix(ERROR_PREFIX) for line in lines if line.startswith(ERROR_PREFIX)]
    return errors[0] if errors else lines[-1]
