//! The single pass over a log: each block's lines classified (those the look-ahead found), the
//! lines after an error absorbed into its block, and what a plan may show kept, bounded by the
//! budget.
//!
//! [`Pass`] is the log planner's [`Sink`]. Its look-ahead ([`Prefilter`], which needs nothing
//! but the block and so may run on another core) makes one multi-pattern scan per block and
//! classifies only the lines it hits; the pass then visits those lines, and walks one by one
//! only the lines after an error, to absorb its trace. What it keeps is bounded by the budget:
//! error blocks up to a cap of a few budgets (the rest counted, with where they were), the
//! first and last summary lines, the lines before the last failing summaries, and capped,
//! insertion-ordered tables of repeated warnings and errors. [`Pass::finish`] hands all of it
//! over as [`Found`], which is all the planning room is told of the input besides the window.

use std::collections::VecDeque;

use super::class::{Class, Counts};
use super::classify::{Shown, classify};
use super::code;
use super::dedup::{Dedup, Key};
use super::evidence::Evidence;
use super::heading::{Headings, under_heading};
use super::keep::{
    Scanned, keep_line, keep_shown, kept_chars, lines_before, room_after, shown_chars, unfilled,
};
use super::keyword;
use super::place::{Place, Places};
use super::prefilter::{Candidate, Looked, Prefilter};
use super::store::{BlockStore, ErrorBlock, Evicted, Kept, Summaries};
use super::summary;
use super::title::under_title;
use super::trace::{Absorbed, Step, Trace};
use crate::sink::{Block, Sink};
use crate::text::{byte_at_char, char_count, trim};

/// Lines one error block absorbs before the rest goes on in a block of its own.
const MAX_BLOCK_LINES: usize = 400;
/// Lines that came in pieces whose full length is remembered.
const MAX_LONG_LINES: usize = 4096;
/// Lines kept before an error and after its block: the test name above an assertion, the
/// `Expected`/`Actual` lines below it, and small gaps shown as lines rather than markers.
const CONTEXT_LINES: usize = 3;

/// Lines kept before a failing summary (`The command "make" exited with 2.`, `FAIL pkg`),
/// at least [`CONTEXT_LINES`]:
/// what a build printed just before it said it failed is most often why.
const VERDICT_LINES: usize = 24;
/// Failing summaries whose lines before are kept: the last ones.
const VERDICTS: usize = 3;

/// A closed error block still taking the lines after it as context.
#[derive(Debug)]
struct Pending {
    block: ErrorBlock,
    repeat: bool,
    /// Context lines it may still take.
    left: usize,
}

/// An error block still taking lines.
#[derive(Debug)]
struct Open {
    block: ErrorBlock,
    trace: Trace,
    /// Characters the block's lines take when shown, `'\n'` included.
    shown: u64,
    /// The number of the last error line that joined the block, with its key in the error
    /// table when the look-ahead worked it out and the line is shown whole.
    key: Option<(u64, Key)>,
}

impl Open {
    /// Notes that the error line `line`, kept as `kept`, joined the block.
    fn note_error(&mut self, line: &Shown, kept: &Kept) {
        self.key = line
            .key
            .filter(|_| !kept.truncated)
            .map(|key| (kept.no, key));
    }
}

