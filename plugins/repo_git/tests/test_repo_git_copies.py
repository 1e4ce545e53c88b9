"""Copies of the project's code in the environment of its tests, found by import name.

A real venv (``python -m venv``) beside a real checkout: each way a copy gets onto
``sys.path`` (a plain folder in site-packages, a ``.pth`` line, an import hook) is planted in
turn and asked for through the venv's own interpreter. The end-to-end refusal (the build,
``garuda eval -s repo``) and the cheat it stops are in the red team.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from garuda_evals_repo_git.pycopies import package_copies, top_level_names
from garuda_evals_repo_git.runners import classify

TREE = [
    "pyproject.toml",
    "setup.py",
    "src/shop/__init__.py",
    "src/shop/cart.py",
    "src/shop_cli.py",
    "src/ns/part/mod.py",
    "src/types.py",
    "src/conftest.py",
    "tests/test_cart.py",
    "tests/helpers.py",
    "docs/conf.py",
]


def test_the_projects_top_level_names() -> None:
    """Modules and folders with code under a src root; tests, stdlib names left out."""
    names = top_level_names(TREE, ["src"])
    assert names == {"shop": "src/shop", "shop_cli": "src/shop_cli.py", "ns": "src/ns"}


def test_a_flat_layout_names_packages_with_an_init_only() -> None:
    tree = [
        "setup.py",
        "noxfile.py",
        "calc.py",
        "shop/__init__.py",
        "shop/cart.py",
        "scripts/run.py",
        "tests/__init__.py",
        "tests/test_calc.py",
        "pkg/src/inner/__init__.py",
    ]
    assert top_level_names(tree, [".", "pkg/src"]) == {
        "calc": "calc.py",
        "shop": "shop",
        "inner": "pkg/src/inner",
    }


def _python(venv: Path) -> Path:
    return venv / "bin" / "python"


def _purelib(venv: Path) -> Path:
    found = subprocess.run(
        [str(_python(venv)), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    )
    return Path(found.stdout.strip())


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    """A checkout with ``src/shop`` and its own ``.venv`` (no pip, nothing installed)."""
    root = tmp_path / "shop"
    (root / "src" / "shop").mkdir(parents=True)
    (root / "src" / "shop" / "__init__.py").write_text("def total(xs):\n    return sum(xs)\n")
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(root / ".venv")], check=True)
    return root


def _copies(root: Path) -> list[tuple[str, str]]:
    command = classify(".venv/bin/python -m pytest", None)
    found = package_copies(root, command, ["src/shop/__init__.py"], ["src"], [".venv"])
    return [(copy.name, copy.path) for copy in found]


def test_a_plain_folder_in_site_packages_is_a_copy(checkout: Path) -> None:
    site = _purelib(checkout / ".venv")
    assert _copies(checkout) == []
    shutil.copytree(checkout / "src" / "shop", site / "shop")
    assert _copies(checkout) == [("shop", str((site / "shop").resolve()))]


def test_a_pth_line_to_the_checkout_is_not_a_copy_but_one_to_another_is(
    checkout: Path, tmp_path: Path
) -> None:
    """An editable install puts the checkout's ``src`` on the path: the sandbox hides it.
    The same line to another checkout (an older clone) is a copy."""
    site = _purelib(checkout / ".venv")
    (site / "_shop_editable.pth").write_text(f"{checkout / 'src'}\n")
    assert _copies(checkout) == []
    other = tmp_path / "old-clone" / "src"
    shutil.copytree(checkout / "src" / "shop", other / "shop")
    (site / "zz_old.pth").write_text(f"{other}\n")
    assert _copies(checkout) == [("shop", str((other / "shop").resolve()))]


FINDER = """import importlib.machinery, importlib.util, sys


class Finder:
    @classmethod
    def find_spec(cls, name, path=None, target=None):
        if name != "shop":
            return None
        init = {init!r}
        return importlib.util.spec_from_file_location(name, init, submodule_search_locations=[])


sys.meta_path.insert(0, Finder)
"""


def test_an_import_hook_is_judged_by_where_it_leads(checkout: Path, tmp_path: Path) -> None:
    """setuptools' editable finder maps the name to the checkout (fine); one that maps it
    elsewhere is a copy."""
    site = _purelib(checkout / ".venv")
    hook = site / "shop_finder.py"
    (site / "zz_shop_finder.pth").write_text("import shop_finder\n")
    hook.write_text(FINDER.format(init=str(checkout / "src" / "shop" / "__init__.py")))
    assert _copies(checkout) == []
    elsewhere = tmp_path / "vendored" / "shop" / "__init__.py"
    elsewhere.parent.mkdir(parents=True)
    elsewhere.write_text("def total(xs):\n    return sum(xs)\n")
    hook.write_text(FINDER.format(init=str(elsewhere)))
    shutil.rmtree(site / "__pycache__")  # the same size and second: its bytecode would be used
    assert _copies(checkout) == [("shop", str(elsewhere.parent.resolve()))]
