"""Makes the log planner's golden files by running real programs on this machine.

Each case writes a small project into a scratch directory, runs a real tool on it (pytest -v and
pytest's default report, unittest (with logging), mypy --strict, gcc and g++ under make -k, yamllint, a Python
program that logs through a traceback, cargo test; and from sibling modules `go test`, `node
--test`, JUnit, RSpec, some inside a CI frame) and saves what the tool printed, stdout and
stderr interleaved as a terminal shows them, as `log/<name>.txt`. Then `compress(input, "bash",
budget)` for each budget in `BUDGETS` goes to `log/<name>.<budget>.expected`, which
`tests/test_golden_log.py` compares against.

A case with `SIGNALS` also gets `log/<name>.signals`: for each of its patterns, the first input line
it matches, from where it matches (so a CI frame's prefix is left out), one per line. These are the
lines that say why the run failed; `tests/test_golden_log_signals.py` checks that compressing keeps them.

    python tests/golden/make_log_goldens.py            # rerun the programs, then refresh
    python tests/golden/make_log_goldens.py --refresh  # only recompute the expected outputs and signals

The inputs are committed, so CI never needs the programs; rerunning them changes timings and
paths in the inputs, which is why `--refresh` exists. Paths are those of the scratch directory,
`/tmp/shapeclip-golden/<name>`.
"""

from __future__ import annotations

import argparse
import re
import shutil
import sys
from collections.abc import Callable
from pathlib import Path

import log_cases_ci_framed
import log_cases_go_node
import log_cases_jvm_ruby
from scratch import SCRATCH, run, write

import shapeclip

HERE = Path(__file__).resolve().parent / "log"
OTHER_ECOSYSTEMS = (log_cases_go_node, log_cases_jvm_ruby, log_cases_ci_framed)
BUDGETS = (4000, 16000)
TOOL = "bash"
#: Thirty item names of many lengths: pytest cuts each summary line at another place.
GROCERIES = """
    apple banana cherry dried_fig elderberry_jam fresh_ginger grapefruit honeydew_melon iceberg_lettuce
    jalapeno kale lime mango_chutney nectarine olive_oil_extra_virgin papaya quince red_onion spinach
    tomato_paste ugli_fruit vanilla_pod watermelon yam zucchini avocado blueberry_muffin coconut_milk
    date_syrup endive
"""


def pytest_verbose_one_failure_among_400(root: Path) -> bytes:
    write(
        root,
        {
            "shop/cart.py": """
                def total(prices, discount=0.0):
                    subtotal = sum(prices)
                    return round(apply_discount(subtotal, discount), 2)

                def apply_discount(amount, discount):
                    if not 0 <= discount < 1:
                        raise ValueError(f"discount out of range: {discount}")
                    return amount * (1 - discount)
            """,
            "tests/test_cart.py": """
                import pytest
                from shop.cart import total

                @pytest.mark.parametrize("n", range(399))
                def test_total_of_n_items(n):
                    assert total([1.0] * n) == n

                def test_full_discount_is_free():
                    assert total([10.0, 5.0], discount=1.0) == 0
            """,
            "conftest.py": "",
        },
    )
    return run([sys.executable, "-m", "pytest", "-v", "-p", "no:cacheprovider", "--color=yes", "tests"], root)


def pytest_short_summary_of_37_failures_of_two_kinds(root: Path) -> bytes:
    """pytest's default report of many failures: each failure's traceback, then a short summary
    that names each failed test again, its message cut to the terminal's width."""
    items = GROCERIES.split()
    prices = "\n".join(f"    {name!r}: {100 + 7 * i}," for i, name in enumerate(items))
    tests = "\n".join(
        f"def test_price_of_{name}():\n    assert price_in_cents({name!r}, quantity=3) == {3 * (100 + 7 * i)}\n"
        for i, name in enumerate(items)
    )
    formats = ["csv", "tab_separated", "json_lines", "fixed_width_columns", "semicolon", "pipe", "yaml", "xml"]
    parses = "\n".join(f"def test_parse_{f}_catalogue():\n    assert parse_catalogue({f!r}) == []\n" for f in formats)
    passing = "\n".join(
        f"def test_single_{i:03}():\n    assert price_in_cents({items[i % 30]!r}, quantity=1) == {100 + 7 * (i % 30)}\n"
        for i in range(200)
    )
    write(
        root,
        {
            "shop/pricing.py": f"""
PRICES = {{
{prices}
}}

def price_in_cents(item, quantity):
    # The discount for three or more applies one unit too early.
    unit = PRICES[item]
    return unit * quantity - (unit // 10 if quantity >= 3 else 0)

def parse_catalogue(kind):
    if kind not in ("csv",):
        raise ValueError(f"unsupported catalogue format: {{kind}}")
    return []
""",
            "tests/test_pricing.py": "from shop.pricing import parse_catalogue, price_in_cents\n\n\n"
            + tests
            + "\n"
            + parses
            + "\n"
            + passing,
            "conftest.py": "",
        },
    )
    return run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "tests"], root)


