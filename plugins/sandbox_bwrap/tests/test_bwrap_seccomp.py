"""The raw BPF filter: its instructions, and its effect under the real bwrap."""

from __future__ import annotations

import os
import shutil
import struct
import subprocess
import sys

import pytest

from garuda_evals.testing import skip_or_fail, skip_unless_required
from garuda_evals_sandbox_bwrap.seccomp import (
    ARCHES,
    RET_ALLOW,
    RET_KILL_PROCESS,
    build_filter,
    filter_fd,
    native_arch,
)


def decode(program: bytes) -> list[tuple[int, int, int, int]]:
    return [struct.unpack("=HBBI", program[i : i + 8]) for i in range(0, len(program), 8)]


@pytest.mark.parametrize("name", sorted(ARCHES))
def test_every_jump_lands_inside_and_the_program_ends_allowing(name: str) -> None:
    arch = ARCHES[name]
    insns = decode(build_filter(arch))
    assert insns[0] == (0x20, 0, 0, 4), "first load the arch"
    assert insns[1][3] == arch.audit_arch
    assert insns[-1] == (0x06, 0, 0, RET_ALLOW)
    for index, (code, jt, jf, _) in enumerate(insns):
        if code & 0x07 == 0x05:  # BPF_JMP
            assert index + 1 + max(jt, jf) < len(insns)
    kills = [k for code, _, _, k in insns if code == 0x06 and k == RET_KILL_PROCESS]
    assert len(kills) == (2 if arch.has_x32 else 1)
    assert arch.nr_socket in [k for code, _, _, k in insns if code == 0x15]


def test_the_memfd_holds_the_program_from_its_start() -> None:
    arch = native_arch()
    if arch is None:
        skip_unless_required("bwrap", f"no seccomp filter for {os.uname().machine}")
    fd = filter_fd(arch)
    try:
        assert os.read(fd, 4096) == build_filter(arch)
    finally:
        os.close(fd)


PROBE = """
import ctypes, errno, socket
try:
    socket.socket(socket.AF_UNIX)
    print("unix: open")
except PermissionError:
    print("unix: denied")
a, b = socket.socketpair()
a.sendall(b"x"); print("socketpair:", b.recv(1).decode())
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen()
print("tcp:", socket.create_connection(s.getsockname()) is not None)
libc = ctypes.CDLL(None, use_errno=True)
rc = libc.syscall(425, 1, None)
print("io_uring:", errno.errorcode.get(ctypes.get_errno(), rc))
"""


def test_under_bwrap_only_unix_sockets_and_io_uring_are_refused() -> None:
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        skip_or_fail("bwrap", "install bubblewrap (apt-get install bubblewrap)")
    arch = native_arch()
    if arch is None:
        skip_unless_required("bwrap", f"no seccomp filter for {os.uname().machine}")
    fd = filter_fd(arch)
    try:
        done = subprocess.run(
            [
                bwrap,
                "--ro-bind",
                "/",
                "/",
                "--dev",
                "/dev",
                "--unshare-net",
                "--seccomp",
                str(fd),
                "--",
                sys.executable,
                "-c",
                PROBE,
            ],
            pass_fds=(fd,),
            capture_output=True,
            text=True,
            timeout=60,
        )
    finally:
        os.close(fd)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[:4] == [
        "unix: denied",
        "socketpair: x",
        "tcp: True",
        "io_uring: ENOSYS",
    ]
