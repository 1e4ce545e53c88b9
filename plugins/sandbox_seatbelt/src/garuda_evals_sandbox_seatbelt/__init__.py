"""garuda-evals-sandbox-seatbelt: the Seatbelt executor backend (macOS)."""

from garuda_evals_sandbox_seatbelt.backend import SeatbeltBackend

__all__ = ["SeatbeltBackend"]
