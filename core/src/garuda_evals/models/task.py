"""A coding task: what the agent is asked, where, and how the result is checked."""

from pydantic import Field

from garuda_evals.models.base import Model
from garuda_evals.models.relpath import ProtectedPattern, TaskPath

DEFAULT_PROTECTED = ("test/", "tests/", "src/test/", "pom.xml", "pyproject.toml")
DEFAULT_CHECK_TIMEOUT_S = 120.0


class CheckSpec(Model):
    """The command that decides pass or fail, and the runner that proves tests ran.

    ``command`` may hold ``{junit}``: the check runner replaces it with a path where the
    test runner must write its JUnit XML report (the evidence that tests ran).
    """

    command: str
    runner: str = Field(description="name of a check runner (test-runner adapter), e.g. 'pytest'")
    timeout_s: float = DEFAULT_CHECK_TIMEOUT_S


class Solution(Model):
    """The reference solution: files to write (path -> content) and paths to delete.

    Every path is relative and stays inside the workspace (see ``models.relpath``).
    """

    files: dict[TaskPath, str] = Field(default_factory=dict)
    delete: list[TaskPath] = Field(default_factory=list)


class HeldOut(Model):
    """Tests the agent never sees, and their look-alike canaries (path -> text).

    The judge alone writes them, into its fresh copy, under names chosen per run by the
    task's check runner (``CheckRunner.held_out``). ``tests`` must fail as shipped and pass
    with the reference solution; ``canaries`` are shaped like them (the same runner, the same
    imports and calls, an expected value changed) and must fail with the reference solution.
    A PASS needs every held-out test passed and every canary failed: code that flips the
    results it cannot tell apart flips both. Paths say where such a test would live in the
    workspace (its folder and kind); the runner chooses the names.
    """

    tests: dict[TaskPath, str] = Field(default_factory=dict)
    canaries: dict[TaskPath, str] = Field(default_factory=dict)
    fixed_ids: bool = Field(
        default=False,
        description=(
            "the tests keep the paths and ids their source gives them (an imported "
            "benchmark's test patch, graded by the task's expected tests): no name can be "
            "drawn per run and no canary shaped like them, so none is asked for"
        ),
    )


class Task(Model):
    """One task of a suite. ``files`` is the workspace as shipped (path -> text).

    The keys of ``files`` and every ``protected`` pattern are relative paths inside the
    workspace; anything else is a validation error.
    """

    id: str
    title: str
    prompt: str
    suite: str = ""
    files: dict[TaskPath, str] = Field(default_factory=dict)
    check: CheckSpec
    protected: list[ProtectedPattern] = Field(default_factory=lambda: list(DEFAULT_PROTECTED))
    requires: list[str] = Field(default_factory=list)
    solution: Solution | None = None
    held_out: HeldOut | None = Field(
        default=None, description="tests only the judge runs (see HeldOut); None: none"
    )
    expected_tests: list[str] | None = Field(
        default=None,
        description="test ids that must pass (None: not pinned; see garuda_evals.suites.pinning)",
    )
    metadata: dict[str, str] = Field(default_factory=dict)
    strength: float | None = Field(
        default=None,
        description="share of wrong variants of the reference solution the check rejects",
    )
    source: str = Field(default="", description="the file that defines the task, for errors")
