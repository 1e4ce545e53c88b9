"""Run one command as a Linux child subreaper; when it ends, kill and reap every descendant.

Started as ``python -I -S reaper.py PROGRAM ARG...`` (or imported by that name with the
executors folder first on ``sys.path``, so its bytecode is cached): it imports nothing from
garuda (it must start fast) and only what Python has already loaded, plus ``_ctypes`` for
``prctl``. Or started once as a server (``serve``) that forks one such reaper per command the
harness sends it (``reaper_server``): a fork instead of a Python start per command.

The command runs in this process's group (so the harness's group kill still reaches it
should this process be killed). This process marks itself a child subreaper
(``prctl(PR_SET_CHILD_SUBREAPER)``), so descendants that leave the group or the session
(``setsid``, a double fork, a daemon) are re-parented to it instead of to init. When the
command exits, or when this process gets SIGTERM, SIGINT or SIGHUP, every remaining
descendant is found in ``/proc``, killed with SIGKILL and reaped before this process exits.
The exit status is the command's; a command killed by signal N makes this process die of N.
"""

from __future__ import annotations

import _signal
import os
import sys
import time

PR_SET_CHILD_SUBREAPER = 36
STOP_SIGNALS = (_signal.SIGTERM, _signal.SIGINT, _signal.SIGHUP)
RESTORED_SIGNALS = (_signal.SIGPIPE, _signal.SIGXFSZ)
SWEEP_LIMIT_S = 10.0
REQUEST_LIMIT = 128 * 1024
"""The largest request ``serve`` reads (argv, folder and environment); larger go the old way."""


def become_subreaper() -> bool:
    """Mark this process a child subreaper; False where prctl is missing or refused."""
    try:
        import _ctypes

        prctl = _ctypes.dlsym(_ctypes.dlopen(None), "prctl")
        return bool(_ctypes.call_function(prctl, (PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)) == 0)
    except (ImportError, OSError, AttributeError):
        return False


def original_environment() -> dict[bytes, bytes]:
    """The environment this process was started with.

    Read from ``/proc/self/environ`` because Python's start-up may have changed ``environ``
    (PEP 538 sets LC_CTYPE under the C locale); the command must see what the harness sent.
    """
    try:
        with open("/proc/self/environ", "rb") as source:
            raw = source.read()
    except OSError:
        return dict(os.environb)
    env: dict[bytes, bytes] = {}
    for item in raw.split(b"\0"):
        key, sep, value = item.partition(b"=")
        if sep and key:
            env.setdefault(key, value)
    return env


