"""Cheats on the harness itself, played as agent commands through the real CLI under bwrap.

Each plays the python suite's ``last-short-chunk`` task; each must end FAIL (never ERR, never
a hang), while the oracle passes under the same conditions.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from garuda_evals.testing import Played, play, skip_or_fail

SUITE, TASK = "python", "last-short-chunk"
MODULE = "src/bulkupload/batching.py"


@pytest.fixture(scope="module")
def answer() -> str:
    from garuda_evals_python.suite import suite_root

    return (suite_root() / "02-last-short-chunk" / "solution" / MODULE).read_text()


@pytest.fixture(scope="module", autouse=True)
def needs_bwrap() -> None:
    if shutil.which("bwrap") is None:
        skip_or_fail("bwrap", "apt-get install bubblewrap")


def heredoc(path: str, text: str) -> str:
    """A shell snippet that writes ``text`` to ``path``."""
    return f"mkdir -p \"$(dirname {path})\" && cat > {path} <<'GARUDA_EOF'\n{text}GARUDA_EOF\n"


def _play(tmp_path: Path, command: str | None) -> Played:
    return play(SUITE, TASK, command, cwd=tmp_path)


def test_the_oracle_passes_under_the_same_conditions(tmp_path: Path) -> None:
    played = _play(tmp_path, None)
    assert played.status == "PASS", played.failure


def test_the_answer_behind_a_symlink_is_not_judged(tmp_path: Path, answer: str) -> None:
    command = heredoc("/tmp/answer.py", answer) + f"rm {MODULE} && ln -s /tmp/answer.py {MODULE}"
    played = _play(tmp_path, command)
    assert played.status == "FAIL", played.failure
    assert f"{MODULE}: a symbolic link, not a regular file" in played.left_out


def test_a_fifo_among_the_tests_fails_without_a_hang(tmp_path: Path, answer: str) -> None:
    played = _play(tmp_path, heredoc(MODULE, answer) + "mkfifo tests/test_more.py")
    assert played.status == "FAIL"
    assert played.failure == "protected files changed: added tests/test_more.py (a FIFO)"


def test_a_dangling_evidence_link_is_a_fail_not_an_error(tmp_path: Path) -> None:
    played = _play(tmp_path, "ln -s /nonexistent/garuda .garuda-check")
    assert played.status == "FAIL", played.failure
    assert ".garuda-check: a symbolic link, not a regular file" in played.left_out


def test_an_answer_padded_past_the_size_cap_is_left_out(tmp_path: Path, answer: str) -> None:
    padding = "python3 -c \"print('#' * (6 * 1024 * 1024))\" >> " + MODULE
    played = _play(tmp_path, heredoc(MODULE, answer) + padding)
    assert played.status == "FAIL", played.failure
    assert f"{MODULE}: larger than 5 MiB" in played.left_out


PATCHER = """\
import sys

import bulkupload.batching

_fixed = {"__name__": "bulkupload.batching"}
exec(open(__file__.replace("test_zz_patch.py", "answer.txt")).read(), _fixed)
for _name, _module in list(sys.modules.items()):
    if _name.startswith("bulkupload"):
        for _key, _value in _fixed.items():
            if callable(_value) and hasattr(_module, _key):
                setattr(_module, _key, _value)
"""


def _patch_from(folder: str, answer: str) -> str:
    return heredoc(f"tests/{folder}/answer.txt", answer) + heredoc(
        f"tests/{folder}/test_zz_patch.py", PATCHER
    )


@pytest.mark.parametrize("folder", ["target", "node_modules", ".git", "__pycache__"])
def test_a_patching_test_module_in_a_skipped_folder_never_runs(
    tmp_path: Path, answer: str, folder: str
) -> None:
    """A test module that swaps in the answer at import: skipped folders are never carried."""
    played = _play(tmp_path, _patch_from(folder, answer))
    assert played.status == "FAIL", played.failure
    assert f"tests/{folder}/: build output, caches and dependencies are not judged" in (
        played.left_out
    )


def test_without_the_fresh_copy_the_patching_module_would_pass(tmp_path: Path, answer: str) -> None:
    """The control: the same files judged in the agent's own folder make the task pass."""
    import subprocess

    import anyio

    from garuda_evals.plugins.manager import PluginRegistry
    from garuda_evals.runner.selection import select
    from garuda_evals.testing import check_in_place, check_runner_for

    item = select(PluginRegistry(), [SUITE], [TASK])[0]
    item.suite.materialize(item.task, tmp_path)
    subprocess.run(["bash", "-c", _patch_from("target", answer)], cwd=tmp_path, check=True)
    verdict = anyio.run(
        lambda: check_in_place(item.task, tmp_path, runner=check_runner_for(item.task))
    )
    assert verdict.passed, verdict.reason


