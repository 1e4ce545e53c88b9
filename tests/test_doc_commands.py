"""Every ``garuda`` command written in docs/ and the README is one the real CLI takes.

A command is a line of a shell code block, or an inline code span, that starts with
``garuda`` (or ``.venv/bin/garuda``, after ``VAR=value`` words and a ``$`` prompt), and any
span that gives ``--agent-command`` (read as flags of ``garuda eval``). For each:

- its subcommands exist and every flag is one of the command's own (plugins' included);
- a concrete command (no synopsis marks such as ``[...]``, ``a|b``, ``<id>``, ``…``) is
  split by bash as the user's shell would, and click parses those words: values of the
  right type, every required argument; an upper-case placeholder (``RUN``, ``N``) may stand
  for a value;
- a ``$GARUDA_...`` variable reaches garuda as written: the user's shell must not expand it
  (it is the agent command's, set per task), so it is single-quoted.
"""

from __future__ import annotations

import re
import shlex
import subprocess
from dataclasses import dataclass
from pathlib import Path

import click
import pytest

from garuda_evals.cli.main import build_cli

REPO = Path(__file__).resolve().parents[1]
DOCS = (*sorted((REPO / "docs").rglob("*.md")), REPO / "README.md")
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.DOTALL | re.MULTILINE)
SHELL_FENCES = frozenset({"", "sh", "bash", "shell", "console"})
SPAN = re.compile(r"(`+)(.+?)\1", re.DOTALL)
LEAD = re.compile(r"^(?:\$ )?((?:[A-Z_][A-Z0-9_]*=\S*\s+)*)(?:\S*/)?garuda(?=\s|$)")
QUOTED = re.compile(r"'[^']*'|\"(?:\\.|[^\"\\])*\"")
SYNOPSIS = re.compile(r"[\[\]<>|…]|\.\.\.")
SEPARATOR = re.compile(r"\s(?:&&|\|\||\|)\s|;(?=\s|$)")  # ``a|b`` is a synopsis
COMMENT = re.compile(r"\s+#\s.*$")
NAME_PLACEHOLDER = re.compile(r"[A-Z][A-Z_]*")
PLACEHOLDER = re.compile(rf"'({NAME_PLACEHOLDER.pattern}|<[^>]+>)'")
GARUDA_VARIABLE = re.compile(r"\$\{?GARUDA_[A-Z_]+\}?")


@dataclass(frozen=True)
class DocCommand:
    """A command as the docs write it, and where (``file:line``)."""

    where: str
    text: str

    @property
    def concrete(self) -> bool:
        """True unless it has synopsis marks outside quotes (``[--keep]``, ``a|b``, ``<id>``)."""
        return not SYNOPSIS.search(QUOTED.sub("", self.text))


def _segments(text: str) -> list[str]:
    """``text`` cut at `` && ``, `` || ``, `` | `` and ``;`` outside quotes."""
    quoted = QUOTED.sub(lambda found: "x" * len(found.group(0)), text)
    cuts = [0, *(end for found in SEPARATOR.finditer(quoted) for end in found.span()), len(text)]
    return [text[start:end].strip() for start, end in zip(cuts[::2], cuts[1::2], strict=True)]


def _commands(text: str) -> list[str]:
    """The garuda commands in ``text``, each as ``garuda ...``; a span that gives
    --agent-command is read as flags of ``garuda eval``."""
    text = " ".join(text.split("\n")).strip()
    if text.startswith("-") and "--agent-command " in text:
        return ["garuda eval " + text]
    found = []
    for segment in _segments(text):
        lead = LEAD.match(segment)
        if lead:
            found.append(lead.group(1) + "garuda" + segment[lead.end() :])
    return found


def doc_commands(path: Path) -> list[DocCommand]:
    """Every garuda command in the Markdown file ``path`` (see the module)."""
    text = path.read_text(encoding="utf-8")
    name = path.relative_to(REPO).as_posix() if path.is_relative_to(REPO) else path.name
    found: list[DocCommand] = []
    follows = False  # the line before was a command: an indented ``[...]`` line continues it
    for block in FENCE.finditer(text):
        if block.group(1) not in SHELL_FENCES:
            continue
        first = text.count("\n", 0, block.start(2)) + 1
        lines = block.group(2).replace("\\\n", "  ").split("\n")
        for offset, line in enumerate(lines):
            if found and line[:1].isspace() and line.lstrip().startswith("[") and follows:
                found[-1] = DocCommand(found[-1].where, f"{found[-1].text} {line.strip()}")
                continue
            commands = _commands(line)
            follows = bool(commands)
            for command in commands:
                found.append(DocCommand(f"{name}:{first + offset}", command))
    outside = FENCE.sub(lambda block: "\n" * block.group(0).count("\n"), text)
    for span in SPAN.finditer(outside):
        line = outside.count("\n", 0, span.start()) + 1
        for command in _commands(span.group(2)):
            found.append(DocCommand(f"{name}:{line}", command))
    return found


