"""What ``garuda eval`` does with its flags: list, prepare, build from git, or run."""

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
from garuda_evals.plugins.known import SUITE_BUILDERS, install_hint
from garuda_evals.plugins.manager import PluginRegistry

DEFAULT_SUITE = "basic"
BUILDER_FLAGS = ("commits", "since", "max_tasks", "test_command")


def settings_from(options: Mapping[str, Any]) -> RunSettings:
    """RunSettings from the parsed flags."""
    try:
        return RunSettings(
            agent=options["agent"],
            agent_command=options["agent_command"],
            agent_env=list(options["agent_env"]),
            model=options["model"],
            suites=_split(options["suites"]) or [DEFAULT_SUITE],
            task_ids=_split(options["task_ids"]),
            repeat=options["repeat"],
            parallel=options["parallel"],
            executor=options["executor"],
            max_steps=options["max_steps"],
            keep=options["keep"],
            index=options["index"],
            subagents=options["subagents"],
            subagent_model=options["subagent_model"],
            todo=options["todo"],
            lsp=options["lsp"],
            keep_thinking=options["keep_thinking"],
            format=options["format_"],
            batch=options["batch"],
            report_format=options["report_format"],
        )
    except ValidationError as error:
        raise UsageError(describe_validation_error("flags", error)) from error


def dispatch(options: Mapping[str, Any], *, cwd: Path) -> int:
    """Route to --list, --prepare, --from-git or a run; return the exit code."""
    registry = PluginRegistry()
    for warning in registry.warnings:
        click.echo(f"garuda: warning: {warning}", err=True)
    if options["list_only"]:
        from garuda_evals.cli.listing import print_listing

        return print_listing(registry)
    if options["prepare"]:
        from garuda_evals.cli.prepare import prepare

        return anyio.run(prepare, registry, options["prepare"])
    if options["from_git"]:
        return _build_from_git(registry, options, cwd)
    from garuda_evals.runner.session import run_eval

    settings = settings_from(options)
    outcome = anyio.run(lambda: run_eval(settings, registry=registry, cwd=cwd))
    return outcome.exit_code


def _build_from_git(registry: PluginRegistry, options: Mapping[str, Any], cwd: Path) -> int:
    builders = registry.collect("garuda_suite_builders")
    if "git" not in builders:
        raise UsageError(
            f"--from-git needs a git suite builder{install_hint(SUITE_BUILDERS, 'git')}"
        )
    builder = builders["git"].record.load()
    builder_options = {name: options[name] for name in BUILDER_FLAGS}
    builder_options["parallel"] = options["parallel"]
    return builder.build(builder_options, cwd=cwd, echo=click.echo)