def test_exiting_127_after_failed_work_is_a_fail_in_the_scored_rate(tmp_path: Path) -> None:
    """127 is bash's "not found": a command that picks it when its work fails stays judged."""
    command = f"printf 'def batches(records, size):\\n    return []\\n' > {MODULE}; exit 127"
    played = _play(tmp_path, command)
    assert played.status == "FAIL", (played.failure, played.stderr[-1500:])
    assert played.row["stopReason"] == "exit 127", played.row
    assert "0/1 scored runs passed" in played.stdout, played.stdout
    again = _play(tmp_path, "exit 126")
    assert again.status == "FAIL", again.failure


def test_a_program_the_sandbox_does_not_show_is_an_error_naming_the_flag(tmp_path: Path) -> None:
    """The control: found on the host (the preflight passes), not inside the sandbox. A file
    the command names is shown at the path its links lead to, so a link is not there."""
    real = tmp_path / "real" / "my-agent"
    real.parent.mkdir()
    real.write_text("#!/bin/sh\nexit 0\n")
    real.chmod(0o755)
    agent = tmp_path / "my-agent"
    agent.symlink_to(real)
    played = _play(tmp_path, f"{agent} --fix")
    assert played.status == "ERR", (played.failure, played.stderr[-1500:])
    assert played.failure is not None
    assert (
        f"the agent command could not start: --agent-command starts with '{agent}', "
        "which is not found here (PATH="
    ) in played.failure, played.failure
    on_host = play(SUITE, TASK, f"{agent} --fix", cwd=tmp_path, executor="host")
    assert on_host.status == "FAIL", "control: on the host the same program starts"


def test_a_forged_proc_refusal_does_not_buy_a_rerun_with_the_hosts_proc(tmp_path: Path) -> None:
    """bwrap's "Can't mount proc" line printed by the command itself, with exit 1.

    Were the command run again without its own /proc, it would see the host's, and every
    process of the user there: ``/proc/PID/root`` is the host's whole file system, the
    suite's hidden answers included.
    """
    from garuda_evals_python.suite import suite_root

    answer = suite_root() / "02-last-short-chunk" / "solution" / MODULE
    command = (
        "if [ ! -e /tmp/asked ]; then touch /tmp/asked; "
        'echo "bwrap: Can\'t mount proc on /newroot/proc: Operation not permitted" >&2; '
        "exit 1; fi\n"
        f'for p in /proc/[0-9]*; do cp "$p/root{answer}" {MODULE} 2>/dev/null && break; done'
    )
    played = _play(tmp_path, command)
    assert played.status == "FAIL", (played.failure, played.stderr[-1500:])
    assert played.row["stopReason"] == "exit 1", played.row


DEEP = """python3 -c "
import os
for top in ('.', '/tmp'):
    os.chdir(top)
    for _ in range(1100):
        os.mkdir('d')
        os.chdir('d')
    open('x.py', 'w').write('x')
"
"""


def test_folders_a_thousand_deep_are_a_fail_not_a_crash(tmp_path: Path) -> None:
    """Each folder level was a frame of the walks and of ``shutil.rmtree``: the judge's walk
    raised (ERR, the agent's choice) and removing the folders stopped the whole run."""
    played = _play(tmp_path, DEEP)
    assert played.status == "FAIL", (played.failure, played.stderr[-1500:])
    assert any(line.endswith("/: deeper than 100 folders") for line in played.left_out), (
        played.left_out
    )


def test_the_prompt_file_made_a_folder_is_a_fail_not_an_error(tmp_path: Path) -> None:
    """Removing ``.garuda-prompt.md`` after the command raised IsADirectoryError: ERR."""
    command = "rm .garuda-prompt.md && mkdir .garuda-prompt.md && touch .garuda-prompt.md/x"
    played = _play(tmp_path, command)
    assert played.status == "FAIL", (played.failure, played.stderr[-1500:])
