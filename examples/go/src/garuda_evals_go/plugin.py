"""Hook implementations of garuda-evals-go: names only; ``load`` builds on first use."""

from collections.abc import Iterator

from garuda_evals.api import CheckRunnerRecord, SuiteRecord, ToolchainRecord, hookimpl


def _toolchain():  # type: ignore[no-untyped-def]
    from garuda_evals_go.toolchain import go_toolchain

    return go_toolchain()


def _check_runner():  # type: ignore[no-untyped-def]
    from garuda_evals_go.check import GoCheckRunner

    return GoCheckRunner()


def _suite():  # type: ignore[no-untyped-def]
    from garuda_evals_go.suite import load_go_suite

    return load_go_suite()


@hookimpl
def garuda_toolchains() -> Iterator[ToolchainRecord]:
    """The go toolchain (alias golang)."""
    yield ToolchainRecord(
        name="go", description="Go with go test -json", load=_toolchain, aliases=("golang",)
    )


@hookimpl
def garuda_check_runners() -> Iterator[CheckRunnerRecord]:
    """go-test: go test -json written to {gojson}."""
    yield CheckRunnerRecord(
        name="go-test", description="go test -json > {gojson}", load=_check_runner
    )


@hookimpl
def garuda_suites() -> Iterator[SuiteRecord]:
    """The go suite."""
    yield SuiteRecord(
        name="go",
        description="three Go tasks: a bug fix, a feature from tests, a change across packages",
        load=_suite,
        requires=("go",),
    )
