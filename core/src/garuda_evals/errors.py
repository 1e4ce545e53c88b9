"""The one user-facing error type, turned into a one-line CLI message."""


class GarudaError(Exception):
    """An error the user can act on: bad input, a missing plugin or toolchain.

    The CLI prints ``garuda: error: <message>`` and exits with ``exit_code``.
    """

    exit_code = 1

    def __init__(self, message: str, *, exit_code: int | None = None) -> None:
        super().__init__(message)
        if exit_code is not None:
            self.exit_code = exit_code


class UsageError(GarudaError):
    """A flag, a suite name or a task id that cannot be used."""


class FileFormatError(GarudaError):
    """A file on disk (a task manifest, a saved suite, a report) that does not validate."""


def describe_validation_error(path: object, error: Exception) -> str:
    """Turn a pydantic ValidationError into ``<file>: field <loc>: <msg>`` (first error only)."""
    errors = getattr(error, "errors", None)
    if callable(errors):
        first = errors()[0]
        loc = ".".join(str(part) for part in first.get("loc", ())) or "(root)"
        more = len(errors()) - 1
        suffix = f" (and {more} more)" if more else ""
        return f"{path}: field '{loc}': {first.get('msg', 'invalid')}{suffix}"
    return f"{path}: {error}"
