"""Before the first task: the model API answers and accepts the key (one cheap GET)."""

from __future__ import annotations

import http.client

from garuda_evals.api import GarudaError
from garuda_evals_agent_cli.upstream import Upstream

TIMEOUT_S = 20.0
MODELS_PATH = {"anthropic": "/v1/models", "openai": "/models", "gemini": "/v1beta/models"}


def key_headers(upstream: Upstream) -> dict[str, str]:
    """How each provider takes its key."""
    if not upstream.key:
        return {}
    if upstream.provider == "anthropic":
        return {"x-api-key": upstream.key, "anthropic-version": "2023-06-01"}
    if upstream.provider == "gemini":
        return {"x-goog-api-key": upstream.key}
    return {"Authorization": f"Bearer {upstream.key}"}


def preflight(upstream: Upstream) -> None:
    """List the provider's models: unreachable or a refused key is a GarudaError (exit 1)."""
    scheme, host, port = upstream.origin
    kind = http.client.HTTPSConnection if scheme == "https" else http.client.HTTPConnection
    connection = kind(host, port, timeout=TIMEOUT_S)
    path = upstream.base_path + MODELS_PATH[upstream.provider]
    try:
        connection.request("GET", path, headers=key_headers(upstream))
        status = connection.getresponse().status
    except OSError as error:
        raise GarudaError(
            f"preflight: the {upstream.provider} API at {upstream.base_url} is unreachable "
            f"({error}); no task was run"
        ) from error
    finally:
        connection.close()
    if status in (401, 403):
        raise GarudaError(
            f"preflight: the {upstream.provider} API at {upstream.base_url} refused the key "
            f"(HTTP {status}); no task was run"
        )
