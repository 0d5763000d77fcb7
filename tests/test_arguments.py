"""Bad arguments raise a clear error; nothing about the data ever does."""

from __future__ import annotations

import pytest

import shapeclip


@pytest.mark.parametrize("budget", ["100", 10.0, None, True])
def test_budget_of_the_wrong_type_is_a_type_error(budget: object) -> None:
    with pytest.raises(TypeError, match="budget must be an int"):
        shapeclip.compress("text", "bash", budget)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="budget must be an int"):
        shapeclip.Compressor("bash", budget)  # type: ignore[arg-type]


@pytest.mark.parametrize("budget", [0, -1, -(10**30)])
def test_budget_below_one_is_a_value_error(budget: int) -> None:
    with pytest.raises(ValueError, match="at least 1"):
        shapeclip.compress("text", "bash", budget)


@pytest.mark.parametrize("text", [None, 42, ["a"], bytearray(b"x"), memoryview(b"x")])
def test_text_of_another_type_is_a_type_error(text: object) -> None:
    with pytest.raises(TypeError, match="text must be str or bytes"):
        shapeclip.compress(text)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="chunk must be str or bytes"):
        shapeclip.Compressor().feed(text)  # type: ignore[arg-type]


def test_tool_name_of_another_type_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="tool_name must be a str or None"):
        shapeclip.compress("text", 3)  # type: ignore[arg-type]


def test_a_huge_budget_passes_everything_through() -> None:
    data = b"x\n" * 1000
    assert shapeclip.compress(data, "bash", 10**40) == data.decode()


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"\n",
        b"\x00" * 50_000,
        b"\xff\xfe\xfd" * 20_000,
        b"\r" * 60_000,
        b"progress 1%\rprogress 50%\rprogress 100%\n" * 3000,
        b"\x1b[31mred\x1b[0m\n" * 10_000,
        b"x" * 5_000_000,
    ],
    ids=["empty", "newline", "nul", "invalid-utf8", "cr-only", "progress", "ansi", "one-long-line"],
)
def test_bad_data_gives_a_valid_result_within_budget(backend: str, data: bytes) -> None:
    for budget in (1, 5, 80, 4000):
        out = shapeclip.compress(data, "bash", budget)
        assert len(out) <= budget
        out.encode("utf-8")