def unittest_one_failure_one_error_among_300(root: Path) -> bytes:
    cases = "\n".join(
        f"    def test_parse_{i:03}(self):\n"
        f"        self.assertEqual(parse_version('{i}.{i % 7}.{i % 3}'), ({i}, {i % 7}, {i % 3}))\n"
        for i in range(298)
    )
    write(
        root,
        {
            "version.py": """
                def parse_version(text):
                    major, minor, patch = text.split(".")
                    return int(major), int(minor), int(patch)
            """,
            "test_version.py": "import unittest\nfrom version import parse_version\n\n\n"
            "class TestParse(unittest.TestCase):\n" + cases + "\n"
            "    def test_prerelease(self):\n        self.assertEqual(parse_version('1.2.3rc1'), (1, 2, 3))\n\n"
            "    def test_two_parts(self):\n        self.assertEqual(parse_version('1.2'), (1, 2, 0))\n",
        },
    )
    return run([sys.executable, "-m", "unittest", "-v", "test_version"], root)


def unittest_verdicts_after_logged_warnings(root: Path) -> bytes:
    """`unittest -v` where the code under test logs a warning: the logging goes to stderr after
    the test's name, so each verdict (`ok`, `ERROR`) stands on a line of its own."""
    write(
        root,
        {
            "ledger.py": """
                import logging

                log = logging.getLogger("ledger")

                def share(amount, people):
                    log.warning("sharing %s among %s", amount, people)
                    return amount / people
            """,
            "test_ledger.py": """
                import unittest
                from ledger import share

                class TestShare(unittest.TestCase):
                    pass

                for n in range(60):
                    def check(self, n=n):
                        self.assertEqual(share(n * 6, n % 4), n * 6 / (n % 4 or 1))
                    setattr(TestShare, f"test_share_{n:02}", check)
            """,
        },
    )
    return run([sys.executable, "-m", "unittest", "-v", "test_ledger"], root)


def mypy_strict_on_untyped_sortedcontainers(root: Path) -> bytes:
    import sortedcontainers  # a dependency of hypothesis: real, untyped code

    shutil.copytree(Path(sortedcontainers.__file__).parent, root / "sortedcontainers")
    return run([sys.executable, "-m", "mypy", "--strict", "--no-incremental", "sortedcontainers"], root)


def gcc_make_warnings_then_an_error(root: Path) -> bytes:
    files = {}
    for i in range(40):
        files[f"src/unit{i:02}.c"] = f"""
            #include <string.h>
            int unit{i:02}_count(const char *s, int limit) {{
                int unused_{i};
                unsigned n = strlen(s);
                int i;
                for (i = 0; i < n; i++) {{
                    if (s[i] == 'x') limit--;
                }}
                return limit;
            }}
        """
    files["src/unit17.c"] = files["src/unit17.c"].replace("return limit;", "return limt;")
    objs = " ".join(f"build/unit{i:02}.o" for i in range(40))
    files["Makefile"] = (
        f"CFLAGS = -Wall -Wextra -O2\nall: libunits.a\nlibunits.a: {objs}\n\tar rcs $@ $^\n"
        "build/%.o: src/%.c\n\t@mkdir -p build\n\tgcc $(CFLAGS) -c $< -o $@\n"
    )
    write(root, files)
    return run(["make", "-k", "-j1"], root)


