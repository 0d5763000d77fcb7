"""The JSON planner from Python, on generated documents and JSON Lines (arrays of records with a
few that differ, nested values, awkward keys and strings, pretty or minified): every output
stays within the budget and streams as one call; the key paths it lists state exactly the counts
a reference count with `json` finds; no value appears that is not in the input; the lossless
forms give back the input; and JSON that fits is returned as it is."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import shapeclip
from helpers import assert_every_path_agrees
from shapeclip.lookalike import disarm
from strategies import split_points

pytestmark = pytest.mark.skipif(shapeclip.backend() != "native", reason="the native core is not built")

KEYS = st.sampled_from(
    ["id", "name", "state", "error", "a b", "\u00e9t\u00e9", 'x"y', "[shapeclip: lines 1-2 omitted]"]
)
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**20), 10**20),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=12),
    st.sampled_from(["ok", "ok", "failed", "\u2026+3 chars", "[lines 3-5 omitted]", "a\nb", "\U0001f600 e\u0301"]),
    st.text(min_size=200, max_size=400),
)
VALUES = st.recursive(
    SCALARS, lambda inner: st.lists(inner, max_size=5) | st.dictionaries(KEYS, inner, max_size=5), max_leaves=12
)
RECORDS = st.lists(
    st.fixed_dictionaries({"id": st.integers(0, 10**6), "state": st.sampled_from(["running"] * 8 + ["failed", None])}),
    max_size=300,
)


@dataclass
class Doc:
    """A generated input: its values, and how they were written."""

    values: list[Any]
    indent: int | None
    ascii: bool
    lines: bool = False
    text: str = field(init=False)

    def __post_init__(self) -> None:
        if self.lines:
            self.text = "".join(json.dumps(v, ensure_ascii=self.ascii) + "\n" for v in self.values)
        else:
            self.text = json.dumps(self.values[0], indent=self.indent, ensure_ascii=self.ascii) + "\n"

    def dumps(self, value: Any) -> str:
        """A scalar as it is written in the input."""
        return json.dumps(value, ensure_ascii=self.ascii)


@st.composite
def documents(draw: st.DrawFn) -> Doc:
    records = draw(RECORDS)
    shared = draw(VALUES)
    for record in records:
        record["v"] = shared
    if records and draw(st.booleans()):
        records[draw(st.integers(0, len(records) - 1))]["error"] = draw(VALUES)
    form = draw(st.sampled_from(["array", "object", "lines"]))
    indent, ascii_only = draw(st.sampled_from([None, 2, 4])), draw(st.booleans())
    if form == "lines" and records:
        return Doc(records, None, ascii_only, lines=True)
    if form == "object":
        # An object used as a map: past 32 keys, its values are counted together.
        labels = draw(st.dictionaries(st.text(min_size=1, max_size=8), st.integers(0, 3), max_size=60))
        return Doc([{"meta": draw(VALUES), "items": records, "labels": labels}], indent, ascii_only)
    return Doc([records], indent, ascii_only)


def plain(key: str) -> bool:
    return re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", key) is not None


@dataclass
class Stat:
    count: int = 0
    kinds: dict[str, int] = field(default_factory=dict)
    chars: list[int] = field(default_factory=list)
    items: list[int] = field(default_factory=list)
    values: dict[str, int] | None = field(default_factory=dict)


KIND_NAMES = {
    "null": "nulls",
    "bool": "bools",
    "number": "numbers",
    "string": "strings",
    "array": "arrays",
    "object": "objects",
}


def n(x: int) -> str:
    return f"{x:,}"


def span(a: int, b: int, one: str, many: str) -> str:
    if a == b:
        return f"{n(a)} {one if a == 1 else many}"
    return f"{n(a)}-{n(b)} {many}"


def describe(stat: Stat) -> str:
    parts = [f"{v} \u00d7{n(c)}" for v, c in (stat.values or {}).items()]
    for kind, many in KIND_NAMES.items():
        count = stat.kinds.get(kind, 0)
        if count == 0 or (kind in ("null", "bool", "number", "string") and stat.values is not None):
            continue
        part = f"{n(count)} {kind if count == 1 else many}"
        if kind == "string":
            part += f" ({span(min(stat.chars), max(stat.chars), 'char', 'chars')})"
        if kind == "array":
            total = f", {n(sum(stat.items))} in all" if min(stat.items) != max(stat.items) else ""
            part += f" ({span(min(stat.items), max(stat.items), 'item', 'items')}{total})"
        parts.append(part)
    return ", ".join(parts)


def reference_paths(doc: Doc) -> list[str]:
    """Each key path's line, in the order the paths are first met, counted with `json`."""
    stats: dict[str, Stat] = {".": Stat()}
    # The keys of each object path that have a path of their own.
    own: dict[str, list[str]] = {}

    def visit(path: str, value: Any) -> None:
        stat = stats.setdefault(path, Stat())
        stat.count += 1
        kind = {
            type(None): "null",
            bool: "bool",
            int: "number",
            float: "number",
            str: "string",
            list: "array",
            dict: "object",
        }[type(value)]
        stat.kinds[kind] = stat.kinds.get(kind, 0) + 1
        if isinstance(value, list):
            stats.setdefault(f"{path}[]" if path != "." else ".[]", Stat())
            stat.items.append(len(value))
            for item in value:
                visit(f"{path}[]" if path != "." else ".[]", item)
        elif isinstance(value, dict):
            keys = own.setdefault(path, [])
            for key, item in value.items():
                if key not in keys and len(keys) < 32:
                    keys.append(key)
                written = doc.dumps(key)[1:-1]
                name = (f".{key}" if plain(key) else f'."{written}"') if key in keys else ".\u2026"
                visit(name if path == "." else path + name, item)
        else:
            text = doc.dumps(value)
            if isinstance(value, str):
                stat.chars.append(len(text) - 2)
            if stat.values is not None:
                if len(text) > 32 or (text not in stat.values and len(stat.values) == 6):
                    stat.values = None
                else:
                    stat.values[text] = stat.values.get(text, 0) + 1

    for value in doc.values:
        visit(".", value)
    return [f"{path}: {describe(stat)}" for path, stat in stats.items() if stat.count]


