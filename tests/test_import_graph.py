"""modeler's modules import one another without a cycle: each can be read
(and loaded) after the ones it needs. The graph is read from the source
with `ast`, not by importing: every import the code runs counts, at the top
of a module or inside a function, since an import moved into a function to
dodge a cycle (`from x import y  # x imports this module`) leaves the cycle
in place and only hides it from the order modules load in. Imports under
`if TYPE_CHECKING:` run only for a type checker and do not count."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "modeler"


def _modules() -> dict[str, Path]:
    found = {}
    for path in (ROOT / PACKAGE).rglob("*.py"):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and _type_checking(node):
            yield from _imports(ast.Module(body=node.orelse, type_ignores=[]))
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        else:
            yield from _imports(node)


def import_graph(modules: dict[str, Path]) -> dict[str, set[str]]:
    """Each module of the package and the modules of the package it
    imports (`from package import module` names the module; `from module
    import name`, the module)."""
    graph = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        needs = set()
        for node in _imports(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                needs |= {alias.name for alias in node.names} & modules.keys()
                continue
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parts + ([node.module] if node.module else []))
            for alias in node.names:
                if f"{base}.{alias.name}" in modules:
                    needs.add(f"{base}.{alias.name}")
                elif base in modules:
                    needs.add(base)
        graph[name] = needs - {name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's
    algorithm, without recursion), each as a sorted list."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, edges = work[-1]
            step = next(edges, None)
            if step is not None:
                if step not in index:
                    index[step] = low[step] = len(index)
                    stack.append(step)
                    on_stack.add(step)
                    work.append((step, iter(sorted(graph[step]))))
                elif step in on_stack:
                    low[node] = min(low[node], index[step])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_modeler_has_no_import_cycle() -> None:
    assert cycles(import_graph(_modules())) == []


@pytest.mark.parametrize(
    ("sources", "expected"),
    [
        ({"a": "import b", "b": "import a"}, [["a", "b"]]),
        ({"a": "def f():\n    import b", "b": "from a import x"}, [["a", "b"]]),
        ({"a": "import b", "b": "import c", "c": "from a import x"}, [["a", "b", "c"]]),
        ({"a": "import b", "b": "if TYPE_CHECKING:\n    import a"}, []),
        ({"a": "import b", "b": "import c", "c": ""}, []),
    ],
)
def test_cycles_are_found_wherever_the_import_is(
    tmp_path: Path, sources: dict[str, str], expected: list[list[str]]
) -> None:
    for name, text in sources.items():
        (tmp_path / f"{name}.py").write_text(text)
    modules = {name: tmp_path / f"{name}.py" for name in sources}
    assert cycles(import_graph(modules)) == expected
