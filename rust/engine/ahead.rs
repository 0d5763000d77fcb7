//! Preparing a chunk's blocks on two cores while the sink reads them in order.
//!
//! A block's preparation (decoding, counting, the sink's look-ahead) needs only its own text;
//! the sink's work needs every block before it. So a helper thread prepares blocks ahead of
//! the reader, and the reader prepares one itself whenever the block it needs next is not
//! ready and one is left unclaimed: whichever side is slower, both cores stay busy and the
//! blocks reach the sink in order, exactly as if one thread had done it all.
//!
//! Hand-overs wait on a condition variable only when one side truly has nothing to do, since
//! waking a sleeping thread on a virtual machine can take longer than preparing a block.
//! Memory stays bounded: nobody claims a block more than [`AHEAD_BLOCKS`] past the next one
//! the sink is to read. A panic on the helper is not lost work: the reader prepares what the
//! helper left, and a panic there reaches the caller as it would have without the helper.

use std::panic::{self, AssertUnwindSafe};
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};

use super::prepare::{Prepared, prepare};
use crate::sink::Lookahead;

/// Blocks that may be claimed past the next one the sink is to read.
const AHEAD_BLOCKS: usize = 16;

/// What both threads share, under one lock.
struct State<'a, F> {
    /// Blocks before this one are claimed: prepared, or being prepared.
    claimed: usize,
    /// The next block the sink is to read.
    next: usize,
    /// Prepared blocks not yet read, by index.
    ready: Vec<Option<Prepared<'a, F>>>,
    /// The helper has stopped, after its last block or in a panic.
    helper_gone: bool,
    /// The reader has stopped early: it is unwinding.
    reader_gone: bool,
}

struct Shared<'a, F> {
    state: Mutex<State<'a, F>>,
    /// Signalled when a block is ready, when room to claim opens up, or when a side stops.
    changed: Condvar,
}

impl<'a, F> Shared<'a, F> {
    fn lock(&self) -> MutexGuard<'_, State<'a, F>> {
        // Nothing panics while the lock is held, but a poisoned lock must not hide the state.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn wait<'g>(&self, guard: MutexGuard<'g, State<'a, F>>) -> MutexGuard<'g, State<'a, F>> {
        self.changed
            .wait(guard)
            .unwrap_or_else(PoisonError::into_inner)
    }

    /// Stores a prepared block and wakes whoever may be waiting for it.
    fn put(&self, index: usize, prepared: Prepared<'a, F>) {
        self.lock().ready[index] = Some(prepared);
        self.changed.notify_all();
    }

    /// Marks a side as stopped when dropped, however it stops, so the other never waits for it.
    fn on_stop(&self, helper: bool) -> StopGuard<'_, 'a, F> {
        StopGuard {
            shared: self,
            helper,
        }
    }
}

struct StopGuard<'s, 'a, F> {
    shared: &'s Shared<'a, F>,
    helper: bool,
}

impl<F> Drop for StopGuard<'_, '_, F> {
    fn drop(&mut self) {
        let mut state = self.shared.lock();
        if self.helper {
            state.helper_gone = true;
        } else {
            state.reader_gone = true;
        }
        drop(state);
        self.shared.changed.notify_all();
    }
}

/// Prepares `blocks` (of whole lines, see [`prepare_lines`]) on this thread and a helper, and
/// hands each to `read` in order. Returns false, with nothing read, when no thread could be
/// started.
pub(super) fn read_prepared<'a, L: Lookahead>(
    blocks: &[&'a [u8]],
    valid: bool,
    look: &L,
    mut read: impl FnMut(Prepared<'a, L::Found>),
) -> bool {
    let shared = Shared {
        state: Mutex::new(State {
            claimed: 0,
            next: 0,
            ready: blocks.iter().map(|_| None).collect(),
            helper_gone: false,
            reader_gone: false,
        }),
        changed: Condvar::new(),
    };
    std::thread::scope(|scope| {
        let helper = std::thread::Builder::new()
            .name("shapeclip-ahead".into())
            .spawn_scoped(scope, || {
                let _stop = shared.on_stop(true);
                // A panic stops only the helper: the reader prepares the rest.
                let _ =
                    panic::catch_unwind(AssertUnwindSafe(|| help(&shared, blocks, valid, look)));
            });
        if helper.is_err() {
            return false;
        }
        let _stop = shared.on_stop(false);
        for index in 0..blocks.len() {
            read(take_or_prepare(&shared, index, blocks, valid, look));
        }
        true
    })
}

/// Prepares a block that starts at a line's start, as every block here does: the reader
/// passes the rest of a line begun in an earlier block on by itself.
fn prepare_lines<'a, L: Lookahead>(
    block: &'a [u8],
    valid: bool,
    look: &L,
) -> Prepared<'a, L::Found> {
    prepare(block, valid, false, look)
}

/// The helper's loop: claim the next block while there is room, prepare it, store it.
fn help<'a, L: Lookahead>(
    shared: &Shared<'a, L::Found>,
    blocks: &[&'a [u8]],
    valid: bool,
    look: &L,
) {
    loop {
        let mut state = shared.lock();
        while state.claimed < blocks.len()
            && state.claimed >= state.next + AHEAD_BLOCKS
            && !state.reader_gone
        {
            state = shared.wait(state);
        }
        if state.claimed == blocks.len() || state.reader_gone {
            return;
        }
        let index = state.claimed;
        state.claimed += 1;
        drop(state);
        shared.put(index, prepare_lines(blocks[index], valid, look));
    }
}

