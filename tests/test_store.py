"""The store on its own: private files, no symlink followed, content addressing, several
processes at once, the quota, and never a partial entry."""

from __future__ import annotations

import json
import multiprocessing
import os
import stat
from pathlib import Path

import pytest

from helpers import twin_outputs
from shapeclip.store import Ambiguous, Evicted, Refused, Store, Unknown, default_path
from shapeclip.store import store as store_module
from shapeclip.store import writer as writer_module

TEXT = "".join(f"line {i}\n" for i in range(1, 201))


def mode(path: Path) -> int:
    return stat.S_IMODE(os.lstat(path).st_mode)


def test_entries_are_private_whatever_the_umask(tmp_path: Path) -> None:
    old = os.umask(0)
    try:
        store = Store(tmp_path / "a" / "store")
        entry = store.put(TEXT, "bash")
    finally:
        os.umask(old)
    assert mode(store.path) == 0o700
    assert mode(entry.path) == 0o600 and mode(entry.path.with_suffix(".json")) == 0o600
    # The lock file every writer, eviction and prune takes is private too.
    assert mode(store.path / ".lock") == 0o600
    assert sorted(os.listdir(store.path)) == [".lock", entry.id + ".json", entry.id + ".out"]
    assert entry.path.read_text() == TEXT and entry.tool == "bash" and entry.size == len(TEXT)


def test_same_output_same_id_str_or_bytes(tmp_path: Path) -> None:
    store = Store(tmp_path / "s")
    first = store.put(TEXT, "bash")
    again = store.put(TEXT.encode(), "other")
    assert first.id == again.id and len(first.id) == 12 and first.stored_at == again.stored_at
    assert again.tool == "bash"  # the entry is the first one, stored once
    assert Store(tmp_path / "t").put(TEXT).id == first.id


def test_a_taken_prefix_lengthens_the_id_deterministically(tmp_path: Path) -> None:
    store = Store(tmp_path / "s")
    sha = Store(tmp_path / "probe").put(TEXT).digest.partition(":")[2]
    store.put("warm up")  # the directory exists
    (store.path / (sha[:12] + ".json")).write_text(json.dumps({"sha256": "0" * 64}))
    entry = store.put(TEXT)
    assert entry.id == sha[:13]
    assert store.lines(entry.id, 1, 1) == ["line 1\n"]
    with pytest.raises(Evicted):
        store.get(sha[:12])  # the other entry's metadata, with no output
    assert store.put(TEXT).id == sha[:13]


def test_lines_and_get(tmp_path: Path) -> None:
    store = Store(tmp_path / "s")
    entry = store.put("a\nb\r\nc", "x")
    assert store.lines(entry.id, 1, 2) == ["a\n", "b\r\n"]
    assert store.lines(entry.id, 3, 99) == ["c"]
    assert store.lines(entry.id, 4, 9) == []
    assert store.get(entry.id) == "a\nb\r\nc"
    with pytest.raises(ValueError):
        store.lines(entry.id, 0, 3)
    assert store.put(b"bad \xff byte\n").path.read_bytes() == b"bad \xff byte\n"


@pytest.mark.parametrize("entry_id", ["", "abc", "../../etc/passwd", "ABCDEF012345", "0" * 65, "x" * 12])
def test_unknown_ids_are_evicted_never_paths(tmp_path: Path, entry_id: str) -> None:
    store = Store(tmp_path / "s")
    store.put(TEXT)
    with pytest.raises(Evicted, match="evicted; run the command again"):
        store.get(entry_id)


def test_a_symlinked_store_directory_is_refused(tmp_path: Path) -> None:
    real = tmp_path / "real"
    real.mkdir(mode=0o700)
    link = tmp_path / "link"
    link.symlink_to(real)
    with pytest.raises(Refused, match="symlink"):
        Store(link).put(TEXT)
    assert os.listdir(real) == []


def test_symlinked_entries_are_never_followed(tmp_path: Path) -> None:
    store = Store(tmp_path / "s")
    entry = store.put(TEXT)
    secret = tmp_path / "secret"
    secret.write_text("secret\n")
    entry.path.unlink()
    entry.path.symlink_to(secret)
    with pytest.raises(Evicted):
        store.get(entry.id)
    # A planted metadata symlink is someone else's name: the new entry takes a longer ID.
    sha = Store(tmp_path / "probe").put("other\n").digest.partition(":")[2]
    (store.path / (sha[:12] + ".json")).symlink_to(secret)
    assert store.put("other\n").id == sha[:13]
    assert secret.read_text() == "secret\n"


