"""No import circle: the modules of canasta_tutor import each other in one direction only.

The graph is read from the source with ``ast``: every ``import`` and ``from ... import`` in a module, at the
top and inside functions alike (an import moved into a function still closes a circle; it only hides it until
the function runs), but not under ``if TYPE_CHECKING:``, which never runs. ``from package import name`` is an
edge to the module ``package.name`` when there is one, else to the package itself.
"""

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "canasta_tutor"


def _module_name(path: Path, root: Path) -> tuple[str, list[str]]:
    """The dotted name of the module at ``path``, and the package its relative imports start from."""
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
        return ".".join(parts), parts
    return ".".join(parts), parts[:-1]


def _for_type_checkers_only(tree: ast.AST) -> set[int]:
    """The ids of the nodes under ``if TYPE_CHECKING:``: imports that never run, for annotations only."""
    skipped = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            skipped.update(id(inner) for stmt in node.body for inner in ast.walk(stmt))
    return skipped


def _imported(tree: ast.AST, package: list[str], modules: set[str]) -> set[str]:
    """The modules of ``modules`` that the code in ``tree`` imports when it runs."""
    out = set()
    skipped = _for_type_checkers_only(tree)
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[:len(package) - node.level + 1]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module
            for alias in node.names:
                out.add(f"{source}.{alias.name}" if f"{source}.{alias.name}" in modules else source)
    return out & modules


def import_graph(root: Path = PACKAGE) -> dict[str, set[str]]:
    """Each module of the package under ``root`` -> the package's modules it imports."""
    found = {}
    for path in sorted(root.rglob("*.py")):
        name, package = _module_name(path, root)
        found[name] = (path, package)
    modules = set(found)
    return {name: _imported(ast.parse(path.read_text("utf-8")), package, modules) - {name}
            for name, (path, package) in found.items()}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One circle of imports (``[a, b, ..., a]``), or ``None`` when there is none (depth-first search)."""
    state: dict[str, str] = {}  # "open" while on the path being walked, "done" after
    path: list[str] = []

    def visit(module: str) -> list[str] | None:
        state[module] = "open"
        path.append(module)
        for target in sorted(graph.get(module, ())):
            if state.get(target) == "open":
                return path[path.index(target):] + [target]
            if target not in state:
                found = visit(target)
                if found:
                    return found
        path.pop()
        state[module] = "done"
        return None

    for module in sorted(graph):
        if module not in state:
            found = visit(module)
            if found:
                return found
    return None


def test_the_graph_sees_every_module_and_its_imports():
    graph = import_graph()
    assert len(graph) > 60 and "canasta_tutor.puzzles.kinds.meld" in graph
    # a relative import of a name, of a submodule, and an import inside a function
    assert "canasta_tutor.puzzles.kinds._record" in graph["canasta_tutor.puzzles.kinds.meld"]
    assert "canasta_tutor.puzzles.kinds.meld" in graph["canasta_tutor.puzzles.kinds"]
    assert "canasta_tutor.engine.pile" in graph["canasta_tutor.widgets.render"]


def test_find_cycle_finds_a_circle_and_says_which():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": set()}) is None
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"x": {"x.y"}, "x.y": {"x"}}) == ["x", "x.y", "x"]


def test_no_module_imports_one_that_imports_it_back():
    cycle = find_cycle(import_graph())
    assert cycle is None, "an import circle: " + " -> ".join(cycle)
