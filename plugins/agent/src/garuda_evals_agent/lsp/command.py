"""``garuda lsp``: the language servers (and Biome) garuda manages, and installing them."""

from __future__ import annotations

import click

from garuda_evals_agent.managed import BIOME, InstallError, tools_dir


@click.command("lsp")
@click.option("--install", is_flag=True, help="install the missing servers and Biome (pinned)")
def lsp(install: bool) -> int:
    """List each language's server, its version and whether it works; --install adds the
    missing ones to garuda's tools folder ($GARUDA_TOOLS_DIR)."""
    from garuda_evals_agent.lsp.servers import SERVERS, check_server

    click.echo(f"tools folder: {tools_dir()}")
    failed = False
    for tool in [s.tool for s in SERVERS if s.tool is not None] + [BIOME]:
        if install and not tool.installed():
            click.echo(f"installing {tool.name} {tool.version} ...")
            try:
                tool.install()
            except InstallError as error:
                click.echo(f"  {error}", err=True)
                failed = True
    for server in SERVERS:
        if server.tool is None:
            click.echo(f"{server.language}: none: {server.missing}")
            continue
        works, detail = check_server(server)
        state = "works" if works else "does not work"
        click.echo(f"{server.language}: {server.describe()}: {state}: {detail}")
    biome = "installed" if BIOME.installed() else "not installed (garuda lsp --install)"
    click.echo(f"format (--format): {BIOME.name} {BIOME.version}: {biome}")
    return 1 if failed else 0