ALL = [command for path in DOCS for command in doc_commands(path)]


def shell_words(command: str, folder: Path) -> list[str]:
    """The words bash gives ``garuda`` for ``command``, after ``garuda`` itself. It runs in
    the empty ``folder`` with nothing on PATH: no program of the docs can run."""
    script = 'garuda() { for word in "$@"; do printf "%s\\0" "$word"; done; }\n' + command
    done = subprocess.run(
        ["/bin/bash", "--norc", "--noprofile", "-c", script],
        cwd=folder,
        env={"PATH": "/nonexistent"},
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert done.returncode == 0, f"bash cannot run {command!r}: {done.stderr}"
    return done.stdout.split("\0")[:-1]


def synopsis_words(command: str) -> list[str]:
    """The words of a synopsis line, its marks (``[``, ``]``, ``...``) dropped."""
    words = shlex.split(COMMENT.sub("", command))
    cleaned = [word.strip("[]").removesuffix("...").removesuffix("…").strip("[]") for word in words]
    return [word for word in cleaned[cleaned.index("garuda") + 1 :] if word]


def _resolve(cli: click.Group, words: list[str]) -> tuple[click.Command, list[str], list[str]]:
    """The (sub)command the leading words name, its path, and the words after it."""
    context = click.Context(cli, info_name="garuda")
    command: click.Command = cli
    path = ["garuda"]
    while isinstance(command, click.Group) and words and not words[0].startswith("-"):
        if NAME_PLACEHOLDER.fullmatch(words[0]):
            return command, path, []  # ``garuda NAME``: a plugin's command
        found = command.get_command(context, words[0])
        assert found is not None, f"'{' '.join(path)}' has no command '{words[0]}'"
        command, path, words = found, [*path, words[0]], words[1:]
    return command, path, words


def _eval(cli: click.Group) -> click.Command:
    command = cli.get_command(click.Context(cli), "eval")
    assert command is not None
    return command


def _options(command: click.Command) -> dict[str, click.Option]:
    context = click.Context(command)
    return {
        name: param
        for param in command.get_params(context)
        if isinstance(param, click.Option)
        for name in (*param.opts, *param.secondary_opts)
    }


def flag_problems(cli: click.Group, words: list[str]) -> list[str]:
    """Each flag in ``words`` that the command they name does not take (``garuda ab`` also
    takes eval's flags, shared by both arms, and its arms' values are eval flags)."""
    command, path, rest = _resolve(cli, words)
    options = _options(command)
    if path == ["garuda", "ab"]:
        options = {**_options(_eval(cli)), **options}
    problems, index = [], 0
    while index < len(rest):
        word = rest[index]
        if word == "--":
            break
        if word.startswith("-") and len(word) > 1 and not word[1:2].isdigit():
            name = word.split("=", 1)[0]
            param = options.get(name)
            if param is None:
                problems.append(f"'{' '.join(path)}' has no option {name}")
            elif not param.is_flag and not param.count and "=" not in word:
                index += 1
                if name.startswith("--arm-") and index < len(rest):
                    problems += flag_problems(cli, ["eval", *shlex.split(rest[index])])
        index += 1
    return problems


def parse(cli: click.Group, words: list[str]) -> None:
    """Parse ``words`` with click as ``garuda`` would, without running the command; an
    upper-case placeholder may stand for a value, and the last flag's value may be left out
    (``garuda eval --executor`` names the flag)."""
    command, path, rest = _resolve(cli, words)
    if not rest:
        return  # the command named, not run: ``garuda regrade``
    parent = click.Context(cli, info_name="garuda")
    try:
        context = command.make_context(path[-1], list(rest), parent=parent)
        if path == ["garuda", "ab"]:
            shared = list(context.params["shared"])
            for arm in (context.params["arm_a"], context.params["arm_b"]):
                _eval(cli).make_context("eval", [*shared, *shlex.split(arm)], parent=parent)
    except click.exceptions.Exit:
        return  # --help, --version
    except click.BadOptionUsage as error:
        if not (error.option_name == rest[-1] and "requires an argument" in error.message):
            raise
    except click.BadParameter as error:
        if not PLACEHOLDER.search(error.format_message()):
            raise


@pytest.fixture(scope="module")
def cli() -> click.Group:
    return build_cli()


def test_the_docs_have_commands_to_check() -> None:
    """Control: the collection finds commands in code blocks, spans and the README."""
    where = {command.where.split(":")[0] for command in ALL}
    assert {"docs/user-guide.md", "docs/guide/adding-an-agent.md", "README.md"} <= where
    assert len(ALL) > 100
    assert sum(command.concrete for command in ALL) > 50


def check(cli: click.Group, command: DocCommand, folder: Path) -> None:
    """Fail when ``command`` is not one the CLI takes (see the module)."""
    if not command.concrete:
        assert flag_problems(cli, synopsis_words(command.text)) == [], command.text
        return
    words = shell_words(command.text, folder)
    assert flag_problems(cli, words) == [], command.text
    try:
        parse(cli, words)
    except click.ClickException as error:
        pytest.fail(f"{command.where}: {command.text}\n{error.format_message()}")
    written = GARUDA_VARIABLE.findall(command.text)
    given = [found for word in words for found in GARUDA_VARIABLE.findall(word)]
    assert given == written, (
        f"{command.where}: the user's shell expands {written}; single-quote the agent command "
        f"({command.text})"
    )


@pytest.mark.parametrize("command", ALL, ids=[command.where for command in ALL])
def test_a_documented_command_is_one_the_cli_takes(
    cli: click.Group, command: DocCommand, tmp_path: Path
) -> None:
    check(cli, command, tmp_path)


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("garuda evl -s python", "has no command 'evl'"),
        ("garuda eval --agnet oracle", "has no option --agnet"),
        ("garuda suite chek go", "has no command 'chek'"),
        ("garuda eval [--keep] [--no-such-flag n]", "has no option --no-such-flag"),
        ("garuda eval --repeat lots", "'lots' is not a valid integer"),
        ("garuda eval --executor sometimes -s python", "'sometimes' is not one of"),
        ("garuda regrade one two", "unexpected extra argument"),
        ("garuda ab --arm-a '--keep-thinkin on' --arm-b ''", "'garuda eval' has no option"),
        ("garuda ab --arm-a '--repeat x' --arm-b '' -s python", "'x' is not a valid integer"),
        (
            'garuda eval --agent command --agent-command "claude -p \\"$GARUDA_PROMPT\\""',
            "the user's shell expands ['$GARUDA_PROMPT']",
        ),
        (
            'garuda eval --agent-command "x ${GARUDA_TASK_ID}"',
            "shell expands ['${GARUDA_TASK_ID}']",
        ),
    ],
)
def test_a_wrong_command_is_caught(
    cli: click.Group, text: str, problem: str, tmp_path: Path
) -> None:
    """Control: each kind of mistake fails the check."""
    with pytest.raises((AssertionError, pytest.fail.Exception)) as raised:
        check(cli, DocCommand("control", text), tmp_path)
    assert problem in str(raised.value)


