"""The help of ``-s``, ``--prepare`` and ``--backend``, from the installed plugins.

Made only when ``garuda eval --help`` shows it (``LiveHelpOption``), so a run that shows
no help calls none of these registration hooks.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from garuda_evals.plugins.manager import PluginRegistry

DEFAULT_SUITE = "basic"


def suite_help(registry: PluginRegistry) -> str:
    """``-s``: every installed suite, what ``all`` holds, a folder, the default."""
    suites = registry.suites()
    names = ", ".join(sorted(suites)) or "none installed"
    left_out = sorted(name for name, found in suites.items() if not found.record.in_all)
    every = f"all (every one but {', '.join(left_out)})" if left_out else "all (every one)"
    return (
        f"a suite ({names}), {every}, or a suite folder's path; repeatable or "
        f"comma-separated; default {DEFAULT_SUITE}"
    )


def prepare_help(registry: PluginRegistry) -> str:
    """``--prepare``: every installed toolchain, with its other names."""
    records = {found.record.name: found.record for found in registry.toolchains().values()}
    shown = [
        f"{name} ({', '.join(records[name].aliases)})" if records[name].aliases else name
        for name in sorted(records)
    ]
    return f"prepare a toolchain and exit: {', '.join(shown) or 'none installed'}"


def backend_help(registry: PluginRegistry) -> str:
    """``--backend``: local and every installed backend."""
    others = sorted(name for name in registry.run_backends() if name != "local")
    installed = f", or an installed one: {', '.join(others)}" if others else ""
    return f"where runs execute: local (this machine){installed}"
