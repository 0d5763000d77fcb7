"""Golden log cases from Go and Node: `go test` over a module of many packages, `node --test`.

Each case writes a small project with many passing tests and one injected failure, runs the real
tool on it and returns what it printed (see `make_log_goldens.py`). `SIGNALS` says, per case, which
lines carry the failure's reason. Go runs with `GOPROXY=off`: the module has no dependencies.
The project builders are shared with `log_cases_ci_framed.py`, which runs them inside a CI frame.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from string import Template
from textwrap import dedent

from scratch import run, write

GO_ENV = {"GOPROXY": "off", "GOFLAGS": "-mod=mod", "CGO_ENABLED": "0"}
GO_PACKAGES = (
    "auth", "customers", "discounts", "invoices", "orders", "pricing",
    "reports", "returns", "shipping", "stock", "suppliers", "tax",
)  # fmt: skip


GO_PACKAGE = Template(
    dedent("""
        // Package $name formats and checks the keys of $name records.
        package $name

        import "fmt"

        // Key is the printable key of record id.
        func Key(id int) string { return fmt.Sprintf("$prefix-%05d", id) }

        // Checksum is the sum of the bytes of s.
        func Checksum(s string) int {
        \tsum := 0
        \tfor i := 0; i < len(s); i++ {
        \t\tsum += int(s[i])
        \t}
        \treturn sum
        }
    """)
)
GO_PACKAGE_TEST = Template(
    dedent("""
        package $name

        import "testing"

        func TestKey(t *testing.T) {
        \tcases := []struct {
        \t\tname string
        \t\tid   int
        \t\twant string
        \t}{
        $keys
        \t}
        \tfor _, c := range cases {
        \t\tt.Run(c.name, func(t *testing.T) {
        \t\t\tif got := Key(c.id); got != c.want {
        \t\t\t\tt.Errorf("Key(%d) = %q, want %q", c.id, got, c.want)
        \t\t\t}
        \t\t})
        \t}
        }

        func TestChecksum(t *testing.T) {
        \tt.Logf("checking %d words against precomputed sums", 20)
        \tcases := []struct {
        \t\tname string
        \t\tword string
        \t\twant int
        \t}{
        $sums
        \t}
        \tfor _, c := range cases {
        \t\tt.Run(c.name, func(t *testing.T) {
        \t\t\tif got := Checksum(c.word); got != c.want {
        \t\t\t\tt.Errorf("Checksum(%q) = %d, want %d", c.word, got, c.want)
        \t\t\t}
        \t\t})
        \t}
        }
    """)
)


def go_package(name: str, prefix: str) -> dict[str, str]:
    """A package with a key formatter and a checksum, tested by two tables of 20 subtests each."""
    keys = "\n".join(f'\t\t{{"id_{i:03}", {i * 7}, "{prefix}-{i * 7:05}"}},' for i in range(20))
    sums = "\n".join(f'\t\t{{"word_{i:02}", "{prefix}{i}", {sum(map(ord, f"{prefix}{i}"))}}},' for i in range(20))
    return {
        f"{name}/{name}.go": GO_PACKAGE.substitute(name=name, prefix=prefix),
        f"{name}/{name}_test.go": GO_PACKAGE_TEST.substitute(name=name, keys=keys, sums=sums),
    }


def go_module(root: Path, failing: dict[str, str], packages: tuple[str, ...] = GO_PACKAGES) -> None:
    """Writes module example.com/warehouse with one package per name, then `failing`'s files over them."""
    files = {"go.mod": "module example.com/warehouse\n\ngo 1.19\n"}
    for name in packages:
        files.update(go_package(name, name[:3].upper()))
    write(root, files | failing)


