"""Test commands: detect the project's, scope it to a task's files, and make the check.

The proof (``--from-git``) runs the project's own command scoped to the commit's test files,
with the runner's report flags so per-test results can be read. The saved check calls the
runner directly (never a package script the agent could rewrite) and asks it for a report
(JUnit XML, or Jest's JSON), the evidence that the task's tests ran.
"""

from __future__ import annotations

import json
import shlex
import shutil
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from garuda_evals.api import UsageError
from garuda_evals_repo_git.pyroots import child_pythonpath, pythonpath_option
from garuda_evals_repo_git.rules import TEST_SUPPORT
from garuda_evals_repo_git.scripts import (
    DIRECT,
    find_runner,
    kept_options,
    runner_of,
    segments,
    settings_of,
)
from garuda_evals_repo_git.unittest_report import command as unittest_command

REPORT = "{junit}"
CANARIES = "{canaries}"
WRAPPERS = ("npm", "pnpm", "yarn")
JS_SUFFIXES = frozenset({".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".jsx", ".tsx"})
REPORT_FLAGS = {
    "pytest": ["-p", "no:cacheprovider", f"--junitxml={REPORT}"],
    "node": [
        "--test-reporter=spec",
        "--test-reporter-destination=stdout",
        "--test-reporter=junit",
        f"--test-reporter-destination={REPORT}",
    ],
    "vitest": [
        "--no-cache",
        "--reporter=default",
        "--reporter=junit",
        f"--outputFile.junit={REPORT}",
    ],
    "jest": ["--ci", "--json", f"--outputFile={REPORT}"],
    "mocha": ["--reporter", "xunit", "--reporter-option", f"output={REPORT}"],
    "borp": ["--reporter=spec", f"--reporter=junit:{REPORT}"],
    # tap checks 100% coverage by default: a task's tests cover only their part.
    "tap": ["--disable-coverage", "--reporter=junit", f"--reporter-file={REPORT}"],
}
# Flags that stop a run at its first failing test: a repeat or a mutant's run needs only its
# exit code, which a failure decides (0 still means every test passed).
FAIL_FAST = {"pytest": "-x", "jest": "--bail", "vitest": "--bail=1", "mocha": "--bail"}
# Runners that run the whole suite and write reports into a folder of the tree.
WHOLE_SUITE = {"maven": "target/surefire-reports"}
MAVEN = "mvn -B -o test"
GO_JSON = "{gojson}"
# A fresh build cache when the user's is not writable (the OS sandbox hides the home); the
# check's starts as a copy of garuda's warm base when there is one (see gocache.py).
GO_CACHE = 'c=$(go env GOCACHE); t=; [ -w "$c" ] || { t=$(mktemp -d); c=$t; }; '
GO_CHECK_CACHE = (
    'c=$(go env GOCACHE); t=; [ -w "$c" ] || {{ t=$(mktemp -d); c=$t; '
    '[ -d {base} ] && cp -R {base}/. "$t"; }}; '
)
GO_END = '[ -z "$t" ] || rm -rf "$t"; exit $s'
CHECK_RUNNER = {
    "go": "repo-go-test",
    "maven": "surefire",
    "pytest": "repo-pytest",
    "node": "repo-node-test",
    "vitest": "repo-vitest",
    "jest": "repo-jest-json",
    "mocha": "repo-mocha",
    "unittest": "repo-unittest",
    "borp": "repo-borp",
    "tap": "repo-tap",
}
_JS_CONFIG = ("js", "mjs", "cjs", "ts", "mts", "cts", "json")
SHADOWS = ["pytest.py", "pytest/", "_pytest/"]
PYTEST_CONFIGS = ("pytest.toml", ".pytest.toml", "pytest.ini", ".pytest.ini", "tox.ini")
# Code runs before pytest when Python puts the working folder first on sys.path (-P stops
# it), and plugins load from any installed entry point (autoload off, the project's own
# plugins named with -p).
NO_AUTOLOAD = "PYTEST_DISABLE_PLUGIN_AUTOLOAD=1"
PYTEST_ENV = f"PYTHONSAFEPATH=1 {NO_AUTOLOAD}"
CONTINUE = "--continue-on-collection-errors"
CONFIG_FILES = {
    "go": ["go.mod", "go.sum"],
    "maven": ["pom.xml"],
    "pytest": ["conftest.py", *PYTEST_CONFIGS, "pyproject.toml", "setup.cfg", *SHADOWS],
    "unittest": ["pyproject.toml", "setup.cfg", "unittest.py", "unittest/"],
    "node": ["package.json"],
    "vitest": [
        "package.json",
        *(
            f"{stem}.{ext}"
            for stem in ("vitest.config", "vitest.workspace", "vite.config")
            for ext in _JS_CONFIG
        ),
    ],
    "jest": [
        "package.json",
        *(f"jest.config.{ext}" for ext in _JS_CONFIG),
        *(f"babel.config.{ext}" for ext in _JS_CONFIG),
        ".babelrc",
    ],
    "borp": ["package.json", ".borp.yaml", ".borp.yml"],
    "tap": ["package.json", ".taprc"],
    "mocha": [
        "package.json",
        *(f".mocharc.{ext}" for ext in ("js", "cjs", "mjs", "json", "jsonc", "yml", "yaml")),
    ],
}


def _runner_kind(words: list[str]) -> tuple[str, str] | None:
    """``(kind, prefix)`` when the words call pytest, node --test, vitest or jest directly.

    The prefix keeps the options that still hold for a run of given files (``--import``,
    ``--config``), not the call's own file or folder arguments.
    """
    for index, word in enumerate(words[:4]):
        name = PurePosixPath(word).name
        if word == "-m" and words[index + 1 : index + 2] == ["unittest"] and index > 0:
            return "unittest", shlex.join(words[:index])
        if name == "pytest" or (word == "-m" and words[index + 1 : index + 2] == ["pytest"]):
            end = index + 1 if name == "pytest" else index + 2
            return "pytest", shlex.join(words[:end])
        settings = settings_of(words[:index])
        if name == "go" and words[index + 1 : index + 2] == ["test"]:
            return "go", shlex.join([*settings, word, "test"])
        if name in ("mvn", "mvnw") and "test" in words:
            return "maven", shlex.join([*settings, *shlex.split(MAVEN.replace("mvn", word, 1))])
        if name == "node" and "--test" in words:
            options = kept_options("node", tuple(words[index:]))
            return "node", shlex.join([*settings, "node", *options, "--test"])
        if name in ("vitest", "jest", "mocha", "borp", "tap"):
            options = kept_options(name, tuple(words[index:]))
            return name, shlex.join([*settings, *shlex.split(DIRECT[name]), *options])
    return None


@dataclass(frozen=True)
class TestCommand:
    """A project's test command and what runs behind it.

    ``kind`` is pytest, node, vitest, jest, ``custom`` (a command with ``{files}``) or
    ``whole`` (an unknown runner that runs the whole suite). ``prefix`` calls the runner
    directly; ``wrapper`` is npm, pnpm or yarn when ``base`` runs a package script.
    ``roots`` are the Python package roots pytest puts first on ``sys.path`` (``-o
    pythonpath``), so the code under test is the tree's, not an installed copy.
    """

    __test__ = False

    base: str
    kind: str
    prefix: str = ""
    wrapper: str | None = None
    plugins: tuple[str, ...] = field(default=())
    roots: tuple[str, ...] = field(default=())
    modcache: str = ""
    gobase: str = ""

    @property
    def has_evidence(self) -> bool:
        """Whether the check can prove that tests ran (a known runner, or ``{junit}``)."""
        return self.kind in CHECK_RUNNER or REPORT in self.base

    def runnable(self, test_files: list[str]) -> list[str]:
        """The test files to hand to the runner (helpers, fixtures and configuration left out)."""
        test_files = [f for f in test_files if PurePosixPath(f).name not in TEST_SUPPORT]
        if self.kind in ("pytest", "unittest"):
            return [
                f
                for f in test_files
                if f.endswith(".py") and PurePosixPath(f).name not in ("conftest.py", "__init__.py")
            ]
        if self.kind in DIRECT:
            return [f for f in test_files if PurePosixPath(f).suffix in JS_SUFFIXES]
        if self.kind == "maven":
            return [f for f in test_files if f.endswith(".java")]
        if self.kind == "go":
            return [f for f in test_files if f.endswith("_test.go")]
        return list(test_files)

    def proof(self, files: list[str], fail_fast: bool = False) -> str:
        """The project's command scoped to ``files`` (``{junit}`` marks the report path).

        ``fail_fast`` stops the run at its first failing test where the runner can
        (``FAIL_FAST``, go's ``-failfast``): for runs whose exit code is all that is read.
        """
        quoted = shlex.join(files)
        if self.kind in ("custom", "whole"):
            return self.base.replace("{files}", quoted)
        if self.kind in WHOLE_SUITE:
            return self.prefix
        if self.kind == "go":
            return self._go(files, REPORT, fail_fast)
        if self.kind == "unittest":
            return self._unittest(quoted)
        flags = self._flags()
        if fail_fast and self.kind in FAIL_FAST:
            flags = f"{flags} {FAIL_FAST[self.kind]}"
        if self.wrapper == "npm":
            return f"{self.base} -- {flags} {quoted}"
        if self.wrapper is not None:
            return f"{self.base} {flags} {quoted}"
        if self.kind == "pytest":
            return f"{pytest_start(self.prefix, self.roots, check=False)} {flags} {quoted}"
        return f"{self.prefix} {flags} {quoted}"

    def check(self, files: list[str]) -> tuple[str, str]:
        """The saved check ``(command, check runner)``: the runner called directly.

        pytest runs with ``-P`` (nothing from the working folder before pytest itself),
        plugin autoload off (``plugins``, the project's own, are named with ``-p``) and no
        cache; the Pythons its tests start get the package roots (``pytest_start``).
        ``{canaries}`` (after the task's files) becomes the judge's canary tests.
        """
        if self.kind == "pytest":
            plugins = [arg for name in self.plugins for arg in ("-p", name)]
            # A task test that cannot be imported must not stop the canaries from running.
            flags = " ".join(
                part
                for part in (
                    shlex.join([*REPORT_FLAGS["pytest"][:2], *plugins]),
                    pythonpath_option(self.roots),
                    shlex.join([CONTINUE, REPORT_FLAGS["pytest"][2]]),
                )
                if part
            )
            start = pytest_start(self.prefix, self.roots, check=True)
            command = f"{start} {flags} {shlex.join(files)}"
            return f"{command} {CANARIES}", CHECK_RUNNER["pytest"]
        if self.kind in WHOLE_SUITE:
            return self.prefix, CHECK_RUNNER[self.kind]
        if self.kind == "go":
            return self._go(files, GO_JSON), CHECK_RUNNER["go"]
        if self.kind == "unittest":
            return f"{self._unittest(shlex.join(files))} {CANARIES}", CHECK_RUNNER["unittest"]
        if self.kind in CHECK_RUNNER:
            flags = shlex.join(REPORT_FLAGS[self.kind])
            return (
                f"{self.prefix} {flags} {shlex.join(files)} {CANARIES}",
                CHECK_RUNNER[self.kind],
            )
        if REPORT in self.base:
            return self.base.replace("{files}", shlex.join(files)), "junit"
        raise UsageError(
            f"the check cannot prove that tests ran with '{self.base}': garuda knows node "
            "--test, vitest, jest, mocha, pytest, unittest, Maven and go test; for another runner give "
            "--test-command with {junit} where it writes JUnit XML and {files} for the task's "
            'test files, for example --test-command "./run-tests --junit-xml {junit} {files}"'
        )

    def _unittest(self, files: str) -> str:
        """unittest's result hook on ``files``; the Pythons its tests start get the roots."""
        command = unittest_command(self.prefix, self.roots, REPORT, files)
        return command_line(child_pythonpath(self.roots), command)

    def _flags(self) -> str:
        """The runner's report flags (pytest's with the package roots first on sys.path)."""
        flags = shlex.join(REPORT_FLAGS[self.kind])
        if self.kind == "pytest" and self.roots:
            first, report = shlex.join(REPORT_FLAGS["pytest"][:2]), REPORT_FLAGS["pytest"][2]
            return f"{first} {pythonpath_option(self.roots)} {shlex.quote(report)}"
        return flags

    @property
    def cache_key(self) -> str:
        """What a cached verdict was proved with: the command and the check it makes."""
        return f"{self.base}\n{self.check(['{files}'])[0]}"

    def _go(self, files: list[str], report: str, fail_fast: bool = False) -> str:
        """``go test -count=1 -json`` on the packages of ``files``, the stream into ``report``.

        The check (``{gojson}``) names the host's module cache and fetches nothing, and its
        build cache starts from garuda's warm base when the user's is not writable.
        """
        folders = sorted({str(PurePosixPath(f).parent) for f in files})
        packages = shlex.join("./" if f == "." else f"./{f}" for f in folders) or "./..."
        cache, settings = GO_CACHE, ""
        if report == GO_JSON and self.gobase:
            cache = GO_CHECK_CACHE.format(base=shlex.quote(self.gobase))
        if report == GO_JSON and self.modcache:
            settings = f"GOMODCACHE={shlex.quote(self.modcache)} GOPROXY=off "
        fast = " -failfast" if fail_fast else ""
        run = (
            f'{settings}GOCACHE="$c" {self.prefix} -count=1 -json{fast} {packages} > {report}; '
            "s=$?; "
        )
        return cache + run + GO_END

    @property
    def report_dir(self) -> str | None:
        """Where a whole-suite runner writes its reports in the tree (None: ``{junit}``)."""
        return WHOLE_SUITE.get(self.kind)

    def config_files(self) -> list[str]:
        """The runner's configuration files, protected in every task."""
        return list(CONFIG_FILES.get(self.kind, []))


def command_line(*parts: str) -> str:
    """The parts that are not empty, one space apart: a setting that is not needed (no
    ``PYTHONPATH``) leaves no gap."""
    return " ".join(part for part in parts if part)


def pytest_start(prefix: str, roots: tuple[str, ...], *, check: bool) -> str:
    """How pytest starts, in the check or the proof, so that the Pythons its tests start
    import the task's code.

    ``python -m pytest`` gets ``-E``: the roots in ``PYTHONPATH`` reach only the tests' own
    child processes, never pytest's start-up. The check adds ``-P`` (no working folder first
    on ``sys.path``) and plugin autoload off. A script (``pytest``, ``uv run pytest``) gets no
    ``PYTHONPATH`` (its interpreter cannot be told to ignore it) and, in the check,
    ``PYTHONSAFEPATH=1``.
    """
    words = shlex.split(prefix)
    if words[-2:] != ["-m", "pytest"]:
        return f"{PYTEST_ENV} {prefix}" if check else prefix
    python = words[:-2]
    python += [flag for flag in (["-E", "-P"] if check else ["-E"]) if flag not in python]
    settings = NO_AUTOLOAD if check else ""
    return command_line(child_pythonpath(roots), settings, shlex.join([*python, "-m", "pytest"]))


def _given_runner(command: str) -> TestCommand | None:
    """``node --test {files}``: a known runner with ``{files}`` last gets its report flags."""
    before, _, after = command.partition("{files}")
    if after.strip() or REPORT in command:
        return None
    parts = segments(before)
    if len(parts) != 1:
        return None
    kind = runner_of(parts[0])
    if kind not in CHECK_RUNNER:
        return None
    if kind in ("pytest", "unittest"):
        found = _runner_kind(shlex.split(before))
        prefix = found[1] if found else before.strip()
    else:
        prefix = before.strip()
        if kind == "vitest" and PurePosixPath(shlex.split(prefix)[-1]).name == "vitest":
            prefix = f"{prefix} run"
    return TestCommand(command, kind, prefix)


def classify(command: str, package_json: str | None) -> TestCommand:
    """What runs behind ``command``; ``package_json`` is the project's, for npm scripts.

    A package script whose runner garuda knows is called through the package manager when
    the script is that runner alone and the manager is installed, else the runner directly.
    """
    if "{files}" in command:
        return _given_runner(command) or TestCommand(command, "custom")
    words = shlex.split(command)
    direct = _runner_kind(words)
    if direct:
        return TestCommand(command, direct[0], direct[1])
    if words and words[0] in WRAPPERS and len(words) >= 2:
        name = words[2] if words[1] in ("run", "run-script") and len(words) > 2 else words[1]
        scripts = package_scripts(package_json)
        found = find_runner(scripts, name)
        if found is not None and found.kind in CHECK_RUNNER:
            alone = len(segments(scripts.get(name, ""))) == 1
            inner = _runner_kind(list(found.words))
            if alone and inner and shutil.which(words[0]):
                return TestCommand(command, inner[0], inner[1], wrapper=words[0])
            return TestCommand(command, found.kind, found.direct)
    return TestCommand(command, "whole")


def package_scripts(package_json: str | None) -> dict[str, str]:
    """The ``scripts`` of a package.json text (empty when absent or not JSON)."""
    try:
        data = json.loads(package_json or "{}")
    except json.JSONDecodeError:
        return {}
    scripts = data.get("scripts") if isinstance(data, dict) else None
    return (
        {k: v for k, v in scripts.items() if isinstance(v, str)}
        if isinstance(scripts, dict)
        else {}
    )
