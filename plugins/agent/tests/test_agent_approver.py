"""The approver reads the command line as bash would: a table of lines it must deny or allow."""

import shlex
import subprocess

import pytest

from garuda_evals_agent.tools.approver import Approver, RuleError, split_alias
from garuda_evals_agent.tools.shell import simple_commands

DENIED = [
    # the deny rules, plain
    ("rm -rf /", "rm -rf*"),
    ("sudo ls", "sudo*"),
    ("git push origin main", "git push*"),
    ("curl http://x", "curl*"),
    ("wget x", "wget*"),
    # flag order and forms
    ("rm -fr build", "rm -rf*"),
    ("rm -r -f build", "rm -rf*"),
    ("rm -Rf build", "rm -rf*"),
    ("rm -rfv build", "rm -rf*"),
    ("rm --recursive --force build", "rm -rf*"),
    # absolute paths and escapes
    ("/bin/rm -rf build", "rm -rf*"),
    ("/usr/bin/curl x", "curl*"),
    ("\\rm -rf build", "rm -rf*"),
    ("r''m -rf build", "rm -rf*"),
    ('"rm" -rf build', "rm -rf*"),
    # compound lines
    ("cd src && rm -rf build", "rm -rf*"),
    ("false || rm -rf build", "rm -rf*"),
    ("ls; sudo reboot", "sudo*"),
    ("ls\nsudo reboot", "sudo*"),
    ("true | wget -q x", "wget*"),
    ("sleep 1 & curl x", "curl*"),
    ("(cd x; rm -rf y)", "rm -rf*"),
    ("{ rm -rf y; }", "rm -rf*"),
    ("if true; then rm -rf y; fi", "rm -rf*"),
    ("for f in a b; do rm -rf $f; done", "rm -rf*"),
    ("echo x#; rm -rf /", "rm -rf*"),
    ("2>/dev/null rm -rf y", "rm -rf*"),
    ("FOO=1 curl x", "curl*"),
    # substitutions
    ("echo $(curl x)", "curl*"),
    ('echo "$(curl x)"', "curl*"),
    ("echo `curl x`", "curl*"),
    ("diff <(curl x) y", "curl*"),
    # shells and eval
    ("bash -c 'rm -rf x'", "rm -rf*"),
    ('sh -c "cd a && rm -rf x"', "rm -rf*"),
    ("bash -lc 'git push'", "git push*"),
    ("bash -euo pipefail -c 'curl x'", "curl*"),
    ("bash -c \"sh -c 'rm -rf x'\"", "rm -rf*"),
    ("/bin/bash -c 'sudo id'", "sudo*"),
    ("eval 'rm -rf x'", "rm -rf*"),
    ("bash -c $'rm -rf x'", "rm -rf*"),
    ("bash -c $'rm\\x20-rf x'", "rm -rf*"),
    ('$"curl" x', "curl*"),
    # wrappers
    ("env rm -rf x", "rm -rf*"),
    ("env -i PATH=/bin rm -rf x", "rm -rf*"),
    ("env -S 'rm -rf x'", "rm -rf*"),
    ("command rm -rf x", "rm -rf*"),
    ("nohup rm -rf x", "rm -rf*"),
    ("time rm -rf x", "rm -rf*"),
    ("time -p curl x", "curl*"),
    ("exec rm -rf x", "rm -rf*"),
    ("nice -n 5 wget x", "wget*"),
    ("timeout 5 curl x", "curl*"),
    ("find . | xargs rm -rf", "rm -rf*"),
    ("find . -name x -exec rm -rf {} \\;", "rm -rf*"),
    ("env command nohup /bin/rm -fr x", "rm -rf*"),
    # git's global options before the subcommand
    ("git -C . push", "git push*"),
    ("git -c user.name=x push origin", "git push*"),
    ("git --no-pager push", "git push*"),
    ("git --git-dir .git push", "git push*"),
    ("git -c alias.p=push p", "git push*"),
    ("git -c alias.p='-c push.default=current push' p", "git push*"),
    ("git -c 'alias.x=!curl x' x", "curl*"),
    ("git -c 'alias.x=!cd /; rm -rf y' x", "rm -rf*"),
    # "--" ends the options before a subcommand (git refuses this line; denying costs nothing)
    ("git -- push origin", "git push*"),
    # the star of a one-word rule reaches longer names
    ("sudoedit /etc/hosts", "sudo*"),
    # a long option is read by its name, whatever follows "=" (rm itself would refuse these)
    ("rm --recursive=yes --force x", "rm -rf*"),
    # "--=x" names no option, and the options after it are still read (rm refuses it)
    ("rm --=x -rf build", "rm -rf*"),
    # long options abbreviated, as GNU rm takes them
    ("rm --recu --forc build", "rm -rf*"),
    ("rm --r -f build", "rm -rf*"),
    # a git alias's words split as git splits them: quotes and backslashes
    ("git -c \"alias.p='push'\" p", "git push*"),
    ("git -c 'alias.p=pu\"sh\"' p", "git push*"),
    ("git -c 'alias.p=pu\\sh' p", "git push*"),
    ("git -c 'alias.p=\"-C\" . push' p", "git push*"),
]

