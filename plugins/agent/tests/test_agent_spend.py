"""What a turn spent, counted once: the run's budget (``--max-cost``) grows by each task's new
spend, and a model call on its way when the turn stops counts as unreported, never as zero.

Turns of the real agent against the fake Anthropic server (real SDK); the budget's own
arithmetic directly."""

from __future__ import annotations

import pytest

from garuda_evals.agents.base import BUDGET_STOP, Progress
from garuda_evals.testing import run_settings
from garuda_evals_agent.budget import Budget, TurnSpend
from garuda_evals_agent.factory import GarudaAgentFactory
from garuda_evals_agent.loop import GarudaAgent
from garuda_evals_agent.meter import IN_FLIGHT
from garuda_evals_agent.testing import Reply, Text, Tokens, Use

MODEL = "anthropic/claude-haiku-4-5"
CENT = Tokens(input=9_000, output=200)  # $0.009 + $0.001 at claude-haiku-4-5's price
FEW = Tokens(input=100, output=10)


def _agent(max_cost: float | None = None) -> GarudaAgent:
    settings = run_settings(model=MODEL, max_cost=max_cost)
    factory = GarudaAgentFactory()
    factory.check_settings(settings)
    agent = factory.create(settings)
    assert isinstance(agent, GarudaAgent)
    return agent


def test_a_tasks_running_total_is_counted_once_per_update() -> None:
    budget = Budget(max_cost_usd=1.0)
    first, second = TurnSpend(budget), TurnSpend(budget)
    for total in (0.0, 0.25, 0.25, 0.5):
        first.update(total)
    second.update(0.125)
    second.update(0.375)
    assert budget.spent_usd == pytest.approx(0.875)
    assert (first.counted_usd, second.counted_usd) == (0.5, 0.375)
    assert budget.reason() is None and not budget.exhausted()
    second.update(0.5)
    assert budget.spent_usd == pytest.approx(1.0) and budget.exhausted()
    assert not budget.incomplete  # every update said its spend was complete
    assert budget.reason() == "the run's spend cap is reached (--max-cost 1 USD, 1.0000 USD spent)"


def test_the_cap_is_reached_at_the_amount_itself() -> None:
    budget = Budget(max_cost_usd=0.5)
    budget.spend(0.25)
    assert not budget.exhausted() and budget.reason() is None
    budget.spend(0.25)
    assert budget.exhausted()
    assert budget.reason() == (
        "the run's spend cap is reached (--max-cost 0.5 USD, 0.5000 USD spent)"
    )
    assert not Budget().exhausted() and Budget().reason() is None
    Budget().spend(100.0)


def test_a_spend_with_an_unknown_part_is_named_a_minimum() -> None:
    budget = Budget(max_cost_usd=0.5)
    spend = TurnSpend(budget)
    spend.update(0.25, incomplete=True)
    spend.update(0.75)
    assert budget.incomplete and budget.spent_usd == pytest.approx(0.75)
    assert budget.reason() == (
        "the run's spend cap is reached (--max-cost 0.5 USD, at least 0.7500 USD spent)"
    )
    known = Budget(max_cost_usd=0.5)
    TurnSpend(known).update(0.75, incomplete=False)
    assert not known.incomplete and "at least" not in (known.reason() or "")


def test_a_turn_under_the_cap_runs_to_its_end(fake_server, run_turn) -> None:
    """Four calls of about a cent under a five-cent cap: counting a running total again at
    each step would reach the cap after the third and cut the turn."""
    script = [Reply([Use("list_files", {})], usage=CENT) for _ in range(4)]
    server = fake_server([*script, Reply([Text("done")], usage=FEW)])
    agent = _agent(max_cost=0.05)
    run = run_turn(run_settings(model=MODEL, max_cost=0.05), agent=agent)
    assert run.error is None, run.error
    assert run.outcome is not None and run.outcome.stop_reason == "done"
    assert len(server.model_calls()) == 5
    cost = run.outcome.usage.cost_usd
    assert cost == pytest.approx(0.04 + 0.00015)
    assert agent.budget.spent_usd == pytest.approx(cost)
    assert agent.budget_spent() is None


