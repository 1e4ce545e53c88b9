"""garuda-evals-sandbox-bwrap: the bubblewrap executor backend (Linux)."""

from garuda_evals_sandbox_bwrap.backend import BwrapBackend

__all__ = ["BwrapBackend"]
