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


def test_homes_are_emptied_and_toolchains_inside_are_shown(tmp_path: Path) -> None:
    home = make_home(tmp_path)
    venv = home / "proj" / ".venv"
    env = {"HOME": str(home), "VIRTUAL_ENV": str(venv), "PATH": f"{venv}/bin:/usr/bin"}
    policy = SandboxPolicy(workspace=tmp_path / "work")
    view = plan_layout(policy, env, tmp_path / "tmp").view
    assert home in view.emptied
    shown = set(view.shown)
    assert venv in shown
    assert home / ".pyenv" / "versions" / "3.12.1" in shown
    assert home / ".m2" / "repository" in shown
    assert home / ".m2" / "settings.xml" in shown
    assert not any(p.name in {".ssh", "settings-security.xml"} for p in shown)
    assert home / ".m2" not in shown
    assert not any(p == Path("/") or p.parts[1] in {"usr", "etc", "bin", "lib"} for p in shown)


def bwrap_argv(policy: SandboxPolicy, env: dict[str, str], tmp: Path) -> list[str]:
    layout = plan_layout(policy, env, tmp)
    return build_argv(
        ("bwrap",),
        layout,
        command="true",
        cwd=policy.workspace,
        env=env,
        seccomp_fd=7,
        mount_proc=True,
    )


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
    argv = bwrap_argv(policy, env, tmp_path / "tmp")
    joined = " ".join(argv)

    def at(*words: str) -> int:
        return joined.index(" ".join(words))

    assert argv[:5] == ["bwrap", "--die-with-parent", "--new-session", "--cap-drop", "ALL"]
    for flag in ("--unshare-net", "--unshare-pid", "--unshare-ipc", "--unshare-uts"):
        assert flag in argv
    assert "--ro-bind / /" not in joined
    assert at("--ro-bind", "/usr", "/usr") < at("--tmpfs", str(home))
    assert at("--ro-bind", "/etc", "/etc") < at("--tmpfs", str(home))
    assert at("--tmpfs", str(home)) < at("--ro-bind-try", str(home / ".m2" / "repository"))
    # The checkout is not shown at all: nothing to hide there, only its node_modules.
    assert str(checkout) + " " not in joined.replace(str(checkout / "node_modules"), "")
    assert at("--ro-bind-try", str(checkout / "node_modules"), str(checkout / "node_modules"))
    assert "token.txt" not in joined
    assert at("--bind", str(work), str(work)) < at("--remount-ro", str(home))
    assert at("--remount-ro", str(home)) < at("--remount-ro", "/", "--chdir")
    assert "--proc /proc" in joined
    assert at("--dev", "/dev") < at("--bind", str(tmp_path / "tmp"), "/tmp")
    after = argv[argv.index("--clearenv") + 1 :]
    assert after.count("--setenv") == 2
    assert after[after.index("--setenv") :][:3] == ["--setenv", "HOME", str(home)]
    assert argv[-6:] == ["--seccomp", "7", "--", "/bin/bash", "-c", "true"]


def test_a_hidden_folder_inside_a_shown_environment_is_emptied_after_it(tmp_path: Path) -> None:
    venv = tmp_path / "env" / ".venv"
    suite = venv / "lib" / "python3.11" / "site-packages" / "plugin" / "suite_data"
    suite.mkdir(parents=True)
    (venv / "pyvenv.cfg").write_text("home = /usr/bin\n")
    work = tmp_path / "work"
    work.mkdir()
    policy = SandboxPolicy(workspace=work, hidden=(tmp_path / "project", suite))
    argv = bwrap_argv(policy, {"VIRTUAL_ENV": str(venv), "PATH": "/usr/bin"}, tmp_path / "t")
    joined = " ".join(argv)
    assert joined.index(f"--ro-bind-try {venv} {venv}") < joined.index(f"--tmpfs {suite}")
    assert joined.index(f"--tmpfs {suite}") < joined.index(f"--remount-ro {suite}")
    # Nothing is mounted over the emptied folder after it (that made the remount fail).
    tail = joined[joined.index(f"--tmpfs {suite}") :]
    assert f"{venv} {venv}" not in tail


