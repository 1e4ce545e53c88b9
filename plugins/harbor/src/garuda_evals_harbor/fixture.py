"""A small set of Harbor task folders made offline, for tests and trying the commands.

``python -m garuda_evals_harbor.fixture DIR`` writes three task folders in Terminal-Bench 2's
layout: ``csv-summary`` (a python image with pytest; its verifier runs pytest and writes
``reward.txt`` and a JUnit report), ``greeting`` (a debian image; a shell verifier that
writes ``reward.json``) and ``render-report`` (its Dockerfile installs a Debian package no
host has, so it is refused). The python image's version is this interpreter's.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

PYTHON = f"{sys.version_info.major}.{sys.version_info.minor}"
TASK_TOML = """\
version = "1.0"

[metadata]
difficulty = "easy"
category = "{category}"

[verifier]
timeout_sec = 120.0

[agent]
timeout_sec = 300.0

[environment]
build_timeout_sec = 600.0
cpus = 1
memory_mb = 2048
"""
TASKS: dict[str, dict[str, str]] = {
    "csv-summary": {
        "instruction.md": (
            "Read /app/sales.csv (columns region,amount) and write /app/summary.txt with one "
            "line per region, `region,total`, sorted by region, where total is the sum of the "
            "region's amounts.\n"
        ),
        "task.toml": TASK_TOML.format(category="data-processing"),
        "environment/Dockerfile": (
            f"FROM python:{PYTHON}-slim-bookworm\n\n"
            "RUN apt-get update && apt-get install -y --no-install-recommends bash \\\n"
            "    && rm -rf /var/lib/apt/lists/*\n"
            "RUN pip install --no-cache-dir pytest\n\n"
            "WORKDIR /app\n"
            "COPY sales.csv /app/sales.csv\n"
        ),
        "environment/sales.csv": "region,amount\nnorth,10\nsouth,5\nnorth,7\neast,3\nsouth,1\n",
        "tests/test.sh": (
            "#!/bin/bash\n"
            "# Run the tests against /app, then write the reward Harbor reads.\n"
            "cd /app\n"
            "python3 -m pytest /tests/test_outputs.py -rA -p no:cacheprovider "
            "--junitxml=/logs/verifier/junit.xml\n"
            "if [ $? -eq 0 ]; then echo 1 > /logs/verifier/reward.txt; "
            "else echo 0 > /logs/verifier/reward.txt; fi\n"
        ),
        "tests/test_outputs.py": (
            "from pathlib import Path\n\n\n"
            "def test_summary_exists():\n"
            '    assert Path("/app/summary.txt").is_file()\n\n\n'
            "def test_summary_totals():\n"
            '    lines = Path("/app/summary.txt").read_text().split()\n'
            '    assert lines == ["east,3", "north,17", "south,6"]\n'
        ),
        "solution/solve.sh": (
            "#!/bin/bash\n"
            "cat > /app/summarize.py <<'EOF'\n"
            "import csv\n"
            "from collections import defaultdict\n\n"
            "totals = defaultdict(int)\n"
            'with open("/app/sales.csv") as handle:\n'
            "    for row in csv.DictReader(handle):\n"
            '        totals[row["region"]] += int(row["amount"])\n'
            'with open("/app/summary.txt", "w") as out:\n'
            "    for region in sorted(totals):\n"
            '        out.write(f"{region},{totals[region]}\\n")\n'
            "EOF\n"
            "python3 /app/summarize.py\n"
        ),
    },
    "greeting": {
        "instruction.md": (
            "Write /app/greet.sh: `bash /app/greet.sh NAME` prints `$GREETING, NAME!` (the "
            "GREETING variable is set in the environment).\n"
        ),
        "task.toml": TASK_TOML.format(category="shell"),
        "environment/Dockerfile": (
            "FROM debian:bookworm-slim\n"
            "RUN apt-get update && apt-get install -y coreutils bash\n"
            "ENV GREETING=Hello\n"
            "WORKDIR /app\n"
        ),
        "tests/test.sh": (
            "#!/bin/bash\n"
            "out=$(bash /app/greet.sh World 2>&1)\n"
            'if [ "$out" = "$GREETING, World!" ]; then\n'
            "  echo '{\"reward\": 1.0}' > /logs/verifier/reward.json\n"
            "else\n"
            "  echo '{\"reward\": 0.0}' > /logs/verifier/reward.json\n"
            "fi\n"
        ),
        "solution/solve.sh": (
            "#!/bin/bash\nprintf '%s\\n' '#!/bin/bash' 'echo \"$GREETING, $1!\"' > /app/greet.sh\n"
        ),
    },
    "render-report": {
        "instruction.md": "Render /app/report.grdx to /app/report.pdf with grdx-render.\n",
        "task.toml": TASK_TOML.format(category="file-operations"),
        "environment/Dockerfile": (
            f"FROM python:{PYTHON}-slim\n"
            "RUN apt-get update \\\n"
            "    && apt-get install -y --no-install-recommends libgrdx-render0 \\\n"
            "    && rm -rf /var/lib/apt/lists/*\n"
            "WORKDIR /app\n"
        ),
        "tests/test.sh": (
            "#!/bin/bash\n"
            "test -s /app/report.pdf && echo 1 > /logs/verifier/reward.txt "
            "|| echo 0 > /logs/verifier/reward.txt\n"
        ),
        "solution/solve.sh": "#!/bin/bash\ngrdx-render /app/report.grdx -o /app/report.pdf\n",
    },
}


def make(root: Path) -> Path:
    """Write the task folders under ``root``; return ``root``."""
    for task, files in TASKS.items():
        for relative, text in files.items():
            path = root / task / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
    return root


def main() -> None:
    """``python -m garuda_evals_harbor.fixture DIR``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    make(parser.parse_args().folder)


if __name__ == "__main__":
    main()
