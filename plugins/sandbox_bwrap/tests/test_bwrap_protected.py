"""``policy.read_only`` paths inside the workspace: a check cannot change a protected test.

Each cheat is a real command under bwrap, judged on the host by the protected file's bytes.
The control runs the same command without the path in ``read_only``: the cheat gets through.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import anyio
import pytest

from garuda_evals.executors.base import CommandResult, SandboxPolicy
from garuda_evals.testing import skip_or_fail
from garuda_evals_sandbox_bwrap import BwrapBackend

TEST = "tests/unit/test_calc.py"
ORIGINAL = "def test_add():\n    assert 1 + 1 == 2\n"
FAKE = "def test_add():\n    pass\n"
WRITE_FAKE = f"printf {FAKE!r}"

CHEATS = {
    "write": f"{WRITE_FAKE} > {TEST}",
    "append": f"{WRITE_FAKE} >> {TEST}",
    "truncate": f"truncate -s 0 {TEST}",
    "chmod writable, then write": f"chmod u+w {TEST} && {WRITE_FAKE} > {TEST}",
    "rename away, write anew": f"mv {TEST} tests/unit/old.py && {WRITE_FAKE} > {TEST}",
    "delete, write anew": f"rm -f {TEST} && {WRITE_FAKE} > {TEST}",
    "sed -i (rename over)": f"sed -i s/assert.*/pass/ {TEST}",
    "os.replace over": (
        "python3 -c \"import os; open('n.py', 'w').write('x = 1\\n'); "
        f"os.replace('n.py', '{TEST}')\""
    ),
    "symlink over": f"ln -sf /dev/null {TEST}",
    "hard link, write through it": f"ln {TEST} h.py && {WRITE_FAKE} > h.py",
    "move the folder away": f"mv tests/unit tests/old && mkdir tests/unit && {WRITE_FAKE} > {TEST}",
    "move the top folder away": f"mv tests t2 && mkdir -p tests/unit && {WRITE_FAKE} > {TEST}",
    "remove the folder": f"rm -rf tests; mkdir -p tests/unit && {WRITE_FAKE} > {TEST}",
    "unmount it": f"umount {TEST}; {WRITE_FAKE} > {TEST}",
}


@pytest.fixture(scope="module")
def backend() -> BwrapBackend:
    if shutil.which("bwrap") is None:
        skip_or_fail("bwrap", "install bubblewrap (apt-get install bubblewrap)")
    made = BwrapBackend()
    if not made.availability().ok:
        skip_or_fail("bwrap", made.availability().reason)
    return made


def attempt(backend: BwrapBackend, work: Path, command: str, guarded: bool) -> CommandResult:
    """Run ``command`` in a fresh workspace whose test file is (or is not) read-only."""
    (work / TEST).parent.mkdir(parents=True)
    (work / TEST).write_text(ORIGINAL)
    (work / "calc.py").write_text("x = 1\n")
    read_only = (work / TEST,) if guarded else ()
    env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": str(work)}

    async def go() -> CommandResult:
        executor = backend.create(SandboxPolicy(workspace=work, read_only=read_only))
        try:
            return await executor.run(command, cwd=work, env=env, timeout_s=60)
        finally:
            await executor.aclose()

    return anyio.run(go)


def intact(work: Path) -> bool:
    """The protected file is still the original regular file, at its place."""
    path = work / TEST
    return not path.is_symlink() and path.is_file() and path.read_text() == ORIGINAL


@pytest.mark.parametrize("cheat", sorted(CHEATS))
def test_a_protected_file_cannot_be_changed(
    backend: BwrapBackend, tmp_path: Path, cheat: str
) -> None:
    result = attempt(backend, tmp_path, CHEATS[cheat], guarded=True)
    assert intact(tmp_path), (cheat, result.output)
    assert result.exit_code != 0, (cheat, result.output)


@pytest.mark.parametrize("cheat", sorted(set(CHEATS) - {"unmount it"}))
def test_without_read_only_the_cheat_gets_through(
    backend: BwrapBackend, tmp_path: Path, cheat: str
) -> None:
    """The control: the same command changes the file when it is not in ``read_only``."""
    result = attempt(backend, tmp_path, CHEATS[cheat], guarded=False)
    assert not intact(tmp_path), (cheat, result.output)


def test_the_rest_of_the_workspace_stays_writable(backend: BwrapBackend, tmp_path: Path) -> None:
    command = (
        "echo new > tests/unit/test_new.py && mkdir -p tests/unit/__pycache__ "
        "&& echo y > calc.py && mkdir build && echo ok"
    )
    result = attempt(backend, tmp_path, command, guarded=True)
    assert result.exit_code == 0, result.output
    assert (tmp_path / "tests/unit/test_new.py").read_text() == "new\n"
    assert (tmp_path / "calc.py").read_text() == "y\n"
    assert intact(tmp_path)
