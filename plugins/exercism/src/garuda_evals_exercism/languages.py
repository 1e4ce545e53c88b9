"""How an exercise of each supported track is checked: its runner, command and protected files.

A track is told by its test files' extension. Python runs its tests under pytest as the
python suite does (``-c pyproject.toml``, no ``conftest.py``, the runner's JUnit report, the
pytest runner's canaries); a ``pyproject.toml`` is added to the workspace when the exercise
has none. Other tracks are refused, named.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from garuda_evals_exercism.exercises import Exercise, Refused

PYTEST_CONFIGS = (
    "pyproject.toml",
    "pytest.ini",
    ".pytest.ini",
    "pytest.toml",
    ".pytest.toml",
    "tox.ini",
    "setup.cfg",
    "conftest.py",
)
PYPROJECT = """\
# Added by garuda import exercism: the check's pytest configuration (-c pyproject.toml).
[tool.pytest.ini_options]
"""


@dataclass(frozen=True)
class Language:
    """One track's check."""

    name: str
    suffixes: tuple[str, ...]
    requires: tuple[str, ...]
    runner: str
    command: str
    protected: tuple[str, ...]
    added: dict[str, str] = field(default_factory=dict)


PYTHON = Language(
    name="python",
    suffixes=(".py",),
    requires=("pytest",),
    runner="pytest",
    command=(
        "PYTEST_DISABLE_PLUGIN_AUTOLOAD=1 python3 -P -m pytest -q -c pyproject.toml "
        "--noconftest -p no:cacheprovider --continue-on-collection-errors --tb=line "
        "--junitxml={junit}"
    ),
    protected=(*PYTEST_CONFIGS, "tests/", "test/"),
    added={"pyproject.toml": PYPROJECT},
)
LANGUAGES = (PYTHON,)


def language_of(exercise: Exercise) -> Language:
    """The track of ``exercise``'s test files; ``Refused`` for a track with no runner here."""
    suffixes = {"." + path.rsplit(".", 1)[-1] for path in exercise.test_paths if "." in path}
    for language in LANGUAGES:
        if suffixes and suffixes <= set(language.suffixes):
            return language
    shown = ", ".join(sorted(suffixes)) or "files without an extension"
    supported = ", ".join(language.name for language in LANGUAGES)
    raise Refused(f"no check for tests in {shown} (tracks supported: {supported})")


def title(slug: str) -> str:
    """``two-fer`` -> ``Two Fer``."""
    return " ".join(word.capitalize() for word in slug.replace("_", "-").split("-") if word)


def prompt(exercise: Exercise) -> str:
    """The instructions, then what to edit and what the tests are."""
    solutions = ", ".join(exercise.solution_paths)
    tests = ", ".join(exercise.test_paths)
    return (
        f"# {title(exercise.slug)}\n\n{exercise.instructions}\n\n"
        f"Edit {solutions} so that the tests in {tests} pass. The tests are given and must not "
        "change. Keep the names the tests use (modules, functions, classes), and use only the "
        "language's standard library.\n"
    )
