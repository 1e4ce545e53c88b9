"""The reward a Harbor verifier writes, read as test evidence.

Harbor reads ``reward.txt`` (one number) and, without it, ``reward.json`` (an object of named
numbers, ``{"reward": 0.75}``). Each reward is one case: passed when at least ``minimum``.
Neither file, an empty one or one that is not numbers is no evidence (``tests_ran`` None):
the check fails, as Harbor fails a trial whose verifier wrote no reward. JUnit XML written
beside the reward joins the cases when ``minimum`` is the full reward (1): a report that
shows a failed test beside a full reward is not a pass.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

from garuda_evals.api import TestCase, TestEvidence, read_junit

MAX_REWARD_BYTES = 1 << 16


def _number(value: object) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    number = float(value)
    return number if math.isfinite(number) else None


def read_rewards(verifier: Path) -> tuple[dict[str, float] | None, str]:
    """``name -> reward`` from ``reward.txt`` (named ``reward``) or ``reward.json``, or None
    and why."""
    text_file, json_file = verifier / "reward.txt", verifier / "reward.json"
    for path in (text_file, json_file):
        if path.is_symlink() or (path.exists() and not path.is_file()):
            return None, f"{path.name} is not a regular file"
    if text_file.is_file():
        text = text_file.read_bytes()[:MAX_REWARD_BYTES].decode("utf-8", "replace").strip()
        try:
            number = _number(float(text))
        except ValueError:
            number = None
        if number is None:
            return None, f"reward.txt holds no number ({text[:40]!r})"
        return {"reward": number}, "reward.txt"
    if json_file.is_file():
        try:
            data = json.loads(json_file.read_bytes()[:MAX_REWARD_BYTES])
        except (ValueError, UnicodeDecodeError) as error:
            return None, f"reward.json is not JSON: {error}"
        if not isinstance(data, dict) or not data:
            return None, "reward.json is not an object of named rewards"
        rewards = {str(name): _number(value) for name, value in data.items()}
        bad = [name for name, value in rewards.items() if value is None]
        if bad:
            return None, f"reward.json: {bad[0]} is not a number"
        return {name: value for name, value in rewards.items() if value is not None}, "reward.json"
    return None, "no reward file was written (/logs/verifier/reward.txt or reward.json)"


def _shown(value: float) -> str:
    return f"{value:g}"


def read_evidence(verifier: Path, minimum: float) -> TestEvidence:
    """One case per reward (and per JUnit test, with a full-reward minimum)."""
    rewards, source = read_rewards(verifier)
    if rewards is None:
        return TestEvidence(tests_ran=None, detail=source)
    cases = [
        TestCase(
            name,
            "passed" if value >= minimum else "failed",
            "" if value >= minimum else f"{name} {_shown(value)} (a PASS needs {_shown(minimum)})",
        )
        for name, value in rewards.items()
    ]
    detail = f"{source}: " + ", ".join(f"{n} {_shown(v)}" for n, v in rewards.items())
    detail += f" (a PASS needs {_shown(minimum)})"
    if minimum >= 1:
        junit = read_junit((verifier,))
        if junit.tests_ran is not None and junit.cases:
            cases += [
                TestCase(f"junit {case.id}", case.outcome, case.message) for case in junit.cases
            ]
            detail += f"; JUnit: {junit.detail}"
    failed = sum(1 for case in cases if case.outcome in ("failed", "error"))
    skipped = sum(1 for case in cases if case.outcome == "skipped")
    return TestEvidence(
        tests_ran=len(cases) - skipped,
        failed=failed,
        detail=detail,
        cases=tuple(cases),
        skipped=skipped,
    )
