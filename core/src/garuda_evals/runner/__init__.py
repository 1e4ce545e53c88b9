"""The runner: one task run at a time per slot, results in task order."""