def yamllint_errors_and_warnings_under_120_files(root: Path) -> bytes:
    """yamllint's default report: each file's path, then its problems by line and column only.

    Needs yamllint (`pip install yamllint`) in this Python.
    """
    files = {}
    for i in range(120):
        replicas = "yes" if i % 3 == 0 else "2"
        image = f"registry.example.org/team/service-{i:02}:{'1.0.' + str(i) * (30 if i % 4 == 0 else 1)}"
        env = "".join(f"      - name: VAR_{k}\n        value: '{k}'   \n" for k in range(i % 5))
        files[f"deploy/service_{i:02}.yaml"] = (
            ("---\n" if i % 2 else "")
            + f"name: service-{i:02}\nreplicas: {replicas}\nspec:\n  containers:\n"
            + f"    - image: {image}\n      ports: [80,443]\n      env:\n{env}"
            + ("      debug: on\n" if i % 7 == 0 else "")
            + ("name: again\n" if i % 9 == 0 else "")
        )
    write(root, files)
    return run([sys.executable, "-m", "yamllint", "-f", "standard", "deploy"], root)


def gpp_make_template_errors_from_a_key_without_ordering(root: Path) -> bytes:
    files = {
        "include/sku.h": """
            #pragma once
            #include <string>
            struct Sku {
                std::string code;
                int variant;
            };
        """,
        "src/inventory.cpp": """
            #include <map>
            #include "sku.h"
            int stock_of(const Sku &sku) {
                static std::map<Sku, int> stock;
                return stock[sku];
            }
        """,
        "src/report.cpp": """
            #include <algorithm>
            #include <vector>
            #include "sku.h"
            void sort_skus(std::vector<Sku> &skus) {
                std::sort(skus.begin(), skus.end());
            }
        """,
    }
    for i in range(30):
        files[f"src/util{i:02}.cpp"] = f"""
            #include <string>
            std::string label_{i:02}(int n, unsigned limit) {{
                int unused_{i};
                for (int k = 0; k < limit; k++) n += k;
                return "label-{i}-" + std::to_string(n);
            }}
        """
    objs = " ".join(f"build/{name}.o" for name in ["inventory", "report", *(f"util{i:02}" for i in range(30))])
    files["Makefile"] = (
        f"CXXFLAGS = -Wall -Wextra -O1 -Iinclude\nall: libstore.a\nlibstore.a: {objs}\n\tar rcs $@ $^\n"
        "build/%.o: src/%.cpp\n\t@mkdir -p build\n\tg++ $(CXXFLAGS) -c $< -o $@\n"
    )
    write(root, files)
    return run(["make", "-k", "-j1"], root)


def python_traceback_buried_in_3000_log_lines(root: Path) -> bytes:
    write(
        root,
        {
            "worker.py": """
                import logging
                import sys

                logging.basicConfig(stream=sys.stdout, level=logging.INFO,
                                    format="%(levelname)s %(name)s: %(message)s")
                log = logging.getLogger("worker")
                PRICES = {f"sku-{i}": i * 1.5 for i in range(3000) if i != 1717}

                def price(sku):
                    try:
                        return PRICES[sku]
                    except KeyError as exc:
                        raise LookupError(f"no price for {sku}") from exc

                def handle(job):
                    return round(price(f"sku-{job}") * 1.2, 2)

                done = 0
                for job in range(3000):
                    try:
                        log.info("job %d: charged %.2f", job, handle(job))
                        done += 1
                    except LookupError:
                        log.exception("job %d failed", job)
                print(f"{done} of 3000 jobs done, {3000 - done} failed")
                sys.exit(1 if done < 3000 else 0)
            """
        },
    )
    return run([sys.executable, "worker.py"], root)


