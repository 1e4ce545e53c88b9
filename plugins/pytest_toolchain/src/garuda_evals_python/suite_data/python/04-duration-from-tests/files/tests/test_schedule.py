from datetime import datetime, timedelta

import pytest

from jobs import Job, Scheduler

NOON = datetime(2024, 6, 1, 12, 0)


def test_job_interval():
    assert Job("backup", "1h30m").interval == timedelta(minutes=90)


def test_a_zero_interval_is_refused():
    with pytest.raises(ValueError, match="interval must be positive"):
        Scheduler().add("spin", "0s")


def test_a_bad_interval_is_refused_when_added():
    with pytest.raises(ValueError):
        Scheduler().add("oops", "soon")


def test_run_due_jobs():
    calls = []
    scheduler = Scheduler()
    scheduler.add("mail", "15m", lambda: calls.append("mail"))
    scheduler.add("report", "1d", lambda: calls.append("report"))

    assert scheduler.run_due(NOON) == ["mail", "report"]
    assert scheduler.run_due(NOON + timedelta(minutes=10)) == []
    assert scheduler.run_due(NOON + timedelta(minutes=15)) == ["mail"]
    assert scheduler.run_due(NOON + timedelta(days=1)) == ["mail", "report"]
    assert calls == ["mail", "report", "mail", "mail", "report"]