def sections(out: str) -> tuple[str, list[str]]:
    """A summary's document, and its key path lines."""
    body = out.split("\n", 1)[1]
    document, _, paths = body.partition("key paths (exact counts):\n")
    # Lines end at "\n" only: a value may hold U+0085 or U+2028, which str.splitlines splits at.
    return document, [line for line in paths.split("\n") if line and not line.startswith("\u2026")]


@given(doc=documents(), budget=st.integers(400, 6000))
def test_key_paths_state_exact_counts(doc: Doc, budget: int) -> None:
    result = shapeclip.compress_detailed(doc.text, "bash", budget)
    assert len(result.text) <= budget
    if len(doc.text) <= budget:
        assert result.text == doc.text
        return
    assert result.shape == "json"
    if "summary" not in result.text.split("\n", 1)[0]:
        return
    shown = sections(result.text)[1]
    expected = [disarm(line) for line in reference_paths(doc)]
    assert shown == expected[: len(shown)]
    more = re.search(r"^\u2026([\d,]+) more key paths? not shown$", result.text, re.MULTILINE)
    assert (int(more.group(1).replace(",", "")) if more else 0) == len(expected) - len(shown)


# What a summary writes where it leaves something out.
CUT_STRING = re.compile(r'"((?:[^"\\]|\\.)*?)\u2026\+[\d,]+ chars?"')
ELISION = re.compile(r"\u2026\+?[\d,]+ (?:items?|keys?|documents?)(?: \[\d+(?:-\d+)?\])?(?:, lines? \d+(?:-\d+)?)?")
STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
NUMBER = re.compile(r"-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?")
LISTED = re.compile(r'("(?:[^"\\]|\\.)*"|[-\d][\d.eE+-]*|true|false|null) \u00d7[\d,]+')


def tokens(text: str) -> tuple[set[str], set[str]]:
    """The strings and the numbers of JSON text, as written."""
    strings = set(STRING.findall(text))
    return strings, set(NUMBER.findall(STRING.sub(" ", text)))