def test_hostile_directories_are_refused(tmp_path: Path) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    with pytest.raises(Refused, match="writable by other users"):
        Store(shared).put(TEXT)
    readable = tmp_path / "readable"
    readable.mkdir()
    readable.chmod(0o755)
    Store(readable).put(TEXT)
    assert mode(readable) == 0o700
    if os.geteuid() == 0:
        foreign = tmp_path / "foreign"
        foreign.mkdir(mode=0o700)
        os.chown(foreign, 12345, 12345)
        with pytest.raises(Refused, match="another user"):
            Store(foreign).put(TEXT)


def test_default_place_follows_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SHAPECLIP_STORE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert default_path() == tmp_path / "xdg" / "shapeclip"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/ignored")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert default_path() == tmp_path / "home" / ".cache" / "shapeclip"
    monkeypatch.setenv("SHAPECLIP_STORE", str(tmp_path / "mine"))
    assert Store().path == tmp_path / "mine"


def test_quota_evicts_least_recently_used_never_the_new_one(tmp_path: Path) -> None:
    store = Store(tmp_path / "s", max_bytes=250)
    a, b, c = (store.put(ch * 100) for ch in "abc")  # 300 bytes: a, the oldest, went
    assert [e.id for e in (b, c)] == [store.entry(b.id).id, store.entry(c.id).id]
    with pytest.raises(Evicted):
        store.entry(a.id)
    os.utime(b.path, (1, 1))
    os.utime(c.path, (2, 2))
    store.get(b.id)  # read: b is now the most recent
    d = store.put("d" * 100)
    assert {store.entry(x.id).id for x in (b, d)} == {b.id, d.id}
    with pytest.raises(Evicted):
        store.entry(c.id)
    big = store.put("e" * 240)  # alone it fits; everything else goes
    assert store.stats().entries == 1 and store.entry(big.id) == big


def test_an_output_over_the_quota_is_not_stored(tmp_path: Path) -> None:
    store = Store(tmp_path / "s", max_bytes=100)
    kept = store.put("k" * 50)
    with pytest.raises(Refused, match="quota"):
        store.put("x" * 101)
    assert sorted(os.listdir(store.path)) == sorted([".lock", kept.id + ".out", kept.id + ".json"])


def test_the_default_quota_follows_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SHAPECLIP_STORE_MAX_BYTES", raising=False)
    assert Store(tmp_path / "s").max_bytes == 500_000_000
    monkeypatch.setenv("SHAPECLIP_STORE_MAX_BYTES", "100")
    store = Store(tmp_path / "s")
    assert store.max_bytes == 100 and Store(tmp_path / "s", max_bytes=7).max_bytes == 7
    with pytest.raises(Refused, match="quota"):
        store.put("x" * 101)


@pytest.mark.parametrize("bad", ["0", "-5", "1e9", "500MB", "\u00b2"])
def test_issue_27_item_11_a_malformed_quota_warns_and_the_default_holds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, bad: str
) -> None:
    monkeypatch.setenv("SHAPECLIP_STORE_MAX_BYTES", bad)
    assert Store(tmp_path / "s").max_bytes == 500_000_000
    assert f"SHAPECLIP_STORE_MAX_BYTES must be a positive whole number of bytes, got {bad!r}" in caplog.text
    assert "using 500,000,000" in caplog.text


@pytest.mark.parametrize("bad", ["relative/store", "~nosuchuser/store"])
def test_issue_27_item_11_a_relative_store_path_warns_and_the_default_holds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, bad: str
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("SHAPECLIP_STORE", bad)
    assert default_path() == tmp_path / "xdg" / "shapeclip"
    assert f"SHAPECLIP_STORE must be an absolute path, got {bad!r}" in caplog.text
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("SHAPECLIP_STORE", "~/mine")
    assert default_path() == tmp_path / "home" / "mine"