#[derive(Debug)]
/// The log planner's intake: what it keeps of the single pass.
pub struct Pass {
    budget: u64,
    /// Characters of one line that a plan may show.
    line_keep: u64,
    counts: Counts,
    /// The last lines before the current block, across blocks however small: what an error
    /// or a verdict early in a block looks back into.
    recent: VecDeque<Kept>,
    open: Option<Open>,
    /// Blank lines that join the open block only if it goes on after them.
    held: Vec<Kept>,
    /// Lines of the open block after those in its `block`: kept apart from it, so that its
    /// buffers serve every block in turn.
    absorbed: Absorbed,
    pending: Option<Pending>,
    /// The last line that a stored block holds: context never reaches back past it.
    last_stored: u64,
    /// The last failing summaries, each after the lines before it.
    verdicts: VecDeque<Vec<Kept>>,
    blocks: BlockStore,
    summaries: Summaries,
    warnings: Dedup,
    errors: Dedup,
    /// Lines that came in pieces: number, characters without `'\n'`, ended in `'\n'`.
    long_lines: Vec<(u64, u64, bool)>,
    /// The line now arriving in pieces: its number and characters so far.
    piece: Option<(u64, u64)>,
    /// Error lines that opened a block, looked at to see whether they are lines of source code
    /// ([`code`]), at most [`CODE_CHECKED`]; and those that were not.
    checked: u64,
    events: u64,
    places: Places,
    headings: Headings,
    /// The last title of a failure's report read ([`super::title::failure_title`]).
    title: Option<Box<Kept>>,
}

/// Lines below a failure's title that its `E` lines may be: pytest's report of one failure,
/// its source and its traceback's frames, seldom runs longer.
const TITLE_REACH: u64 = 1000;
/// How many block-opening error lines are looked at to see whether they are lines of code.
const CODE_CHECKED: u64 = 4096;
/// A log has at least one error line in this many that is no line of code.
const EVENT_SHARE: u64 = 4;

impl Pass {
    /// A pass for a plan of at most `budget` characters: what it keeps is bounded by that.
    #[must_use]
    pub fn new(budget: u64) -> Self {
        let cap = usize::try_from(budget.saturating_mul(8))
            .unwrap_or(usize::MAX)
            .max(1 << 20);
        Pass {
            budget,
            line_keep: (budget / 8).clamp(120, 8192),
            counts: Counts::default(),
            recent: VecDeque::new(),
            open: None,
            held: Vec::new(),
            absorbed: Absorbed::default(),
            pending: None,
            last_stored: 0,
            verdicts: VecDeque::new(),
            blocks: BlockStore::new(cap),
            summaries: Summaries::default(),
            warnings: Dedup::default(),
            errors: Dedup::default(),
            long_lines: Vec::new(),
            piece: None,
            checked: 0,
            events: 0,
            places: Places::default(),
            headings: Headings::default(),
            title: None,
        }
    }

    /// Classifies (unless its class is `known`) and counts one line, and keeps it where its
    /// class says.
    fn line(
        &mut self,
        block: Scanned,
        line: &Shown,
        start: usize,
        end: usize,
        no: u64,
        known: Option<Class>,
    ) {
        let text = block.text;
        let nl = end < text.len();
        let class = known.unwrap_or_else(|| line.class());
        if class == Class::Error {
            self.flush_pending();
        } else if self.pending.is_some() {
            let mut cum = self.counts;
            cum.add(class);
            let kept = keep_shown(line, no, class, nl, cum, self.line_keep);
            self.add_after(kept);
        }
        if class == Class::Other {
            return;
        }
        let (context, heading) = if class == Class::Error {
            let lines = self.blocks.spare();
            let heading = if under_heading(line.body()) {
                self.headings
                    .above(block, start, no, self.counts, self.line_keep)
                    .map(Box::new)
            } else if under_title(line.body()) {
                self.title.clone().filter(|t| t.no + TITLE_REACH >= no)
            } else {
                None
            };
            (self.context_before(block, start, no, lines), heading)
        } else {
            (Vec::new(), None)
        };
        let verdict = (class == Class::Summary && summary::failing(&line.text)).then(|| {
            // Never back past the verdict before, so that each line is read once.
            let after = self
                .verdicts
                .back()
                .and_then(|v| v.last())
                .map_or(0, |k| k.no);
            let room = room_after(after, no, VERDICT_LINES);
            self.lines_back(block, start, no, room, Vec::new())
        });
        self.counts.add(class);
        if class == Class::Warning {
            // Most warnings repeat one already in the table: count them without a copy.
            let shown = &line.text[..byte_at_char(&line.text, self.line_keep)];
            let (counts, line_keep) = (self.counts, self.line_keep);
            let headings = &mut self.headings;
            self.warnings.add_with(shown, no, || {
                let heading = under_heading(line.body())
                    .then(|| headings.above(block, start, no, counts.before(class), line_keep))
                    .flatten();
                (keep_shown(line, no, class, nl, counts, line_keep), heading)
            });
            return;
        }
        let kept = keep_shown(line, no, class, nl, self.counts, self.line_keep);
        match class {
            Class::Summary => {
                if let Some(mut lines) = verdict {
                    if self.verdicts.len() == VERDICTS {
                        self.verdicts.pop_front();
                    }
                    lines.push(kept.clone());
                    self.verdicts.push_back(lines);
                }
                self.summaries.push(kept);
            }
            Class::Warning => unreachable!("counted above"),
            Class::Error => {
                // The first lines tell: on a log of errors, every line would be looked at.
                if self.checked < CODE_CHECKED {
                    self.checked += 1;
                    self.events += u64::from(reports_event(line.body()));
                }
                let trace = Trace::open(line.body());
                let before = context.len();
                let shown = context.iter().map(shown_chars).sum::<u64>()
                    + kept_chars(line, &kept, &kept.text);
                // Built where it stays: on a log of errors this runs for every line.
                let open = self.open.insert(Open {
                    block: ErrorBlock {
                        lines: context,
                        start: no,
                        template: None,
                        context: (before, 0),
                        heading,
                    },
                    trace,
                    shown,
                    key: None,
                });
                open.note_error(line, &kept);
                open.block.lines.push(kept);
            }
            Class::Other => unreachable!("returned above"),
        }
    }

