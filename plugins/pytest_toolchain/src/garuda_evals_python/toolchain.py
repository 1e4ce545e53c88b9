"""The pytest toolchain (alias ``python``): python3 3.11+ with pytest 7+ on PATH."""

from __future__ import annotations

from garuda_evals.api import Toolchain

PYTEST_MIN_VERSION = "7.0"

PROBE_PYPROJECT = """\
[tool.pytest.ini_options]
pythonpath = ["src"]
testpaths = ["tests"]
"""

PROBE_MODULE = """\
def double(value):
    return value * 2
"""

PROBE_TEST = """\
from probe import double


def test_double():
    assert double(21) == 42
"""

# The same interpreter flags as the suite's check: -P (Python 3.11+) keeps the scratch
# folder off sys.path, and plugin autoload is off, so the probe proves the check can run.
PROBE_COMMAND = (
    "PYTEST_DISABLE_PLUGIN_AUTOLOAD=1 python3 -P -m pytest -q -c pyproject.toml"
    " --noconftest -p no:cacheprovider"
)

# Where pytest's metadata is, found as ``importlib.metadata.distribution("pytest")`` finds it
# (the first ``sys.path`` folder holding a ``pytest-*.dist-info`` or ``.egg-info``, in
# ``os.listdir`` order) without importing ``importlib.metadata``: its import (the email and
# zip modules) is most of what a version read costs (~90 ms of CPU, against ~20 ms for the
# interpreter's start). Where another finder lists distributions, or nothing is found in a
# folder, ``importlib.metadata`` itself answers, as before.
FIND_PYTEST = """\
import os, sys
from importlib.machinery import PathFinder
def pytest_metadata():
    if any(f is not PathFinder and hasattr(f, "find_distributions") for f in sys.meta_path):
        return None
    for folder in sys.path:
        try:
            names = os.listdir(folder or ".")
        except OSError:
            continue
        for name in names:
            low = name.lower()
            if low.endswith((".dist-info", ".egg-info")):
                if low.rpartition(".")[0].partition("-")[0] == "pytest":
                    return os.path.join(folder, name)
    return None
found = pytest_metadata()
"""

# pytest's version from its installed metadata (the ``Version`` header of the METADATA or
# PKG-INFO found above): a fraction of the time of ``-m pytest --version``, which imports all
# of pytest (the probe that follows runs it anyway).
VERSION_COMMAND = (
    "python3 -P -c '"
    + FIND_PYTEST
    + """\
version = None
if found and os.path.isdir(found):
    info = "METADATA" if found.lower().endswith(".dist-info") else "PKG-INFO"
    try:
        with open(os.path.join(found, info), encoding="utf-8") as lines:
            for line in lines:
                if not line.strip():
                    break
                if line.startswith("Version:"):
                    version = line.partition(":")[2].strip()
                    break
    except OSError:
        pass
if not version:
    from importlib.metadata import version as read
    version = read("pytest")
print("pytest", version)'"""
)

# What the two version commands read: the interpreter they ran (its real file, so that a
# launcher that picks another python is never taken for it, and its libpython when it has
# one), pytest's .dist-info and its METADATA, and the folders where another pytest could be
# found first (sys.path, the user site folder even when it does not exist yet). An upgrade
# changes one of them.
VERSION_FILES_COMMAND = (
    "python3 -P -c '"
    + FIND_PYTEST
    + """\
import site, sysconfig
if found is None:
    from importlib.metadata import distribution
    found = getattr(distribution("pytest"), "_path", None)
print(os.path.realpath(sys.executable))
shared = sysconfig.get_config_vars("Py_ENABLE_SHARED", "LIBDIR", "INSTSONAME")
print(os.path.join(*shared[1:]) if shared[0] else sys.executable)
print(*([found, os.path.join(found, "METADATA")] if found else []), sep="\\n")
print(*sys.path, sep="\\n")
print(site.getusersitepackages())'"""
)

HINT = (
    "The python suite runs `python3 -P -m pytest` with the python3 first on PATH (the "
    "virtual environment's when garuda runs from one). It needs Python 3.11 or newer with "
    "pytest 7 or newer: install pytest into that environment (`pip install 'pytest>=7'`), "
    "or install garuda-evals-python, which depends on pytest, into garuda's own environment."
)


def pytest_toolchain() -> Toolchain:
    """The toolchain record's ``load``: a one-test src-layout project. Nothing to prepare."""
    return Toolchain(
        name="pytest",
        description="python3 (3.11+) with pytest (7+)",
        hint=HINT,
        probe_files={
            "pyproject.toml": PROBE_PYPROJECT,
            "src/probe.py": PROBE_MODULE,
            "tests/test_probe.py": PROBE_TEST,
        },
        probe_command=PROBE_COMMAND,
        aliases=("python",),
        version_command=VERSION_COMMAND,
        version_pattern=r"pytest (\d+(?:\.\d+)+)",
        min_version=PYTEST_MIN_VERSION,
        extra_versions={"python": ("python3 --version", r"Python (\d+(?:\.\d+)+)")},
        version_files_command=VERSION_FILES_COMMAND,
    )