@given(doc=documents(), budget=st.integers(400, 6000))
def test_no_value_is_invented_or_rounded(doc: Doc, budget: int) -> None:
    out = shapeclip.compress(doc.text, "bash", budget)
    if out == doc.text or "summary" not in out.split("\n", 1)[0]:
        return
    source = disarm(doc.text)
    strings, numbers = tokens(source)
    document, paths = sections(out)
    for match in CUT_STRING.finditer(document):
        assert f'"{match.group(1)}' in source, match.group(0)
    rest = ELISION.sub(" ", CUT_STRING.sub(" null ", document))
    shown_strings, shown_numbers = tokens(rest)
    assert shown_strings <= strings, shown_strings - strings
    assert shown_numbers <= numbers, shown_numbers - numbers
    for line in paths:
        for value in LISTED.findall(line):
            assert value in strings or value in numbers or value in ("true", "false", "null"), value


def table_records(out: str) -> Iterator[dict[str, Any]]:
    lines = out.split("\n")
    header = lines[1]
    keys_text = re.fullmatch(r"\[\d+\]\{(.*)\}", header)
    assert keys_text, header
    written = re.findall(r'"(?:[^"\\]|\\.)*"|[^,]+', keys_text.group(1))
    keys = [json.loads(k) if k.startswith('"') else k for k in written]
    for row in lines[2:]:
        if row:
            yield dict(zip(keys, json.loads(f"[{row}]"), strict=True))


@given(doc=documents(), budget=st.integers(400, 20000))
def test_lossless_forms_give_back_the_input(doc: Doc, budget: int) -> None:
    out = shapeclip.compress(doc.text, "bash", budget)
    note, _, body = out.partition("\n")
    source = json.loads(disarm(json.dumps(doc.values)))
    if "minified" in note:
        shown = [json.loads(line) for line in body.split("\n") if line] if doc.lines else [json.loads(body)]
        assert shown == source
    elif "table" in note:
        records = source if doc.lines else source[0]
        assert list(table_records(out)) == records


@given(doc=documents(), budget=st.integers(1, 5000), data=st.data())
def test_stream_equals_one_shot(doc: Doc, budget: int, data: st.DataObject) -> None:
    assert_every_path_agrees(doc.text, "bash", budget, data.draw(split_points(len(doc.text))))


@given(doc=documents())
def test_json_that_fits_is_returned_as_it_is(doc: Doc) -> None:
    for tool in ("bash", "read_file", None):
        assert shapeclip.compress(doc.text, tool, len(doc.text)) == doc.text


def test_a_record_that_differs_is_shown_with_its_neighbours_counted() -> None:
    records = [{"id": i, "state": "running", "node": f"node-{i % 7}"} for i in range(2000)]
    records[1234]["state"] = "failed"
    records[1500]["error"] = {"code": 137, "reason": "OOMKilled"}
    text = json.dumps({"kind": "List", "items": records}, indent=2)
    result = shapeclip.compress_detailed(text, "kubectl", 4000)
    assert result.shape == "json" and len(result.text) <= 4000
    for i in (0, 1234, 1500, 1999):
        assert json.dumps(records[i], separators=(",", ":")) in result.text
    assert '.items[].state: "running" \u00d71,999, "failed" \u00d71\n' in result.text
    assert re.search(r"^\u2026[\d,]+ items \[\d+-\d+\], lines \d+-\d+$", result.text, re.MULTILINE)


def test_a_summary_with_no_room_for_its_key_paths_says_how_many_it_leaves_out() -> None:
    # The document took all the room at 400 characters, and the key paths went without a word.
    meta = {"id": [None, None], "[shapeclip: lines 1-2 omitted]": [None, None], "name": None}
    doc = {"meta": meta, "items": [{"id": 0, "state": "running", "v": None}] * 7, "labels": {}}
    text = json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
    out = shapeclip.compress(text, "bash", 400)
    assert out.startswith("[shapeclip: a JSON summary") and len(out) <= 400
    listed = sections(out)[1]
    more = re.search(r"^\u2026([\d,]+) more key paths? not shown$", out, re.MULTILINE)
    assert more is not None, out
    assert len(listed) + int(more.group(1)) == len(reference_paths(Doc([doc], 2, False)))