    /// Up to [`CONTEXT_LINES`] lines before line `no`, which starts at byte `start` of `text`,
    /// none of them at or before the last line a stored block holds, in the empty `lines`.
    fn context_before(&self, block: Scanned, start: usize, no: u64, lines: Vec<Kept>) -> Vec<Kept> {
        let room = room_after(self.last_stored, no, CONTEXT_LINES);
        self.lines_back(block, start, no, room, lines)
    }

    /// Up to `room` lines before line `no`, which starts at byte `start` of `block`, in the
    /// empty `lines`: from the block, then from the lines before it.
    fn lines_back(
        &self,
        block: Scanned,
        start: usize,
        no: u64,
        room: usize,
        mut lines: Vec<Kept>,
    ) -> Vec<Kept> {
        // Each error line right after another's block has no room: on a log of errors, most.
        if room == 0 {
            return lines;
        }
        lines_before(
            block,
            start,
            no,
            self.counts,
            room,
            self.line_keep,
            &mut lines,
        );
        let first = lines.first().map_or(no, |l| l.no);
        let want = (room - lines.len()) as u64;
        if want > 0 && self.recent.back().is_some_and(|p| p.no + 1 == first) {
            let earlier = self.recent.iter().filter(|p| p.no + want >= first);
            lines.splice(0..0, earlier.cloned());
        }
        lines
    }

    /// Keeps `kept` as context after the pending block.
    fn add_after(&mut self, kept: Kept) {
        let Some(pending) = self.pending.as_mut() else {
            return;
        };
        pending.block.lines.push(kept);
        pending.block.context.1 += 1;
        pending.left -= 1;
        if pending.left == 0 {
            self.flush_pending();
        }
    }

    /// Stores the pending block, if any.
    fn flush_pending(&mut self) {
        if let Some(pending) = self.pending.take() {
            self.last_stored = pending.block.lines.last().map_or(0, |l| l.no);
            self.blocks.push(pending.block, pending.repeat);
        }
    }

