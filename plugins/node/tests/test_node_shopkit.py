"""shopkit: deterministic, about 107 files, deep imports, and its own tests pass."""

from __future__ import annotations

import hashlib
import re
import subprocess
import sys
from pathlib import Path

import pytest

from garuda_evals.errors import FileFormatError
from garuda_evals_node.hard import Edit, apply_edit
from garuda_evals_node.shopkit import ShopkitSpec, generate, write

EXPECTED_FILES = 107
IMPORT = re.compile(r"""^import .* from '(\.[^']+)';$""", re.MULTILINE)


def _digest(files: dict[str, str]) -> str:
    hasher = hashlib.sha256()
    for path, text in files.items():
        hasher.update(path.encode() + b"\0" + text.encode() + b"\0")
    return hasher.hexdigest()


def test_shopkit_has_107_files_in_layers() -> None:
    files = generate(ShopkitSpec())
    assert len(files) == EXPECTED_FILES
    for folder, least in [
        ("src/entities/", 10),
        ("src/services/", 14),
        ("src/api/", 14),
        ("src/util/", 10),
        ("test/", 40),
    ]:
        assert sum(path.startswith(folder) for path in files) >= least, folder


def test_shopkit_is_the_same_bytes_in_a_fresh_interpreter(tmp_path: Path) -> None:
    """A new process (no cache, another hash seed) writes the same bytes."""
    here = _digest(generate(ShopkitSpec()))
    code = (
        "import hashlib, sys\n"
        "from garuda_evals_node.shopkit import generate\n"
        "h = hashlib.sha256()\n"
        "for p, t in generate().items():\n"
        "    h.update(p.encode() + b'\\0' + t.encode() + b'\\0')\n"
        "print(h.hexdigest())\n"
    )
    other = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONHASHSEED": "12345", "PATH": "/usr/bin:/bin"},
    )
    assert other.stdout.strip() == here
    written = write(tmp_path)
    assert len(written) == EXPECTED_FILES
    assert _digest({p: (tmp_path / p).read_text() for p in sorted(written)}) == here


def test_shopkit_spec_is_the_input() -> None:
    base = generate(ShopkitSpec())
    other_seed = generate(ShopkitSpec(seed=7))
    renamed = generate(ShopkitSpec(customer_name_field="fullName"))
    assert base["fixtures/products.js"] != other_seed["fixtures/products.js"]
    assert base["src/util/money.js"] == other_seed["src/util/money.js"]
    assert "customer.fullName" in renamed["src/api/serializers.js"]
    assert "$NAME$" not in "".join(base.values())


def test_shopkit_imports_resolve_and_run_deep() -> None:
    """Every relative import names a generated file; the API reaches util through 3+ hops."""
    files = generate(ShopkitSpec())
    graph: dict[str, set[str]] = {}
    for path, text in files.items():
        if not path.endswith(".js"):
            continue
        graph[path] = set()
        for target in IMPORT.findall(text):
            resolved = str(Path(path).parent.joinpath(target)).replace("\\", "/")
            parts: list[str] = []
            for part in resolved.split("/"):
                if part == "..":
                    parts.pop()
                elif part != ".":
                    parts.append(part)
            resolved = "/".join(parts)
            assert resolved in files, f"{path} imports missing {target}"
            graph[path].add(resolved)

    def depth(path: str, seen: frozenset[str] = frozenset()) -> int:
        children = [c for c in graph.get(path, ()) if c not in seen]
        return 1 + max((depth(c, seen | {path}) for c in children), default=0)

    assert depth("src/app.js") >= 5
    assert depth("src/api/routes/carts.js") >= 3


def test_shopkit_own_tests_pass(node, tmp_path: Path) -> None:
    write(tmp_path)
    result = subprocess.run(
        [node, "--test", "--test-reporter=tap"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout[-3000:]
    assert re.search(r"# pass (\d{3})", result.stdout)


def test_hard_edits_must_match_once(tmp_path: Path) -> None:
    files = {"a.js": "x x", "b.js": "y"}
    with pytest.raises(FileFormatError, match="occurs 2 times"):
        apply_edit(files, Edit(path="a.js", find="x", replace="z"), tmp_path / "shopkit.toml")
    with pytest.raises(FileFormatError, match="no such file"):
        apply_edit(files, Edit(path="c.js", find="x", replace="z"), tmp_path / "shopkit.toml")
    assert (
        apply_edit(files, Edit(path="b.js", find="y", replace="z"), tmp_path / "shopkit.toml")
        == "z"
    )
