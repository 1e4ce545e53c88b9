"""A Harbor task's ``environment/Dockerfile`` read as what it asks of the machine.

Without Docker a task runs on this host's toolchains, so its Dockerfile is read, not built:
``FROM`` names a toolchain (a python, node, debian or ubuntu image), ``RUN`` may only install
packages (``apt-get``/``apt``, ``pip``/``uv pip``; the host must have them, see ``host``),
make folders and clean up, ``COPY``/``ADD`` put files of the build context into the
working folder, ``WORKDIR`` names that folder, ``ENV`` and ``ARG`` set variables. Anything
else (a download, a build, a multi-stage build, a heredoc) is refused, one line naming the
Dockerfile's line and what it does.
"""

from __future__ import annotations

import json
import posixpath
import re
import shlex
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from garuda_evals_harbor.refusal import Refused

IGNORED = frozenset(
    {
        "USER",
        "LABEL",
        "EXPOSE",
        "CMD",
        "ENTRYPOINT",
        "HEALTHCHECK",
        "STOPSIGNAL",
        "VOLUME",
        "SHELL",
        "MAINTAINER",
    }
)
"""Instructions that change nothing a task's files or checks see here."""
OPERATORS = frozenset({"&&", ";", "||", "|", "&", "(", ")", ">", ">>", "<", "|&"})
NO_OPS = frozenset({"true", ":", "cd", "echo", "chmod", "chown", "ln", "useradd", "groupadd"})
CLEANED = ("/var/lib/apt/lists", "/var/cache", "/root/.cache", "/tmp")
PIP_VALUE_FLAGS = frozenset(
    {
        "-i",
        "--index-url",
        "--extra-index-url",
        "-f",
        "--find-links",
        "--trusted-host",
        "-c",
        "--constraint",
        "--python",
        "-p",
        "--target",
        "-t",
        "--prefix",
        "--root",
        "--platform",
        "--python-version",
        "--timeout",
        "--retries",
        "--cache-dir",
    }
)
VARIABLE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)")


@dataclass(frozen=True)
class Need:
    """One thing the environment needs of the host: a toolchain, or a package."""

    kind: str  # "python", "node", "system", "apt", "pip"
    name: str
    line: int
    version: str = ""


@dataclass(frozen=True)
class Copy:
    """``COPY``/``ADD``: a path of the build context to a path below the working folder."""

    source: str
    target: str
    folder_target: bool
    line: int


@dataclass
class Environment:
    """What the Dockerfile asks for, once read."""

    image: str = ""
    workdir: str = "/app"
    env: dict[str, str] = field(default_factory=dict)
    copies: list[Copy] = field(default_factory=list)
    folders: list[str] = field(default_factory=list)
    needs: list[Need] = field(default_factory=list)
    requirements_files: list[tuple[str, int]] = field(default_factory=list)


def logical_lines(text: str) -> list[tuple[int, str]]:
    """``(line number, instruction)`` with continuations joined and comments dropped."""
    found: list[tuple[int, str]] = []
    current: list[str] = []
    start = 0
    for number, raw in enumerate(text.splitlines(), 1):
        stripped = raw.strip()
        if not current and (not stripped or stripped.startswith("#")):
            continue
        if current and stripped.startswith("#"):
            continue
        if not current:
            start = number
        if stripped.endswith("\\"):
            current.append(stripped[:-1])
            continue
        current.append(stripped)
        found.append((start, " ".join(part.strip() for part in current if part.strip())))
        current = []
    if current:
        found.append((start, " ".join(current)))
    return found


def substitute(text: str, values: dict[str, str]) -> str:
    """``$NAME``, ``${NAME}`` and ``${NAME:-default}`` from ``values`` (others kept)."""

    def one(match: re.Match[str]) -> str:
        name = match.group(1) or match.group(3)
        if name in values:
            return values[name]
        if match.group(2) is not None:
            return match.group(2)
        return match.group(0)

    return VARIABLE.sub(one, text)


