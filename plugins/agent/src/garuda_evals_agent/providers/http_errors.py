"""Sort SDK and transport failures into retry-worthy and final, for both official SDKs."""

from __future__ import annotations

from typing import Any

from garuda_evals_agent.providers.base import ModelCallError, TransientModelError

TRANSIENT_STATUS = frozenset({408, 409, 425, 429, 500, 502, 503, 504, 520, 522, 524, 529})
REFUSED = frozenset({400, 413, 422})
"""The request itself was rejected (too long for the model, malformed)."""
TRANSIENT_ERROR_TYPES = frozenset(
    {"overloaded_error", "api_error", "rate_limit_error", "timeout_error"}
)


def retry_after(response: Any) -> float | None:
    """Seconds from a Retry-After header, when there is one."""
    headers = getattr(response, "headers", None)
    value = headers.get("retry-after") if headers is not None else None
    try:
        return float(value) if value is not None else None
    except ValueError:
        return None


def _error_type(body: Any) -> str:
    if isinstance(body, dict):
        error = body.get("error", body)
        if isinstance(error, dict):
            return str(error.get("type") or error.get("code") or "")
    return ""


def classify(error: BaseException, *, provider: str, key_var: str, started: bool) -> Exception:
    """The exception to raise for ``error``: TransientModelError or ModelCallError.

    Works by duck typing (``status_code``, ``body``, the exception's module), so it serves
    the anthropic and openai SDKs and the HTTP library under them alike.
    """
    status = getattr(error, "status_code", None)
    if isinstance(status, int):
        kind = _error_type(getattr(error, "body", None))
        if status in TRANSIENT_STATUS or kind in TRANSIENT_ERROR_TYPES:
            return TransientModelError(
                f"{provider} {status} {kind}".strip(),
                retry_after_s=retry_after(getattr(error, "response", None)),
                billed_unknown=started,
            )
        if status in (401, 403):
            return ModelCallError(f"{provider} refused the API key ({key_var}): {error}")
        return ModelCallError(f"{provider} error {status}: {error}", refused=status in REFUSED)
    name = type(error).__name__
    module = type(error).__module__.split(".")[0]
    if (
        "Connection" in name
        or "Timeout" in name
        or module.startswith("httpx")
        or isinstance(error, ConnectionError | TimeoutError)
    ):
        return TransientModelError(
            f"{provider} connection: {name}: {error}", billed_unknown=started
        )
    return ModelCallError(f"{provider} call failed: {name}: {error}")
