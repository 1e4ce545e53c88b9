"""Benchmark a project on its own git history: mine tasks, then run them like any suite."""
