//! The planner's bounded memory of the lines it may show: error blocks and summary lines.
//!
//! The plan is made at the end, but the input must not be kept, so candidates are kept up to a
//! cap of characters that depends on the budget only. Error blocks go to a front part until it
//! is full, then to a ring of the most recent ones; blocks that only repeat a known error go to a
//! ring of their own, so repeats never push a new error out. Whatever is pushed
//! out is still counted exactly, with where it was.

use std::collections::VecDeque;
use std::fmt;
use std::ops::Deref;
use std::sync::Arc;

use super::class::{Class, Counts};

/// One input line the plan may show.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Kept {
    /// 1-based line number.
    pub no: u64,
    pub class: Class,
    /// Classified lines through this one.
    pub cum: Counts,
    /// The line as shown: cleaned of terminal noise, at most the per-line cap.
    pub text: Text,
    /// Characters of the raw line, without its `'\n'`.
    pub chars: u64,
    /// The raw line ended in `'\n'`.
    pub nl: bool,
    /// `text` stops short of the cleaned line.
    pub truncated: bool,
}

impl Kept {
    /// The line's text after any CI system's prefix ([`super::frame`]).
    #[must_use]
    pub fn body(&self) -> &str {
        &self.text[super::frame::prefix_len(&self.text)..]
    }

    /// Bytes this line holds in memory, for the caps.
    #[must_use]
    pub fn weight(&self) -> usize {
        self.text.len() + 64
    }

    /// A copy whose text is its own, for a table that outlives the block the line is in (a
    /// shared text keeps all of its block's texts).
    #[must_use]
    pub fn detached(&self) -> Kept {
        Kept {
            text: Text::from(&*self.text),
            ..self.clone()
        }
    }
}

/// A kept line's text: shared, never changed, as a plan tries lines in and out of its
/// selection many times, and a copy of a line then costs a count, not an allocation. The
/// lines a trace absorbs share one allocation too, their texts one after the other
/// ([`Text::part`]): a thousand-frame traceback costs an allocation a block, not a line.
/// The default, empty, holds no shared text at all: a line is made with it and given its text
/// after, and an empty `Arc<str>` costs two atomic counts for each line (one to make it, one to
/// drop it).
#[derive(Clone, Default)]
pub struct Text {
    texts: Option<Arc<str>>,
    start: usize,
    end: usize,
}

impl Text {
    /// The text at `start..end` of `texts`.
    #[must_use]
    pub fn part(texts: &Arc<str>, start: usize, end: usize) -> Self {
        debug_assert!(texts.is_char_boundary(start) && texts.is_char_boundary(end));
        Text {
            texts: Some(Arc::clone(texts)),
            start,
            end,
        }
    }
}

impl From<&str> for Text {
    fn from(text: &str) -> Self {
        Text {
            texts: Some(Arc::from(text)),
            start: 0,
            end: text.len(),
        }
    }
}

impl From<String> for Text {
    fn from(text: String) -> Self {
        Text::from(text.as_str())
    }
}

impl Deref for Text {
    type Target = str;

    fn deref(&self) -> &str {
        self.texts
            .as_deref()
            .map_or("", |texts| &texts[self.start..self.end])
    }
}

impl PartialEq for Text {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl Eq for Text {}

impl fmt::Debug for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&**self, f)
    }
}

impl fmt::Display for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&**self, f)
    }
}

/// An error line with its leading context and the trace lines it absorbed.
#[derive(Debug, Clone)]
pub struct ErrorBlock {
    pub lines: Vec<Kept>,
    /// Line number of the error line that opened the block.
    pub start: u64,
    /// The index of its last error line's template in the error table.
    pub template: Option<usize>,
    /// How many of `lines` are context: before the error, and after its trace.
    pub context: (usize, usize),
    /// The line above that names the file its error line's place is in, when the error line
    /// gives only a line number, or the title over the pytest report its `E` lines are in
    /// ([`super::heading`]). Boxed: most blocks have none, and a log of errors makes a block a
    /// line.
    pub heading: Option<Box<Kept>>,
}

impl ErrorBlock {
    /// The error line and its trace, without the context around them.
    #[must_use]
    pub fn core(&self) -> &[Kept] {
        &self.lines[self.context.0..self.lines.len() - self.context.1]
    }
}

impl ErrorBlock {
    #[must_use]
    pub fn weight(&self) -> usize {
        self.lines
            .iter()
            .chain(self.heading.as_deref())
            .map(Kept::weight)
            .sum()
    }
}

/// Error blocks that were pushed out of memory: how many, and where.
#[derive(Debug, Default, Clone)]
pub struct Evicted {
    pub blocks: u64,
    pub first: Option<u64>,
    pub last: u64,
}

impl Evicted {
    /// Counts a block that started at line `start`.
    fn add(&mut self, start: u64) {
        self.blocks += 1;
        self.first = Some(self.first.map_or(start, |f| f.min(start)));
        self.last = self.last.max(start);
    }
}

#[derive(Debug)]
pub struct BlockStore {
    cap: usize,
    front: Vec<ErrorBlock>,
    front_weight: usize,
    recent: Ring,
    repeats: Ring,
    pub evicted: Evicted,
    /// The emptied line list of a block pushed out, for the next block to fill: on a log of
    /// errors every new block pushes one out, and a list allocated and freed for each was a
    /// tenth of the planner's time.
    spare: Vec<Kept>,
}

