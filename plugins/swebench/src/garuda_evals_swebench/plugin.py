"""Hooks of garuda-evals-swebench: the ``swe-bench`` suite builder (``garuda import
swe-bench``), its check runners, ``garuda grade`` and the ``--predictions`` option.

Hooks do no work: every record's ``load`` imports and builds its thing when it is used.
"""

from __future__ import annotations

from collections.abc import Iterator

from garuda_evals.api import (
    CheckRunnerRecord,
    CommandRecord,
    Option,
    OptionsRecord,
    SuiteBuilderRecord,
    hookimpl,
)

OWNER = "swe-bench"
RUNNERS = (
    ("pytest", "pytest node ids"),
    ("django", "Django's test names, through a unittest result hook"),
    ("sympy", "sympy's bare test names, run by pytest"),
)


def _builder():  # type: ignore[no-untyped-def]
    from garuda_evals_swebench.builder import SweBenchBuilder

    return SweBenchBuilder()


def _import_command():  # type: ignore[no-untyped-def]
    from garuda_evals_swebench.cli import swe_bench_command

    return swe_bench_command


def _grade_command():  # type: ignore[no-untyped-def]
    from garuda_evals_swebench.grade import grade_command

    return grade_command


def _options_model():  # type: ignore[no-untyped-def]
    from garuda_evals_swebench.predictions import PredictionOptions

    return PredictionOptions


def _runner(style: str):  # type: ignore[no-untyped-def]
    def load():  # type: ignore[no-untyped-def]
        from garuda_evals_swebench.checkrunner import SweCheckRunner

        return SweCheckRunner(style)

    return load


@hookimpl
def garuda_suite_builders() -> Iterator[SuiteBuilderRecord]:
    """``garuda import swe-bench``; a folder holding ``swe-suite.json`` is its saved suite."""
    yield SuiteBuilderRecord(
        name="swe-bench",
        description="SWE-bench instances (JSON lines) from local clones",
        load=_builder,
        command=_import_command,
        saved="swe-suite.json",
    )


@hookimpl
def garuda_check_runners() -> Iterator[CheckRunnerRecord]:
    """The runners of imported tasks, one per SWE-bench id style."""
    for style, what in RUNNERS:
        yield CheckRunnerRecord(
            name=f"swe-{style}",
            description=f"SWE-bench's FAIL_TO_PASS and PASS_TO_PASS as {what} (JUnit evidence)",
            load=_runner(style),
        )


@hookimpl
def garuda_commands() -> Iterator[CommandRecord]:
    """``garuda grade PREDICTIONS.jsonl -s SUITE``."""
    yield CommandRecord(
        name="grade",
        description="judge SWE-bench predictions (patches made elsewhere) on an imported suite",
        load=_grade_command,
    )


@hookimpl
def garuda_options() -> Iterator[OptionsRecord]:
    """``--predictions``: the file the ``swe-prediction`` agent applies patches from."""
    yield OptionsRecord(
        name=OWNER,
        description="SWE-bench predictions (garuda-evals-swebench)",
        options=(
            Option(
                ("--predictions",),
                "with --agent swe-prediction: SWE-bench predictions (JSON lines) to apply",
                agents=("swe-prediction",),
            ),
        ),
        model=_options_model,
    )
