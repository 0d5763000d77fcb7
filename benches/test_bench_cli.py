"""A 1 GB stream through `shapeclip -- CMD`, with the store (the CLI's default) and without
(`--no-store`): wall time and the CLI process's peak resident memory. With the store every
byte is also written to disk as it arrives, never held, so the peak must stay as bounded as
without; the time it adds is the cost of the way back.

    python -m pytest benches/test_bench_cli_store.py -s -p no:cacheprovider

The command is a Python process writing a generated build log (`gen_logs.build_log`, 1 MiB
repeated) until 1 GB. The peak is the CLI process's own high-water mark (`VmHWM`), read
while it runs: `wait4` would report the benchmark's own size, which a child started with
vfork inherits. The store's quota is raised to 2 GB (`SHAPECLIP_STORE_MAX_BYTES`) so that
the output is kept.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import pytest

GIGABYTE = 1_000_000_000
WRITER = f"""
import sys
from gen_logs import build_log
block, left = build_log(1 << 20).encode(), {GIGABYTE}
while left:
    left -= sys.stdout.buffer.write(block[:left])
"""


def high_water_kib(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/status") as status:
            return next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))
    except (OSError, StopIteration):  # gone, or a zombie without memory
        return None


def run_cli(store: Path, *flags: str) -> tuple[float, float, int]:
    """Seconds, peak resident MiB and output characters of one run."""
    cli = shutil.which("shapeclip", path=os.path.dirname(sys.executable))
    assert cli is not None, "the shapeclip command is installed beside this Python"
    benches = str(Path(__file__).parent)
    env = {**os.environ, "SHAPECLIP_STORE": str(store), "SHAPECLIP_STORE_MAX_BYTES": str(2 * GIGABYTE)}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [benches, env.get("PYTHONPATH")]))
    started = time.perf_counter()
    child = subprocess.Popen(
        [cli, "--tool", "bash", "--budget", "16000", *flags, "--", sys.executable, "-c", WRITER],
        stdout=subprocess.PIPE,
        env=env,
    )
    out: list[bytes] = []
    reader = threading.Thread(target=lambda: out.append(child.stdout.read() if child.stdout else b""))
    reader.start()
    peak = 0
    while child.poll() is None:
        peak = max(peak, high_water_kib(child.pid) or 0)
        time.sleep(0.02)
    reader.join()
    seconds = time.perf_counter() - started
    assert child.returncode == 0 and peak > 0
    return seconds, peak / 1024, len(out[0].decode())


@pytest.mark.parametrize("flags", [(), ("--no-store",)], ids=["store", "no-store"])
def test_a_gigabyte_through_the_cli(flags: tuple[str, ...]) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        store = Path(scratch) / "store"
        seconds, peak_mib, chars = run_cli(store, *flags)
        stored = sum(f.stat().st_size for f in store.glob("*.out")) if store.exists() else 0
    print(
        f"\n{flags[0] if flags else 'store'}: 1 GB in {seconds:.2f} s ({GIGABYTE / seconds / 1e6:,.0f} MB/s), "
        f"peak {peak_mib:.1f} MiB, {stored / 1e9:.2f} GB stored"
    )
    assert chars <= 16_000
    assert stored == (GIGABYTE if not flags else 0)
    assert peak_mib < 128
