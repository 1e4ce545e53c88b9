"""The verdict of one run: judged in a fresh copy of the task (see ``garuda_evals.judging``)."""

from garuda_evals.judging.judge import Judge, Verdict, judge_in_copy, strict

__all__ = ["Judge", "Verdict", "judge_in_copy", "strict"]