def descendants(root: int) -> tuple[list[int], set[int]]:
    """Every live or zombie descendant of ``root`` in ``/proc``, and the direct children."""
    children: dict[int, list[int]] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as source:
                data = source.read()
            ppid = int(data[data.rindex(b")") + 2 :].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        children.setdefault(ppid, []).append(int(name))
    found: list[int] = []
    todo = [root]
    while todo:
        for pid in children.get(todo.pop(), ()):
            found.append(pid)
            todo.append(pid)
    return found, set(children.get(root, ()))


def kill(pid: int) -> bool:
    """SIGKILL a process; False when it is gone or not ours."""
    try:
        os.kill(pid, _signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        return False
    return True


def wait_for(pid: int) -> int:
    """Reap children (orphans included) until ``pid`` exits; return its wait status."""
    while True:
        done, status = os.waitpid(-1, 0)
        if done == pid:
            return status


def sweep() -> None:
    """Kill and reap every descendant left; give up after SWEEP_LIMIT_S on unkillable ones."""
    me = os.getpid()
    deadline = time.monotonic() + SWEEP_LIMIT_S
    while True:
        try:
            reaped, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if reaped:
            continue
        everyone, direct = descendants(me)
        killed = {pid for pid in everyone if kill(pid)}
        if killed & direct:
            try:
                os.waitpid(-1, 0)
            except ChildProcessError:
                return
        elif time.monotonic() > deadline:
            return
        else:
            time.sleep(0.01)


def exit_like(status: int) -> None:
    """Exit with the command's status: the same code, or death by the same signal."""
    if os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        _signal.signal(number, _signal.SIG_DFL)
        os.kill(os.getpid(), number)
        os._exit(128 + number)
    os._exit(os.waitstatus_to_exitcode(status))


def reap(argv: list[str], env: dict[bytes, bytes], file_actions: list[tuple[int, ...]]) -> int:
    """Run ``argv`` as this subreaper's child, then kill and reap every descendant left;
    the command's wait status (exit 127 when it cannot start, said on its stderr)."""
    become_subreaper()
    child: list[int] = []
    stopping: list[int] = []

    def on_stop(number: int, _frame: object) -> None:
        stopping.append(number)
        if child:
            kill(child[0])

    for number in STOP_SIGNALS:
        _signal.signal(number, on_stop)
    try:
        pid = os.posix_spawnp(
            argv[0], argv, env, file_actions=file_actions, setsigdef=RESTORED_SIGNALS
        )
    except OSError as error:
        os.write(2, f"{argv[0]}: {error.strerror}\n".encode())
        return 127 << 8
    child.append(pid)
    if stopping:
        kill(pid)
    status = wait_for(pid)
    child.clear()  # reaped: its pid may be reused, never signal it again
    sweep()
    return status


def main(argv: list[str]) -> None:
    """Run ``argv`` under this reaper and exit like it."""
    if not argv:
        sys.stderr.write("usage: reaper.py PROGRAM [ARG...]\n")
        os._exit(2)
    exit_like(reap(argv, original_environment(), []))


def _served(request: bytes, output: int, status: int) -> None:
    """One forked reaper: its own session, the request's folder, the command's output to
    ``output``; ``status`` gets this process's pid (or ``!errno`` when the folder cannot be
    entered), then the command's wait status once nothing of it is left."""
    import marshal

    _signal.signal(_signal.SIGCHLD, _signal.SIG_DFL)
    argv, cwd, env = marshal.loads(request)
    os.setsid()
    try:
        os.chdir(cwd)
    except OSError as error:
        os.write(status, f"!{error.errno}\n".encode())
        return
    os.write(status, f"{os.getpid()}\n".encode())
    if b"PATH" in env:  # posix_spawnp searches this process's PATH: make it the command's
        os.environb[b"PATH"] = env[b"PATH"]
    else:
        os.environb.pop(b"PATH", None)
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(output, 2)  # the reaper's own messages go with the command's output
    actions = [(os.POSIX_SPAWN_DUP2, devnull, 0), (os.POSIX_SPAWN_DUP2, output, 1)]
    actions.append((os.POSIX_SPAWN_DUP2, output, 2))
    os.write(status, f"{reap(argv, env, actions)}\n".encode())


def serve(channel: int) -> None:
    """Fork one reaper per request read from the socket ``channel`` until the harness closes
    its end: a fork of this small process instead of a Python start per command. Reapers
    still running then (the harness was killed outright) are stopped with their commands.

    A request is a ``marshal``-ed ``(argv, cwd, env)`` with two descriptors: where the
    command's output goes and where its pid and status are written (see ``_served``).
    """
    import _socket
    import contextlib

    rights = _socket.CMSG_SPACE(2 * 4)
    socket = _socket.socket(fileno=channel)
    forked: set[int] = set()
    while True:
        _reap_finished(forked)
        try:
            request, ancillary, _, _ = socket.recvmsg(REQUEST_LIMIT, rights)
        except InterruptedError:
            continue
        fds = [
            int.from_bytes(data[i : i + 4], sys.byteorder)
            for level, kind, data in ancillary
            if level == _socket.SOL_SOCKET and kind == _socket.SCM_RIGHTS
            for i in range(0, len(data) - len(data) % 4, 4)
        ]
        if not request:
            break
        pid = os.fork() if len(fds) == 2 else -1
        if pid == 0:
            try:
                socket.close()
                for fd in fds:  # the command gets them as 1 and 2 only
                    os.set_inheritable(fd, False)
                _served(request, *fds)
            finally:
                os._exit(0)
        if pid > 0:
            forked.add(pid)
        for fd in fds:
            os.close(fd)
    # The harness closed its end: at its exit, every command has ended; a reaper still
    # running means the harness died (killed outright), and no one waits for its command.
    for pid in forked:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, _signal.SIGTERM)  # the reaper ends its command and all it started
    _reap_finished(forked, block=True)


def _reap_finished(forked: set[int], block: bool = False) -> None:
    """Reap the forked reapers that have exited (``block``: all of them, waiting) and drop
    them from ``forked``; their statuses went through their pipes."""
    try:
        while pid := os.waitpid(-1, 0 if block else os.WNOHANG)[0]:
            forked.discard(pid)
    except ChildProcessError:
        pass


if __name__ == "__main__":
    main(sys.argv[1:])
