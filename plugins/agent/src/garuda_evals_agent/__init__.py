"""The built-in coding agent of garuda-evals and its model providers."""
