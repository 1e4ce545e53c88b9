"""The tools on their own: exact edits, searches, paths, and the deny rules."""

import os

import pytest

from garuda_evals_agent.prompt import system_prompt
from garuda_evals_agent.tools import files
from garuda_evals_agent.tools.approver import Approver
from garuda_evals_agent.tools.paths import ToolError, inside


@pytest.mark.parametrize(
    "command",
    [
        "rm -rf /",
        "sudo ls",
        "git push origin main",
        "curl http://x",
        "wget x",
        "cd src && rm -rf build",
        "ls; sudo reboot",
        "FOO=1 curl x",
        "echo $(curl x)",
        "true | wget -q x",
        "rm  -rf   build",
        "rm\t-rf build",
        "  sudo ls",
        "echo `curl x`",
        "echo ok &&\n  git   push",
    ],
)
def test_deny_rules_catch_every_simple_command(command):
    decision = Approver().check_command(command)
    assert not decision.allowed and decision.rule


@pytest.mark.parametrize(
    "command",
    [
        "rm -r build",
        "python3 -m pytest -q",
        "git status",
        "echo curl",
        "echo 'rm -rf x'",
        "xsudo ls",
    ],
)
def test_other_commands_are_allowed(command):
    assert Approver().check_command(command).allowed


def test_edit_needs_an_exact_single_match(tmp_path):
    (tmp_path / "a.py").write_text("x = 1\nx = 1\ny = 2\n")
    with pytest.raises(ToolError, match="occurs 2 times"):
        files.edit_file(tmp_path, {"path": "a.py", "old_text": "x = 1", "new_text": "x = 3"})
    with pytest.raises(ToolError, match="not found"):
        files.edit_file(tmp_path, {"path": "a.py", "old_text": "z = 1", "new_text": "x"})
    files.edit_file(tmp_path, {"path": "a.py", "old_text": "y = 2", "new_text": "y = 5"})
    files.edit_file(
        tmp_path, {"path": "a.py", "old_text": "x = 1", "new_text": "x = 0", "replace_all": True}
    )
    assert (tmp_path / "a.py").read_text() == "x = 0\nx = 0\ny = 5\n"


def test_read_list_and_search(tmp_path):
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "m.py").write_text("def f():\n    return 42\n")
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "HEAD").write_text("ref")
    assert files.list_files(tmp_path, {}) == "src/m.py"
    assert "    2      return 42" in files.read_file(tmp_path, {"path": "src/m.py"})
    assert (
        files.read_file(tmp_path, {"path": "src/m.py", "offset": 2, "limit": 1}).strip()
        == "2      return 42"
    )
    assert (
        files.search_files(tmp_path, {"pattern": r"return \d+", "glob": "*.py"})
        == "src/m.py:2:     return 42"
    )


def test_symlinks_out_of_the_workspace_are_refused(tmp_path):
    work = tmp_path / "work"
    work.mkdir()
    os.symlink(tmp_path, work / "up")
    with pytest.raises(ToolError, match="outside the workspace"):
        inside(work, "up/secret.txt")
    assert inside(work, str(work / "a.txt")) == (work / "a.txt").resolve()


@pytest.mark.parametrize(
    ("build_file", "word"),
    [("pom.xml", "mvn"), ("package.json", "node --test"), ("pyproject.toml", "pytest")],
)
def test_build_notes_follow_the_workspace(tmp_path, build_file, word):
    assert "Build notes" not in system_prompt(tmp_path)
    (tmp_path / build_file).write_text("")
    assert word in system_prompt(tmp_path)
