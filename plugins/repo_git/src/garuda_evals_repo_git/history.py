"""The commits a build reads: ``--commits`` first, then older ones while tasks are missing."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from garuda_evals_repo_git.candidates import candidate_or_reason
from garuda_evals_repo_git.gitcmd import Commit, recent_commits
from garuda_evals_repo_git.prove import Candidate
from garuda_evals_repo_git.runners import TestCommand

# How far back a build may read, in multiples of --commits, to replace dropped tasks.
REACH = 3


@dataclass
class History:
    """Reads HEAD's history ``batch`` commits at a time, up to ``REACH`` × ``batch`` in all.

    Each batch goes through the file rules: the skipped commits are counted in ``skipped``,
    the others come back as candidates. ``read`` and ``oldest`` say how far it went.
    """

    root: Path
    command: TestCommand
    dependencies: list[str]
    batch: int
    since: str | None
    skipped: Counter[str]
    read: int = 0
    oldest: Commit | None = None
    ended: bool = False
    candidates: list[Candidate] = field(default_factory=list)

    def next(self) -> list[Candidate]:
        """The candidates of the next batch of older commits (none once history ends)."""
        count = min(self.batch, REACH * self.batch - self.read)
        if self.ended or count <= 0:
            return []
        commits = recent_commits(self.root, count, self.since, skip=self.read)
        self.read += len(commits)
        # git log stops at the root commit: a batch that ends there (or short) is the last.
        self.ended = len(commits) < count or (bool(commits) and commits[-1].parent is None)
        found: list[Candidate] = []
        for commit in commits:
            self.oldest = commit
            candidate = candidate_or_reason(self.root, commit, self.command)
            if isinstance(candidate, str):
                self.skipped[candidate] += 1
            else:
                candidate.dependencies = self.dependencies
                found.append(candidate)
        self.candidates += found
        return found
