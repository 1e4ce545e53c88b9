"""The approver reads the command line as bash would: a table of lines it must deny or allow."""

import pytest

from garuda_evals_agent.tools.approver import Approver
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
    "line", ["echo 'unclosed", "echo $(curl x", "echo `x", "git -c 'alias.x=!echo \"a' x"]
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
