"""``--resume RUN`` and ``--retry-errors RUN``: find the run, and refuse one that would mix setups."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from garuda_evals.errors import UsageError
from garuda_evals.runner.journal import RunManifest, read_manifest
from garuda_evals.runner.run_folder import find_run


@dataclass(frozen=True)
class Resume:
    """The run to continue, and whether its ERR runs are run again."""

    run_dir: Path
    manifest: RunManifest
    retry_errors: bool = False

    @property
    def flag(self) -> str:
        """The flag that asked for it, for messages."""
        return "--retry-errors" if self.retry_errors else "--resume"


def load_resume(cwd: Path, name: str, *, retry_errors: bool) -> Resume:
    """The run named by ``--resume``/``--retry-errors`` with its manifest."""
    flag = "--retry-errors" if retry_errors else "--resume"
    run_dir = find_run(cwd, name, flag)
    return Resume(run_dir, read_manifest(run_dir), retry_errors)


def _differences(what: str, before: dict[str, str], now: dict[str, str]) -> list[str]:
    found: list[str] = []
    for key in sorted(set(before) | set(now)):
        old, new = before.get(key), now.get(key)
        if old == new:
            continue
        if what == "suite" and old and new:
            found.append(
                f"the tasks of suite {key} changed since the run "
                f"(fingerprint {new} here, {old} in the run)"
            )
        else:
            found.append(f"{what} {key} is {new or 'absent'} here but {old or 'absent'} in the run")
    return found


def check_same(
    resume: Resume, *, versions: dict[str, str], agent: dict[str, str], suites: dict[str, str]
) -> None:
    """Raise a UsageError naming the first difference of versions, agent or suites."""
    manifest = resume.manifest
    found = [
        *_differences("version of", manifest.versions, versions),
        *_differences("agent setting", manifest.agent, agent),
        *_differences("suite", manifest.suites, suites),
    ]
    if found:
        more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
        raise UsageError(f"{resume.flag} {manifest.run_id}: refused, {found[0]}{more}")


SETTINGS_DIFFER = "{flag} is {now} here but {before} in the run"