/// Line lists no longer than this are kept for reuse: what a block of an error line and its
/// context would allocate anyway, so that a reused list holds no more memory than a new one.
const SPARE_CAPACITY: usize = 4;

/// Blocks in input order, the oldest pushed out past a cap of weight.
#[derive(Debug, Default)]
struct Ring {
    /// Each block with its start and weight, worked out when it came: a block pushed out is
    /// then dropped without reading its lines again, which are long out of cache by then (on
    /// a log of errors, reading them back was a tenth of the planner's time).
    blocks: VecDeque<(u64, usize, ErrorBlock)>,
    weight: usize,
}

impl Ring {
    /// Keeps `block` of `weight`, and pushes out the oldest blocks while the ring weighs more
    /// than `cap` (never the last one); keeps a small line list of one pushed out in `spare`,
    /// if that is empty.
    fn push(
        &mut self,
        block: ErrorBlock,
        weight: usize,
        cap: usize,
        evicted: &mut Evicted,
        spare: &mut Vec<Kept>,
    ) {
        self.weight += weight;
        self.blocks.push_back((block.start, weight, block));
        while self.weight > cap && self.blocks.len() > 1 {
            let (start, old, block) = self
                .blocks
                .pop_front()
                .expect("the ring has more than one block");
            self.weight -= old;
            evicted.add(start);
            let mut lines = block.lines;
            if spare.capacity() == 0 && lines.capacity() <= SPARE_CAPACITY {
                lines.clear();
                *spare = lines;
            }
        }
    }
}

impl BlockStore {
    /// A store of at most about `cap` bytes.
    #[must_use]
    pub fn new(cap: usize) -> Self {
        BlockStore {
            cap,
            front: Vec::new(),
            front_weight: 0,
            recent: Ring::default(),
            repeats: Ring::default(),
            evicted: Evicted::default(),
            spare: Vec::new(),
        }
    }

    /// An empty line list for a new block: one a block pushed out left, if any.
    pub fn spare(&mut self) -> Vec<Kept> {
        std::mem::take(&mut self.spare)
    }

    /// Keeps `block`; `repeat` says it only repeats a known error.
    pub fn push(&mut self, block: ErrorBlock, repeat: bool) {
        let weight = block.weight();
        if repeat {
            self.repeats.push(
                block,
                weight,
                self.cap / 4,
                &mut self.evicted,
                &mut self.spare,
            );
        } else if self.front_weight + weight <= self.cap / 2 {
            self.front_weight += weight;
            self.front.push(block);
        } else {
            self.recent.push(
                block,
                weight,
                self.cap / 4,
                &mut self.evicted,
                &mut self.spare,
            );
        }
    }

    /// Every block still in memory, in input order.
    #[must_use]
    pub fn into_blocks(self) -> (Vec<ErrorBlock>, Evicted) {
        let mut all = self.front;
        all.extend(self.recent.blocks.into_iter().map(|(_, _, b)| b));
        all.extend(self.repeats.blocks.into_iter().map(|(_, _, b)| b));
        all.sort_by_key(|b| b.start);
        (all, self.evicted)
    }
}

/// Summary lines: the first few and the last few.
#[derive(Debug, Default)]
pub struct Summaries {
    pub first: Vec<Kept>,
    pub last: VecDeque<Kept>,
    pub dropped: u64,
}

/// Summary lines kept at each end.
const SUMMARIES_KEPT: usize = 32;

impl Summaries {
    pub fn push(&mut self, line: Kept) {
        if self.first.len() < SUMMARIES_KEPT {
            self.first.push(line);
            return;
        }
        self.last.push_back(line);
        if self.last.len() > SUMMARIES_KEPT {
            self.last.pop_front();
            self.dropped += 1;
        }
    }

    #[must_use]
    pub fn into_lines(self) -> Vec<Kept> {
        let mut all = self.first;
        all.extend(self.last);
        all
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn block(start: u64, len: usize) -> ErrorBlock {
        ErrorBlock {
            lines: vec![Kept {
                no: start,
                class: Class::Error,
                cum: Counts::default(),
                text: "e".repeat(len).into(),
                chars: len as u64,
                nl: true,
                truncated: false,
            }],
            start,
            template: None,
            context: (0, 0),
            heading: None,
        }
    }

    #[test]
    fn memory_stays_bounded_and_evictions_are_counted() {
        let mut store = BlockStore::new(4000);
        for i in 0..1000 {
            store.push(block(i * 10, 36), i % 2 == 1);
        }
        let (kept, evicted) = store.into_blocks();
        let weight: usize = kept.iter().map(ErrorBlock::weight).sum();
        assert!(weight <= 4000 + 200, "{weight}");
        assert_eq!(kept.len() as u64 + evicted.blocks, 1000);
        assert!(kept.windows(2).all(|w| w[0].start < w[1].start));
        assert_eq!(kept[0].start, 0, "the first block stays");
        assert_eq!(kept.last().unwrap().start, 9990, "the last block stays");
    }

    #[test]
    fn a_block_pushed_out_leaves_its_small_line_list_for_the_next() {
        let mut store = BlockStore::new(4000);
        assert_eq!(store.spare().capacity(), 0, "nothing pushed out yet");
        for i in 0..100 {
            store.push(block(i * 10, 36), false);
        }
        let spare = store.spare();
        assert!(spare.is_empty() && (1..=SPARE_CAPACITY).contains(&spare.capacity()));
        assert_eq!(store.spare().capacity(), 0, "taken once");
    }
}
