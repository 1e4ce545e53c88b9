"""The bwrap command line: mount order, hidden homes, toolchains shown again, the env."""

from __future__ import annotations

from pathlib import Path

from garuda_evals.executors.base import SandboxPolicy
from garuda_evals_sandbox_bwrap.argv import build_argv, plan_layout


def make_home(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    (home / ".m2" / "repository").mkdir(parents=True)
    (home / ".m2" / "settings.xml").write_text("<settings/>")
    (home / ".m2" / "settings-security.xml").write_text("<master/>")
    base = home / ".pyenv" / "versions" / "3.12.1"
    (base / "bin").mkdir(parents=True)
    venv = home / "proj" / ".venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "pyvenv.cfg").write_text(f"home = {base / 'bin'}\nversion = 3.12.1\n")
    return home


def test_homes_are_hidden_and_toolchains_inside_are_shown(tmp_path: Path) -> None:
    home = make_home(tmp_path)
    venv = home / "proj" / ".venv"
    env = {"HOME": str(home), "VIRTUAL_ENV": str(venv), "PATH": f"{venv}/bin:/usr/bin"}
    policy = SandboxPolicy(workspace=tmp_path / "work")
    layout = plan_layout(policy, env, tmp_path / "tmp")
    assert home in layout.hidden_dirs
    shown = set(layout.readable)
    assert venv in shown
    assert home / ".pyenv" / "versions" / "3.12.1" in shown
    assert home / ".m2" / "repository" in shown
    assert home / ".m2" / "settings.xml" in shown
    assert not any(p.name in {".ssh", "settings-security.xml"} for p in shown)
    assert home / ".m2" not in shown


def test_mounts_come_in_an_order_that_keeps_the_rules(tmp_path: Path) -> None:
    home = make_home(tmp_path)
    checkout = tmp_path / "checkout"
    (checkout / "node_modules").mkdir(parents=True)
    (tmp_path / "token.txt").write_text("secret")
    work = tmp_path / "work"
    work.mkdir()
    policy = SandboxPolicy(
        workspace=work,
        hidden=(checkout, tmp_path / "token.txt"),
        read_only=(checkout / "node_modules",),
        env_allow=("PATH", "HOME"),
    )
    env = {"HOME": str(home), "PATH": "/usr/bin"}
    layout = plan_layout(policy, env, tmp_path / "tmp")
    argv = build_argv(
        ("bwrap",),
        layout,
        command="true",
        cwd=work,
        env=env,
        seccomp_fd=7,
        mount_proc=True,
    )
    joined = " ".join(argv)

    def at(*words: str) -> int:
        return joined.index(" ".join(words))

    assert argv[:5] == ["bwrap", "--die-with-parent", "--new-session", "--cap-drop", "ALL"]
    for flag in ("--unshare-net", "--unshare-pid", "--unshare-ipc", "--unshare-uts"):
        assert flag in argv
    assert at("--ro-bind", "/", "/") < at("--tmpfs", str(home))
    assert at("--tmpfs", str(checkout)) < at("--ro-bind-try", str(checkout / "node_modules"))
    assert f"--ro-bind /dev/null {tmp_path / 'token.txt'}" in joined
    assert at("--ro-bind-try", str(checkout / "node_modules")) < at("--bind", str(work), str(work))
    assert at("--bind", str(work), str(work)) < at("--remount-ro", str(home))
    assert at("--bind", str(work), str(work)) < at("--remount-ro", str(checkout))
    assert "--proc /proc" in joined
    assert f"--bind {tmp_path / 'tmp'} /tmp" in joined
    after = argv[argv.index("--clearenv") + 1 :]
    assert after.count("--setenv") == 2
    assert after[after.index("--setenv") :][:3] == ["--setenv", "HOME", str(home)]
    assert argv[-6:] == ["--seccomp", "7", "--", "/bin/bash", "-c", "true"]


def test_without_proc_the_flag_is_left_out(tmp_path: Path) -> None:
    layout = plan_layout(SandboxPolicy(workspace=tmp_path), {}, tmp_path / "tmp")
    argv = build_argv(
        ("bwrap",),
        layout,
        command="true",
        cwd=tmp_path,
        env={},
        seccomp_fd=None,
        mount_proc=False,
    )
    assert "--proc" not in argv
    assert "--seccomp" not in argv


def test_a_home_inside_the_task_folder_does_not_cover_it(tmp_path: Path) -> None:
    work = tmp_path / "work"
    (work / "home").mkdir(parents=True)
    for home in (work, work / "home"):
        layout = plan_layout(SandboxPolicy(workspace=work), {"HOME": str(home)}, tmp_path / "t")
        assert not any(path == work or work in path.parents for path in layout.hidden_dirs)


def test_a_hidden_folder_inside_another_is_hidden_once(tmp_path: Path) -> None:
    project = tmp_path / "project"
    home = project / "home"
    (home / ".ssh").mkdir(parents=True)
    (project / "secret.txt").write_text("x")
    policy = SandboxPolicy(workspace=tmp_path / "work", hidden=(project, project / "secret.txt"))
    layout = plan_layout(policy, {"HOME": str(home)}, tmp_path / "t")
    assert project.resolve() in layout.hidden_dirs
    assert home.resolve() not in layout.hidden_dirs
    assert layout.hidden_files == ()


def test_a_project_inside_the_home_runs_under_bwrap(tmp_path: Path) -> None:
    import shutil

    import anyio

    from garuda_evals.testing import skip_or_fail
    from garuda_evals_sandbox_bwrap import BwrapBackend

    if shutil.which("bwrap") is None:
        skip_or_fail("bwrap", "apt-get install bubblewrap")
    home = tmp_path / "home"
    project = home / "project"
    (project / "secret").mkdir(parents=True)
    (project / "secret" / "key.txt").write_text("x")
    work = tmp_path / "work"
    work.mkdir()
    executor = BwrapBackend().create(SandboxPolicy(workspace=work, hidden=(project, home)))

    async def run() -> tuple[int | None, str]:
        env = {"PATH": "/usr/bin:/bin", "HOME": str(home)}
        result = await executor.run(
            f"echo ok > out.txt; cat {project}/secret/key.txt", cwd=work, env=env, timeout_s=30
        )
        return result.exit_code, result.output

    code, output = anyio.run(run)
    assert (work / "out.txt").read_text() == "ok\n", output
    assert code != 0 and "No such file" in output