    /// Offers `line`, at `..end` of `text` (of class `known`, when known), to the open block;
    /// false when the block ended before it.
    fn absorb(
        &mut self,
        text: &str,
        line: &Shown,
        end: usize,
        no: u64,
        known: Option<Class>,
    ) -> bool {
        let nl = end < text.len();
        let Some(open) = self.open.as_mut() else {
            return false;
        };
        let class = known.unwrap_or_else(|| line.class());
        match open.trace.step(line.body(), line.continues) {
            // A line blank after its CI prefix may still be classified (a bare `##[error]`):
            // held, it would never be counted, so it ends the block and is read on its own.
            Step::Hold if class == Class::Other => {
                let kept = keep_shown(line, no, Class::Other, nl, self.counts, self.line_keep);
                self.held.push(kept);
                true
            }
            Step::Hold | Step::End => {
                self.close_open(false);
                false
            }
            Step::Absorb => {
                self.counts.add(class);
                let (kept, text) = unfilled(line, no, class, nl, self.counts, self.line_keep);
                let open = self.open.as_mut().expect("checked above");
                if !self.held.is_empty() {
                    open.shown += self.held.iter().map(shown_chars).sum::<u64>();
                    self.absorbed.take_into(&mut open.block.lines);
                    open.block.lines.append(&mut self.held);
                }
                open.shown += kept_chars(line, &kept, text);
                if class == Class::Error {
                    open.note_error(line, &kept);
                }
                self.absorbed.push(kept, text);
                // A block longer than the budget could never be shown whole: it goes on in a
                // block of its own, so that its end can be shown too.
                let lines = open.block.lines.len() + self.absorbed.count();
                if lines >= MAX_BLOCK_LINES || open.shown >= self.budget {
                    let trace = open.trace.clone();
                    self.close_open(true);
                    self.open = Some(Open {
                        block: ErrorBlock {
                            lines: Vec::new(),
                            start: no + 1,
                            template: None,
                            context: (0, 0),
                            heading: None,
                        },
                        trace,
                        shown: 0,
                        key: None,
                    });
                }
                true
            }
        }
    }

    /// Closes the open block, if any: it takes the lines after it as context, unless it is
    /// `split` off a long trace that goes on in a block of its own.
    fn close_open(&mut self, split: bool) {
        let Some(open) = self.open.as_mut() else {
            return;
        };
        // Blank lines held at its end never join it.
        self.held.clear();
        self.absorbed.take_into(&mut open.block.lines);
        // Its parts are taken, not the whole: on a log of errors this runs for every line.
        let key = open.key;
        let mut block = ErrorBlock {
            lines: std::mem::take(&mut open.block.lines),
            heading: open.block.heading.take(),
            ..open.block
        };
        self.open = None;
        let Some(first) = block.lines.first() else {
            return;
        };
        if block.start < first.no {
            // A block split off a long trace starts at its first line.
            block.start = first.no;
        }
        // A block is known by its last error line: the exception after a traceback, the
        // diagnostic itself before its notes.
        // A block split off a long trace may hold no error line: it has no kind.
        let line = block.lines.iter().rev().find(|l| l.class == Class::Error);
        // The line is copied only when it is a new variant's first occurrence, with a text of
        // its own: the table outlives the block, whose texts a shared one would keep.
        let errors = &mut self.errors;
        block.template = line.and_then(|k| {
            let make = || (k.detached(), None);
            match key.filter(|&(no, _)| no == k.no) {
                Some((_, key)) => errors.add_keyed(&k.text, key, k.no, make),
                None => errors.add_with(&k.text, k.no, make),
            }
        });
        let repeat = self.errors.count(block.template) > 1;
        self.flush_pending();
        if split {
            self.last_stored = block.lines.last().map_or(0, |l| l.no);
            self.blocks.push(block, repeat);
        } else {
            self.pending = Some(Pending {
                block,
                repeat,
                left: CONTEXT_LINES,
            });
        }
    }