def _image(reference: str, line: int) -> Need:
    """The toolchain an image stands for (``python:3.12-slim``, ``node:20``, ``debian``,
    Terminal-Bench's ``t-bench/python-3-13``)."""
    path, _, tag = reference.rpartition("/")[2].partition(":")
    tag = tag.split("@")[0]
    named = re.fullmatch(r"(python|node|ubuntu|debian)-(\d+)(?:-(\d+))?", path)
    if named:
        kind, major, minor = named.groups()
        path, tag = kind, f"{major}.{minor}" if minor else major
    if path == "python":
        version = re.match(r"\d+(?:\.\d+)?", tag or "")
        return Need("python", "python3", line, version.group(0) if version else "")
    if path == "node":
        version = re.match(r"\d+", tag or "")
        return Need("node", "node", line, version.group(0) if version else "")
    if path in ("debian", "ubuntu", "buildpack-deps"):
        return Need("system", path, line)
    raise Refused(
        f"FROM {reference}: no toolchain of this host stands for this image "
        "(python, node, debian and ubuntu images can run without Docker)"
    )


def _commands(script: str, line: int) -> list[list[str]]:
    """The simple commands of a ``RUN`` (split at ``&&``, ``;`` and ``||``); a pipe, a
    redirection or a sub-shell is refused."""
    if "<<" in script:
        raise Refused(f"RUN {script[:60]}: a heredoc (it writes or runs a script)")
    try:
        lexer = shlex.shlex(script, posix=True, punctuation_chars=True)
        lexer.whitespace_split = True
        tokens = list(lexer)
    except ValueError as error:
        raise Refused(f"RUN {script[:60]}: cannot be read ({error})") from error
    commands: list[list[str]] = [[]]
    for token in tokens:
        if token in ("&&", ";", "||"):
            commands.append([])
        elif token in OPERATORS or token.startswith((">", "<", "|", "&")):
            raise Refused(f"RUN {script[:60]}: `{token}` (a pipe, redirection or sub-shell)")
        else:
            commands[-1].append(token)
    return [command for command in commands if command]


def _pip_packages(args: list[str], line: int, env: Environment) -> list[Need]:
    needs: list[Need] = []
    skip = False
    for index, arg in enumerate(args):
        if skip:
            skip = False
            continue
        if arg in ("-r", "--requirement"):
            if index + 1 < len(args):
                env.requirements_files.append((args[index + 1], line))
            skip = True
            continue
        if arg in PIP_VALUE_FLAGS:
            skip = True
            continue
        if arg.startswith("-"):
            if arg in ("-e", "--editable"):
                raise Refused("RUN pip install -e: installs a local project (build it in the task)")
            continue
        if arg.startswith((".", "/")) or "://" in arg or arg.endswith((".whl", ".tar.gz")):
            raise Refused(f"RUN pip install {arg}: a local path or URL, not a package name")
        needs.append(Need("pip", arg, line))
    return needs


def _run(command: list[str], line: int, env: Environment) -> None:
    """One simple command of a ``RUN``: recorded as a need, accepted as a no-op, or refused."""
    while command and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*=.*", command[0]):
        command = command[1:]
    if command and command[0] in ("sudo", "env"):
        command = command[1:]
    if not command:
        return
    tool, args = command[0], command[1:]
    words = [arg for arg in args if not arg.startswith("-")]
    if tool in ("apt-get", "apt"):
        if words[:1] == ["install"]:
            env.needs += [Need("apt", word.split("=")[0], line) for word in words[1:]]
        elif words[:1] and words[0] not in (
            "update",
            "clean",
            "autoclean",
            "autoremove",
            "upgrade",
        ):
            raise Refused(f"RUN {tool} {words[0]}: only apt-get install of what the host has")
        return
    pip = (
        tool in ("pip", "pip3")
        or (tool.startswith("python") and args[:2] == ["-m", "pip"])
        or (tool == "uv" and args[:1] == ["pip"])
    )
    if pip:
        rest = args[2:] if tool.startswith("python") else args[1:] if tool == "uv" else args
        verb = next((arg for arg in rest if not arg.startswith("-")), "")
        if verb == "install":
            env.needs += _pip_packages(rest[rest.index("install") + 1 :], line, env)
            return
        if verb in ("", "cache", "config"):
            return
        raise Refused(f"RUN {tool} {verb}: only pip install of what the host has")
    if tool == "mkdir":
        env.folders += words
        return
    if tool == "rm":
        if all(any(w == c or w.startswith(c + "/") for c in CLEANED) for w in words):
            return
        raise Refused(f"RUN rm {' '.join(words)[:60]}: removes files of the image")
    if tool in NO_OPS:
        return
    raise Refused(
        f"RUN {' '.join(command)[:60]}: runs {tool}, which cannot be done without Docker "
        "(only apt-get/pip installs of what this host has, mkdir and clean-ups)"
    )


