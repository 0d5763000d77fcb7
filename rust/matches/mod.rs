//! The matches planner: a search tool's output that is no map of files (the search planner
//! declined it) keeps its definitions, then its first and last lines.
//!
//! A search that prints no `path:N:` rows (`grep -r NAME dir` without `-n`, `grep -A 20 'def
//! f' file.py`, SWE-agent's `search_file` with its `Line N:` rows, `nl -ba F | grep -C 5 X`)
//! cannot be mapped file by file, and a blind clip keeps its head and tail. But an agent often
//! searches for a name to find where it is defined, and opens or edits that next: on the
//! agent-session corpus, in about half of such outputs the next step used a line that defines
//! something (`def`, `class`, a method's signature, as [`crate::read::is_definition`] reads
//! them past a search's path or line number), and such lines, spread through the output, are
//! a seventh of its lines and a fifth of the lines used. So the plan
//! shows definition lines first, in order, within a third of the room (those the first or last
//! lines show anyway take none of it), and shares the rest between the first and last lines as
//! the tool's profile shares a clip. Every gap is exact,
//! and the closing marker counts them all ([`crate::gapped`]).

#[cfg(test)]
mod tests;

use crate::gapped::{self, Frame, WholeLines};
use crate::plan::{Plan, Shape};
use crate::planner::{Context, Planner};
use crate::profile::ToolKind;
use crate::read::is_definition;
use crate::sink::{Block, Sink};
use crate::text::{char_count, past_line_number};

/// Below this budget the output is clipped.
const MIN_BUDGET: u64 = 400;
/// Definitions take at most this part (1/n) of the room.
const DEFS_PART: u64 = 3;
/// A definition line longer than this is not kept: it would crowd out the others.
const MAX_DEF_CHARS: u64 = 240;
/// Definitions are looked for in this many first lines. A search with line numbers, however
/// long, is the search planner's map; one without them is seldom longer; and reading every
/// line of a grep flood for definitions took a third of the search planner's speed.
const READ_LINES: u64 = gapped::JUDGE_AFTER;

/// Keeps the definition lines of a search's output, as many as a plan could show.
#[derive(Debug)]
pub struct MatchesPlanner {
    room: u64,
    /// The definition lines read so far, with their numbers and characters, while they fit
    /// in a [`DEFS_PART`] of the room.
    defs: Vec<(u64, String, u64)>,
    defs_chars: u64,
    /// No more definitions are looked for: the first lines are read, or the share is full.
    done: bool,
    declined: bool,
}

impl WholeLines for MatchesPlanner {
    /// Done counts as declined here, so that the walk stops at once, mid-block too; only
    /// [`MatchesPlanner::declined`] (a line in pieces) stops the plan.
    fn declined(&self) -> bool {
        self.declined || self.done
    }

    fn decline(&mut self) {
        self.declined = true;
    }

    fn line(&mut self, no: u64, text: &str) {
        self.done = no >= READ_LINES || self.defs_chars >= self.room / DEFS_PART;
        if self.done || !is_definition(past_search_prefix(text)) {
            return;
        }
        let chars = char_count(text);
        if chars <= MAX_DEF_CHARS {
            self.defs_chars += chars + 1;
            self.defs.push((no, text.to_owned(), chars));
        }
    }
}

/// The text of a search's line past what the tool put before it: SWE-agent's `Line 12:`, a
/// file's path and `:` (`grep -r` over files), and a line number with `:`, `-` (a context
/// line) or a tab, twice at most (`grep -n` over `nl -ba`'s numbers).
fn past_search_prefix(line: &str) -> &str {
    let mut rest = line.strip_prefix("Line ").unwrap_or(line).as_bytes();
    if let Some(colon) = memchr::memchr(b':', rest) {
        let path = &rest[..colon];
        let is_path = !path.is_empty()
            && !path.iter().any(u8::is_ascii_whitespace)
            && path.iter().any(|&b| b == b'/' || b == b'.');
        if is_path {
            rest = &rest[colon + 1..];
        }
    }
    for _ in 0..2 {
        let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
        if digits > 0 && rest.get(digits) == Some(&b'-') {
            rest = &rest[digits + 1..];
        } else {
            rest = past_line_number(rest);
        }
    }
    // Each cut falls after an ASCII byte or a whole `→`, so on a character's boundary.
    &line[line.len() - rest.len()..]
}

