"""The package's import graph has no circle, and no module imports the package's facade.

Read from the source with `ast`, so it sees what a run may never reach. Every import statement
counts wherever it stands: at module level (those under `if TYPE_CHECKING:` too: a type is a
dependency all the same), in a function, in a class. `from . import x` is an import of the
submodule `x` when there is one, else of a name from the package's `__init__`. Importing
`a.b.c` also runs the `__init__` of each package on the way (`a.b`) that the importer is not
itself inside, so those count as well; `shapeclip/__init__.py`, which every module sits in and
which loads its names only when first used, is left out of that, and kept apart by the second
rule instead: nothing inside the package imports from it (nor from any package `__init__` above
itself), so the facade can re-export anything without closing a circle.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "python"
PACKAGE = "shapeclip"


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def is_package(path: Path) -> bool:
    return path.name == "__init__.py"


def sources() -> dict[str, Path]:
    """Each module's source; a native module's is its stub (`_core.pyi`)."""
    stubs = {module_name(path): path for path in sorted((ROOT / PACKAGE).rglob("*.pyi"))}
    return stubs | {module_name(path): path for path in sorted((ROOT / PACKAGE).rglob("*.py"))}


def imported(node: ast.Import | ast.ImportFrom, name: str, package: bool, modules: set[str]) -> Iterator[str]:
    """The modules of the package that `node`, in module `name`, names explicitly."""
    if isinstance(node, ast.Import):
        for alias in node.names:
            parts = alias.name.split(".")
            # `import a.b.c` binds `a` and runs `a.b.c`: the deepest module named.
            known = [".".join(parts[:i]) for i in range(len(parts), 0, -1) if ".".join(parts[:i]) in modules]
            yield from known[:1]
        return
    if node.level:
        here = name if package else name.rpartition(".")[0]
        base = ".".join(here.split(".")[: len(here.split(".")) - node.level + 1])
        base = f"{base}.{node.module}" if node.module else base
    else:
        base = node.module or ""
    if base not in modules:
        return
    for alias in node.names:
        sub = f"{base}.{alias.name}"
        yield sub if sub in modules else base


def graph() -> tuple[dict[str, set[str]], list[tuple[str, str]]]:
    """Each module's imports within the package, and each (importer, package) pair where a
    module imports a name from the `__init__` of a package it sits in."""
    paths = sources()
    modules = set(paths)
    edges: dict[str, set[str]] = {name: set() for name in modules}
    upward: list[tuple[str, str]] = []
    for name, path in paths.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            if not isinstance(node, (ast.Import, ast.ImportFrom)):
                continue
            for target in imported(node, name, is_package(path), modules):
                if name.startswith(f"{target}."):
                    upward.append((name, target))
                    continue
                edges[name].add(target)
                # The `__init__`s Python runs on the way to `target`.
                parts = target.split(".")
                for i in range(2, len(parts)):
                    parent = ".".join(parts[:i])
                    if not name.startswith(f"{parent}.") and parent != name:
                        edges[name].add(parent)
    return edges, sorted(set(upward))


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module, or of one that imports itself
    (Tarjan's algorithm, written out so the test depends on nothing)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(edges[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1 or node in edges[node]:
                found.append(sorted(group))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return sorted(found)


def test_the_reader_sees_the_imports_it_should() -> None:
    # A reader that saw nothing would pass the tests below on any code.
    edges, _ = graph()
    assert "shapeclip.fallback" in edges["shapeclip.api"]  # from . import fallback
    assert "shapeclip._core" in edges["shapeclip.api"]  # the native module, read from its stub
    assert "shapeclip.store.keep" in edges["shapeclip.api"]  # from .store.keep import ...
    assert "shapeclip.store" in edges["shapeclip.api"]  # ... which runs store/__init__.py first
    assert "shapeclip.digest.request" in edges["shapeclip.api"]  # inside a function
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"d"}, "e": {"a"}}) == [["a", "b", "c"], ["d"]]


def test_no_module_imports_from_a_package_it_sits_in() -> None:
    _, upward = graph()
    assert upward == [], "imports of a package's __init__ from inside it (importer, package): " + repr(upward)


def test_the_package_has_no_import_circle() -> None:
    edges, _ = graph()
    assert circles(edges) == [], "modules that import each other, directly or through others"