def test_protected_paths_are_bound_read_only_after_the_workspace(tmp_path: Path) -> None:
    work = tmp_path / "work"
    (work / "src" / "test").mkdir(parents=True)
    (work / "src" / "test" / "t.py").write_text("x")
    (work / "pom.xml").write_text("x")
    policy = SandboxPolicy(
        workspace=work, read_only=(work / "src" / "test" / "t.py", work / "pom.xml")
    )
    argv = bwrap_argv(policy, {"PATH": "/usr/bin"}, tmp_path / "t")
    joined = " ".join(argv)
    test = work / "src" / "test" / "t.py"
    assert joined.index(f"--bind {work} {work}") < joined.index(f"--ro-bind-try {test} {test}")
    assert joined.index(f"--bind {work} {work}") < joined.index(f"--ro-bind-try {work}/pom.xml")
    # Their folders are bound onto themselves (writable) so they cannot be moved away.
    for folder in (work / "src", work / "src" / "test"):
        anchor = joined.index(f"--bind-try {folder} {folder}")
        assert (
            joined.index(f"--bind {work} {work}") < anchor < joined.index(f"--ro-bind-try {test}")
        )
    assert joined.count(f"--bind {work} {work} ") == 1
    # only folders inside the workspace are anchors: never the workspace or what holds it
    anchors = [argv[i + 1] for i, flag in enumerate(argv) if flag == "--bind-try"]
    assert anchors == [str(work / "src"), str(work / "src" / "test")]


def test_a_read_only_path_whose_link_leads_out_of_the_workspace_is_dropped(
    tmp_path: Path,
) -> None:
    work = tmp_path / "work"
    work.mkdir()
    (tmp_path / "secret").write_text("x")
    (work / "t.py").symlink_to(tmp_path / "secret")
    view = plan_layout(
        SandboxPolicy(workspace=work, read_only=(work / "t.py",)), {}, tmp_path / "t"
    ).view
    assert view.protected == ()
    assert tmp_path / "secret" not in view.shown


def test_a_bin_on_path_never_shows_the_root_or_the_system(tmp_path: Path) -> None:
    env = {"PATH": "/bin:/usr/local/bin:/sbin", "HOME": str(tmp_path / "h")}
    view = plan_layout(SandboxPolicy(workspace=tmp_path / "w"), env, tmp_path / "t").view
    assert Path("/") not in view.shown
    assert not any(str(p).startswith(("/usr", "/bin", "/sbin")) for p in view.shown)


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
    assert " ".join(argv).count("--ro-bind /proc /proc") == 1
    assert "--seccomp" not in argv


def test_a_home_inside_the_task_folder_does_not_cover_it(tmp_path: Path) -> None:
    work = tmp_path / "work"
    (work / "home").mkdir(parents=True)
    for home in (work, work / "home"):
        view = plan_layout(SandboxPolicy(workspace=work), {"HOME": str(home)}, tmp_path / "t").view
        assert not any(path == work or work in path.parents for path in view.emptied)


def test_a_hidden_folder_inside_another_is_emptied_once(tmp_path: Path) -> None:
    project = tmp_path / "project"
    home = project / "home"
    (home / ".ssh").mkdir(parents=True)
    (project / "secret.txt").write_text("x")
    policy = SandboxPolicy(workspace=tmp_path / "work", hidden=(project, project / "secret.txt"))
    view = plan_layout(policy, {"HOME": str(home)}, tmp_path / "t").view
    assert home.resolve() in view.emptied
    assert project.resolve() not in view.emptied  # not shown at all: nothing to empty
    assert len(set(view.emptied)) == len(view.emptied)
    assert view.blanked == ()


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
        try:
            result = await executor.run(
                f"echo ok > out.txt; cat {project}/secret/key.txt", cwd=work, env=env, timeout_s=30
            )
        finally:
            await executor.aclose()
        return result.exit_code, result.output

    code, output = anyio.run(run)
    assert (work / "out.txt").read_text() == "ok\n", output
    assert code != 0 and "No such file" in output


def test_a_shown_environment_brings_its_interpreter_but_not_one_in_the_workspace(
    tmp_path: Path,
) -> None:
    base = tmp_path / "pythons" / "3.12"
    (base / "bin").mkdir(parents=True)
    linked = tmp_path / "checkout" / ".venv"
    linked.mkdir(parents=True)
    (linked / "pyvenv.cfg").write_text(f"home = {base / 'bin'}\n")
    work = tmp_path / "work"
    (work / ".venv").mkdir(parents=True)
    secret = tmp_path / "secret" / "x"
    (secret / "bin").mkdir(parents=True)
    (work / ".venv" / "pyvenv.cfg").write_text(f"home = {secret / 'bin'}\n")
    policy = SandboxPolicy(workspace=work, read_only=(linked,))
    env = {"PATH": f"{work / '.venv' / 'bin'}:/usr/bin"}
    view = plan_layout(policy, env, tmp_path / "t").view
    assert linked in view.shown and base in view.shown
    assert not any("secret" in str(path) for path in view.shown)
