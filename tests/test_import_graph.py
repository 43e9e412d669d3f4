"""No import circle in the project's packages, counting imports inside functions (issue #16).

The graph is read from the source with ``ast``: every ``import`` and ``from … import`` of a
module of ``kozelbot/``, ``handlers/``, ``storage/`` or ``sandbox/`` — at module level or inside
a function, relative or absolute — except those under ``if TYPE_CHECKING:`` (they never run).
An edge goes to the module named, or to the package whose ``__init__`` holds the name.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("kozelbot", "handlers", "storage", "sandbox")


def modules(root: Path, packages: Iterable[str]) -> dict[str, Path]:
    """Dotted module name → file, for every Python file of the packages."""
    found: dict[str, Path] = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            found[name] = path
    return found


def _type_checking_only(tree: ast.Module) -> set[int]:
    """The ids of the nodes under ``if TYPE_CHECKING:``."""
    hidden: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for inner in node.body:
                hidden.update(id(n) for n in ast.walk(inner))
    return hidden


def _imported(node: ast.Import | ast.ImportFrom, module: str, is_package: bool) -> list[str]:
    """The dotted names an import statement may refer to (a module, or a name in one)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    base = node.module or ""
    if node.level:
        package = module.split(".") if is_package else module.split(".")[:-1]
        anchor = package[: len(package) - (node.level - 1)]
        base = ".".join([*anchor, base] if base else anchor)
    return [f"{base}.{alias.name}" for alias in node.names] + [base]


def graph(
    root: Path, packages: Iterable[str], *, type_only_too: bool = False
) -> dict[str, set[str]]:
    """Module → the project's modules it imports (at run time; with ``type_only_too``, also
    those imported only under ``if TYPE_CHECKING:``)."""
    known = modules(root, packages)
    edges: dict[str, set[str]] = {name: set() for name in known}
    for name, path in known.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        hidden = set() if type_only_too else _type_checking_only(tree)
        for node in ast.walk(tree):
            if not isinstance(node, ast.Import | ast.ImportFrom) or id(node) in hidden:
                continue
            for target in _imported(node, name, path.name == "__init__.py"):
                while target and target not in known:
                    target = target.rpartition(".")[0]
                if target and target != name:
                    edges[name].add(target)
                    break
    return edges


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(edges.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def test_the_packages_import_each_other_without_a_circle() -> None:
    edges = graph(ROOT, PACKAGES)
    assert len(edges) > 50 and any(edges.values())  # it read the project
    assert cycles(edges) == []


def test_the_handlers_import_each_other_without_a_circle_type_only_imports_included() -> None:
    """Issue #31: ``BotData`` names the tournament runner and the Mini App by protocols, so
    ``handlers.deps`` imports no module that reads it back (the circle deps → tournament_run /
    webapp.server → deps ran through type-only imports)."""
    edges = graph(ROOT, ["handlers"], type_only_too=True)
    assert len(edges) > 20 and any(edges.values())
    assert cycles(edges) == []


def test_a_planted_circle_is_found_through_imports_inside_functions(tmp_path: Path) -> None:
    """``a`` imports ``b`` at the top, ``b`` imports ``a`` inside a function, ``c`` imports
    ``a`` only for type checking: one circle, a+b."""
    package = tmp_path / "planted"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from planted import b\n")
    (package / "b.py").write_text("def late():\n    from .a import thing\n    return thing\n")
    (package / "c.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from planted.a import x\n"
    )
    (package / "d.py").write_text("from planted.c import y\n")
    edges = graph(tmp_path, ["planted"])
    assert edges["planted.b"] == {"planted.a"} and edges["planted.c"] == set()
    assert cycles(edges) == [["planted.a", "planted.b"]]
    assert graph(tmp_path, ["planted"], type_only_too=True)["planted.c"] == {"planted.a"}
