"""Whether the command agent's command started: decided before it runs, never from its exit.

An exit code is the agent's to choose, so "could not start" cannot be read from one (a
command that exits 127 on purpose when its work fails would leave the scored rate). Instead
the line the executor runs begins with a few lines of bash that, inside the executor (the
sandbox's PATH and mounts), look the command's first program up: not found, not an
executable file, or a script whose interpreter is not found ends the line there, with a
one-line reason. Otherwise they print ``STARTED`` and the user's command runs. The harness
reads "started" from that line's presence: the command cannot take back a line printed
before it ran, so from then on every exit is the agent's and its work is judged.
"""

from __future__ import annotations

import shlex

STARTED = "garuda: the agent command starts\n"
CHECK = r"""__garuda_start() {
  local found line interpreter words word program=$1
  case "$(type -t -- "$1")" in
    builtin | keyword | function) return 0 ;;
  esac
  [[ "$program" == "~/"* ]] && program=$HOME/${program#"~/"}
  if [[ "$program" == */* ]]; then found=$program; else found=$(type -P -- "$program"); fi
  if [[ -z "$found" || ! -e "$found" ]]; then
    printf "garuda: --agent-command starts with '%s', which is not found here (PATH=%s)\n" \
      "$1" "$PATH"
    return 1
  fi
  if [[ -d "$found" || ! -x "$found" ]]; then
    printf "garuda: --agent-command starts with '%s', and %s is not an executable file\n" \
      "$1" "$found"
    return 1
  fi
  IFS= read -r -n 256 line < "$found" 2>/dev/null
  [[ "$line" == '#!'* ]] || return 0
  read -r -a words <<< "${line#'#!'}"
  interpreter=${words[0]}
  if [[ -n "$interpreter" && ! -x "$interpreter" ]]; then
    printf "garuda: --agent-command starts with '%s', whose interpreter %s is not found here\n" \
      "$1" "$interpreter"
    return 1
  fi
  [[ "${interpreter##*/}" == env ]] || return 0
  for word in "${words[@]:1}"; do
    [[ "$word" == -* || "$word" == *=* ]] && continue
    type -P -- "$word" > /dev/null && return 0
    printf "garuda: --agent-command starts with '%s', whose interpreter '%s' is not found here (PATH=%s)\n" \
      "$1" "$word" "$PATH"
    return 1
  done
}"""


def launch_line(command: str, program: str | None) -> str:
    """The line the executor runs: the start check of ``program`` (None: nothing to look up,
    the command begins with shell syntax), ``STARTED``, then ``command`` unchanged."""
    lines = []
    if program is not None:
        lines += [
            CHECK,
            f"__garuda_start {shlex.quote(program)} || exit 127",
            "unset -f __garuda_start",
        ]
    lines += [f"printf %s {shlex.quote(STARTED)}", command]
    return "\n".join(lines)


def started(output: str) -> tuple[bool, str]:
    """Whether the start check passed, and the output without its ``STARTED`` line."""
    before, marker, after = output.partition(STARTED)
    return bool(marker), before + after
