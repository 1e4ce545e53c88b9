"""Tool-call counts and usage per model: summed, averaged per task, shown in the footnote."""

from garuda_evals.models.report import Summary, TaskMean
from garuda_evals.models.result import Status, TaskResult
from garuda_evals.models.usage import Usage
from garuda_evals.report.summary import summarize, task_means
from garuda_evals.report.table import tool_calls_line


def result(status: Status, calls: dict[str, int], **by_model: float) -> TaskResult:
    return TaskResult(
        task="t",
        suite="s",
        status=status,
        tool_calls=calls,
        usage_by_model={m: Usage(cost_usd=c, requests=1) for m, c in by_model.items()},
    )


def test_counts_are_summed_averaged_and_never_called_tools_stay_visible():
    runs = [
        result(Status.PASS, {"read_file": 3, "todo_write": 0}, a=0.5),
        result(Status.FAIL, {"read_file": 1, "todo_write": 0}, a=0.25, b=1.0),
        result(Status.ERR, {"read_file": 8, "todo_write": 0}),
    ]
    summary = summarize(runs)
    assert summary.tool_calls == {"read_file": 12, "todo_write": 0}
    assert summary.usage_by_model["a"].cost_usd == 0.75
    assert summary.usage_by_model["b"].requests == 1
    (mean,) = task_means(runs)
    assert mean.mean_tool_calls == {"read_file": 2.0, "todo_write": 0.0}  # error run left out
    line = tool_calls_line(summary, len(runs))
    assert line == "tool calls: read_file 12 (4.0/run) · todo_write 0 (0.0/run)"


def test_reports_without_the_new_fields_still_load():
    summary = summarize([result(Status.PASS, {})]).model_dump(by_alias=True)
    del summary["toolCalls"], summary["usageByModel"]
    assert Summary.model_validate(summary).tool_calls == {}
    assert tool_calls_line(Summary.model_validate(summary), 1) is None
    mean = TaskMean(task="t", suite="s", runs=1, passes=1, errors=0, mean_steps=None,
                    mean_tokens=None, mean_cost_usd=None, mean_duration_ms=None,
                    cost_incomplete=False)  # fmt: skip
    assert mean.mean_tool_calls == {}
    assert TaskResult.model_validate({"task": "t", "suite": "s", "status": "PASS"}).tool_calls == {}