GO_ROUND_CENTS = {
    "pricing/cents.go": """
        package pricing

        // Cents is amount in whole cents, rounded half away from zero.
        func Cents(amount float64) int64 { return int64(amount * 100) }
    """,
    "pricing/cents_test.go": """
        package pricing

        import "testing"

        func TestCents(t *testing.T) {
        \tfor _, c := range []struct {
        \t\tname   string
        \t\tamount float64
        \t\twant   int64
        \t}{
        \t\t{"zero", 0, 0},
        \t\t{"quarter", 0.25, 25},
        \t\t{"whole", 3, 300},
        \t\t{"one_fifteen", 1.15, 115},
        \t\t{"large", 1024.5, 102450},
        \t} {
        \t\tt.Run(c.name, func(t *testing.T) {
        \t\t\tif got := Cents(c.amount); got != c.want {
        \t\t\t\tt.Errorf("Cents(%v) = %d, want %d", c.amount, got, c.want)
        \t\t\t}
        \t\t})
        \t}
        }
    """,
}


GO_LAST_LINE_PANICS = {
    "orders/lines.go": """
        package orders

        import "strings"

        // LastLine is the last of the order's item lines.
        func LastLine(order string) string {
        \tlines := strings.Split(strings.TrimSpace(order), "\\n")
        \treturn lines[len(lines)]
        }
    """,
    "orders/lines_test.go": """
        package orders

        import "testing"

        func TestLastLine(t *testing.T) {
        \tfor _, c := range []struct{ name, order, want string }{
        \t\t{"one_item", "2x bolt", "2x bolt"},
        \t\t{"three_items", "2x bolt\\n1x nut\\n5x washer", "5x washer"},
        \t} {
        \t\tt.Run(c.name, func(t *testing.T) {
        \t\t\tif got := LastLine(c.order); got != c.want {
        \t\t\t\tt.Errorf("LastLine(%q) = %q, want %q", c.order, got, c.want)
        \t\t\t}
        \t\t})
        \t}
        }
    """,
}

#: A pool whose Close never closes the job channel, so Wait blocks until `go test -timeout` fires.
GO_POOL_NEVER_DRAINS = {
    "queue/pool.go": """
        // Package queue runs jobs on a fixed pool of workers.
        package queue

        import "sync"

        type Pool struct {
        \tjobs chan func()
        \twg   sync.WaitGroup
        }

        func NewPool(workers int) *Pool {
        \tp := &Pool{jobs: make(chan func())}
        \tfor i := 0; i < workers; i++ {
        \t\tp.wg.Add(1)
        \t\tgo p.work()
        \t}
        \treturn p
        }

        func (p *Pool) work() {
        \tdefer p.wg.Done()
        \tfor job := range p.jobs {
        \t\tjob()
        \t}
        }

        func (p *Pool) Submit(job func()) { p.jobs <- job }

        // Close waits for the submitted jobs to finish.
        func (p *Pool) Close() { p.wg.Wait() }
    """,
    "queue/pool_test.go": """
        package queue

        import (
        \t"sync/atomic"
        \t"testing"
        )

        func TestPoolRunsEveryJob(t *testing.T) {
        \tp := NewPool(120)
        \tvar done int64
        \tfor i := 0; i < 1000; i++ {
        \t\tp.Submit(func() { atomic.AddInt64(&done, 1) })
        \t}
        \tp.Close()
        \tif done != 1000 {
        \t\tt.Fatalf("ran %d jobs, want 1000", done)
        \t}
        }
    """,
}


def go_test_verbose_one_failing_subtest_among_12_packages(root: Path) -> bytes:
    go_module(root, GO_ROUND_CENTS)
    return run(["go", "test", "-v", "-count=1", "./..."], root, GO_ENV)


def go_test_timeout_goroutine_dump_in_one_of_9_packages(root: Path) -> bytes:
    go_module(root, GO_POOL_NEVER_DRAINS, GO_PACKAGES[:8])
    return run(["go", "test", "-count=1", "-timeout=3s", "./..."], root, GO_ENV)