    /// Classifies the lines of `text`, which starts at the beginning of line `first_no`;
    /// `found` holds the lines of `text` the prefilter found, their offsets and line numbers
    /// relative to `text`.
    fn scan(&mut self, text: &str, first_no: u64, found: &[Candidate], places: &[Place]) {
        let block = Scanned { text, found };
        let bytes = text.as_bytes();
        let mut at = 0;
        let mut at_no = first_no;
        let mut next = 0;
        let mut places = places.iter().peekable();
        // The line an ended block gave back, read once for both looks at it.
        let mut read: Option<(usize, Shown)> = None;
        while at < bytes.len() {
            // The prefilter vouches for every line but the first: a line it did not find is
            // `Other`. With no block open, only the lines it found need a look.
            let (known, found_line) = if at == 0 {
                (None, None)
            } else {
                // `at` only moves forward: a walk costs less than a search from every line.
                while found.get(next).is_some_and(|c| c.start < at) {
                    next += 1;
                }
                match found.get(next) {
                    Some(c) if c.start == at => (Some(c.class), Some(c)),
                    Some(c) if self.open.is_none() && self.pending.is_none() => {
                        at = c.start;
                        at_no = first_no + c.line;
                        (Some(c.class), Some(c))
                    }
                    None if self.open.is_none() && self.pending.is_none() => break,
                    _ => (Some(Class::Other), None),
                }
            };
            // A place is kept with the counts through it: of the lines before it, none are
            // still to come.
            while let Some(place) = places.next_if(|p| at > 0 && p.start <= at) {
                self.keep_place(text, first_no, place);
            }
            let end = found_line.map_or_else(
                || memchr::memchr(b'\n', &bytes[at..]).map_or(bytes.len(), |i| at + i),
                |c| c.end,
            );
            let line = match (read.take(), found_line) {
                (Some((start, line)), _) if start == at => line,
                (
                    _,
                    Some(Candidate {
                        plain: Some(plain), ..
                    }),
                ) => Shown::read(&text[at..end], *plain),
                (
                    _,
                    Some(Candidate {
                        cleaned: Some(cleaned),
                        ..
                    }),
                ) => Shown::cleaned(&text[at..end], cleaned),
                _ => Shown::new(&text[at..end]),
            };
            if self.open.is_some() {
                if !self.absorb(text, &line, end, at_no, known) {
                    // The block ended before this line: look at it again.
                    read = Some((at, line));
                    continue;
                }
            } else {
                self.line(block, &line, at, end, at_no, known);
            }
            at = end + 1;
            at_no += 1;
        }
        for place in places {
            self.keep_place(text, first_no, place);
        }
    }

    /// Keeps `place`, in `text` from line `first_no` on, with the counts so far. A place that
    /// is a line of another class is kept as that: the look-ahead lists no such place, but
    /// for the block's first line, which it does not classify.
    fn keep_place(&mut self, text: &str, first_no: u64, place: &Place) {
        let (raw, nl) = (&text[place.start..place.end], place.end < text.len());
        if place.start == 0 && classify(raw) != Class::Other {
            return;
        }
        let no = first_no + place.line;
        let kept = keep_line(raw, no, Class::Other, nl, self.counts, self.line_keep);
        if place.title {
            self.title = Some(Box::new(kept));
        } else {
            self.places.add(kept);
        }
    }

    /// Ends the pass: the open block is closed and stored, and everything kept is handed over.
    #[must_use]
    pub fn finish(mut self) -> Found {
        self.close_open(false);
        self.flush_pending();
        if let Some((no, chars)) = self.piece.take() {
            self.long_lines.push((no, chars, false));
        }
        let (blocks, evicted) = self.blocks.into_blocks();
        Found {
            blocks,
            evicted,
            summaries: self.summaries.into_lines(),
            verdicts: self.verdicts.into(),
            warnings: self.warnings,
            errors: self.errors,
            counts: self.counts,
            long_lines: self.long_lines,
            line_keep: self.line_keep,
            checked: self.checked,
            events: self.events,
            places: self.places.into_lines(),
            heading: self.headings.into_last(),
        }
    }
}

