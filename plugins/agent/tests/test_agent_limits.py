"""Denied commands, the step limit, the output limit, and paths outside the workspace."""

from garuda_evals.testing import run_settings
from garuda_evals_agent.testing import Reply, Text, Think, Use

MODEL = run_settings(model="anthropic/claude-haiku-4-5")


def test_denied_command_goes_back_to_the_model_and_is_not_run(tmp_path, fake_server, run_turn):
    marker = tmp_path / "work" / "keep.txt"
    server = fake_server(
        [Reply([Use("run_command", {"command": "cd . && rm -rf keep.txt"})]), Reply([Text("ok")])]
    )
    run = run_turn(MODEL, files={"keep.txt": "x"})
    assert run.error is None, run.error
    assert marker.exists()
    result = server.model_calls()[1]["body"]["messages"][-1]["content"][0]
    assert result["is_error"] and "deny rule 'rm -rf*'" in result["content"]
    assert run.lines("tool_result")[0]["denied"]
    assert any(kind == "tool" and "denied" in line for kind, line in run.events)


def test_step_limit_stops_the_turn(fake_server, run_turn):
    server = fake_server([Reply([Use("list_files", {})]) for _ in range(5)])
    run = run_turn(run_settings(model="anthropic/claude-haiku-4-5", max_steps=2))
    assert run.error is None, run.error
    assert (run.outcome.steps, run.outcome.stop_reason) == (2, "max_steps")
    assert len(server.model_calls()) == 2
    assert any(kind == "notice" and "step limit" in line for kind, line in run.events)


def test_output_limit_stop_is_recovered(fake_server, run_turn):
    cut = Reply(
        [Think("long thoughts"), Use("write_file", {"path": "big.txt", "content": "x" * 50})],
        cut=True,
    )
    server = fake_server(
        [
            cut,
            Reply([Use("write_file", {"path": "small.txt", "content": "ok"})]),
            Reply([Text("done")]),
        ]
    )
    run = run_turn(MODEL)
    assert run.error is None, run.error
    assert (run.outcome.steps, run.outcome.stop_reason) == (3, "done")
    notices = [line for kind, line in run.events if kind == "notice"]
    assert len(notices) == 1 and "output limit" in notices[0] and "16384" in notices[0]
    assert run.outcome.notices == notices
    second = server.model_calls()[1]["body"]["messages"]
    assert (
        second[-1]["role"] == "user"
        and "cut off at the output limit" in second[-1]["content"][-1]["text"]
    )
    # the signed thinking is kept, the unfinished tool call dropped, nothing was written
    assert [b["type"] for b in second[1]["content"]] == ["thinking"]
    assert not (run.transcript.parent / "work" / "big.txt").exists()
    assert (run.transcript.parent / "work" / "small.txt").read_text() == "ok"


def test_repeated_output_limit_stops_with_max_tokens(fake_server, run_turn):
    fake_server([Reply([Text("aaaa")], cut=True) for _ in range(4)])
    run = run_turn(MODEL)
    assert run.error is None, run.error
    assert (run.outcome.steps, run.outcome.stop_reason) == (4, "max_tokens")


def test_only_consecutive_output_limit_stops_count(fake_server, run_turn):
    cut = Reply([Text("aaaa")], cut=True)
    whole = Reply([Use("list_files", {})])
    fake_server([cut, cut, cut, whole, cut, cut, cut, whole, Reply([Text("done")])])
    run = run_turn(MODEL)
    assert run.error is None, run.error
    assert (run.outcome.steps, run.outcome.stop_reason) == (9, "done")
    notices = [line for kind, line in run.events if kind == "notice"]
    assert len(notices) == 6 and all(line.endswith(", continuing") for line in notices)


def test_paths_outside_the_workspace_are_refused(tmp_path, fake_server, run_turn):
    outside = tmp_path / "outside.txt"
    fake_server(
        [
            Reply(
                [
                    Use("write_file", {"path": "../outside.txt", "content": "no"}),
                    Use("read_file", {"path": "/etc/hostname"}),
                ]
            ),
            Reply([Text("ok")]),
        ]
    )
    run = run_turn(MODEL)
    assert not outside.exists()
    results = run.lines("tool_result")
    assert all(r["isError"] and "outside the workspace" in r["content"] for r in results)
