//! How a line read becomes a [`Kept`] line, what it costs to show, and how the lines just
//! before a line are read back to be kept.
//!
//! Every line a log plan may show is kept the same way, whether the planner meets it in its
//! pass or looks back at it later, or the selection reads it again from the window: cleaned,
//! cut to the plan's line length, with its number, class and running counts. The planner also
//! sizes its open error block as lines join it, so the measures sit next to the making.
//!
//! An error keeps a few lines above it (the test name over an assertion) and a failing
//! summary many more (what a build printed just before it gave up); the last lines of each
//! block are remembered the same way, for a line early in the next block to look back into.
//! Those lines were passed over when they arrived, so they are read again, backwards, and
//! kept. What the look-ahead found travels with the block ([`Scanned`]), so that a line read
//! again is not classified again (but for the block's first, which the look-ahead skips).

use super::class::{Class, Counts};
use super::classify::{Shown, classify};
use super::prefilter::Candidate;
use super::store::{Kept, Text};
use crate::text::cut::cut_before;
use crate::text::{byte_at_char, char_count};

/// `raw` as a plan would show it: cleaned, and cut to `line_keep` characters.
pub fn keep_line(raw: &str, no: u64, class: Class, nl: bool, cum: Counts, line_keep: u64) -> Kept {
    keep_shown(&Shown::new(raw), no, class, nl, cum, line_keep)
}

/// [`keep_line`] of a line already read.
pub(super) fn keep_shown(
    line: &Shown,
    no: u64,
    class: Class,
    nl: bool,
    cum: Counts,
    line_keep: u64,
) -> Kept {
    let (kept, text) = unfilled(line, no, class, nl, cum, line_keep);
    Kept {
        text: Text::from(text),
        ..kept
    }
}

/// [`keep_shown`] with its text left empty, and the text it shows.
pub(super) fn unfilled<'a>(
    line: &'a Shown,
    no: u64,
    class: Class,
    nl: bool,
    cum: Counts,
    line_keep: u64,
) -> (Kept, &'a str) {
    let cut = cut_before(&line.text, byte_at_char(&line.text, line_keep));
    let kept = Kept {
        no,
        class,
        cum,
        text: Text::default(),
        chars: line.chars(),
        nl,
        truncated: cut < line.text.len(),
    };
    (kept, &line.text[..cut])
}

/// Characters `line` takes when shown, `'\n'` included.
pub(super) fn shown_chars(line: &Kept) -> u64 {
    char_count(&line.text) + 1
}

/// Characters `text`, the text of `kept` just kept of `line`, takes when shown, `'\n'`
/// included: a whole line that shows as it is takes its raw characters, which the look-ahead
/// has most often counted already.
pub(super) fn kept_chars(line: &Shown, kept: &Kept, text: &str) -> u64 {
    if !kept.truncated && line.shows_raw() {
        kept.chars + 1
    } else {
        char_count(text) + 1
    }
}

/// How many of the lines between line `after` and line `no` (neither included) to look back
/// into: at most `cap`.
pub(super) fn room_after(after: u64, no: u64, cap: usize) -> usize {
    usize::try_from(no.saturating_sub(after + 1)).map_or(cap, |n| n.min(cap))
}

/// A block's text with what the look-ahead found in it, so that a line looked back at is not
/// classified a second time.
#[derive(Clone, Copy)]
pub(super) struct Scanned<'a> {
    pub(super) text: &'a str,
    pub(super) found: &'a [Candidate],
}

impl Scanned<'_> {
    /// The class of the line at `start..end`: a line the look-ahead did not list is `Other`
    /// (its contract), but for the first line, which it never looks at.
    pub(super) fn class_at(self, start: usize, end: usize) -> Class {
        if start == 0 {
            return classify(&self.text[..end]);
        }
        self.found
            .binary_search_by_key(&start, |c| c.start)
            .map_or(Class::Other, |i| self.found[i].class)
    }
}

/// Up to `room` lines of `block` before byte `end`, in order, in the empty `lines`: `end` is
/// just past the `'\n'` of line `no - 1` (or one past the end of the text, for a last line
/// without one), and `cum` counts the classified lines through line `no - 1`.
pub(super) fn lines_before(
    block: Scanned,
    end: usize,
    no: u64,
    cum: Counts,
    room: usize,
    line_keep: u64,
    lines: &mut Vec<Kept>,
) {
    let text = block.text;
    lines.reserve(room);
    let (mut end, mut no, mut cum) = (end, no, cum);
    while lines.len() < room && end > 0 && no > 1 {
        let from = memchr::memrchr(b'\n', &text.as_bytes()[..end - 1]).map_or(0, |i| i + 1);
        let raw = &text[from..end - 1];
        let class = block.class_at(from, end - 1);
        let nl = end - 1 < text.len();
        lines.push(keep_line(raw, no - 1, class, nl, cum, line_keep));
        cum = cum.before(class);
        (end, no) = (from, no - 1);
    }
    lines.reverse();
}
