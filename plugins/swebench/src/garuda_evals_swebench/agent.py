"""The ``swe-prediction`` agent: applies each task's predicted patch, made by another tool.

``garuda grade`` runs it; ``garuda eval --agent swe-prediction --predictions FILE`` does the
same. The patch is applied as SWE-bench's harness applies it: ``git apply``, then GNU
``patch --fuzz=5`` when git refuses. A patch that applies nowhere leaves the workspace as
shipped (the check then fails: a FAIL, as SWE-bench counts it), with a notice saying why.
The usage of the tool that made the patch is unknown: tokens ``?``, cost incomplete.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from garuda_evals.api import (
    Agent,
    AgentFactory,
    AgentOutcome,
    AgentTurn,
    GarudaError,
    RunSettings,
    Transcript,
    Usage,
    UsageError,
)
from garuda_evals_swebench.predictions import (
    Prediction,
    PredictionOptions,
    load_predictions,
    models,
)

NAME = "swe-prediction"
UNKNOWN_USAGE = "the patch was made by another tool: its usage is not known"
PATCH_FILE = "garuda-prediction.patch"


def _options(settings: RunSettings) -> PredictionOptions:
    return settings.options_for("swe-bench", PredictionOptions)


def _attempts(patch: Path) -> list[list[str]]:
    attempts = [["git", "apply", "--whitespace=nowarn", str(patch)]]
    if shutil.which("patch"):
        attempts.append(
            ["patch", "--batch", "--fuzz=5", "-p1", "--no-backup-if-mismatch", "-i", str(patch)]
        )
    return attempts


def apply_prediction(workspace: Path, text: str) -> str | None:
    """Apply ``text`` to ``workspace``; None when it applied, else why not (the last
    attempt's last line). The patch file goes under ``.git``, which is never judged."""
    folder = workspace / ".git" if (workspace / ".git").is_dir() else workspace.parent
    patch = folder / PATCH_FILE
    patch.write_text(text if text.endswith("\n") else text + "\n", encoding="utf-8")
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(folder),
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_CONFIG_GLOBAL": os.devnull,
        "LC_ALL": "C",
    }
    why = ""
    try:
        for command in _attempts(patch):
            done = subprocess.run(
                command, cwd=workspace, env=env, capture_output=True, text=True, timeout=120
            )
            if done.returncode == 0:
                return None
            lines = (done.stderr or done.stdout).strip().splitlines()
            why = f"{command[0]}: {lines[-1] if lines else f'exit {done.returncode}'}"
    finally:
        patch.unlink(missing_ok=True)
    return why


class PredictionAgent(Agent):
    """Applies the prediction of each task's instance."""

    def __init__(self, predictions: dict[str, Prediction]) -> None:
        self.predictions = predictions

    async def run(self, turn: AgentTurn) -> AgentOutcome:
        """Apply the patch predicted for ``turn.task``; a task without one is an error run."""
        prediction = self.predictions.get(turn.task.id)
        if prediction is None:
            raise GarudaError(f"no prediction for {turn.task.id} in the predictions file")
        usage = Usage.unreported(UNKNOWN_USAGE)
        text = prediction.model_patch or ""
        with Transcript(turn.transcript) as transcript:
            transcript.write("prediction", {"model": prediction.model_name_or_path, "patch": text})
            why = (
                apply_prediction(turn.workspace, text)
                if text.strip()
                else "the prediction has no patch"
            )
            transcript.write("applied", {"applied": why is None, "why": why})
        if why is None:
            turn.events("tool", f"applied the predicted patch ({len(text)} characters)")
            return AgentOutcome(steps=None, usage=usage, stop_reason="done")
        notice = f"the predicted patch was not applied: {why}"
        turn.events("notice", notice)
        return AgentOutcome(steps=None, usage=usage, stop_reason="done", notices=[notice])


class PredictionAgentFactory(AgentFactory):
    """Entry point ``swe-prediction``."""

    name = NAME
    description = "applies SWE-bench predictions (--predictions FILE) made by another tool"
    accepts = frozenset({"--predictions"})

    def check_settings(self, settings: RunSettings) -> None:
        """``--predictions`` is given and readable."""
        given = _options(settings).predictions
        if not given:
            raise UsageError(f"--agent {NAME} needs --predictions FILE")
        load_predictions(Path(given))

    def describe(self, settings: RunSettings) -> dict[str, str]:
        """The agent, the predictions file and the models it names."""
        given = _options(settings).predictions or ""
        described = {"agent": NAME, "predictions": given}
        if given and Path(given).is_file():
            described["model"] = models(load_predictions(Path(given)))
        return described

    def create(self, settings: RunSettings) -> Agent:
        """The agent with the file's predictions."""
        return PredictionAgent(load_predictions(Path(_options(settings).predictions or "")))
