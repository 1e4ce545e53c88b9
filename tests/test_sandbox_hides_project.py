"""Under the OS sandbox an agent cannot read the user's project: its history or earlier runs."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from garuda_evals.testing import skip_or_fail

REPO = Path(__file__).resolve().parents[1]
MINI = REPO / "core" / "tests" / "suite_data" / "mini"
GARUDA = str(Path(sys.executable).parent / "garuda")


def test_agent_cannot_read_the_project_under_bwrap_but_can_on_the_host(tmp_path: Path) -> None:
    if shutil.which("bwrap") is None:
        skip_or_fail("bwrap", "apt-get install bubblewrap")
    project = Path("/var/tmp") / f"garuda-project-{tmp_path.name}"
    shutil.rmtree(project, ignore_errors=True)
    (project / ".git").mkdir(parents=True)
    (project / "secret.txt").write_text("the answer is a + b\n")
    steal = f"cat {project / 'secret.txt'} > stolen.txt && sed -i 's/a - b/a + b/' src/calc.py"
    try:
        runs = {}
        for executor in ("os", "host"):
            runs[executor] = subprocess.run(
                [
                    GARUDA,
                    "eval",
                    "--agent",
                    "command",
                    "--agent-command",
                    steal,
                    "-s",
                    str(MINI),
                    "-t",
                    "add",
                    "--executor",
                    executor,
                ],
                cwd=project,
                capture_output=True,
                text=True,
                timeout=300,
            )
        assert runs["os"].returncode == 2, runs["os"].stderr
        assert "executor: bwrap" in runs["os"].stderr
        assert "FAIL" in runs["os"].stdout
        assert runs["host"].returncode == 0, runs["host"].stderr
    finally:
        shutil.rmtree(project, ignore_errors=True)
