//! The read planner: a file read too long for the budget keeps its beginning, the definitions
//! of the part it cannot show, and its last lines.
//!
//! An agent reads a file to act on a place in it: its opening (imports, the class being read,
//! the lines a viewer centred on) far more often than its end, and, in the part it does not
//! see, the function or class it will call, open or edit next. So most of the budget goes to the
//! head, a small share to the tail, and a share to the definition lines of the middle
//! ([`defs`]), each kept whole, in order, between exact markers. The markers are sized to the
//! budget: at small budgets the closing marker is short, and the gaps before it say only which
//! lines they hold. A read whose head or tail cannot be cut at a line (one huge line) is left
//! to the clip.

mod defs;
mod marker;

use crate::plan::{Piece, Plan, Shape, gaps};
use crate::planner::{Context, Planner};
use crate::profile::ToolKind;
use crate::sink::{Block, Sink};
use crate::text::{byte_at_char, byte_at_char_from_end, char_count, count_chars_and_newlines};
use marker::{Facts, TIERS};

/// Percent of the room (after the closing marker) for the last lines of the read.
const TAIL_PERCENT: u64 = 5;
/// Percent of the room for definitions between the head and the tail; what they leave goes to
/// the head.
const DEFS_PERCENT: u64 = 15;
/// The closing marker takes at most this part of the budget (1/24): the longest wording that
/// fits.
const MARKER_PART: u64 = 24;
/// Below this budget a read is clipped: there is no room for more than one cut.
const MIN_BUDGET: u64 = 400;
/// A definition line longer than this is not kept: it would crowd out the others.
const MAX_DEF_CHARS: u64 = 160;

/// A definition line of the input: its number and its text, without its `'\n'`.
#[derive(Debug)]
struct Def {
    no: u64,
    text: String,
    chars: u64,
}

/// Watches a file read for its definition lines, up to a bound set by the budget.
#[derive(Debug)]
pub struct ReadPlanner {
    defs: Vec<Def>,
    /// Characters of `defs`; no more are kept once they reach twice the room, more than any
    /// plan could show.
    defs_chars: u64,
    room: u64,
}

impl Sink for ReadPlanner {
    type Lookahead = ();
    fn lookahead(&self) {}

    fn block(&mut self, block: &Block<'_>, (): ()) {
        if self.defs_chars >= self.room.saturating_mul(2) {
            return;
        }
        for line in block.lines() {
            if line.continued || line.open || !line.terminated || !defs::is_definition(line.text) {
                continue;
            }
            let chars = char_count(line.text);
            if chars > MAX_DEF_CHARS {
                continue;
            }
            self.defs_chars += chars;
            self.defs.push(Def {
                no: line.no,
                text: line.text.to_owned(),
                chars,
            });
            if self.defs_chars >= self.room.saturating_mul(2) {
                return;
            }
        }
    }
}

/// The head of `text` that ends at a line end within `room` characters; `None` when no line
/// ends there.
fn head_lines(text: &str, room: u64) -> Option<&str> {
    let at = byte_at_char(text, room);
    memchr::memrchr(b'\n', &text.as_bytes()[..at]).map(|nl| &text[..=nl])
}

/// The last whole lines of `text` within `room` characters. `text` holds more characters than
/// `room`, so whether a line starts at the cut is known.
fn tail_lines(text: &str, room: u64) -> &str {
    let at = byte_at_char_from_end(text, room);
    if at > 0 && text.as_bytes()[at - 1] == b'\n' {
        return &text[at..];
    }
    match memchr::memchr(b'\n', &text.as_bytes()[at..]) {
        Some(i) => &text[at + i + 1..],
        None => "",
    }
}

impl Planner for ReadPlanner {
    fn serves(kind: ToolKind) -> bool {
        kind == ToolKind::FileRead
    }

    fn new(room: u64) -> Self {
        ReadPlanner {
            defs: Vec::new(),
            defs_chars: 0,
            room,
        }
    }

