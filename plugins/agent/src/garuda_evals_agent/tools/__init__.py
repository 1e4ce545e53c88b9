"""The agent's tools: files inside the workspace, and shell commands through the executor."""
