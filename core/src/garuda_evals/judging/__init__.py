"""The judge: a fresh copy of the task, the agent's change read safely, and the verdict rules."""
