"""The verdict cache: a commit proved with a test command is not proved again."""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import Field, ValidationError

from garuda_evals.api import Model
from garuda_evals_repo_git.suitefile import EVALS_DIR, write_private

CACHE_FILE = EVALS_DIR / "repo-cache.json"
CACHE_VERSION = 2


class HeldOutTest(Model):
    """A test function of the commit that can be held out of a task, with its canaries.

    Proved when it was found: held out of its file and written as the judge writes it, it
    fails at the parent and passes at the commit; each canary (the same test with one
    expected value changed) fails at both.
    """

    id: str = Field(description="its id in the runner's report at the commit")
    path: str = Field(description="its test file")
    test: str = Field(description="the test alone (a method: its class with only that method)")
    canaries: list[str] = Field(description="the same test, each with one value changed")


class Verdict(Model):
    """What the proof of one candidate found. ``reason`` None means the task is kept."""

    reason: str | None = None
    fail_to_pass: list[str] = Field(default_factory=list)
    passed_tests: list[str] = Field(
        default_factory=list, description="every test id that passed at the commit"
    )
    failure_tail: str = ""
    strength: float | None = Field(
        default=None, description="share of the reference change's mutants the tests reject"
    )
    mutants: int = 0
    survivors: list[str] = Field(default_factory=list)
    sandbox: dict[str, str] = Field(
        default_factory=dict,
        description="the sandbox step's verdict per task and environment digest: why the "
        "task was dropped, '' when it was kept",
    )
    held_out: list[HeldOutTest] | None = Field(
        default=None,
        description="the tests that can be held out (None: not looked for yet; pytest only)",
    )


class CacheFile(Model):
    """``key -> verdict`` where the key is the commit and the test command."""

    version: int = CACHE_VERSION
    verdicts: dict[str, Verdict] = Field(default_factory=dict)


def cache_key(sha: str, test_command: str) -> str:
    """The cache key of a commit proved with a test command."""
    return f"{sha} {test_command}"


class VerdictCache:
    """Loaded once per build, saved at its end. A damaged cache is ignored, not fatal."""

    def __init__(self, root: Path) -> None:
        self.path = root / CACHE_FILE
        self.root = root
        self.data = CacheFile()
        self.damaged = False
        if self.path.is_file():
            try:
                data = json.loads(self.path.read_text(encoding="utf-8"))
                if isinstance(data, dict) and data.get("version") != CACHE_VERSION:
                    return  # an older cache lacks what tasks now keep: prove again
                self.data = CacheFile.model_validate(data)
            except (ValueError, ValidationError):
                self.damaged = True

    def get(self, sha: str, test_command: str) -> Verdict | None:
        """The saved verdict, if any."""
        return self.data.verdicts.get(cache_key(sha, test_command))

    def put(self, sha: str, test_command: str, verdict: Verdict) -> None:
        """Remember a verdict (saved by ``save``)."""
        self.data.verdicts[cache_key(sha, test_command)] = verdict

    def save(self) -> None:
        """Write the cache file."""
        write_private(self.root)
        self.path.write_text(
            json.dumps(self.data.to_json_dict(), indent=1) + "\n", encoding="utf-8"
        )