def test_turns_of_one_run_share_the_budget(fake_server, run_turn) -> None:
    """Two cents in the first turn, one in the second, which then meets the cap."""
    server = fake_server(
        [
            Reply([Use("list_files", {})], usage=CENT),
            Reply([Text("one")], usage=CENT),
            Reply([Use("list_files", {})], usage=CENT),
            Reply([Text("never sent: the cap was reached")], usage=CENT),
        ]
    )
    agent = _agent(max_cost=0.03)
    settings = run_settings(model=MODEL, max_cost=0.03)
    first = run_turn(settings, agent=agent)
    assert first.outcome is not None and first.outcome.stop_reason == "done"
    second = run_turn(settings, agent=agent)
    assert second.outcome is not None and second.outcome.stop_reason == BUDGET_STOP
    assert len(server.model_calls()) == 3
    spent = first.outcome.usage.cost_usd + second.outcome.usage.cost_usd
    assert agent.budget.spent_usd == pytest.approx(spent)
    assert spent == pytest.approx(0.03)
    assert agent.budget_spent() == (
        "the run's spend cap is reached (--max-cost 0.03 USD, 0.0300 USD spent)"
    )


def test_an_unpriced_call_makes_the_runs_spend_a_minimum(fake_server, run_turn) -> None:
    fake_server([Reply([Use("list_files", {})], usage=None), Reply([Text("x")], usage=CENT)])
    agent = _agent(max_cost=0.005)
    run = run_turn(run_settings(model=MODEL, max_cost=0.005), agent=agent)
    assert run.outcome is not None and run.outcome.usage.cost_incomplete
    assert agent.budget.incomplete
    # the cap counts the unreported call at its reservation (the most it can have cost)
    counted = agent.budget.counted(run.outcome.usage)
    assert run.outcome.usage.cost_usd == 0 and counted > 0.005
    assert f"at least {counted:.4f} USD spent" in (agent.budget_spent() or "")


def test_a_turn_stopped_during_its_first_call_is_unknown_not_zero(fake_server, run_turn) -> None:
    server = fake_server([Reply([Text("slow")], delay_s=300)])
    progress = Progress()
    run = run_turn(run_settings(model=MODEL), progress=progress, limit_s=2.0)
    assert isinstance(run.error, TimeoutError)
    assert len(server.model_calls()) == 1
    usage = progress.usage
    assert progress.steps == 1 and (usage.requests, usage.unreported_requests) == (1, 1)
    assert not usage.tokens_known and usage.cost_incomplete and usage.total_tokens == 0
    assert usage.unreported_tokens > 16_384 and usage.notes == [IN_FLIGHT]


def test_a_call_on_its_way_when_the_turn_stops_counts_as_unreported(fake_server, run_turn) -> None:
    server = fake_server(
        [Reply([Use("list_files", {})], usage=CENT), Reply([Text("slow")], delay_s=300)]
    )
    progress = Progress()
    run = run_turn(run_settings(model=MODEL), progress=progress, limit_s=5.0)
    assert isinstance(run.error, TimeoutError), run.error
    assert len(server.model_calls()) == 2
    usage = progress.usage
    assert progress.steps == 2
    assert (usage.requests, usage.unreported_requests) == (2, 1)
    assert not usage.tokens_known and usage.cost_incomplete
    assert (usage.input_tokens, usage.output_tokens) == (9_000, 200)
    assert usage.unreported_tokens > 16_384  # the reservation: max_tokens plus the input
    assert usage.cost_usd == pytest.approx(0.01) and IN_FLIGHT in usage.notes
    assert progress.usage_by_model[MODEL] == usage
    (end,) = run.lines("end")
    assert end["stopReason"] == "cancelled"