impl Sink for MatchesPlanner {
    type Lookahead = ();
    fn lookahead(&self) {}

    fn block(&mut self, block: &Block<'_>, (): ()) {
        gapped::feed(self, block);
    }
}

impl MatchesPlanner {
    /// The definitions after line `after` and before line `before`, in order, while their
    /// lines and the gap marker before each fit in `share`.
    fn shown_after(
        &self,
        after: u64,
        before: u64,
        share: u64,
        gap_len: u64,
    ) -> Vec<&(u64, String, u64)> {
        let mut spent = 0;
        self.defs
            .iter()
            .filter(|d| d.0 > after && d.0 < before)
            .take_while(|d| {
                spent += d.2 + 1 + gap_len;
                spent <= share
            })
            .collect()
    }
}

/// What `defs` cost shown: each line with its end, and the gap marker before it.
fn cost(defs: &[&(u64, String, u64)], gap_len: u64) -> u64 {
    defs.iter().map(|d| d.2 + 1 + gap_len).sum()
}

impl Planner for MatchesPlanner {
    fn serves(kind: ToolKind) -> bool {
        matches!(kind, ToolKind::Search | ToolKind::ShellSearch)
    }

    fn new(room: u64) -> Self {
        MatchesPlanner {
            room,
            defs: Vec::new(),
            defs_chars: 0,
            done: false,
            declined: false,
        }
    }

    fn plan(self, context: &Context<'_>) -> Option<Plan> {
        if self.declined || self.defs.is_empty() || self.room < MIN_BUDGET {
            return None;
        }
        let frame = Frame::new(context, self.room, Shape::Matches);
        let room = frame.budget.checked_sub(frame.closing_len + 1)?;
        let profile = context.profile;
        let weights = (profile.head_weight + profile.tail_weight).max(1);
        let total = context.totals.lines;
        // The tail's share is of the room the definitions may leave; the head takes the rest.
        let first = cost(
            &self.shown_after(0, u64::MAX, room / DEFS_PART, frame.gap_len),
            frame.gap_len,
        );
        let tail = gapped::tail_lines(
            context.window.last_chars(),
            (room - first) * profile.tail_weight / weights,
        );
        let tail_count = tail.lines().count() as u64;
        let first_tail = total + 1 - tail_count;
        let after_tail = room - char_count(tail);
        // Definitions the head shows cost nothing more: what they were set aside leaves the
        // head, which may then show more of them. The head only grows, so this ends.
        let mut head_room = after_tail.saturating_sub(first);
        let (head, defs) = loop {
            let head = gapped::head_lines(&context.window.head, head_room);
            let head_count = memchr::memchr_iter(b'\n', head.as_bytes()).count() as u64;
            let defs = self.shown_after(head_count, first_tail, room / DEFS_PART, frame.gap_len);
            let left = after_tail.saturating_sub(cost(&defs, frame.gap_len));
            if left > head_room {
                head_room = left;
                continue;
            }
            // A head cut back to what these definitions leave shows none of them.
            break (gapped::head_lines(&context.window.head, left), defs);
        };
        let head_count = memchr::memchr_iter(b'\n', head.as_bytes()).count() as u64;
        let mut pieces = Vec::with_capacity(defs.len() + 2);
        if head_count > 0 {
            pieces.push((1, head_count, head.strip_suffix('\n').unwrap_or(head)));
        }
        pieces.extend(defs.iter().map(|d| (d.0, d.0, d.1.as_str())));
        if tail_count > 0 {
            pieces.push((first_tail, total, tail.strip_suffix('\n').unwrap_or(tail)));
        }
        let (omitted, segments) = gapped::layout(&pieces, total);
        frame.plan_if_fits(omitted, segments)
    }
}
