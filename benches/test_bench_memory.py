"""Bounded memory: a multi-gigabyte stream goes through a `Compressor` in a child process whose
peak resident memory is measured. The input is never held whole (the child reuses one 1 MiB
block), and the child resets its peak (Linux `clear_refs`) once the block is built, so the
peak's growth over the resident size at that moment is what the compressor itself keeps.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

CHILD = r"""
import json, sys, time
import shapeclip
from gen_logs import build_log

def status_kib(field):
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith(field + ":"))

tool, gigabytes = sys.argv[1], float(sys.argv[2])
block = build_log(1 << 20).encode()
# A forked child inherits its parent's peak; start counting from here.
with open("/proc/self/clear_refs", "w") as refs:
    refs.write("5")
before = status_kib("VmRSS")
compressor = shapeclip.Compressor(tool, 16_000)
fed = 0
started = time.perf_counter()
while fed < gigabytes * 1e9:
    compressor.feed(block)
    fed += len(block)
result = compressor.finish_detailed()
seconds = time.perf_counter() - started
after = status_kib("VmHWM")
print(json.dumps({"bytes": fed, "seconds": seconds, "rss_before_kib": before, "rss_after_kib": after,
                  "chars": len(result.text), "shape": result.shape, "backend": result.backend}))
"""


@pytest.mark.parametrize("tool", ["bash", "read_file"])
def test_a_two_gigabyte_stream_runs_in_bounded_memory(tool: str) -> None:
    done = subprocess.run(
        [sys.executable, "-c", CHILD, tool, "2"], capture_output=True, text=True, check=True, cwd="benches"
    )
    facts = json.loads(done.stdout)
    growth_mib = (facts["rss_after_kib"] - facts["rss_before_kib"]) / 1024
    rate = facts["bytes"] / facts["seconds"] / 1e6
    peak_mib = facts["rss_after_kib"] / 1024
    print(f"\n{tool}: {facts['bytes'] / 1e9:.1f} GB streamed at {rate:,.0f} MB/s")
    print(f"peak resident memory {peak_mib:.1f} MiB, {growth_mib:.1f} MiB more than before streaming")
    assert facts["backend"] == "native" and facts["chars"] <= 16_000
    assert growth_mib < 64
