"""A toolchain: a probe project, a hint, an optional prepare step and a version."""

from __future__ import annotations

from dataclasses import dataclass, field

PROBE_TIMEOUT_S = 120.0
PREPARE_TIMEOUT_S = 600.0


@dataclass(frozen=True)
class Toolchain:
    """Declared by a plugin; probed and prepared by core.

    ``probe_files`` is a tiny project whose ``probe_command`` exits 0 only when the
    toolchain works offline. ``prepare_command`` (run in the same project, with network)
    fills caches once, when the user asks with ``--prepare``. ``version_command`` prints a
    version that ``version_pattern`` (one group) extracts; ``min_version`` is compared with
    ``packaging.version``.
    """

    name: str
    description: str
    hint: str
    probe_files: dict[str, str]
    probe_command: str
    aliases: tuple[str, ...] = ()
    prepare_command: str | None = None
    prepare_timeout_s: float = PREPARE_TIMEOUT_S
    probe_timeout_s: float = PROBE_TIMEOUT_S
    version_command: str | None = None
    version_pattern: str = r"(\d+(?:\.\d+)+)"
    min_version: str | None = None
    extra_versions: dict[str, tuple[str, str]] = field(default_factory=dict)
    """More versions to report: label -> (command, pattern), e.g. the JDK beside Maven."""
    programs: tuple[str, ...] = ()
    """The programs the checks run, found on PATH; a passing probe is remembered only while
    each resolves to the same unchanged file (default: each command's first word)."""
    watch: tuple[str, ...] = ()
    """Files or folders (``~`` is the check environment's HOME) whose change also re-probes,
    e.g. Maven's local repository that offline checks need."""
    version_files_command: str | None = None
    """Prints, one a line, the files and folders the version commands read, beginning with
    the program file they ran (pytest's: the interpreter, pytest's ``.dist-info`` and the
    folders on ``sys.path``). With it, a remembered passing probe is taken without running
    the version commands while these files, the programs and the rest of its key are
    unchanged; a program that is not among them (a launcher script) has its versions read."""


@dataclass(frozen=True)
class ToolchainStatus:
    """The result of a probe."""

    name: str
    ok: bool
    hint: str = ""
    version: str | None = None
    versions: dict[str, str] = field(default_factory=dict)
    output_head: str = ""
    """The probe's output when it failed: its first and its last lines."""
    duration_ms: int = 0
    missing: str = ""
    """Programs the probe did not find, and where they are installed if not on PATH."""
    cached: bool = False
    """The passing probe was remembered from an earlier run, not run now (see ``cache``)."""
