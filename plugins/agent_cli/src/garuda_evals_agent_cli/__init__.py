"""Agent CLIs as garuda agents, metered by one loopback proxy."""
