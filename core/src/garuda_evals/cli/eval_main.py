"""What ``garuda eval`` does with its flags: list, prepare, build a suite, or run."""

from __future__ import annotations

import os
import shlex
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import anyio
import click
from pydantic import ValidationError

from garuda_evals.cli.eval_cmd import _split
from garuda_evals.cli.eval_help import DEFAULT_SUITE
from garuda_evals.errors import UsageError, describe_validation_error
from garuda_evals.models.settings import RunSettings
from garuda_evals.plugins.manager import PluginRegistry


def plugin_values(options: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """The parsed plugin options as ``owner -> name -> value``."""
    grouped: dict[str, dict[str, Any]] = {}
    for key, value in options.items():
        owner, dot, name = key.partition(".")
        if dot:
            grouped.setdefault(owner, {})[name] = list(value) if isinstance(value, tuple) else value
    return grouped


def typed_options(
    registry: PluginRegistry, values: dict[str, dict[str, Any]]
) -> dict[str, dict[str, Any]]:
    """Each owner's values validated by its model; an error names the flag."""
    typed: dict[str, dict[str, Any]] = {}
    for owner, given in values.items():
        registered = registry.options().get(owner)
        if registered is None or registered.record.model is None:
            typed[owner] = given
            continue
        try:
            model = registered.record.model().model_validate(given)
        except ValidationError as error:
            first = error.errors()[0]
            name = str(first["loc"][0]) if first.get("loc") else "?"
            flag = next((o.flag for o in registered.record.options if o.name == name), name)
            raise UsageError(f"{flag}: {first.get('msg', 'invalid')}") from error
        typed[owner] = model.model_dump(mode="json")
    return typed


EMPTY_VALUE = {
    "-s": "names no suite; give a suite name (garuda eval --list shows them) or a folder's path",
    "-t": "names no task; give a task id, or leave -t out to run every task",
}


def _named(values: tuple[str, ...], flag: str) -> list[str]:
    """The names a repeatable, comma-separated flag gives; a value that names none (``-s ''``)
    is refused rather than read as the flag left out."""
    for value in values:
        if not _split((value,)):
            raise UsageError(f"{flag} {shlex.quote(value)}: {EMPTY_VALUE[flag]}")
    return _split(values)


def _absolute(path: str) -> str:
    """A path as given on the command line, made absolute (``~`` expanded) from here."""
    return os.path.abspath(os.path.expanduser(path))


def settings_from(options: Mapping[str, Any], registry: PluginRegistry) -> RunSettings:
    """RunSettings from the parsed flags: core's, and every plugin's typed by its owner."""
    try:
        return RunSettings(
            agent=options["agent"],
            agent_command=options["agent_command"],
            agent_env=list(options["agent_env"]),
            agent_mounts=[_absolute(path) for path in options.get("agent_mounts", ())],
            suites=_named(options["suites"], "-s") or [DEFAULT_SUITE],
            task_ids=_named(options["task_ids"], "-t"),
            repeat=options["repeat"],
            parallel=options["parallel"],
            executor=options["executor"],
            backend=options.get("backend") or "local",
            keep=options["keep"],
            strict=options.get("strict", False),
            reprobe=options.get("reprobe", False),
            report_format=options["report_format"],
            options=typed_options(registry, plugin_values(options)),
        )
    except ValidationError as error:
        raise UsageError(describe_validation_error("flags", error)) from error


FLAG_NAMES = {"suites": "--suite", "task_ids": "--task", "agent_mounts": "--agent-mount"}
OUTPUT_ONLY = frozenset({"keep", "report_format", "resume", "retry_errors", "reprobe"})
"""Flags that may differ from the run being resumed: they change no result."""


def resumed_settings(
    options: Mapping[str, Any], registry: PluginRegistry, given: set[str], stored: RunSettings
) -> RunSettings:
    """The resumed run's settings; a flag given now that differs from them is refused."""
    from garuda_evals.runner.resume import SETTINGS_DIFFER

    fresh = settings_from(options, registry)
    fields = set(RunSettings.model_fields) - {"options"}
    for name in sorted(given - OUTPUT_ONLY):
        owner, dot, option = name.partition(".")
        if dot:
            now = fresh.options.get(owner, {}).get(option)
            before = stored.options.get(owner, {}).get(option)
        elif name in fields:
            now, before = getattr(fresh, name), getattr(stored, name)
        else:
            continue
        if now != before:
            flag = FLAG_NAMES.get(name, "--" + (option or name).replace("_", "-"))
            raise UsageError(SETTINGS_DIFFER.format(flag=flag, now=now, before=before))
    return stored.model_copy(
        update={"keep": fresh.keep, "report_format": fresh.report_format, "reprobe": fresh.reprobe}
    )


def dispatch(
    options: Mapping[str, Any],
    *,
    cwd: Path,
    registry: PluginRegistry,
    given: set[str] | None = None,
) -> int:
    """Route to --list, --prepare, a suite builder's flag (--from-git), a resume or a run."""
    if options["list_only"]:
        from garuda_evals.cli.listing import print_listing

        return print_listing(registry)
    if options["prepare"]:
        from garuda_evals.cli.prepare import prepare

        return anyio.run(prepare, registry, options["prepare"])
    if options.get("resume") or options.get("retry_errors"):
        return _resume(options, cwd=cwd, registry=registry, given=given or set())
    settings = settings_from(options, registry)
    for registered in registry.suite_builders().values():
        builder = registered.record
        if builder.trigger and settings.option(builder.trigger):
            # A --parallel not given is the builder's own default (None).
            parallel = settings.parallel if given is None or "parallel" in given else None
            values = {**settings.options.get(builder.owner, {}), "parallel": parallel}
            return builder.load().build(values, cwd=cwd, echo=click.echo)
    from garuda_evals.runner.session import run_eval

    outcome = anyio.run(lambda: run_eval(settings, registry=registry, cwd=cwd))
    return outcome.exit_code


def _resume(
    options: Mapping[str, Any], *, cwd: Path, registry: PluginRegistry, given: set[str]
) -> int:
    from garuda_evals.runner.resume import load_resume
    from garuda_evals.runner.session import run_eval

    if options.get("resume") and options.get("retry_errors"):
        raise UsageError("--resume and --retry-errors: give one (--retry-errors also resumes)")
    retry = bool(options.get("retry_errors"))
    resume = load_resume(cwd, options["retry_errors"] or options["resume"], retry_errors=retry)
    try:
        settings = resumed_settings(options, registry, given, resume.manifest.settings)
    except UsageError as error:
        raise UsageError(f"{resume.flag} {resume.manifest.run_id}: refused, {error}") from error
    outcome = anyio.run(lambda: run_eval(settings, registry=registry, cwd=cwd, resume=resume))
    return outcome.exit_code