def test_a_crash_before_the_rename_leaves_no_entry(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = Store(tmp_path / "s")
    store.put("warm up")

    def crash(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(writer_module.os, "rename", crash)
    with pytest.raises(KeyboardInterrupt):
        store.put(TEXT)
    monkeypatch.undo()
    sha = Store(tmp_path / "probe").put(TEXT).digest.partition(":")[2]
    with pytest.raises(Evicted):
        store.get(sha[:12])
    # A writer killed outright leaves its temporary file: never served, pruned once stale.
    (store.path / ".tmp-1-dead").write_text(TEXT[:10])
    os.utime(store.path / ".tmp-1-dead", (1, 1))
    # The metadata claimed before the crash stays, as an evicted entry's would.
    assert store.prune() == 1
    assert store.put(TEXT).id == sha[:12]


def _store_many(path: str, texts: list[str]) -> list[str]:
    store = Store(path)
    return [store.put(text, "bash").id for text in texts]


def test_several_processes_store_at_once(tmp_path: Path) -> None:
    path = str(tmp_path / "s")
    shared = [f"shared {i}\n" * 2000 for i in range(5)]
    jobs = [shared + [f"own {n} {i}\n" * 500 for i in range(5)] for n in range(4)]
    with multiprocessing.get_context("spawn").Pool(4) as pool:
        results = pool.starmap(_store_many, [(path, texts) for texts in jobs])
    store = Store(path)
    for texts, ids in zip(jobs, results, strict=True):
        for text, entry_id in zip(texts, ids, strict=True):
            assert store.get(entry_id) == text
    assert len({ids[0] for ids in results}) == 1
    assert store.stats().entries == 5 + 4 * 5
    assert not [name for name in os.listdir(path) if name.startswith(".tmp-")]


def test_clear_and_stats(tmp_path: Path) -> None:
    store = Store(tmp_path / "s")
    store.put("one")
    store.put("two")
    stats = store.stats()
    assert (stats.entries, stats.bytes, stats.path) == (2, 6, store.path)
    assert store.clear() == 4 and store.stats().entries == 0
    with pytest.raises(Refused):
        Store(tmp_path / "missing").stats()


@pytest.mark.parametrize("tool", ["t" * 5000, "\u5de5" * 800, "\U0001f527" * 2000])
def test_issue_27_item_8_a_long_tool_name_still_makes_a_readable_entry(tmp_path: Path, tool: str) -> None:
    store = Store(tmp_path / "s")
    entry = store.put(TEXT, tool)
    assert store.get(entry.id) == TEXT
    assert store.put(TEXT, tool).id == entry.id == entry.digest.partition(":")[2][:12]
    assert entry.tool is not None and tool.startswith(entry.tool) and store.entry(entry.id).tool == entry.tool


def test_issue_27_item_9_outputs_without_metadata_are_not_entries_and_prune_removes_them(tmp_path: Path) -> None:
    store = Store(tmp_path / "s")
    kept, orphan = store.put("kept\n"), store.put("orphan\n")
    (store.path / (orphan.id + ".json")).unlink()  # as an eviction racing a store used to leave it
    assert store.stats().entries == 1 and store.stats().bytes == len("kept\n")
    assert store.prune() == 1
    assert sorted(os.listdir(store.path)) == [".lock", kept.id + ".json", kept.id + ".out"]


def test_issue_27_item_10_clear_and_prune_that_cannot_remove_say_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    Store(tmp_path / "s").put("one\n")
    Store(tmp_path / "s").put("two\n")
    store = Store(tmp_path / "s", max_bytes=5)  # over its quota: prune has an entry to evict

    def refused(*args: object, **kwargs: object) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(store_module.os, "unlink", refused)
    for sweep in (store.prune, store.clear):
        with pytest.raises(Refused, match=r"removed 0 files from .*, but could not remove [24]: Permission denied"):
            sweep()
    monkeypatch.undo()
    assert store.stats().entries == 2
    # A store where the lock cannot be made (read-only, here a directory in its place) refuses.
    (store.path / ".lock").unlink()
    (store.path / ".lock").mkdir()
    for sweep in (store.prune, store.clear):
        with pytest.raises(Refused, match="cannot lock the store"):
            sweep()
    assert store.stats().entries == 2


def test_issue_27_item_5_ids_resolve_from_unique_prefixes_and_evicted_differs_from_unknown(tmp_path: Path) -> None:
    store = Store(tmp_path / "s", max_bytes=20)
    entries = [store.put(f"output {n}\n") for n in range(40)]  # 10 bytes each: two fit
    live = entries[-1]
    assert store.resolve(live.id) == store.resolve(live.id[:6]) == live.id
    with pytest.raises(Evicted):
        store.resolve(entries[0].id[:8])
    with pytest.raises(Unknown):
        store.resolve("0123456789ab")
    with pytest.raises(Unknown):
        store.resolve("xyz")
    first, second, shared = twin_outputs()
    twins = sorted(Store(tmp_path / "t").put(t).id for t in (first, second))
    with pytest.raises(Ambiguous) as ambiguous:
        Store(tmp_path / "t").resolve(shared)
    assert list(ambiguous.value.candidates) == twins
    assert str(ambiguous.value) == f"{shared} is the start of 2 IDs: {twins[0]}, {twins[1]}"


def test_an_output_is_stored_under_its_blake3_or_without_the_core_its_sha256(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import hashlib
    import sys

    import blake3

    entry = Store(tmp_path / "s").put(TEXT)
    assert entry.digest == "blake3:" + blake3.blake3(TEXT.encode()).hexdigest()
    assert entry.id == entry.digest.removeprefix("blake3:")[:12]
    monkeypatch.setitem(sys.modules, "shapeclip._core", None)  # its import now fails
    old = Store(tmp_path / "old").put(TEXT)
    assert old.digest == "sha256:" + hashlib.sha256(TEXT.encode()).hexdigest()
    assert old.id == old.digest.removeprefix("sha256:")[:12]


def test_entries_hashed_with_sha256_stay_readable_and_are_never_taken_for_blake3_ones(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sys

    with monkeypatch.context() as without_core:
        without_core.setitem(sys.modules, "shapeclip._core", None)
        old = Store(tmp_path / "s").put(TEXT)
    store = Store(tmp_path / "s")
    assert store.get(old.id) == TEXT and store.entry(old.id).digest == old.digest
    new = store.put(TEXT)
    assert new.digest.startswith("blake3:") and new.id != old.id and store.get(new.id) == TEXT
    # An entry whose metadata names a SHA-256 under the new output's ID is another output.
    other = Store(tmp_path / "t")
    other.put("warm up")
    (other.path / (new.id + ".json")).write_text(json.dumps({"sha256": new.digest.removeprefix("blake3:")}))
    assert other.put(TEXT).id == new.digest.removeprefix("blake3:")[:13]


def test_an_output_cut_short_or_grown_is_damaged_never_served(tmp_path: Path) -> None:
    store = Store(tmp_path / "s")
    cut, grown, fine = (store.put(f"{name}\n{TEXT}") for name in ("cut", "grown", "fine"))
    with cut.path.open("r+b") as file:
        file.truncate(100)
    with grown.path.open("ab") as file:
        file.write(b"more\n")
    for entry, size in ((cut, 100), (grown, grown.size + 5)):
        for read in (store.get, store.entry, lambda entry_id: store.lines(entry_id, 1, 2)):
            with pytest.raises(store_module.Damaged, match=f"its output has {size:,} bytes where {entry.size:,} were"):
                read(entry.id)
    # Listed, counted and pruned alike: what `show` calls damaged is no entry anywhere.
    assert [entry.id for entry in store.entries()] == [fine.id]
    assert (store.stats().entries, store.stats().bytes) == (1, fine.size)
    assert store.prune() == 4
    assert sorted(os.listdir(store.path)) == [".lock", fine.id + ".json", fine.id + ".out"]


def test_unreadable_metadata_makes_an_entry_damaged_not_evicted(tmp_path: Path) -> None:
    store = Store(tmp_path / "s")
    broken, fine = store.put("broken\n"), store.put("fine\n")
    meta = broken.path.with_suffix(".json")
    meta.write_text(meta.read_text()[:10])
    with pytest.raises(store_module.Damaged, match="its metadata is missing or cannot be read"):
        store.get(broken.id)
    assert [entry.id for entry in store.entries()] == [fine.id] and store.stats().entries == 1
    assert store.prune() == 2 and not broken.path.exists() and not meta.exists()
    with pytest.raises(Unknown):
        store.resolve(broken.id)
