//! The sketch of a JSON input a summary is rendered from: the values kept while it was read,
//! each as written, within bounds set by the budget.
//!
//! Outside arrays (the frame: a document's top-level object and the objects in it) members
//! are kept in order while they fit. Each array that no other array holds is a record array
//! (a top-level array, `.items`, `.packages`; JSON Lines is one too, its documents the
//! records): its records are kept by [`Records`], which picks the first, the ones that stand
//! out, the first few and the last few. Inside a record, arrays keep their first
//! [`INNER_ITEMS`] items and objects their first [`MEMBERS`] members, while the record's kept
//! text stays within the room. A string keeps its first [`STR_HEAD`] characters and its exact
//! length. What is not kept is counted, so the render can say exactly what it leaves out.

use std::collections::VecDeque;

use super::paths::{PathId, PathTable};

/// Items an array inside a record keeps.
pub const INNER_ITEMS: usize = 8;
/// Members an object keeps.
pub const MEMBERS: usize = 64;
/// Characters of a string kept, as written.
pub const STR_HEAD: u64 = 256;
/// Records of one array kept because they stand out, at most.
const CANDIDATES: usize = 8;
/// Values of one record that were the first of their kind, remembered for judging it.
pub const NOVEL: usize = 4;

/// A kept value.
#[derive(Debug)]
pub enum Node {
    /// A number, `true`, `false` or `null`, as written.
    Atom(Box<str>),
    /// A string's first characters as written (all of them when there are `chars`), without
    /// its quotes.
    Str {
        head: String,
        chars: u64,
    },
    Items(Items),
}

/// An array's or object's kept children.
#[derive(Debug)]
pub struct Items {
    pub array: bool,
    /// In input order.
    pub kept: Vec<Item>,
    /// Children in the input.
    pub total: u64,
    /// For a record array: its records' signatures with their counts, and its place in a
    /// selection of records (see the render).
    pub records: Option<RecordFacts>,
    /// JSON Lines: the stream of documents, written without brackets.
    pub stream: bool,
    /// The first line of the first child and the last line of the last.
    pub span: (u64, u64),
}

/// What a render needs to know of a record array.
#[derive(Debug)]
pub struct RecordFacts {
    pub id: usize,
    /// Signatures of its records (the types of their members), with how many records had each.
    pub sigs: Vec<(u64, u64)>,
}

/// A kept child, with where it was.
#[derive(Debug)]
pub struct Item {
    pub index: u64,
    /// An object member's key, as written.
    pub key: Option<Box<str>>,
    pub node: Node,
    /// The lines the child starts and ends on.
    pub lines: (u64, u64),
    /// The last line of the child before (the container's first line for the first child),
    /// and the first line of the child after (its last line for the last child).
    pub prev_end: u64,
    pub next_start: u64,
    /// Characters of what was kept of it, about.
    pub weight: u64,
    /// A record's values that were the first of their kind at their path (path, index in
    /// the path's list of values), its signature, and whether it was the first record with it.
    pub novel: Vec<(PathId, u8)>,
    pub sig: u64,
    pub first_sig: bool,
}

/// Kept text a summary may draw on, shared by every record array.
#[derive(Debug)]
pub struct Store {
    room: u64,
    /// Characters kept for good: records chosen, frame values.
    kept: u64,
    /// Characters of records kept because they came early.
    head: u64,
}

impl Store {
    #[must_use]
    pub fn new(room: u64) -> Self {
        Store {
            room,
            kept: 0,
            head: 0,
        }
    }

    /// Takes `weight` characters for good if the store has them.
    fn keep(&mut self, weight: u64) -> bool {
        let fits = self.kept + weight <= self.room.saturating_mul(4);
        if fits {
            self.kept += weight;
        }
        fits
    }
}

/// How one record array chooses its records while it is read.
#[derive(Debug)]
pub struct Records {
    room: u64,
    /// Records kept: the first, the early ones while they fit, and those that stood out.
    kept: Vec<Item>,
    candidates: Vec<Item>,
    /// The last records read, within the room.
    tail: VecDeque<Item>,
    tail_weight: u64,
    /// The record read last, until the next one starts and says where.
    pending: Option<Item>,
    pub sigs: Vec<(u64, u64)>,
}

