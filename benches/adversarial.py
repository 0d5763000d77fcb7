"""Adversarial inputs for the worst-case benchmark, each aimed at one planner's costliest path.

Every generator writes about `size` bytes of UTF-8 and depends only on `size`, so every run
times the same text. Run as a script to write one to a file:
`python benches/adversarial.py all_errors 100MB out.log`.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from itertools import count

from gen_logs import parse_size


def _fill(size: int, lines: Iterator[str]) -> str:
    """Lines from `lines` until `size` bytes (counted in UTF-8) are reached."""
    parts: list[str] = []
    total = 0
    for line in lines:
        parts.append(line)
        total += len(line.encode())
        if total >= size:
            break
    return "".join(parts)


def _letters(n: int) -> str:
    """`n` written in base 26 with the letters a-z: a word that no other `n` shares."""
    word = ""
    while True:
        n, digit = divmod(n, 26)
        word = chr(97 + digit) + word
        if n == 0:
            return word


def near_rows(size: int) -> Iterator[str]:
    """Lines like `p7-1-a-1-a-…`, 256 bytes: a `-NN-` every four bytes could end a context row's
    path (issue 11, defect 5; see test_bench_near_rows.py)."""
    body = "-1-a" * 60 + "\n"
    return (f"p{i}{body}" for i in count())


def all_errors(size: int) -> Iterator[str]:
    """Every line a compiler error, each at its own place: an error block per line."""
    return (
        f"src/mod{i % 97}/file{i}.c:{i % 5000 + 1}:{i % 80 + 1}: error: '{_letters(i)}' undeclared\n" for i in count()
    )


def distinct_templates(size: int) -> Iterator[str]:
    """Compiler warnings whose words differ (not only their numbers, names or paths): a new
    dedup template per line, far past the table's cap, with an error now and then to make it
    a log."""
    for i in count():
        yield f"src/m{i % 97}.c:{i % 900 + 1}:5: warning: {_letters(i)} shadows {_letters(i * 7 + 3)} [-Wshadow]\n"
        if i % 10_000 == 0:
            yield f"src/m{i % 97}.c:3:1: error: expected ';' before '}}' token\n"


def one_huge_line(size: int) -> Iterator[str]:
    """A single line of words, no newline at all (a minified file, a base64 blob)."""
    yield ("lorem ipsum dolor sit amet, " * (size // 28 + 1))[:size]


def many_tiny_files(size: int) -> Iterator[str]:
    """One grep match in each of millions of files in a wide tree: the roll-up's worst case."""
    return (f"d{i % 97}/s{i % 13}/f{i}.py:1:x\n" for i in count())


def deep_traces(size: int) -> Iterator[str]:
    """Python tracebacks of a thousand frames each, one after another: traces far past a
    block's line cap."""
    frames = "".join(f'  File "/srv/app/m{j}.py", line {j + 1}, in f{j}\n    g{j}()\n' for j in range(1000))
    return (
        f"Traceback (most recent call last):\n{frames}RecursionError: maximum recursion depth {i}\n" for i in count()
    )


def non_ascii(size: int) -> Iterator[str]:
    """CJK, accented and emoji text in lines of varied length, a few of them errors."""
    words = [
        "\u6784\u5efa",
        "\u6d4b\u8bd5",
        "caf\u00e9",
        "na\u00efve",
        "\U0001f600",
        "\u0437\u0430\u043f\u0443\u0441\u043a",
        "e\u0301",
    ]
    for i in count():
        line = " ".join(words[(i + k) % len(words)] for k in range(i % 17 + 3))
        # The error leads its line, as a log reports one (a word deep in a sentence does not).
        yield f"\u9519\u8bef: error {i}: {line}\n" if i % 500 == 0 else f"{line}\n"


#: Each input, the tool that routes it to the planner it aims at, and its generator.
INPUTS: dict[str, tuple[str, Callable[[int], Iterator[str]]]] = {
    "near_rows": ("grep", near_rows),
    "all_errors": ("bash", all_errors),
    "distinct_templates": ("bash", distinct_templates),
    "one_huge_line": ("bash", one_huge_line),
    "many_tiny_files": ("grep", many_tiny_files),
    "deep_traces": ("bash", deep_traces),
    "non_ascii": ("bash", non_ascii),
}


def generate(name: str, size: int) -> str:
    return _fill(size, INPUTS[name][1](size))


if __name__ == "__main__":
    name, size, out = sys.argv[1], parse_size(sys.argv[2]), sys.argv[3]
    with open(out, "w", encoding="utf-8") as f:
        f.write(generate(name, size))