/// Block `index` prepared: taken from the helper when ready, else prepared here. While the
/// helper is still on it, this thread prepares a later block instead of waiting idle.
fn take_or_prepare<'a, L: Lookahead>(
    shared: &Shared<'a, L::Found>,
    index: usize,
    blocks: &[&'a [u8]],
    valid: bool,
    look: &L,
) -> Prepared<'a, L::Found> {
    let mut state = shared.lock();
    let ready = loop {
        if let Some(prepared) = state.ready[index].take() {
            break Some(prepared);
        }
        // Every block before `index` was read, so `claimed >= index`; if equal, `index` is
        // nobody's yet.
        if state.claimed == index {
            state.claimed += 1;
            break None;
        }
        if state.helper_gone {
            break None; // the helper stopped (in a panic) before it was done with it
        }
        if state.claimed < blocks.len() && state.claimed < index + AHEAD_BLOCKS {
            let later = state.claimed;
            state.claimed += 1;
            drop(state);
            let prepared = prepare_lines(blocks[later], valid, look);
            state = shared.lock();
            state.ready[later] = Some(prepared);
            continue;
        }
        state = shared.wait(state);
    };
    state.next = index + 1;
    drop(state);
    shared.changed.notify_all(); // room for the helper to claim one more
    ready.unwrap_or_else(|| prepare_lines(blocks[index], valid, look))
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

    use super::*;

    /// Finds a block's length and its count of `'x'`, and panics where `fail` says.
    struct CountX {
        fail: fn(&str) -> bool,
    }

    impl Lookahead for CountX {
        type Found = (usize, usize);
        fn look(&self, text: &str) -> (usize, usize) {
            assert!(!(self.fail)(text), "a look that fails");
            (text.len(), text.matches('x').count())
        }
    }

    fn texts(n: usize) -> Vec<String> {
        (0..n)
            .map(|i| "x".repeat(i % 7) + &"y".repeat(i % 5) + "\n")
            .collect()
    }

    /// What each block looked like when read, in the order it was read.
    fn read_all(texts: &[String], look: &CountX) -> Vec<(String, (usize, usize))> {
        let blocks: Vec<&[u8]> = texts.iter().map(String::as_bytes).collect();
        let mut seen = Vec::new();
        let started = read_prepared(&blocks, true, look, |p| {
            seen.push((p.text.into_owned(), p.found));
        });
        assert!(started);
        seen
    }

    fn expected(texts: &[String]) -> Vec<(String, (usize, usize))> {
        texts
            .iter()
            .map(|t| (t.clone(), (t.len(), t.matches('x').count())))
            .collect()
    }

    #[test]
    fn blocks_arrive_in_order_with_what_was_found_in_them() {
        for n in [0, 1, 2, AHEAD_BLOCKS, AHEAD_BLOCKS + 1, 500] {
            let texts = texts(n);
            assert_eq!(
                read_all(&texts, &CountX { fail: |_| false }),
                expected(&texts)
            );
        }
    }

    #[test]
    fn a_panic_on_the_helper_loses_no_block() {
        static HELPER_FAILED: AtomicBool = AtomicBool::new(false);
        let on_helper = |_: &str| {
            let helper = std::thread::current().name() == Some("shapeclip-ahead");
            HELPER_FAILED.fetch_or(helper, Ordering::Relaxed);
            if !helper {
                // Slow enough that the helper surely starts before the reader is done.
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
            helper
        };
        let texts = texts(100);
        assert_eq!(
            read_all(&texts, &CountX { fail: on_helper }),
            expected(&texts)
        );
        assert!(
            HELPER_FAILED.load(Ordering::Relaxed),
            "the helper took part"
        );
    }

    #[test]
    fn a_panic_in_the_reader_stops_the_helper_too() {
        let texts = texts(300);
        let blocks: Vec<&[u8]> = texts.iter().map(String::as_bytes).collect();
        let look = CountX { fail: |_| false };
        let mut read = 0;
        let outcome = panic::catch_unwind(AssertUnwindSafe(|| {
            read_prepared(&blocks, true, &look, |_| {
                read += 1;
                assert!(read < 40, "a sink that fails");
            })
        }));
        // Reaching here at all means the helper did not wait forever for room to claim.
        assert!(outcome.is_err());
        assert_eq!(read, 40);
    }

    #[test]
    fn a_slow_reader_keeps_the_helper_within_bounds() {
        static READ: AtomicUsize = AtomicUsize::new(0);
        struct Bounded;
        impl Lookahead for Bounded {
            type Found = usize;
            fn look(&self, text: &str) -> usize {
                let index: usize = text.trim().parse().expect("a block is its index");
                let read = READ.load(Ordering::SeqCst);
                assert!(
                    index < read + AHEAD_BLOCKS + 1,
                    "block {index} claimed after {read} read"
                );
                index
            }
        }
        let texts: Vec<String> = (0..200).map(|i| format!("{i}\n")).collect();
        let blocks: Vec<&[u8]> = texts.iter().map(String::as_bytes).collect();
        let mut order = Vec::new();
        assert!(read_prepared(&blocks, true, &Bounded, |p| {
            std::thread::sleep(std::time::Duration::from_micros(200));
            order.push(p.found);
            READ.fetch_add(1, Ordering::SeqCst);
        }));
        assert_eq!(order, (0..200).collect::<Vec<_>>());
    }
}