def cargo_test_one_panic_among_500(root: Path) -> bytes:
    tests = "\n".join(
        f"    #[test]\n    fn checksum_of_block_{i:02}() {{\n"
        f"        assert_eq!(checksum(&[{i % 256}u8; 4]), {i % 256 * 4});\n    }}\n"
        for i in range(499)
    )
    write(
        root,
        {
            "Cargo.toml": '[package]\nname = "blocks"\nversion = "0.1.0"\nedition = "2021"\n',
            "src/lib.rs": "pub fn checksum(bytes: &[u8]) -> u32 {\n    bytes.iter().map(|&b| u32::from(b)).sum()\n}\n\n"
            "pub fn block_at(blocks: &[Vec<u8>], i: usize) -> &[u8] {\n    &blocks[i]\n}\n\n"
            "#[cfg(test)]\nmod tests {\n    use super::*;\n\n" + tests + "\n"
            "    #[test]\n    fn last_block_is_found() {\n"
            "        let blocks = vec![vec![1u8], vec![2u8]];\n"
            "        assert_eq!(block_at(&blocks, blocks.len()), &[2u8]);\n    }\n}\n",
        },
    )
    return run(["cargo", "test", "--offline", "--target-dir", str(root / "target")], root)


CASES: dict[str, Callable[[Path], bytes]] = {
    f.__name__: f
    for f in (
        pytest_verbose_one_failure_among_400,
        pytest_short_summary_of_37_failures_of_two_kinds,
        unittest_one_failure_one_error_among_300,
        unittest_verdicts_after_logged_warnings,
        mypy_strict_on_untyped_sortedcontainers,
        gcc_make_warnings_then_an_error,
        yamllint_errors_and_warnings_under_120_files,
        gpp_make_template_errors_from_a_key_without_ordering,
        python_traceback_buried_in_3000_log_lines,
        cargo_test_one_panic_among_500,
        *(case for module in OTHER_ECOSYSTEMS for case in module.CASES),
    )
}
#: case -> patterns (regular expressions, searched in each line) of the lines that say why it failed,
#: the most telling first: a compressed output at budget 4000 should keep that one at least.
SIGNALS: dict[str, tuple[str, ...]] = {
    # gcc names the user's code only in the last line of an instantiation chain.
    "gpp_make_template_errors_from_a_key_without_ordering": (
        r"src/inventory\.cpp:\d+:\d+: +required from here",
        r"src/report\.cpp:\d+:\d+: +required from here",
        r"error: no match for .operator<. \(operand types are .const Sku. and .const Sku.\)",
    ),
    **{name: p for module in OTHER_ECOSYSTEMS for name, p in module.SIGNALS.items()},
}


def expected_path(name: str, budget: int) -> Path:
    return HERE / f"{name}.{budget}.expected"


def signal_lines(name: str, text: str) -> list[str]:
    """For each of the case's patterns, the first line it matches, from the match on, stripped."""
    lines = text.splitlines()
    found = []
    for pattern in SIGNALS[name]:
        match = next((m for line in lines if (m := re.search(pattern, line))), None)
        if match is None:
            sys.exit(f"{name}: no line matches the signal {pattern!r}; did the run fail as the case meant?")
        found.append(match.string[match.start() :].strip())
    return found


def refresh() -> None:
    """Recomputes every expected output, and the signals, from the committed inputs."""
    if shapeclip.backend() != "native":
        sys.exit("the native core is not built: expected outputs come from it")
    for source in sorted(HERE.glob("*.txt")):
        data = source.read_bytes()
        if source.stem in SIGNALS:
            signals = signal_lines(source.stem, data.decode("utf-8"))
            (HERE / f"{source.stem}.signals").write_text("".join(s + "\n" for s in signals), encoding="utf-8")
        for budget in BUDGETS:
            text = shapeclip.compress(data, TOOL, budget)
            expected_path(source.stem, budget).write_text(text, encoding="utf-8", newline="")
            print(f"{source.stem}.{budget}: {len(data):,} bytes -> {len(text):,} chars")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--refresh", action="store_true", help="only recompute the expected outputs")
    parser.add_argument("cases", nargs="*", help="rerun only these cases (default: all)")
    args = parser.parse_args()
    if not args.refresh:
        HERE.mkdir(parents=True, exist_ok=True)
        for name in args.cases or CASES:
            root = SCRATCH / name
            shutil.rmtree(root, ignore_errors=True)
            root.mkdir(parents=True)
            (HERE / f"{name}.txt").write_bytes(CASES[name](root))
    refresh()


if __name__ == "__main__":
    main()
