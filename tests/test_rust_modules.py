"""No module circle in `rust/`: within every folder, its modules depend on each other one way.

The check reads the sources, not the compiler: it strips comments, strings and test-only code
(`#[cfg(test)]` items, and so `tests.rs`), resolves every `use` tree and every `crate::`,
`super::` and `self::` path to the module it names, and draws an edge from module to module.
It then looks at each folder on its own, the crate root too: the nodes are the folder's modules
(a file, or a subfolder with everything under it), and an edge joins two of them when anything
in one names anything in the other. A strongly connected set of more than one node is a
circle. So `log/classify.rs` naming `log/prefilter.rs` and back is a circle of `log/`, and
`search/` naming `log/` while a file under `log/` names `search/` is one of the crate root.
A folder's own `mod.rs` items are no node: a child that names them is an `impl` of the
folder's type split across files (`search/held.rs`), whose calls back no path shows.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

RUST = Path(__file__).parent.parent / "rust"
Module = tuple[str, ...]

IDENT = r"[A-Za-z_][A-Za-z0-9_]*"
PATH = re.compile(rf"\b(?:crate|super|self)(?:\s*::\s*{IDENT})+")
USE = re.compile(r"\buse\s+([^;]*);")
MOD = re.compile(rf"\bmod\s+({IDENT})\s*;")
TEST_ATTRIBUTE = re.compile(r"#\[cfg\(test\)\]")
RAW_STRING = re.compile(r'b?r(#*)"')
CHAR = re.compile(r"b?'(?:\\(?:u\{[0-9a-fA-F]+\}|x[0-9a-fA-F]{2}|.)|[^\\'])'")


def strip(source: str) -> str:
    """`source` with comments, string and character literals blanked out (lifetimes kept)."""
    out: list[str] = []
    i, n = 0, len(source)
    while i < n:
        c = source[i]
        if source.startswith("//", i):
            i = source.find("\n", i)
            i = n if i < 0 else i
        elif source.startswith("/*", i):
            depth = 0
            while i < n:
                if source.startswith("/*", i):
                    depth, i = depth + 1, i + 2
                elif source.startswith("*/", i):
                    depth, i = depth - 1, i + 2
                    if depth == 0:
                        break
                else:
                    i += 1
            out.append(" ")
        elif raw := RAW_STRING.match(source, i):
            end = source.find('"' + raw.group(1), raw.end())
            i = n if end < 0 else end + 1 + len(raw.group(1))
            out.append('""')
        elif c == '"':
            i += 1
            while i < n and source[i] != '"':
                i += 2 if source[i] == "\\" else 1
            i += 1
            out.append('""')
        elif char := CHAR.match(source, i):
            i = char.end()
            out.append("' '")
        else:
            out.append(c)
            i += 1
    return "".join(out)


def without_tests(code: str) -> str:
    """`code` (stripped) without the items under `#[cfg(test)]`: a test may reach anywhere."""
    while found := TEST_ATTRIBUTE.search(code):
        i = found.end()
        while code[i:].lstrip().startswith("#["):  # more attributes on the same item
            i = code.index("]", code.index("#[", i)) + 1
        depth, j = 0, i
        while j < len(code):
            if code[j] in "{([":
                depth += 1
            elif code[j] in "})]":
                depth -= 1
                if depth == 0 and code[j] == "}":
                    break
            elif code[j] == ";" and depth == 0:
                break
            j += 1
        code = code[: found.start()] + code[j + 1 :]
    return code


def use_paths(tree: str) -> Iterator[list[str]]:
    """Every path a `use` tree names: `a::{b, c::{d as e}}` gives `a::b` and `a::c::d`."""
    tree = re.sub(r"\s+", "", re.sub(rf"\s+as\s+{IDENT}", "", tree))
    if "{" not in tree:
        yield [s for s in tree.split("::") if s]
        return
    open_at = tree.index("{")
    prefix = [s for s in tree[:open_at].split("::") if s]
    inner, depth, start = tree[open_at + 1 : tree.rindex("}")], 0, 0
    parts = []
    for k, ch in enumerate(inner):
        depth += ch == "{"
        depth -= ch == "}"
        if ch == "," and depth == 0:
            parts.append(inner[start:k])
            start = k + 1
    parts.append(inner[start:])
    for part in filter(None, parts):
        for rest in use_paths(part):
            yield prefix + [s for s in rest if s != "self"] if rest != ["self"] else prefix


def modules(root: Path) -> dict[Module, Path]:
    """Every module of the crate at `root` (test-only ones left out), by path, with its file."""
    found: dict[Module, Path] = {}

    def visit(module: Module, file: Path) -> None:
        found[module] = file
        folder = file.parent if file.name in ("mod.rs", "lib.rs") else file.with_suffix("")
        for name in MOD.findall(without_tests(strip(file.read_text()))):
            child = folder / f"{name}.rs"
            visit((*module, name), child if child.exists() else folder / name / "mod.rs")

    visit((), root / "lib.rs")
    return found


def resolve(path: list[str], here: Module, known: dict[Module, Path]) -> Module | None:
    """The module `path`, named in module `here`, lies in: the longest known prefix."""
    if not path:
        return None
    base: Module
    if path[0] == "crate":
        base, rest = (), path[1:]
    elif path[0] in ("self", "super"):
        base, rest = here, path
        while rest and rest[0] in ("self", "super"):
            base, rest = (base[:-1] if rest[0] == "super" else base), rest[1:]
    elif (*here, path[0]) in known:  # a child module named without `self::`
        base, rest = here, path
    else:
        return None  # std, another crate, or an item in scope
    module: Module = base
    for segment in rest:
        if (*module, segment) not in known:
            break
        module = (*module, segment)
    return module


def edges(root: Path) -> set[tuple[Module, Module]]:
    """(a, b) for each module a of the crate at `root` that names something in module b."""
    known = modules(root)
    found = set()
    for module, file in known.items():
        code = without_tests(strip(file.read_text()))
        paths = [p for tree in USE.findall(code) for p in use_paths(tree)]
        paths += [re.sub(r"\s+", "", m).split("::") for m in PATH.findall(USE.sub("", code))]
        for path in paths:
            target = resolve(path, module, known)
            if target is not None and target != module:
                found.add((module, target))
    return found


def circles(links: set[tuple[Module, Module]]) -> list[tuple[Module, list[Module]]]:
    """Each folder's circles: (folder, the nodes of one circle), folders and nodes sorted."""
    found = []
    folders = sorted({a[:k] for a, _ in links for k in range(len(a))} | {()})
    for folder in folders:
        depth = len(folder)
        graph: dict[Module, set[Module]] = {}
        for a, b in links:
            # The folder's own items (its `mod.rs`) are no node: a child naming them is an
            # `impl` of the folder's type split across files, whose calls no path shows.
            if a[:depth] == folder and b[:depth] == folder and len(a) > depth < len(b):
                node_a, node_b = a[: depth + 1], b[: depth + 1]
                if node_a != node_b:
                    graph.setdefault(node_a, set()).add(node_b)
        found += [(folder, sorted(c)) for c in strongly_connected(graph) if len(c) > 1]
    return found