/// Signatures of one array's records counted, at most.
const SIGS: usize = 8;

impl Records {
    #[must_use]
    pub fn new(room: u64) -> Self {
        Records {
            room,
            kept: Vec::new(),
            candidates: Vec::new(),
            tail: VecDeque::new(),
            tail_weight: 0,
            pending: None,
            sigs: Vec::new(),
        }
    }

    /// Counts a record's signature; whether it is the first record with it.
    pub fn count_sig(&mut self, sig: u64) -> bool {
        if let Some(seen) = self.sigs.iter_mut().find(|(s, _)| *s == sig) {
            seen.1 += 1;
            false
        } else if self.sigs.len() < SIGS {
            self.sigs.push((sig, 1));
            true
        } else {
            false
        }
    }

    /// A record was read whole: it waits until the next one starts (or the array ends).
    pub fn read(&mut self, item: Item) {
        debug_assert!(self.pending.is_none());
        self.pending = Some(item);
    }

    /// The next record starts on `line`: the one before is chosen or dropped.
    pub fn next_starts(&mut self, line: u64, store: &mut Store, paths: &PathTable) {
        if let Some(mut item) = self.pending.take() {
            item.next_start = line;
            self.file(item, store, paths);
        }
    }

    fn file(&mut self, item: Item, store: &mut Store, paths: &PathTable) {
        let early = item.index == 0 || store.head + item.weight <= self.room;
        if early && store.keep(item.weight) {
            if item.index > 0 {
                store.head += item.weight;
            }
            self.kept.push(item);
            return;
        }
        self.tail_weight += item.weight;
        self.tail.push_back(item);
        while self.tail_weight > self.room && self.tail.len() > 1 {
            let old = self.tail.pop_front().expect("more than one");
            self.tail_weight -= old.weight;
            self.candidate(old, paths);
        }
    }

    /// Keeps `item` if it stands out more than a candidate kept before, dropping that one.
    fn candidate(&mut self, item: Item, paths: &PathTable) {
        if item.novel.is_empty() && !item.first_sig {
            return;
        }
        self.candidates.push(item);
        while self.candidates.len() > CANDIDATES
            || self.candidates.iter().map(|c| c.weight).sum::<u64>() > self.room
        {
            // The one that stands out least goes; of equals, the latest.
            let (at, _) = self
                .candidates
                .iter()
                .enumerate()
                .max_by_key(|(i, c)| (self.rarity(c, paths), *i))
                .expect("not empty");
            self.candidates.remove(at);
        }
    }

    /// How common the rarest thing that made `item` stand out is (lower: rarer).
    #[must_use]
    pub fn rarity(&self, item: &Item, paths: &PathTable) -> u64 {
        rarity(item, &self.sigs, paths)
    }

    /// The array ended on `line`: the records chosen, in input order.
    pub fn finish(mut self, line: u64, store: &mut Store, paths: &PathTable) -> Vec<Item> {
        if let Some(mut last) = self.pending.take() {
            last.next_start = line;
            self.tail_weight += last.weight;
            self.tail.push_back(last);
        }
        // The last records are kept, newest first, while the store has room.
        let mut tail = Vec::new();
        while let Some(item) = self.tail.pop_back() {
            if store.keep(item.weight) {
                tail.push(item);
            } else {
                self.candidate(item, paths);
            }
        }
        let mut kept = self.kept;
        kept.extend(tail);
        for item in self.candidates {
            if store.keep(item.weight) {
                kept.push(item);
            }
        }
        kept.sort_by_key(|item| item.index);
        kept
    }
}

/// How common the rarest thing that made `item` stand out is: the count of its rarest first
/// value, or of its signature; `u64::MAX` when nothing did.
#[must_use]
pub fn rarity(item: &Item, sigs: &[(u64, u64)], paths: &PathTable) -> u64 {
    let values = item
        .novel
        .iter()
        .filter_map(|&(path, index)| paths.stat(path)?.value_count(index));
    let sig = sigs.iter().find(|(s, _)| *s == item.sig).map(|s| s.1);
    values.chain(sig).min().unwrap_or(u64::MAX)
}
