"""A game leaderboard: load results, rank them, render the table."""

from leaderboard.loader import load_results
from leaderboard.models import Ranked, Result
from leaderboard.ranking import rank_results, top
from leaderboard.table import render_table

__all__ = ["Ranked", "Result", "load_results", "rank_results", "render_table", "top"]
