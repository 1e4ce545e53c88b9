"""The pluggy manager: load the ``garuda_evals`` entry points, collect records, find clashes."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from importlib.metadata import EntryPoint, entry_points
from typing import Any

import pluggy

from garuda_evals import hookspecs
from garuda_evals.errors import GarudaError

ENTRY_POINT_GROUP = "garuda_evals"
CORE_DISTRIBUTION = "garuda-evals"


@dataclass(frozen=True)
class PluginInfo:
    """An installed plugin: its entry-point name, distribution and version."""

    name: str
    distribution: str
    version: str


@dataclass(frozen=True)
class Registered:
    """A record and the distribution that registered it."""

    record: Any
    distribution: str


def _distribution(ep: EntryPoint) -> tuple[str, str]:
    dist = ep.dist
    if dist is None:
        return ep.module, "?"
    return dist.metadata["Name"], dist.version


class PluginRegistry:
    """All plugins of this process: core's built-ins plus the entry-point group."""

    def __init__(self, *, load_entry_points: bool = True) -> None:
        self.manager = pluggy.PluginManager(hookspecs.PROJECT)
        self.manager.add_hookspecs(hookspecs)
        self.plugins: list[PluginInfo] = []
        self.warnings: list[str] = []
        self._distributions: dict[str, str] = {}
        from garuda_evals import builtin

        self.register(builtin, name="garuda-evals", distribution=CORE_DISTRIBUTION, version=None)
        if load_entry_points:
            self._load_entry_points()

    def register(
        self, plugin: object, *, name: str, distribution: str, version: str | None
    ) -> None:
        """Register a plugin object by hand (tests, built-ins)."""
        from garuda_evals import __version__

        self.manager.register(plugin, name=name)
        self._distributions[name] = distribution
        self.plugins.append(PluginInfo(name, distribution, version or __version__))

    def _load_entry_points(self) -> None:
        for ep in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda e: e.name):
            distribution, version = _distribution(ep)
            if self.manager.has_plugin(ep.name):
                continue
            try:
                plugin = ep.load()
            except Exception as error:  # a broken plugin must not stop the others
                self.warnings.append(
                    f"plugin '{ep.name}' from {distribution} {version} failed to import "
                    f"and is skipped: {type(error).__name__}: {error}"
                )
                continue
            self.register(plugin, name=ep.name, distribution=distribution, version=version)

    def collect(self, hook_name: str) -> dict[str, Registered]:
        """Call a registration hook on every plugin; records by name, clashes are errors."""
        hook: Any = getattr(self.manager.hook, hook_name)
        found: dict[str, Registered] = {}
        for impl in reversed(hook.get_hookimpls()):
            distribution = self._distributions.get(impl.plugin_name, impl.plugin_name)
            for record in impl.function() or ():
                names = (record.name, *getattr(record, "aliases", ()))
                for name in names:
                    if name in found:
                        other = found[name].distribution
                        raise GarudaError(
                            f"{hook_name}: the name '{name}' is registered by both "
                            f"{other} and {distribution}; uninstall one of them"
                        )
                    found[name] = Registered(record, distribution)
        return found

    def notify(self, hook_name: str, **kwargs: Any) -> None:
        """Call a lifecycle hook."""
        hook: Callable[..., Any] = getattr(self.manager.hook, hook_name)
        hook(**kwargs)