    fn plan(self, context: &Context<'_>) -> Option<Plan> {
        let budget = context.budget.room(Self::DIGEST);
        let totals = context.totals;
        let profile = context.profile;
        if budget < MIN_BUDGET {
            return None;
        }
        let widest = Facts::widest(totals.lines, totals.chars);
        let closing_len = |tier| widest.closing_len(tier, profile) + 1;
        let tier = TIERS
            .into_iter()
            .find(|&t| closing_len(t) <= budget / MARKER_PART)
            .unwrap_or(marker::Tier::Terse);
        let gap_len = widest.gap_len() + 1;
        let room = budget.checked_sub(closing_len(tier) + 1)?;
        let tail_room = room * TAIL_PERCENT / 100;
        let defs_room = room * DEFS_PERCENT / 100;
        let head_room = room - tail_room - defs_room;

        let tail = tail_lines(context.window.last_chars(), tail_room);
        let (tail_chars, tail_newlines) = count_chars_and_newlines(tail.as_bytes());
        let tail_lines_count = tail_newlines + u64::from(!tail.is_empty() && !tail.ends_with('\n'));
        let first_tail = totals.lines + 1 - tail_lines_count;

        let mut head = head_lines(&context.window.head, head_room)?;
        let mut last_head = count_chars_and_newlines(head.as_bytes()).1;
        let mut spent = 0;
        let mut chosen: Vec<&Def> = Vec::new();
        for def in self
            .defs
            .iter()
            .filter(|d| d.no > last_head && d.no < first_tail)
        {
            let cost = def.chars + 1 + gap_len;
            if spent + cost <= defs_room {
                spent += cost;
                chosen.push(def);
            }
        }
        // What the definitions left goes to the head; any it now covers are shown there.
        if spent < defs_room {
            head = head_lines(&context.window.head, head_room + defs_room - spent)?;
            last_head = count_chars_and_newlines(head.as_bytes()).1;
            chosen.retain(|d| d.no > last_head);
        }
        let (head_chars, _) = count_chars_and_newlines(head.as_bytes());
        let shown = (1..=last_head)
            .chain(chosen.iter().map(|d| d.no))
            .chain(first_tail..=totals.lines);
        let omitted = gaps(shown, totals.lines);
        let (first_gap, last_gap) = (*omitted.first()?, *omitted.last()?);
        let def_chars: u64 = chosen.iter().map(|d| d.chars + 1).sum();
        let facts = Facts {
            first: first_gap.first,
            last: last_gap.last,
            total_lines: totals.lines,
            lines: omitted.iter().map(|r| r.len()).sum(),
            gaps: omitted.len() as u64,
            chars: totals.chars - head_chars - tail_chars - def_chars,
        };

        let mut pieces = Vec::with_capacity(2 * omitted.len() + 2);
        if !head.is_empty() {
            pieces.push(Piece::Kept(head.to_owned()));
        }
        let mut defs = chosen.iter().peekable();
        for (i, gap) in omitted.iter().enumerate() {
            while let Some(def) = defs.next_if(|d| d.no < gap.first) {
                pieces.push(Piece::Kept(format!("{}\n", def.text)));
            }
            let mut text = if i + 1 == omitted.len() {
                facts.closing(tier, profile)
            } else {
                marker::gap(*gap)
            };
            if i + 1 < omitted.len() || !tail.is_empty() || defs.peek().is_some() {
                text.push('\n');
            }
            pieces.push(Piece::Marker(text));
        }
        // A definition just above the tail comes after the last gap.
        pieces.extend(defs.map(|def| Piece::Kept(format!("{}\n", def.text))));
        if !tail.is_empty() {
            pieces.push(Piece::Kept(tail.to_owned()));
        }
        let plan = Plan {
            shape: Shape::Read,
            pieces,
            omitted,
            omitted_chars: facts.chars,
        };
        debug_assert!(
            char_count(&plan.render()) <= budget,
            "planned within the budget"
        );
        Some(plan)
    }
}

#[cfg(test)]
mod tests;
