"""The tool kinds are listed once, in Python (`shapeclip.profiles.KINDS`), and the core knows
the same names: the Rust enum's names are read from its source, so this holds without a build,
and the built core is asked, where there is one. The type checker's `ToolKind` repeats them, and
the kinds got back by running a command again are the same on both sides."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import get_args

import pytest

from shapeclip import api, profiles
from shapeclip.profiles import KINDS, RERUN_KINDS, TOOL_PROFILES, Profile

RUST = Path(__file__).resolve().parent.parent / "rust"


def rust_kinds() -> tuple[set[str], set[str]]:
    """The names `ToolKind::parse` accepts, and the variants of `ToolKind` none of them maps
    to (wherever in rust/ the enum lives)."""
    for path in sorted(RUST.rglob("*.rs")):
        source = path.read_text(encoding="utf-8")
        enum = re.search(r"pub enum ToolKind \{([^}]*)\}", source)
        if enum is None:
            continue
        variants = set(re.findall(r"^\s*(\w+),", enum.group(1), re.MULTILINE))
        arms = dict(re.findall(r'"(\w+)" => ToolKind::(\w+)', source))
        assert variants, f"no variants read from {path}"
        return set(arms), variants - set(arms.values())
    raise AssertionError("no `pub enum ToolKind` in rust/")


def test_the_core_parses_exactly_the_python_kinds() -> None:
    names, unnamed = rust_kinds()
    assert names == set(KINDS)
    assert unnamed == set()


def test_every_profile_has_a_kind_and_a_wrong_one_is_refused() -> None:
    assert {profile.kind for profile in TOOL_PROFILES.values()} <= set(KINDS)
    with pytest.raises(ValueError, match=re.escape(f"kind must be one of {', '.join(KINDS)}; got 'grep'")):
        Profile("grep", 0.5, 0.5)  # type: ignore[arg-type]


@pytest.mark.skipif(api._core is None, reason="needs the native core")
def test_the_built_core_takes_each_kind_and_names_them_all_when_refusing() -> None:
    assert api._core is not None
    for kind in KINDS:
        api._core.Compressor(budget=10, kind=kind, tool=None, head_weight=1, tail_weight=1)
    with pytest.raises(ValueError) as refused:
        api._core.Compressor(budget=10, kind="grep", tool=None, head_weight=1, tail_weight=1)
    listed = re.search(r"one of ([\w, ]+);", str(refused.value))
    assert listed is not None and listed.group(1).split(", ") == list(KINDS)


def test_the_type_checkers_tool_kind_names_the_same_kinds() -> None:
    tree = ast.parse(Path(profiles.__file__).read_text(encoding="utf-8"))
    block = next(node for node in tree.body if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING")
    alias = next(
        node for node in block.body if isinstance(node, ast.Assign) and ast.unparse(node).startswith("ToolKind")
    )
    assert ast.unparse(alias.value) == f"Literal[{', '.join(map(repr, KINDS))}]"
    assert get_args(profiles.ToolKind) == KINDS  # and at run time, where it is made from them


def test_the_kinds_got_back_by_a_rerun_are_the_cores() -> None:
    source = (RUST / "profile.rs").read_text(encoding="utf-8")
    body = re.search(r"pub fn reruns\(self\) -> bool \{(.*?)\n    \}", source, re.DOTALL)
    assert body is not None
    arms = {variant: name for name, variant in re.findall(r'"(\w+)" => ToolKind::(\w+)', source)}
    assert {arms[variant] for variant in re.findall(r"ToolKind::(\w+)", body.group(1))} == RERUN_KINDS