def strongly_connected(graph: dict[Module, set[Module]]) -> list[set[Module]]:
    """Tarjan's strongly connected components of `graph`."""
    index: dict[Module, int] = {}
    low: dict[Module, int] = {}
    stack: list[Module] = []
    components = []

    def visit(v: Module) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = set()
            while True:
                w = stack.pop()
                component.add(w)
                if w == v:
                    break
            components.append(component)

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return components


def name(module: Module) -> str:
    return "::".join(("crate", *module))


def described(found: list[tuple[Module, list[Module]]]) -> str:
    return "\n".join(f"{name(f)}: {' <-> '.join(name(m) for m in c)}" for f, c in found)


def test_no_folder_of_the_engine_has_a_module_circle() -> None:
    found = circles(edges(RUST))
    assert not found, described(found)


def crate(root: Path, files: dict[str, str]) -> Path:
    for path, text in files.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text)
    return root


def test_a_circle_is_found_in_a_folder_and_between_folders(tmp_path: Path) -> None:
    root = crate(
        tmp_path,
        {
            "lib.rs": "mod a;\nmod b;\n",
            "a/mod.rs": "mod one;\nmod two;\nuse crate::b::X;\n",
            "a/one.rs": "use super::two::{self, Y as Why};\npub struct Z;\n",
            "a/two.rs": "pub fn f() -> super::one::Z { super::one::Z }\npub struct Y;\n",
            "b.rs": "pub struct X(crate::a::two::Y);\n",
        },
    )
    assert described(circles(edges(root))) == "crate: crate::a <-> crate::b\ncrate::a: crate::a::one <-> crate::a::two"


def test_comments_strings_tests_and_a_folders_own_items_make_no_circle(tmp_path: Path) -> None:
    root = crate(
        tmp_path,
        {
            "lib.rs": "mod a;\nmod b;\n",
            "a/mod.rs": "mod one;\nmod two;\npub struct Planner;\nuse one::Z as Zed;\n",
            # A child's `impl` of its folder's type.
            "a/one.rs": "use super::Planner;\nuse super::two::Y;\npub struct Z;\nimpl Planner {}\n",
            "a/two.rs": '//! see [`super::one`]\nconst S: &str = "crate::b::X";\npub struct Y;\n'
            "#[cfg(test)]\nmod tests {\n    use super::super::one::Z;\n    use crate::b::X;\n}\n",
            "b.rs": "pub struct X;\n/* crate::a::two::Y */\n#[cfg(test)]\nmod tests;\n",
            "b/tests.rs": "use crate::a::one::Z;\n",
        },
    )
    links = edges(root)
    assert (("a", "one"), ("a", "two")) in links and (("a", "one"), ("a",)) in links
    assert circles(links) == []
