"""Joining a cluster by ``--ray-address``: reach its GCS once before ``ray.init``.

A cluster started with ``ray start --head`` uses Ray's token authentication when its head
finds a token (``RAY_AUTH_TOKEN``, the file named by ``RAY_AUTH_TOKEN_PATH``, or
``~/.ray/auth_token``, which any local ``ray.init`` writes). A driver that joins by address
sends a token only with ``RAY_AUTH_MODE=token``; without it, or with a wrong token,
``ray.init`` retries for 20 s, a warning a second, and fails naming neither cause nor fix (an
unreachable address takes minutes). One call here, with the token Ray would send, names both
in a moment.
"""

from __future__ import annotations

import os
import socket
import tempfile
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from garuda_evals.api import GarudaError, UsageError

CONNECT_TIMEOUT_S = 5.0
WHERE_TOKENS_ARE = (
    "RAY_AUTH_TOKEN, a file named by RAY_AUTH_TOKEN_PATH, or ~/.ray/auth_token "
    "(`ray get-auth-token` on the head prints it)"
)


def token_source(environ: Mapping[str, str]) -> str:
    """Where Ray takes this process's token from, in Ray's order."""
    if environ.get("RAY_AUTH_TOKEN"):
        return "RAY_AUTH_TOKEN"
    if environ.get("RAY_AUTH_TOKEN_PATH"):
        return f"RAY_AUTH_TOKEN_PATH ({environ['RAY_AUTH_TOKEN_PATH']})"
    return "~/.ray/auth_token"


def refused_token(address: str, token_mode: bool, environ: Mapping[str, str]) -> str:
    """The one line for a cluster that refused this process's token (or its lack of one)."""
    if token_mode:
        return (
            f"--ray-address {address}: the cluster refused the Ray token from "
            f"{token_source(environ)}: give the cluster's token in {WHERE_TOKENS_ARE}"
        )
    return (
        f"--ray-address {address}: the cluster requires Ray token authentication: set "
        f"RAY_AUTH_MODE=token, with the cluster's token in {WHERE_TOKENS_ARE}"
    )


def check_address(address: str) -> None:
    """Raise a one-line error when ``ray.init(address=address)`` could not join: an address
    that is not ``host:port``, nothing listening there, a token missing or refused."""
    import ray
    from ray._private.authentication import authentication_token_setup as auth
    from ray._private.authentication.authentication_utils import is_token_auth_enabled
    from ray._private.services import canonicalize_bootstrap_address

    if "://" in address:
        return  # Ray Client (ray://): ray.init's own path
    if address == "auto":
        auth.maybe_enable_token_auth_if_token_available(warn_if_disabled=False)  # as ray.init
    try:
        target = canonicalize_bootstrap_address(address)
    except ValueError:
        raise UsageError(
            f"--ray-address {address}: not an address (give host:port, or auto)"
        ) from None
    except ConnectionError as error:
        raise GarudaError(
            f"--ray-address {address}: {_first_line(error).split('. ')[0]}; start one with "
            "ray start --head, or give host:port"
        ) from None
    if target is None:
        return
    host, _, port = target.rpartition(":")
    if not port.isdigit() or not 0 < int(port) < 65536:
        raise UsageError(f"--ray-address {address}: the port must be a number from 1 to 65535")
    try:
        socket.create_connection((host.strip("[]"), int(port)), CONNECT_TIMEOUT_S).close()
    except OSError as error:
        reason = getattr(error, "strerror", None) or str(error) or type(error).__name__
        raise GarudaError(
            f"--ray-address {address}: cannot reach the cluster at {target}: {reason}; "
            "start its head there with ray start --head --port PORT, or fix the address"
        ) from None
    token_mode = is_token_auth_enabled()
    try:
        auth.ensure_token_if_auth_enabled(None, create_token_if_missing=False)
    except ray.exceptions.AuthenticationError as error:
        why = _first_line(error).split(". ")[0]
        raise GarudaError(
            f"--ray-address {address}: RAY_AUTH_MODE=token, but there is no token to send "
            f"({why}): put the cluster's token in {WHERE_TOKENS_ARE}"
        ) from None
    with _stderr_held() as held:
        try:
            ray._raylet.InnerGcsClient.standalone(target, None, int(CONNECT_TIMEOUT_S * 1000))
        except ray.exceptions.AuthenticationError:
            raise GarudaError(refused_token(address, token_mode, os.environ)) from None
        except ray.exceptions.RayError as error:
            raise GarudaError(
                f"--ray-address {address}: no Ray cluster answers at {target}: "
                f"{type(error).__name__}: {_first_line(error)}"
            ) from None
        held.release()


def _first_line(error: BaseException) -> str:
    lines = str(error).strip().splitlines()
    return lines[0] if lines else type(error).__name__


class _Held:
    def __init__(self, file: Any) -> None:
        self.file = file
        self.keep = False

    def release(self) -> None:
        """What Ray wrote meanwhile goes to stderr after all (no error explained it)."""
        self.keep = True


@contextmanager
def _stderr_held() -> Iterator[_Held]:
    """Hold what Ray's C++ client writes to file descriptor 2 (a warning per failed attempt):
    dropped when an error names the cause, written out otherwise."""
    with tempfile.TemporaryFile() as file:
        saved = os.dup(2)
        held = _Held(file)
        os.dup2(file.fileno(), 2)
        try:
            yield held
        finally:
            os.dup2(saved, 2)
            os.close(saved)
            if held.keep:
                file.seek(0)
                data = file.read()
                while data:
                    data = data[os.write(2, data) :]
