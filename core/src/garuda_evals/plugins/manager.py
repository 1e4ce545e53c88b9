"""The plugin registry: built once per process, the one way to reach what plugins registered.

It loads the ``garuda_evals`` entry points, adds the hookspecs plugins bring, checks that
every ``garuda_*`` hook a plugin implements exists, and hands out typed, cached views of the
records each registration hook yields. A plugin that fails (to import, to register, in a
registration hook, in an observer) is skipped with one warning naming it; it never stops
the run.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

import pluggy

from garuda_evals import hookspecs
from garuda_evals.errors import GarudaError
from garuda_evals.plugins.scan import FoundEntryPoint, entry_points, name_and_version

if TYPE_CHECKING:
    from garuda_evals.records import (
        CheckRunnerRecord,
        CommandRecord,
        FormatterRecord,
        OptionsRecord,
        RunBackendRecord,
        SuiteBuilderRecord,
        SuiteRecord,
        ToolchainRecord,
    )

ENTRY_POINT_GROUP = "garuda_evals"
CORE_DISTRIBUTION = "garuda-evals"
HOOK_PREFIX = "garuda_"
R = TypeVar("R")


@dataclass(frozen=True)
class PluginInfo:
    """An installed plugin: its entry-point name, distribution and version."""

    name: str
    distribution: str
    version: str


@dataclass(frozen=True)
class Registered(Generic[R]):
    """A record and the distribution that registered it."""

    record: R
    distribution: str


def _distribution(ep: FoundEntryPoint) -> tuple[str, str]:
    return name_and_version(ep) or (ep.module, "?")


def _describe(error: BaseException) -> str:
    return f"{type(error).__name__}: {error}"


class PluginRegistry:
    """All plugins of this process: core's built-ins plus the entry-point group.

    Build it once with ``get_registry()``; tests may build their own.
    """

    builds: ClassVar[int] = 0

    def __init__(self, *, load_entry_points: bool = True) -> None:
        PluginRegistry.builds += 1
        self.manager = pluggy.PluginManager(hookspecs.PROJECT)
        self.manager.add_hookspecs(hookspecs)
        self.plugins: list[PluginInfo] = []
        self.skipped: list[PluginInfo] = []
        self.warnings: list[str] = []
        self.warn: Callable[[str], None] = self.warnings.append
        self._distributions: dict[str, str] = {}
        self._collected: dict[str, dict[str, Registered[Any]]] = {}
        from garuda_evals import builtin

        self.register(builtin, name="garuda-evals", distribution=CORE_DISTRIBUTION, version=None)
        if load_entry_points:
            self._load_entry_points()
        self._add_plugin_hookspecs()
        self._check_hooks()

    def register(
        self, plugin: object, *, name: str, distribution: str, version: str | None
    ) -> None:
        """Register a plugin object by hand (tests, built-ins); a bad one is skipped, warned."""
        from garuda_evals import __version__

        info = PluginInfo(name, distribution, version or __version__)
        try:
            self.manager.register(plugin, name=name)
        except Exception as error:  # a plugin pluggy refuses must not stop the others
            self.warn(f"plugin '{name}' from {distribution} is skipped: {_describe(error)}")
            self.skipped.append(info)
            return
        self._distributions[name] = distribution
        self.plugins.append(info)
        self._collected.clear()

    def _load_entry_points(self) -> None:
        for ep in sorted(entry_points(ENTRY_POINT_GROUP), key=lambda e: e.name):
            distribution, version = _distribution(ep)
            if self.manager.has_plugin(ep.name):
                self.warn(
                    f"plugin '{ep.name}' from {distribution} {version} is skipped: "
                    f"{self._distributions.get(ep.name, '?')} already registers a plugin "
                    "of that name; uninstall one of them"
                )
                self.skipped.append(PluginInfo(ep.name, distribution, version))
                continue
            try:
                plugin = ep.load()
            except Exception as error:  # a broken plugin must not stop the others
                self.warn(
                    f"plugin '{ep.name}' from {distribution} {version} failed to import "
                    f"and is skipped: {_describe(error)}"
                )
                self.skipped.append(PluginInfo(ep.name, distribution, version))
                continue
            self.register(plugin, name=ep.name, distribution=distribution, version=version)

    def _add_plugin_hookspecs(self) -> None:
        """Hookspecs that plugins bring (the model agent's providers) join core's."""
        for _plugin, result in self._each("garuda_add_hookspecs"):
            for spec in result or ():
                self.manager.add_hookspecs(spec)

    def _check_hooks(self) -> None:
        """An implemented ``garuda_*`` hook that no spec declares is an error naming both."""
        for name, plugin in self.manager.list_name_plugin():
            for attribute in dir(plugin):
                if not attribute.startswith(HOOK_PREFIX):
                    continue
                if getattr(getattr(plugin, attribute), f"{hookspecs.PROJECT}_impl", None) is None:
                    continue
                hook = getattr(self.manager.hook, attribute, None)
                if hook is None or not hook.has_spec():
                    raise GarudaError(
                        f"plugin '{name}' from {self._distributions.get(name, '?')} implements "
                        f"'{attribute}', which is not a garuda hook (misspelled?); see docs/hooks.md"
                    )
        self.manager.check_pending()

    def _each(self, hook_name: str, **kwargs: Any) -> list[tuple[str, Any]]:
        """Call every implementation of a hook on its own; one that raises is warned and skipped."""
        hook = getattr(self.manager.hook, hook_name, None)
        if hook is None:
            return []
        results: list[tuple[str, Any]] = []
        for impl in reversed(hook.get_hookimpls()):
            arguments = {name: kwargs[name] for name in impl.argnames if name in kwargs}
            try:
                results.append((impl.plugin_name, impl.function(**arguments)))
            except Exception as error:  # a plugin's failure never kills the run
                distribution = self._distributions.get(impl.plugin_name, impl.plugin_name)
                self.warn(
                    f"plugin '{impl.plugin_name}' from {distribution}: {hook_name} failed "
                    f"and is skipped: {_describe(error)}"
                )
        return results

    def collect(self, hook_name: str) -> dict[str, Registered[Any]]:
        """Call a registration hook on every plugin; records by name, clashes are errors.

        The result is cached: a registration hook runs once per registry.
        """
        if hook_name in self._collected:
            return self._collected[hook_name]
        found: dict[str, Registered[Any]] = {}
        for plugin_name, records in self._each(hook_name):
            distribution = self._distributions.get(plugin_name, plugin_name)
            try:
                listed = list(records or ())
            except Exception as error:  # a generator hook raises while it is read
                self.warn(
                    f"plugin '{plugin_name}' from {distribution}: {hook_name} failed "
                    f"and is skipped: {_describe(error)}"
                )
                continue
            for record in listed:
                for name in (record.name, *getattr(record, "aliases", ())):
                    if name in found:
                        other = found[name].distribution
                        raise GarudaError(
                            f"{hook_name}: the name '{name}' is registered by both "
                            f"{other} and {distribution}; uninstall one of them"
                        )
                    found[name] = Registered(record, distribution)
        self._collected[hook_name] = found
        return found

    def notify(self, hook_name: str, **kwargs: Any) -> None:
        """Call a lifecycle hook; an observer that raises is one warning line, not a crash."""
        self._each(hook_name, **kwargs)

    def suites(self) -> dict[str, Registered[SuiteRecord]]:
        """Registered suites by name."""
        return self.collect("garuda_suites")

    def toolchains(self) -> dict[str, Registered[ToolchainRecord]]:
        """Registered toolchains by name and alias."""
        return self.collect("garuda_toolchains")

    def check_runners(self) -> dict[str, Registered[CheckRunnerRecord]]:
        """Registered check runners by name."""
        return self.collect("garuda_check_runners")

    def formatters(self) -> dict[str, Registered[FormatterRecord]]:
        """Registered report formatters by name."""
        return self.collect("garuda_report_formatters")

    def commands(self) -> dict[str, Registered[CommandRecord]]:
        """Registered ``garuda`` sub-commands by name."""
        return self.collect("garuda_commands")

    def suite_builders(self) -> dict[str, Registered[SuiteBuilderRecord]]:
        """Registered suite builders by name."""
        return self.collect("garuda_suite_builders")

    def run_backends(self) -> dict[str, Registered[RunBackendRecord]]:
        """Registered run backends (``--backend``) by name."""
        return self.collect("garuda_run_backends")

    def options(self) -> dict[str, Registered[OptionsRecord]]:
        """Registered option groups by owner name."""
        return self.collect("garuda_options")


@functools.cache
def get_registry() -> PluginRegistry:
    """The process's registry, built on first use."""
    return PluginRegistry()