def _copy(instruction: str, args: str, line: int, env: Environment, workdir: str) -> None:
    parts = shlex.split(args) if not args.startswith("[") else json.loads(args)
    flags = [part for part in parts if part.startswith("--")]
    paths = [part for part in parts if not part.startswith("--")]
    if any(flag.startswith("--from") for flag in flags):
        raise Refused(f"{instruction} {args[:60]}: copies from another image (a multi-stage build)")
    if len(paths) < 2:
        raise Refused(f"{instruction} {args[:60]}: needs a source and a destination")
    *sources, target = paths
    if instruction == "ADD" and any(
        "://" in s or s.endswith((".tar", ".gz", ".tgz", ".xz")) for s in sources
    ):
        raise Refused(f"ADD {args[:60]}: a download or an archive to unpack")
    absolute = posixpath.normpath(posixpath.join(workdir, target))
    folder_target = target.endswith("/") or len(sources) > 1
    for source in sources:
        env.copies.append(Copy(source, absolute, folder_target, line))


def read_dockerfile(text: str) -> Environment:
    """The Dockerfile's needs; ``Refused`` names the line (``:N``) and what it does."""
    env = Environment()
    values: dict[str, str] = {}
    workdir = "/"
    seen_workdir = False
    for line, instruction in logical_lines(text):
        keyword, _, rest = instruction.partition(" ")
        keyword, rest = keyword.upper(), rest.strip()
        try:
            if keyword == "FROM":
                if env.image:
                    raise Refused(f"FROM {rest[:60]}: a second FROM (a multi-stage build)")
                words = [w for w in substitute(rest, values).split() if not w.startswith("--")]
                env.image = words[0] if words else ""
                env.needs.append(_image(env.image, line))
            elif keyword in ("ARG", "ENV"):
                for name, value in _assignments(substitute(rest, values), keyword == "ARG"):
                    values[name] = value
                    if keyword == "ENV":
                        env.env[name] = value
            elif keyword == "WORKDIR":
                workdir = posixpath.normpath(posixpath.join(workdir, substitute(rest, values)))
                seen_workdir = True
            elif keyword == "RUN":
                script = rest
                if script.startswith("["):
                    script = shlex.join(json.loads(script))
                for command in _commands(substitute(script, values), line):
                    _run(command, line, env)
            elif keyword in ("COPY", "ADD"):
                _copy(keyword, substitute(rest, values), line, env, workdir)
            elif keyword == "ONBUILD":
                raise Refused("ONBUILD: instructions for another build")
            elif keyword not in IGNORED:
                raise Refused(f"{keyword}: not a Dockerfile instruction read here")
        except Refused as error:
            raise Refused(f":{line}: {error.reason}") from None
        except (ValueError, json.JSONDecodeError) as error:
            raise Refused(f":{line}: {keyword} cannot be read ({error})") from None
    if not env.image:
        raise Refused(": no FROM")
    env.workdir = workdir if seen_workdir else "/app"
    if env.workdir == "/" or PurePosixPath(env.workdir).parts[1:2] in (("tests",), ("logs",)):
        raise Refused(f": WORKDIR {env.workdir}: the task's folder must be a folder of its own")
    return env


def _assignments(text: str, is_arg: bool) -> list[tuple[str, str]]:
    """``NAME=value ...`` (or ``ENV NAME value``); an ARG without a default is skipped."""
    words = shlex.split(text)
    if not words:
        return []
    if "=" not in words[0]:
        if is_arg:
            return []
        return [(words[0], " ".join(words[1:]))]
    return [(word.partition("=")[0], word.partition("=")[2]) for word in words if "=" in word]
