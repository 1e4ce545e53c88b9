"""The code index: real parsers per language, look-up, the compact map, refresh on change."""

import anyio

from garuda_evals_agent.index.code_index import CodeIndex
from garuda_evals_agent.index.symbols import file_symbols

PY = '''
import os

TEXT = """
def not_a_function():
"""


def top(a):
    return a


class Shape:
    # def in_a_comment(self):
    def area(self):
        return 0

    async def later(self):
        class Inner:
            pass

    class Nested:
        def deep(self):
            pass
'''

JS = """
// function inComment() {}
const text = "function inString() {}";
export function add(a, b) { return a + b; }
class Calc {
  constructor() {}
  mul(a, b) { return a * b; }
  static of() { return new Calc(); }
}
const sub = (a, b) => a - b;
function* gen() {}
"""

TS = """
export interface Point { x: number }
type Id = string;
enum Color { Red }
export abstract class Base {
  abstract run(): void;
  go(p: Point): Id { return "x"; }
}
export const twice = (n: number): number => n * 2;
"""

JAVA = """
package a;
/* class InComment {} */
public class Account {
    private int balance;
    public Account() {}
    public void deposit(int amount) { String s = "void fake() {}"; }
    interface Listener { void changed(); }
    enum Kind { A, B }
    record Entry(int amount) {}
}
"""


def names(source, language, path="f"):
    return [(s.kind, s.qualified, s.line) for s in file_symbols(path, source, language)]


def test_python_with_ast_not_text():
    assert names(PY, "python") == [
        ("function", "top", 9),
        ("class", "Shape", 13),
        ("method", "Shape.area", 15),
        ("method", "Shape.later", 18),
        ("class", "Shape.Nested", 22),
        ("method", "Shape.Nested.deep", 23),
    ]
    assert names("def broken(:\n", "python") == []


def test_javascript_with_tree_sitter_not_text():
    assert names(JS, "javascript") == [
        ("function", "add", 4),
        ("class", "Calc", 5),
        ("method", "Calc.constructor", 6),
        ("method", "Calc.mul", 7),
        ("method", "Calc.of", 8),
        ("function", "sub", 10),
        ("function", "gen", 11),
    ]


def test_typescript_and_java():
    assert names(TS, "typescript") == [
        ("interface", "Point", 2),
        ("type", "Id", 3),
        ("enum", "Color", 4),
        ("class", "Base", 5),
        ("method", "Base.run", 6),
        ("method", "Base.go", 7),
        ("function", "twice", 9),
    ]
    assert names(JAVA, "java") == [
        ("class", "Account", 4),
        ("method", "Account.Account", 6),
        ("method", "Account.deposit", 7),
        ("interface", "Account.Listener", 8),
        ("method", "Account.Listener.changed", 8),
        ("enum", "Account.Kind", 9),
        ("record", "Account.Entry", 10),
    ]
    assert ("function", "Row", 1) in names("const Row = () => <div/>;\n", "tsx")


def test_lookup_map_and_refresh(tmp_path):
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "calc.py").write_text("def add(a, b):\n    return a - b\n")
    (tmp_path / "web.js").write_text(JS)
    (tmp_path / "node_modules").mkdir()
    (tmp_path / "node_modules" / "dep.js").write_text("function hidden() {}\n")
    index = CodeIndex(tmp_path)

    def lookup(name):
        return anyio.run(index.lookup, {"name": name})

    assert lookup("add").splitlines() == ["src/calc.py:1  function add", "web.js:4  function add"]
    assert lookup("calc.MUL") == "web.js:7  method Calc.mul"
    assert lookup("hidden").startswith("no symbol matches 'hidden'")
    assert index.code_map().splitlines()[0] == "src/calc.py: add:1()"
    assert "[map cut at 20 characters" in index.code_map(limit=20)
    (tmp_path / "src" / "calc.py").write_text(
        "\n\ndef add(a, b):\n    return a + b\n\n\ndef neg(a):\n    pass\n"
    )
    assert lookup("neg") == "src/calc.py:7  function neg"
    assert lookup("add").splitlines()[0] == "src/calc.py:3  function add"


def test_index_lookup_offers_the_tool_without_a_map(fake_server, run_turn):
    from garuda_evals.testing import run_settings
    from garuda_evals_agent.testing import Reply, Text, Use

    server = fake_server([Reply([Use("lookup_symbol", {"name": "area"})]), Reply([Text("ok")])])
    run = run_turn(
        run_settings(model="anthropic/claude-haiku-4-5", index="lookup"),
        files={"shapes.py": PY},
    )
    assert run.error is None, run.error
    first, second = (call["body"] for call in server.model_calls())
    assert "lookup_symbol" in [tool["name"] for tool in first["tools"]]
    assert "Code map" not in first["system"][0]["text"]
    result = second["messages"][-1]["content"][0]
    assert "shapes.py:15  method Shape.area" in str(result["content"])
    assert run.outcome.tool_calls["lookup_symbol"] == 1


DEEP_TREE = (
    "python3 -c \"import os\nfor _ in range(1100):\n    os.mkdir('d')\n    os.chdir('d')\n"
    "open('x.py', 'w').write('x = 1')\""
)


def test_tools_on_a_tree_a_thousand_deep_answer_the_model(fake_server, run_turn, tmp_path):
    """Each folder level was a frame of ``os.walk``, and each nesting level of a source file
    one of the symbol walk: the RecursionError ended the turn as an error (ERR), the agent's
    choice. The files are listed; a symbol look-up that still runs out is a tool error."""
    from garuda_evals.removal import remove_tree
    from garuda_evals.testing import run_settings
    from garuda_evals_agent.testing import Reply, Text, Use

    server = fake_server(
        [
            Reply([Use("run_command", {"command": DEEP_TREE})]),
            Reply([Use("list_files", {})]),
            Reply([Use("lookup_symbol", {"name": "x"})]),
            Reply([Text("ok")]),
        ]
    )
    run = run_turn(
        run_settings(model="anthropic/claude-haiku-4-5", index="lookup"),
        files={"nested.js": "const x = " + "[" * 3000 + "]" * 3000 + ";\n"},
    )
    try:
        assert run.error is None, run.error
        calls = [call["body"]["messages"][-1]["content"][0] for call in server.model_calls()]
        listed, looked_up = str(calls[2]["content"]), calls[3]
        assert "d/d/d/d/d/d" in listed and "x.py" in listed, listed[:300]
        assert "RecursionError" in str(looked_up["content"]), looked_up
    finally:
        remove_tree(tmp_path / "work")
