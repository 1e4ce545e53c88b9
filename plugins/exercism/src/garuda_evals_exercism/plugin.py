"""Hooks of garuda-evals-exercism: the ``exercism`` suite builder (``garuda import exercism``).

Hooks do no work: the record's ``load`` and ``command`` import the builder when used.
"""

from __future__ import annotations

from collections.abc import Iterator

from garuda_evals.api import SuiteBuilderRecord, hookimpl


def _builder():  # type: ignore[no-untyped-def]
    from garuda_evals_exercism.builder import ExercismBuilder

    return ExercismBuilder()


def _import_command():  # type: ignore[no-untyped-def]
    from garuda_evals_exercism.cli import exercism_command

    return exercism_command


@hookimpl
def garuda_suite_builders() -> Iterator[SuiteBuilderRecord]:
    """``garuda import exercism``; a folder holding ``exercism-suite.json`` is its saved suite."""
    yield SuiteBuilderRecord(
        name="exercism",
        description="Exercism practice exercises (Aider's polyglot benchmark) from a track",
        load=_builder,
        command=_import_command,
        saved="exercism-suite.json",
    )
