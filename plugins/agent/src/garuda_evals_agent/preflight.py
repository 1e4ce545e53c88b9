"""Before the first task: the model API answers and accepts the key (one cheap GET).

An unreachable server would otherwise cost every task its retries before it ends ERR.
"""

from __future__ import annotations

import http.client
from urllib.parse import urlsplit

from garuda_evals.api import GarudaError

TIMEOUT_S = 20.0
MODELS_PATH = {"anthropic": "/v1/models", "openai": "/models", "gemini": "/v1beta/models"}


def key_headers(kind: str, key: str) -> dict[str, str]:
    """How each API takes its key."""
    if not key:
        return {}
    if kind == "anthropic":
        return {"x-api-key": key, "anthropic-version": "2023-06-01"}
    if kind == "gemini":
        return {"x-goog-api-key": key}
    return {"Authorization": f"Bearer {key}"}


def preflight(name: str, kind: str, base_url: str, key: str) -> None:
    """List the models of ``kind``'s API at ``base_url``: unreachable or a refused key is a
    GarudaError (exit 1) naming the provider ``name`` and the cause."""
    parts = urlsplit(base_url)
    https = parts.scheme == "https"
    port = parts.port or (443 if https else 80)
    kind_class = http.client.HTTPSConnection if https else http.client.HTTPConnection
    connection = kind_class(parts.hostname or "", port, timeout=TIMEOUT_S)
    path = parts.path.rstrip("/") + MODELS_PATH[kind]
    try:
        connection.request("GET", path, headers=key_headers(kind, key))
        status = connection.getresponse().status
    except OSError as error:
        raise GarudaError(
            f"preflight: the {name} API at {base_url} is unreachable ({error}); no task was run"
        ) from error
    finally:
        connection.close()
    if status in (401, 403):
        raise GarudaError(
            f"preflight: the {name} API at {base_url} refused the key (HTTP {status}); "
            "no task was run"
        )