ALLOWED = [
    "rm -r build",
    "rm -f file.txt",
    "rm -f -- -r",
    "rm build/x.o",
    "python3 -m pytest -q",
    "git status",
    "git log --oneline -5",
    "git commit -m 'do not push yet'",
    "git -C . status",
    "git",
    "git --version",
    "git log --grep=push",
    "git -c color.ui log",
    # after "--" a word is not an option: this runs a command named "--no-pager"
    "git -- --no-pager push",
    "gitk push",
    "rm -r buffer",
    "echo curl",
    "echo 'done; sudo reboot'",
    'echo "a && rm -rf /"',
    "sed 's/(curl)/x/' file.txt",
    "grep -rn 'wget' src",
    "grep -e 'sudo' -e 'git push' notes.md",
    "echo '$(curl x)'",
    "printf '%s\\n' '`wget x`'",
    "ls -la | grep rm",
    "cat curl.txt",
    "python3 -c 'print(\"rm -rf /\")'",
    "npm test -- --grep 'curl'",
    "mvn -B -q -o test",
    "FOO=bar node --test",
    "bash -n script.sh",
    "bash script.sh",
    "cd src && python3 -m pytest -q tests/test_x.py 2>&1 | tail -20",
    "find . -name '*.pyc' -delete",
    "rmdir empty",
    "pushd src && popd",
    "printf $'a\\tb\\n'",
    "rm --=x build",
    "echo $'it\\'s; rm -rf /'",
]


@pytest.mark.parametrize(("line", "rule"), DENIED)
def test_denied_lines(line, rule):
    decision = Approver().check_command(line)
    assert not decision.allowed, line
    assert decision.rule == rule


@pytest.mark.parametrize("line", ALLOWED)
def test_allowed_lines(line):
    decision = Approver().check_command(line)
    assert decision.allowed, (line, decision)


def test_the_table_is_big_enough():
    assert len(DENIED) + len(ALLOWED) >= 40


@pytest.mark.parametrize(
    "line",
    [
        "echo 'unclosed",
        "echo $(curl x",
        "echo `x",
        "git -c 'alias.x=!echo \"a' x",
        'git -c "alias.x=\'push" x',
        "git -c 'alias.x=push\\' x",
    ],
)
def test_a_line_bash_cannot_parse_is_denied_with_a_reason(line):
    decision = Approver().check_command(line)
    assert not decision.allowed
    assert "could not be parsed" in decision.message(line)


def test_nesting_is_bounded():
    line = "rm -rf x"
    for _ in range(12):
        line = f"bash -c {line!r}"
    assert not Approver().check_command(line).allowed


def test_simple_commands_of_a_compound_line():
    line = 'cd a && FOO=1 env -i nohup /bin/rm -fr b 2>&1 | tee log; echo "$(git -C . push)"'
    assert list(simple_commands(line)) == [
        ["git", "-C", ".", "push"],
        ["cd", "a"],
        ["env", "-i", "nohup", "/bin/rm", "-fr", "b"],
        ["nohup", "/bin/rm", "-fr", "b"],
        ["rm", "-fr", "b"],
        ["tee", "log"],
        ["echo", "$(git -C . push)"],
    ]


