"""The public face of garuda-evals for plugin authors: import from here, nothing else.

Everything a plugin may use is re-exported here; the modules behind it are private and may
change. Names load lazily on first use, so a plugin module that imports ``hookimpl`` and
the records from here keeps ``garuda --help`` fast. See docs/guide/plugin-author.md.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    pass

_HOMES: dict[str, str] = {
    "hookimpl": "garuda_evals.hookspecs",
    "hookspec": "garuda_evals.hookspecs",
    "CheckRunnerRecord": "garuda_evals.records",
    "CommandRecord": "garuda_evals.records",
    "FormatterRecord": "garuda_evals.records",
    "Option": "garuda_evals.records",
    "OptionsRecord": "garuda_evals.records",
    "SuiteBuilderRecord": "garuda_evals.records",
    "SuiteRecord": "garuda_evals.records",
    "ToolchainRecord": "garuda_evals.records",
    "RunBackendRecord": "garuda_evals.records",
    "RunBackend": "garuda_evals.runner.backends",
    "LocalBackend": "garuda_evals.runner.backends",
    "Job": "garuda_evals.runner.task_run",
    "TaskContext": "garuda_evals.runner.task_run",
    "run_job": "garuda_evals.runner.task_run",
    "interrupted_row": "garuda_evals.runner.task_run",
    "new_row": "garuda_evals.runner.task_run",
    "select": "garuda_evals.runner.selection",
    "suite_names": "garuda_evals.runner.selection",
    "Selected": "garuda_evals.runner.selection",
    "choose_agent": "garuda_evals.runner.session",
    "choose_executor": "garuda_evals.runner.executor_choice",
    "probe_all": "garuda_evals.runner.toolchain_check",
    "resolve_toolchains": "garuda_evals.runner.toolchain_check",
    "missing_message": "garuda_evals.runner.toolchain_check",
    "ToolchainStatus": "garuda_evals.toolchains.base",
    "FileFormatError": "garuda_evals.errors",
    "GarudaError": "garuda_evals.errors",
    "UsageError": "garuda_evals.errors",
    "describe_validation_error": "garuda_evals.errors",
    "load_model": "garuda_evals.files",
    "parse_json": "garuda_evals.files",
    "parse_toml": "garuda_evals.files",
    "read_text_file": "garuda_evals.files",
    "remove_tree": "garuda_evals.removal",
    "Model": "garuda_evals.models.base",
    "RunSettings": "garuda_evals.models.settings",
    "CheckSpec": "garuda_evals.models.task",
    "Solution": "garuda_evals.models.task",
    "Task": "garuda_evals.models.task",
    "Usage": "garuda_evals.models.usage",
    "Status": "garuda_evals.models.result",
    "TaskResult": "garuda_evals.models.result",
    "Report": "garuda_evals.models.report",
    "RunEvent": "garuda_evals.models.events",
    "RunStarted": "garuda_evals.models.events",
    "Suite": "garuda_evals.suites.base",
    "write_files": "garuda_evals.suites.base",
    "FolderSuite": "garuda_evals.suites.folder",
    "load_folder_suite": "garuda_evals.suites.folder",
    "ManifestModel": "garuda_evals.suites.manifest",
    "SuiteBuilder": "garuda_evals.suitebuilder",
    "check_suite": "garuda_evals.suites.soundness",
    "TaskSoundness": "garuda_evals.suites.soundness",
    "Canaries": "garuda_evals.checks.base",
    "CheckPlan": "garuda_evals.checks.base",
    "CheckRunner": "garuda_evals.checks.base",
    "TestCase": "garuda_evals.checks.base",
    "TestEvidence": "garuda_evals.checks.base",
    "EVIDENCE_DIR": "garuda_evals.checks.junit",
    "JUnitCheckRunner": "garuda_evals.checks.junit",
    "read_junit": "garuda_evals.checks.junit",
    "GoTestCheckRunner": "garuda_evals.checks.gotest",
    "parse_go_test_json": "garuda_evals.checks.gotest",
    "DEFAULT_OUTPUT_LIMIT": "garuda_evals.executors.base",
    "Availability": "garuda_evals.executors.base",
    "CommandResult": "garuda_evals.executors.base",
    "Executor": "garuda_evals.executors.base",
    "ExecutorBackend": "garuda_evals.executors.base",
    "ExecutorInfo": "garuda_evals.executors.base",
    "SandboxPolicy": "garuda_evals.executors.base",
    "run_in_group": "garuda_evals.executors.process",
    "is_protected": "garuda_evals.checks.protected",
    "Agent": "garuda_evals.agents.base",
    "BUDGET_STOP": "garuda_evals.agents.base",
    "AgentFactory": "garuda_evals.agents.base",
    "AgentOutcome": "garuda_evals.agents.base",
    "AgentTurn": "garuda_evals.agents.base",
    "Progress": "garuda_evals.agents.base",
    "RunLimits": "garuda_evals.agents.base",
    "Toolchain": "garuda_evals.toolchains.base",
    "Transcript": "garuda_evals.transcript",
    "ENV_ALLOW": "garuda_evals.environment",
    "check_environment": "garuda_evals.environment",
    "ReportFormatter": "garuda_evals.report.formatter",
    "wilson": "garuda_evals.stats.intervals",
    "clopper_pearson": "garuda_evals.stats.intervals",
    "pass_at_k": "garuda_evals.stats.passk",
    "pass_hat_k": "garuda_evals.stats.passk",
    "TableFormatter": "garuda_evals.report.table",
    "rates_line": "garuda_evals.report.table",
    "totals_line": "garuda_evals.report.table",
    "load_report": "garuda_evals.report.compare",
    "compare": "garuda_evals.report.compare",
    "setting_differences": "garuda_evals.report.compare",
    "format_tokens": "garuda_evals.report.units:tokens",
    "format_cost": "garuda_evals.report.units:cost",
    "format_seconds": "garuda_evals.report.units:seconds",
    "format_percent": "garuda_evals.report.units:percent",
    "format_usage_tokens": "garuda_evals.report.units:usage_tokens",
    "format_interval": "garuda_evals.report.units:interval",
    "format_rate": "garuda_evals.report.units:rate",
    "Summary": "garuda_evals.models.report",
    "TaskMean": "garuda_evals.models.report",
    "CheckOutcome": "garuda_evals.models.result",
    "PluginRegistry": "garuda_evals.plugins.manager",
    "get_registry": "garuda_evals.plugins.manager",
    "AGENTS": "garuda_evals.plugins.drivers",
    "EXECUTORS": "garuda_evals.plugins.drivers",
    "driver_names": "garuda_evals.plugins.drivers",
    "load_driver": "garuda_evals.plugins.drivers",
    "install_hint": "garuda_evals.plugins.known",
    "OS_SANDBOX_FOR_PLATFORM": "garuda_evals.plugins.known",
    "KNOWN_EXECUTORS": "garuda_evals.plugins.known:EXECUTORS",
    "apply_solution": "garuda_evals.agents.oracle",
    "MESSAGE_CHARS": "garuda_evals.checks.junit",
    "read_case": "garuda_evals.checks.junit",
    "summarize": "garuda_evals.checks.junit",
    "report_files": "garuda_evals.checks.junit",
    "run_garuda": "garuda_evals.testing",
    "only_report": "garuda_evals.testing",
    "skip_or_fail": "garuda_evals.testing",
}

__all__ = sorted(_HOMES)


def __getattr__(name: str) -> Any:
    """Import a public name from its module on first use."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"garuda_evals.api has no {name!r} (see docs/guide/plugin-author.md)")
    module, _, attribute = home.partition(":")
    value = getattr(import_module(module), attribute or name)
    globals()[name] = value
    return value
