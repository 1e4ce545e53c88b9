"""Which first-party distribution provides which name, for "install X" hints."""

SUITES = {
    "python": "garuda-evals-python",
    "basic": "garuda-evals-node",
    "hard": "garuda-evals-node",
    "java": "garuda-evals-java",
    "repo": "garuda-evals-repo-git",
}
TOOLCHAINS = {
    "pytest": "garuda-evals-python",
    "python": "garuda-evals-python",
    "node": "garuda-evals-node",
    "maven": "garuda-evals-java",
    "java": "garuda-evals-java",
}
EXECUTORS = {
    "bwrap": "garuda-evals-sandbox-bwrap",
    "seatbelt": "garuda-evals-sandbox-seatbelt",
}
OS_SANDBOX_FOR_PLATFORM = {
    "linux": "garuda-evals-sandbox-bwrap",
    "darwin": "garuda-evals-sandbox-seatbelt",
}
AGENTS = {"garuda": "garuda-evals-agent"}
SUITE_BUILDERS = {
    "git": "garuda-evals-repo-git",
    "swe-bench": "garuda-evals-swebench",
    "exercism": "garuda-evals-exercism",
    "harbor": "garuda-evals-harbor",
}
RUN_BACKENDS = {"ray": "garuda-evals-ray"}
RAY_BACKEND = ("needs the Ray backend", "garuda-evals-ray")
MODEL_AGENT = ("needs the model agent", "garuda-evals-agent")
GIT_BUILDER = ("needs a git suite builder", "garuda-evals-repo-git")
OPTIONS = {
    **dict.fromkeys(
        (
            "-m",
            "--model",
            "--max-steps",
            "--index",
            "--subagents",
            "--subagent-model",
            "--todo",
            "--lsp",
            "--keep-thinking",
            "--format",
            "--batch",
        ),
        MODEL_AGENT,
    ),
    **dict.fromkeys(
        ("--from-git", "--commits", "--since", "--max-tasks", "--test-command"), GIT_BUILDER
    ),
    **dict.fromkeys(("--ray-address", "--ray-runtime-env", "--skip-nodes"), RAY_BACKEND),
}
"""Flags of first-party plugins: ``flag -> (what it needs, the distribution to install)``."""


def install_hint(table: dict[str, str], name: str) -> str:
    """`` (install garuda-evals-x)`` when a first-party distribution provides ``name``."""
    dist = table.get(name)
    return f" (install {dist})" if dist else ""
