"""The system prompt, with short build notes for the language the workspace shows."""

from __future__ import annotations

from pathlib import Path

BASE = """You are a coding agent. You work alone in a project folder (the workspace): {workspace}
Use the tools to read, search, edit and run code. Paths are relative to the workspace and must
stay inside it. There is no network access, and nobody will answer questions: decide yourself.
Make the smallest change that solves the task. Do not change tests or build files unless the
task asks for it. Run the tests before you finish. When the task is done, reply with a short
summary and no tool call."""

BUILD_NOTES = {
    "pom.xml": "Java with Maven: run the tests with `mvn -B -q -o test` (offline: the "
    "dependencies are already in ~/.m2; never try to download). Sources are in src/main/java, "
    "tests in src/test/java.",
    "pyproject.toml": "Python: run the tests with `python3 -m pytest -q`. Sources are often in "
    "src/ (src layout), tests in tests/. Do not install packages.",
    "package.json": "JavaScript/TypeScript with Node: run the tests with `node --test` or the "
    "test script in package.json. Do not run npm install (no network).",
}


def system_prompt(workspace: Path, code_map: str | None = None) -> str:
    """BASE, then the build notes of each build file at the workspace's root, then the code
    map (``--index all``)."""
    notes = [note for name, note in BUILD_NOTES.items() if (workspace / name).is_file()]
    text = BASE.format(workspace=workspace)
    if notes:
        text += "\n\nBuild notes:\n" + "\n".join(f"- {note}" for note in notes)
    if code_map:
        text += "\n\nCode map (file: symbol:line; lookup_symbol finds more):\n" + code_map
    return text