def test_a_command_after_another_is_checked_and_never_run(cli: click.Group, tmp_path: Path) -> None:
    """Control: ``a && .venv/bin/garuda ...`` gives two commands; bash runs neither program."""
    (commands,) = [_commands("cd x && .venv/bin/garuda eval --agent oracle; garuda runs")]
    assert commands == ["garuda eval --agent oracle", "garuda runs"]
    marker = tmp_path / "ran"
    assert shell_words(f'garuda eval "$(touch {marker})"', tmp_path) == ["eval", ""]
    assert not marker.exists()


CONTROL = """# Control

```
garuda eval [--keep] [-s NAME]
            [--no-such-flag]
$ garuda runs
  20261201-173555-78d3  python  --not-a-flag
```

Run `--agent command --agent-command "my-agent \\"$GARUDA_PROMPT\\""` or
`garuda eval
--agnet oracle`.
"""


def test_commands_are_found_where_the_docs_write_them(cli: click.Group, tmp_path: Path) -> None:
    """Control: a synopsis's indented lines, a ``$`` prompt, spans over two lines."""
    guide = tmp_path / "guide.md"
    guide.write_text(CONTROL)
    found = doc_commands(guide)
    assert [(c.where, c.text) for c in found] == [
        ("guide.md:4", "garuda eval [--keep] [-s NAME] [--no-such-flag]"),
        ("guide.md:6", "garuda runs"),
        (
            "guide.md:10",
            'garuda eval --agent command --agent-command "my-agent \\"$GARUDA_PROMPT\\""',
        ),
        ("guide.md:11", "garuda eval --agnet oracle"),
    ]
    failed = []
    for command in found:
        try:
            check(cli, command, tmp_path)
        except (AssertionError, pytest.fail.Exception):
            failed.append(command.where)
    assert failed == ["guide.md:4", "guide.md:10", "guide.md:11"]