/// What the single pass found: all that the planning room reads of the input but its window.
#[derive(Debug)]
pub struct Found {
    /// Error blocks, in input order, each with its context lines.
    pub blocks: Vec<ErrorBlock>,
    /// Error blocks pushed out of the store, counted with where they were.
    pub evicted: Evicted,
    /// The first and the last summary lines.
    pub summaries: Vec<Kept>,
    /// The last failing summaries, each after the lines before it.
    pub verdicts: Vec<Vec<Kept>>,
    /// Warnings, once per template, with their counts.
    pub warnings: Dedup,
    /// Error lines, once per template, with their counts: what the blocks are known by.
    pub errors: Dedup,
    /// Lines of each class in the whole input.
    pub counts: Counts,
    /// Lines that came in pieces: number, characters without `'\n'`, ended in `'\n'`.
    pub long_lines: Vec<(u64, u64, bool)>,
    /// Characters of one line that a plan may show.
    pub line_keep: u64,
    /// Error lines that opened a block, of the first [`CODE_CHECKED`], and how many of them
    /// were no line of source code: a log reports events, code names errors.
    pub checked: u64,
    pub events: u64,
    /// The last places pytest printed for frames in the project's code, in order.
    pub places: Vec<Kept>,
    /// The last heading ([`super::heading`]): the one that the lines after it are under.
    pub heading: Option<Kept>,
}

/// Whether an error line reports an event: no line of source code, and either its error
/// word reads as a report ([`keyword::reports`]) or it is a runner's mark of a failure with no
/// error word at all (TAP's `not ok 3 - …`, a cross), which code never prints.
fn reports_event(body: &str) -> bool {
    !code::is_code(body) && {
        let t = trim(body);
        keyword::reports(body) || Evidence::of(t).failure_form(t)
    }
}

impl Found {
    /// Whether the input reads as a build or test log: at least two summaries, or errors of
    /// which at least one in [`EVENT_SHARE`] is no line of source code and reports an event
    /// ([`keyword::reports`]: no description's prose). (Source code names
    /// errors in its statements, and in a comment or a docstring's prose now and then; a
    /// log's traceback quotes a line of code or two for each error it reports.)
    #[must_use]
    pub fn is_log(&self) -> bool {
        self.counts.summaries >= 2 || (self.events > 0 && self.events * EVENT_SHARE >= self.checked)
    }
}

impl Sink for Pass {
    type Lookahead = Prefilter;

    fn lookahead(&self) -> Prefilter {
        Prefilter::default()
    }

    fn block(&mut self, block: &Block<'_>, looked: Looked) {
        let Looked {
            candidates: found,
            mut places,
        } = looked;
        let (continuation, lines) = block.split();
        if let Some(piece) = continuation {
            // The rest of a line that came in pieces: counted, never classified again.
            if let Some(open) = self.piece.as_mut() {
                open.1 += char_count(piece.text);
            }
            if piece.terminated {
                if let Some((line, chars)) = self.piece.take() {
                    if self.long_lines.len() < MAX_LONG_LINES {
                        self.long_lines.push((line, chars, true));
                    }
                }
            }
        }
        let text = lines.text();
        if text.is_empty() {
            return;
        }
        if lines.last_line().is_some_and(|last| last.open) {
            // A line still arriving is read when it is whole, or never (a line in pieces).
            places.retain(|p| p.end < text.len());
        }
        self.scan(text, lines.no(), &found, &places);
        let Some(last) = lines.last_line() else {
            return;
        };
        // As if a '\n' followed the last line, so that it is one of the lines before.
        let end = text.len() + usize::from(!last.terminated);
        let scanned = Scanned {
            text,
            found: &found,
        };
        self.headings
            .look_back(scanned, end, last.no + 1, self.counts, self.line_keep);
        let mut kept = Vec::new();
        lines_before(
            scanned,
            end,
            last.no + 1,
            self.counts,
            VERDICT_LINES,
            self.line_keep,
            &mut kept,
        );
        if kept.first().is_some_and(|k| k.no != block.first_line) {
            // The block alone holds the lines to remember.
            self.recent.clear();
        }
        self.recent
            .retain(|k| k.no < kept.first().map_or(u64::MAX, |f| f.no));
        self.recent.extend(kept);
        while self.recent.len() > VERDICT_LINES {
            self.recent.pop_front();
        }
        if last.open {
            self.piece = Some((last.no, char_count(last.text)));
        }
    }
}