def test_custom_rules_use_the_same_reading():
    approver = Approver(("npm publish*", "chmod -R*"))
    assert not approver.check_command("cd x && npm --silent publish").allowed
    assert not approver.check_command("bash -c 'chmod 777 -R .'").allowed
    assert approver.check_command("npm test && chmod +x run.sh").allowed


def test_the_denial_names_the_rule_of_the_first_denied_command():
    decision = Approver().check_command("curl x; rm -rf y; git -c alias.p=push p")
    assert decision.rule == "curl*"
    assert Approver().check_command("git -c 'alias.x=!rm -rf y' x; curl z").rule == "rm -rf*"


LONG_RULES = ("rm --force*", "git push --force*", "npm --global*")


@pytest.mark.parametrize(
    ("line", "rule"),
    [
        ("rm --force x", "rm --force*"),
        ("rm -f x", "rm --force*"),
        ("rm -rf x", "rm --force*"),
        ("/bin/rm -vf x", "rm --force*"),
        ("rm --forc x", "rm --force*"),
        ("git push --force", "git push --force*"),
        ("git push -f origin main", "git push --force*"),
        ("git -C . push origin --forc", "git push --force*"),
        ("git push --force=yes", "git push --force*"),
        ("git push --force-with-lease", "git push --force*"),
        ("bash -c 'git push -uf origin'", "git push --force*"),
        ("git -c 'alias.fp=push --force' fp", "git push --force*"),
        ("npm install --global x", "npm --global*"),
        ("npm install --glob x", "npm --global*"),
        ("npm install --global-style x", "npm --global*"),
    ],
)
def test_long_options_in_rules_match_every_spelling_of_the_option(line, rule):
    """A rule names a long option as a user reads it: the option written out, abbreviated
    (as getopt and git take it), or in its short form where the approver knows it (rm's
    ``-f``, git's ``-f``); a star glued to it reaches longer options."""
    decision = Approver(LONG_RULES).check_command(line)
    assert not decision.allowed, line
    assert decision.rule == rule


@pytest.mark.parametrize(
    "line",
    [
        "rm x",
        "rm -r x",
        "rm -- --force",
        "git push origin main",
        "git push --follow-tags",
        "git push -- --force",
        "git status --force",
        "npm install x",
        "npm install -g x",
    ],
)
def test_long_option_rules_leave_other_lines_alone(line):
    decision = Approver(LONG_RULES).check_command(line)
    assert decision.allowed, (line, decision)


def test_a_long_option_rule_without_a_star_is_that_option_only():
    approver = Approver(("git push --force",))
    assert not approver.check_command("git push --forc").allowed
    assert approver.check_command("git push --force-with-lease").allowed


@pytest.mark.parametrize("rule", ["rm --*", "rm -- *", "git push --force=yes*", "rm - x"])
def test_a_rule_no_line_could_match_is_refused_with_one_line_naming_it(rule):
    with pytest.raises(RuleError) as error:
        Approver(("curl*", rule))
    assert str(error.value).startswith(f"deny rule {rule!r}: ")
    assert "\n" not in str(error.value)


@pytest.mark.parametrize(
    "body",
    [
        'a "b c" d\\ e \'f\\g\' "h\\"i" j""k',
        "  leading   and trailing  ",
        "tab\tseparated\r\nlines",
        "form\ffeed\vnot blank",
        "'' empty \"\"",
        "it\\'s",
    ],
)
def test_alias_bodies_are_split_as_git_splits_them(body, tmp_path):
    """Compared with git itself: the alias ``rev-parse --sq-quote BODY`` prints the words
    git split BODY into, and a body that starts with a blank starts with an empty word."""
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    printed = subprocess.run(
        ["git", "-c", f"alias.x=rev-parse --sq-quote {body}", "x"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert split_alias(f"rev-parse --sq-quote {body}") == [
        "rev-parse",
        "--sq-quote",
        *shlex.split(printed),
    ]
    assert split_alias(f" {body}")[0] == ""
