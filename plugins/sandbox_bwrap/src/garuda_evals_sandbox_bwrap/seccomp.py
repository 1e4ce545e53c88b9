"""A tiny seccomp filter, assembled as raw BPF: no ``socket(AF_UNIX, ...)``, no io_uring.

``--unshare-net`` hides the host's network but not the Unix sockets that live on the
filesystem (a host socket in a visible folder stays reachable). Denying only
``socket(AF_UNIX, ...)`` closes that and keeps everything else working: ``socketpair``
(pipes to child processes), TCP on the sandbox's own loopback, ``getsockname``. io_uring
is denied because its socket operation would not pass through this filter. Syscalls of a
foreign ABI (x32, i386, arm32) kill the process: their numbers are not checked here.
"""

from __future__ import annotations

import errno
import os
import platform
import struct
from dataclasses import dataclass

# struct seccomp_data: int nr; __u32 arch; __u64 instruction_pointer; __u64 args[6];
_NR_OFFSET = 0
_ARCH_OFFSET = 4
_ARG0_LOW_OFFSET = 16  # little-endian: the low 32 bits of args[0] (socket's int domain)

_LD_W_ABS = 0x20  # BPF_LD | BPF_W | BPF_ABS
_JEQ_K = 0x15  # BPF_JMP | BPF_JEQ | BPF_K
_JGE_K = 0x35  # BPF_JMP | BPF_JGE | BPF_K
_RET_K = 0x06  # BPF_RET | BPF_K

RET_ALLOW = 0x7FFF0000
RET_KILL_PROCESS = 0x80000000
RET_ERRNO = 0x00050000
AF_UNIX = 1
X32_SYSCALL_BIT = 0x40000000


@dataclass(frozen=True)
class Arch:
    """One architecture: its audit number and the syscall numbers the filter checks."""

    name: str
    audit_arch: int
    nr_socket: int
    nr_io_uring_setup: int
    has_x32: bool = False


ARCHES = {
    "x86_64": Arch("x86_64", 0xC000003E, nr_socket=41, nr_io_uring_setup=425, has_x32=True),
    "aarch64": Arch("aarch64", 0xC00000B7, nr_socket=198, nr_io_uring_setup=425),
}
MACHINE_ALIASES = {"amd64": "x86_64", "arm64": "aarch64"}


def native_arch() -> Arch | None:
    """The filter's architecture for this machine, or None when it has none."""
    machine = platform.machine().lower()
    return ARCHES.get(MACHINE_ALIASES.get(machine, machine))


def _insn(code: int, k: int, jt: int = 0, jf: int = 0) -> bytes:
    return struct.pack("=HBBI", code, jt, jf, k)


def build_filter(arch: Arch) -> bytes:
    """The BPF program (``struct sock_filter[]``, native byte order) for ``arch``.

    Jump offsets count instructions after the jump; the layout is fixed so they are
    written out by hand and checked by the tests.
    """
    deny_unix = RET_ERRNO | errno.EACCES
    deny_uring = RET_ERRNO | errno.ENOSYS
    program = [
        _insn(_LD_W_ABS, _ARCH_OFFSET),
        _insn(_JEQ_K, arch.audit_arch, jt=1, jf=0),
        _insn(_RET_K, RET_KILL_PROCESS),
        _insn(_LD_W_ABS, _NR_OFFSET),
    ]
    if arch.has_x32:
        program += [
            _insn(_JGE_K, X32_SYSCALL_BIT, jt=0, jf=1),
            _insn(_RET_K, RET_KILL_PROCESS),
        ]
    program += [
        _insn(_JEQ_K, arch.nr_io_uring_setup, jt=0, jf=1),
        _insn(_RET_K, deny_uring),
        _insn(_JEQ_K, arch.nr_socket, jt=0, jf=3),
        _insn(_LD_W_ABS, _ARG0_LOW_OFFSET),
        _insn(_JEQ_K, AF_UNIX, jt=0, jf=1),
        _insn(_RET_K, deny_unix),
        _insn(_RET_K, RET_ALLOW),
    ]
    return b"".join(program)


def filter_fd(arch: Arch) -> int:
    """A fresh memfd holding the program, at offset 0, for ``bwrap --seccomp FD``.

    bwrap reads the descriptor to its end, so each command needs its own.
    """
    fd = os.memfd_create("garuda-seccomp", 0)
    try:
        os.write(fd, build_filter(arch))
        os.lseek(fd, 0, os.SEEK_SET)
    except OSError:
        os.close(fd)
        raise
    return fd
