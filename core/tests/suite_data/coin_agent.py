"""A scripted agent for A/B tests: solves a coin task with probability P.

Usage: python3 agent.py P SEED STATE_DIR. The draw is seeded by SEED, the task id and how
many times this agent has tried that task (counted in STATE_DIR), so a run is repeatable.
"""

import os
import random
import sys
from pathlib import Path

chance, seed, state = float(sys.argv[1]), sys.argv[2], Path(sys.argv[3])
task = os.environ["GARUDA_TASK_ID"]
state.mkdir(parents=True, exist_ok=True)
counter = state / f"{task}.count"
attempt = int(counter.read_text()) + 1 if counter.exists() else 1
counter.write_text(str(attempt))
if random.Random(f"{seed}:{task}:{attempt}").random() < chance:
    Path("answer.txt").write_text("42\n")
