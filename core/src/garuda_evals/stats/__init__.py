"""Statistics for small agent evals: rate intervals, paired A/B tests, pass@k, sequential tests.

Pure Python (the standard library only): evals have tens of tasks and a handful of repeats, so
exact small-sample methods cost nothing and large-sample formulas would mislead.
"""