NODE_INVOICE = """
    // Invoice arithmetic in integer cents, tax rounded per line.
    export const cents = (amount) => Math.round(amount * 100);

    export function lineTotal({ qty, price, rate }) {
      const net = cents(qty * price);
      return { net, tax: Math.floor(net * rate) };
    }

    export function summarize(lines) {
      const totals = lines.map(lineTotal);
      const net = totals.reduce((sum, t) => sum + t.net, 0);
      const tax = totals.reduce((sum, t) => sum + t.tax, 0);
      return { count: lines.length, net, tax, total: net + tax };
    }
"""


def node_invoice_project(root: Path) -> None:
    """An invoice module with 1,000 tests in 10 files, one of them wrong about rounding the tax."""
    files = {
        "package.json": '{ "name": "invoice", "type": "module", "private": true }\n',
        "src/invoice.mjs": NODE_INVOICE,
    }
    for f in range(10):
        rate = (5, 7, 10, 12, 19, 20, 21, 23, 25, 8)[f] / 100
        cases = "\n".join(
            f"  it('line of {q} at {p / 4:.2f}', () => {{\n"
            f"    assert.deepStrictEqual(lineTotal({{ qty: {q}, price: {p / 4}, rate: {rate} }}),"
            f" {{ net: {q * p * 25}, tax: {q * p * 25 * rate // 1:.0f} }});\n  }});"
            for q in range(1, 11)
            for p in range(1, 11)
        )
        files[f"test/rate_{round(rate * 100):02}.test.mjs"] = (
            "import { describe, it } from 'node:test';\nimport assert from 'node:assert/strict';\n"
            f"import {{ lineTotal }} from '../src/invoice.mjs';\n\ndescribe('lines taxed at {rate:.0%}', () => {{\n"
            f"{cases}\n}});\n"
        )
    files["test/summary.test.mjs"] = """
        import { describe, it } from 'node:test';
        import assert from 'node:assert/strict';
        import { summarize } from '../src/invoice.mjs';

        describe('summarize', () => {
          it('sums a mixed-rate invoice', () => {
            const lines = [
              { qty: 3, price: 1.15, rate: 0.19 },
              { qty: 1, price: 4.99, rate: 0.07 },
              { qty: 2, price: 0.35, rate: 0.19 },
            ];
            assert.deepStrictEqual(summarize(lines), { count: 3, net: 914, tax: 110, total: 1024 });
          });
        });
    """
    write(root, files)


def node_test_spec_one_failing_deep_equal_among_1000(root: Path) -> bytes:
    node_invoice_project(root)
    return run(["node", "--test", "--test-reporter=spec"], root)


CASES: tuple[Callable[[Path], bytes], ...] = (
    go_test_verbose_one_failing_subtest_among_12_packages,
    go_test_timeout_goroutine_dump_in_one_of_9_packages,
    node_test_spec_one_failing_deep_equal_among_1000,
)

#: case -> patterns of the lines that say why it failed, most telling first (see `make_log_goldens.py`).
SIGNALS: dict[str, tuple[str, ...]] = {
    "go_test_verbose_one_failing_subtest_among_12_packages": (
        r"cents_test\.go:\d+: Cents\(1\.15\) = 114, want 115",
        r"--- FAIL: TestCents/one_fifteen",
        r"^FAIL\texample\.com/warehouse/pricing\t",
    ),
    "go_test_timeout_goroutine_dump_in_one_of_9_packages": (
        r"panic: test timed out after 3s",
        r"example\.com/warehouse/queue\.TestPoolRunsEveryJob\(",
        r"/\S+/queue/pool_test\.go:\d+",
        r"^FAIL\texample\.com/warehouse/queue\t",
    ),
    "node_test_spec_one_failing_deep_equal_among_1000": (
        r"AssertionError \[ERR_ASSERTION\]: Expected values to be strictly deep-equal:",
        r"\+   tax: 112,",
        r"-   tax: 110,",
        r"✖ sums a mixed-rate invoice",
        r"at TestContext\.<anonymous> \(file://\S+/summary\.test\.mjs:\d+:\d+\)",
        "\N{INFORMATION SOURCE} fail 1",
    ),
}
