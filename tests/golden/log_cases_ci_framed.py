"""Golden log cases framed the way CI shows them: a GitHub Actions step log and a Docker BuildKit build.

An agent often reads a test run through its CI system rather than a terminal: every line then has
a prefix the planner has to see past (a timestamp, a step number and the seconds since it began)
and the run sits between the system's own lines. Each case here runs a real tool on a project from
`log_cases_go_node.py` and frames every line it printed; the frame is all that is made up. The
scratch directory in the output is renamed to where the CI system would have checked the project
out, so paths read as they would there. Timestamps are computed from the line number, so a rerun
changes only what the tool itself printed. The signals are the tool's lines without their prefix.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path

from log_cases_go_node import GO_ENV, GO_LAST_LINE_PANICS, go_module, node_invoice_project
from scratch import run

ACTIONS_START = datetime(2026, 11, 23, 10, 15, 30, 123456)
ACTIONS_CHECKOUT = "/home/runner/work/invoice/invoice"
BUILDKIT_WORKDIR = "/src"


def actions_stamps(start: datetime, count: int) -> list[str]:
    """`count` increasing GitHub Actions timestamps (`2026-11-23T10:15:30.1234567Z`), a few ms apart."""
    stamps, at = [], start
    for i in range(count):
        at += timedelta(microseconds=317 + (i * 7919) % 4000)
        stamps.append(at.strftime("%Y-%m-%dT%H:%M:%S.%f") + f"{i % 10}Z")
    return stamps


def actions_step_log(command: str, output: str, exit_code: int) -> str:
    """The log of a job whose step `command` printed `output` and exited with `exit_code`."""
    lines = [
        "Current runner version: '2.321.0'",
        "##[group]Operating System",
        "Ubuntu",
        "24.04.1",
        "LTS",
        "##[endgroup]",
        "##[group]Runner Image",
        "Image: ubuntu-24.04",
        "Version: 20261117.1.0",
        "##[endgroup]",
        "##[group]GITHUB_TOKEN Permissions",
        "Contents: read",
        "Metadata: read",
        "##[endgroup]",
        "Secret source: Actions",
        "Prepare workflow directory",
        "Prepare all required actions",
        "Getting action download info",
        "Complete job name: test (20.x)",
        "##[group]Run actions/setup-node@v4",
        "with:",
        "  node-version: 20.x",
        "##[endgroup]",
        "Found in cache @ /opt/hostedtoolcache/node/20.20.2/x64",
        "Environment details",
        "  node: v20.20.2",
        "##[group]Run " + command,
        command,
        "shell: /usr/bin/bash -e {0}",
        "##[endgroup]",
        *output.splitlines(),
        f"##[error]Process completed with exit code {exit_code}.",
        "Post job cleanup.",
        "Cleaning up orphan processes",
    ]
    stamps = actions_stamps(ACTIONS_START, len(lines))
    return "".join(f"{stamp} {line}\n" for stamp, line in zip(stamps, lines, strict=True))


def github_actions_node_test_tap_one_failure_among_1000(root: Path) -> bytes:
    node_invoice_project(root)
    # In a CI step stdout is no terminal, so `node --test` reports in TAP, its default there.
    tap = run(["node", "--test"], root).decode().replace(str(root), ACTIONS_CHECKOUT)
    return actions_step_log("node --test", tap, 1).encode()


def buildkit_log(command: str, output: str, exit_code: int) -> str:
    """A `docker build --progress=plain` of a Go image whose last step, `RUN command`, printed `output`."""
    head = [
        '#0 building with "default" instance using docker driver',
        "",
        "#1 [internal] load build definition from Dockerfile",
        "#1 transferring dockerfile: 187B done",
        "#1 DONE 0.0s",
        "",
        "#2 [internal] load metadata for library/golang:1.19-bookworm",
        "#2 DONE 0.4s",
        "",
        "#3 [internal] load .dockerignore",
        "#3 transferring context: 2B done",
        "#3 DONE 0.0s",
        "",
        "#4 [1/4] FROM library/golang:1.19-bookworm",
        "#4 CACHED",
        "",
        "#5 [internal] load build context",
        "#5 transferring context: 41.06kB 0.0s done",
        "#5 DONE 0.0s",
        "",
        "#6 [2/4] WORKDIR /src",
        "#6 CACHED",
        "",
        "#7 [3/4] COPY . .",
        "#7 DONE 0.1s",
        "",
        f"#8 [4/4] RUN {command}",
    ]
    lines = output.splitlines()
    seconds = [0.284 + i * 0.0113 for i in range(len(lines))]
    failed = f'process "/bin/sh -c {command}" did not complete successfully: exit code: {exit_code}'
    tail = [
        f"#8 ERROR: {failed}",
        "------",
        f" > [4/4] RUN {command}:",
        *(f"{s:.3f} {line}" for s, line in zip(seconds[-10:], lines[-10:], strict=True)),
        "------",
        "Dockerfile:6",
        "--------------------",
        "   4 |     WORKDIR /src",
        "   5 |     COPY . .",
        f"   6 | >>> RUN {command}",
        "   7 |     ",
        "--------------------",
        f"ERROR: failed to solve: {failed}",
    ]
    body = [f"#8 {s:.3f} {line}" for s, line in zip(seconds, lines, strict=True)]
    return "\n".join([*head, *body, *tail]) + "\n"


def docker_buildkit_go_test_panic_in_one_of_12_packages(root: Path) -> bytes:
    go_module(root, GO_LAST_LINE_PANICS)
    out = run(["go", "test", "-v", "-count=1", "./..."], root, GO_ENV).decode()
    return buildkit_log("go test -v ./...", out.replace(str(root), BUILDKIT_WORKDIR), 1).encode()


CASES: tuple[Callable[[Path], bytes], ...] = (
    github_actions_node_test_tap_one_failure_among_1000,
    docker_buildkit_go_test_panic_in_one_of_12_packages,
)

#: case -> patterns of the lines that say why it failed, most telling first (see `make_log_goldens.py`).
SIGNALS: dict[str, tuple[str, ...]] = {
    "github_actions_node_test_tap_one_failure_among_1000": (
        r"Expected values to be strictly deep-equal:",
        r"\+   tax: 112,",
        r"-   tax: 110,",
        r"not ok \d+ - sums a mixed-rate invoice",
        r"location: '/home/runner/work/invoice/invoice/test/summary\.test\.mjs:\d+:\d+'",
        r"# fail 1",
        r"##\[error\]Process completed with exit code 1\.",
    ),
    "docker_buildkit_go_test_panic_in_one_of_12_packages": (
        r"panic: runtime error: index out of range \[1\] with length 1 \[recovered\]",
        r"--- FAIL: TestLastLine/one_item",
        r"/src/orders/lines\.go:\d+",
        r"FAIL\texample\.com/warehouse/orders\t",
        r'ERROR: failed to solve: process "/bin/sh -c go test -v \./\.\.\." did not complete successfully',
    ),
}
