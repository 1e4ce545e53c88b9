"""What ``garuda eval`` does with its flags: list, prepare, build a suite, or run."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import anyio
import click
from pydantic import ValidationError

from garuda_evals.cli.eval_cmd import _split
from garuda_evals.errors import UsageError, describe_validation_error
from garuda_evals.models.settings import RunSettings
from garuda_evals.plugins.manager import PluginRegistry

DEFAULT_SUITE = "basic"


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


def settings_from(options: Mapping[str, Any], registry: PluginRegistry) -> RunSettings:
    """RunSettings from the parsed flags: core's, and every plugin's typed by its owner."""
    try:
        return RunSettings(
            agent=options["agent"],
            agent_command=options["agent_command"],
            agent_env=list(options["agent_env"]),
            suites=_split(options["suites"]) or [DEFAULT_SUITE],
            task_ids=_split(options["task_ids"]),
            repeat=options["repeat"],
            parallel=options["parallel"],
            executor=options["executor"],
            keep=options["keep"],
            report_format=options["report_format"],
            options=typed_options(registry, plugin_values(options)),
        )
    except ValidationError as error:
        raise UsageError(describe_validation_error("flags", error)) from error


def dispatch(options: Mapping[str, Any], *, cwd: Path, registry: PluginRegistry) -> int:
    """Route to --list, --prepare, a suite builder's flag (--from-git) or a run."""
    if options["list_only"]:
        from garuda_evals.cli.listing import print_listing

        return print_listing(registry)
    if options["prepare"]:
        from garuda_evals.cli.prepare import prepare

        return anyio.run(prepare, registry, options["prepare"])
    settings = settings_from(options, registry)
    for registered in registry.suite_builders().values():
        builder = registered.record
        if builder.trigger and settings.option(builder.trigger):
            values = {**settings.options.get(builder.owner, {}), "parallel": settings.parallel}
            return builder.load().build(values, cwd=cwd, echo=click.echo)
    from garuda_evals.runner.session import run_eval

    outcome = anyio.run(lambda: run_eval(settings, registry=registry, cwd=cwd))
    return outcome.exit_code
