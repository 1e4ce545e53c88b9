"""Biome formatting of a workspace: protected files and other languages stay as they are."""

from garuda_evals.testing import skip_or_fail
from garuda_evals_agent.formatting import Formatter, applies
from garuda_evals_agent.managed import BIOME

MESSY = "function add(a,b){return a+b}\n"


def test_project_and_edits_are_formatted_but_never_protected_files(tmp_path):
    if not BIOME.installed():
        skip_or_fail("lsp", "Biome is not installed (garuda lsp --install)")
    (tmp_path / "package.json").write_text('{"name": "x"}\n')
    for name in ("src/a.js", "src/b.ts", "test/a.test.js", "notes.py", "jest.config.js"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(MESSY)
    assert applies(tmp_path)
    formatter = Formatter(tmp_path, ["test/", "jest.config.js"])
    assert formatter.format_project() == 2
    assert (tmp_path / "src/a.js").read_text() == "function add(a, b) {\n  return a + b;\n}\n"
    assert (tmp_path / "src/b.ts").read_text() != MESSY
    for untouched in ("test/a.test.js", "notes.py", "jest.config.js"):
        assert (tmp_path / untouched).read_text() == MESSY, untouched
    assert not (tmp_path / "biome.json").exists()
    (tmp_path / "src/a.js").write_text(MESSY)
    assert formatter.format_file(tmp_path / "src/a.js") == "formatted with Biome (changed)"
    assert (
        formatter.format_file(tmp_path / "src/a.js") == "formatted with Biome (already formatted)"
    )
    assert formatter.format_file(tmp_path / "test/a.test.js") is None
    (tmp_path / "src/bad.js").write_text("function (\n")
    assert formatter.format_file(tmp_path / "src/bad.js").startswith("Biome could not format")
