"""The store shared by several processes that store, read, evict and prune at once, under a
quota so small that every store evicts: a property test against what each process was told.

Whatever the interleaving, an ID a store returned reads back as exactly its output or as
evicted, never as other bytes; once all are done every output file on disk is a readable
entry (no output without its metadata), the counts are the files', and the quota holds.
"""

from __future__ import annotations

import fcntl
import multiprocessing
import os
import random
import time
from pathlib import Path

import pytest

from shapeclip.store import Evicted, Store
from shapeclip.store import writer as writer_module

QUOTA = 3_000
PROCESSES = 4
OPERATIONS = 250
# Few outputs, so that processes often store the same one while another evicts it.
TEXTS = [f"output {n}\n" * (20 + 7 * n) for n in range(10)]


def _orphaned(path: str, entry_id: str) -> bool:
    """Whether the entry's output is there without its metadata, seen under the store's lock,
    which is taken by every writer, eviction and prune."""
    lock = os.open(os.path.join(path, ".lock"), os.O_RDONLY | os.O_CREAT, 0o600)
    try:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return os.path.exists(os.path.join(path, entry_id + ".out")) and not os.path.exists(
            os.path.join(path, entry_id + ".json")
        )
    finally:
        os.close(lock)


def _work(path: str, seed: int) -> list[str]:
    """Random puts, gets and prunes; returns what went wrong, as text."""
    rename = os.rename

    def slow_rename(*args: object, **kwargs: object) -> None:
        # Widens the window between naming an entry and renaming its output in, where another
        # process's eviction used to fall (this child's os module only: the pool forks).
        time.sleep(0.0005)
        rename(*args, **kwargs)  # type: ignore[arg-type]

    pytest.MonkeyPatch().setattr(writer_module.os, "rename", slow_rename)
    store = Store(path, max_bytes=QUOTA)
    chance = random.Random(seed)
    given: dict[str, str] = {}
    problems = []
    for _ in range(OPERATIONS):
        roll = chance.random()
        if roll < 0.6:
            text = chance.choice(TEXTS)
            entry_id = store.put(text, "bash").id
            if given.setdefault(entry_id, text) != text:
                problems.append(f"{entry_id} named two outputs")
            try:
                store.entry(entry_id)
            except Evicted:
                if _orphaned(path, entry_id):
                    problems.append(f"{entry_id} was stored without its metadata")
        elif roll < 0.95 and given:
            entry_id = chance.choice(sorted(given))
            try:
                read = store.get(entry_id)
            except Evicted:
                continue
            if read != given[entry_id]:
                problems.append(f"{entry_id} read back other bytes")
        else:
            store.prune()
    return problems


def test_issue_27_item_9_processes_storing_evicting_and_pruning_at_once_leave_only_whole_entries(
    tmp_path: Path,
) -> None:
    path = str(tmp_path / "s")
    Store(path, max_bytes=QUOTA).put(TEXTS[0])
    with multiprocessing.get_context("fork").Pool(PROCESSES) as pool:
        problems = pool.starmap(_work, [(path, seed) for seed in range(PROCESSES)])
    assert [p for found in problems for p in found] == []
    store = Store(path, max_bytes=QUOTA)
    outputs = [name[: -len(".out")] for name in os.listdir(path) if name.endswith(".out")]
    unreadable = []
    for entry_id in outputs:
        try:
            assert store.get(entry_id) in TEXTS
        except Evicted:
            unreadable.append(entry_id)
    assert unreadable == []
    stats = store.stats()
    assert stats.entries == len(outputs) and stats.bytes <= QUOTA
    assert stats.bytes == sum(os.path.getsize(os.path.join(path, i + ".out")) for i in outputs)
    assert not [name for name in os.listdir(path) if name.startswith(".tmp-")]
