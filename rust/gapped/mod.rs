//! Plans that show whole lines of the input around exact gaps: each gap but the last gets a
//! short marker with its line numbers, and the last one the closing marker, which counts every
//! omitted line and character and says how to read them back (see [`marker`]). The read and
//! listing planners choose which lines to show; this says it the same way for both.
//!
//! The closing marker is sized to the budget as the clip's is: the longest wording that takes
//! at most its part of it ([`marker_part`]), so at small budgets a short one.

pub mod marker;

use crate::plan::{LineRange, Piece, Plan, Shape, gaps};
use crate::planner::Context;
use crate::sink::Block;
use crate::text::{byte_at_char, byte_at_char_from_end, char_count};
use marker::{Facts, TIERS};

/// A planner that reads an output one whole line at a time, and stops for good (declines) at
/// the first line it cannot use: a line long enough to arrive in pieces is in no patch or
/// listing.
pub trait WholeLines {
    fn declined(&self) -> bool;
    fn decline(&mut self);
    /// Reads line `no`, without its `'\n'`.
    fn line(&mut self, no: u64, text: &str);
}

/// Lines after which a planner that recognises its shape by content judges what it read, and
/// stops if that was not its shape: such outputs are homogeneous, so a prefix this long that
/// is not a listing or a patch means the whole is not, and the rest of a large log then costs
/// the planner nothing.
pub const JUDGE_AFTER: u64 = 4096;

/// The whole lines at the start of `text` within `room` characters (empty when none ends there).
#[must_use]
pub fn head_lines(text: &str, room: u64) -> &str {
    let at = byte_at_char(text, room);
    memchr::memrchr(b'\n', &text.as_bytes()[..at]).map_or("", |nl| &text[..=nl])
}

/// The last whole lines of `text` within `room` characters. `text` holds more characters than
/// `room`, so whether a line starts at the cut is known.
#[must_use]
pub fn tail_lines(text: &str, room: u64) -> &str {
    let at = byte_at_char_from_end(text, room);
    if at > 0 && text.as_bytes()[at - 1] == b'\n' {
        return &text[at..];
    }
    match memchr::memchr(b'\n', &text.as_bytes()[at..]) {
        Some(i) => &text[at + i + 1..],
        None => "",
    }
}

/// The omitted line ranges and the segments of shown text around them, as [`Frame::plan`]
/// takes them, of `pieces`: ranges of whole lines (first, last, their text without the last
/// `'\n'`), in order, of an input of `total_lines`.
#[must_use]
pub fn layout(pieces: &[(u64, u64, &str)], total_lines: u64) -> (Vec<LineRange>, Vec<String>) {
    let omitted = gaps(pieces.iter().flat_map(|&(a, b, _)| a..=b), total_lines);
    let mut segments = vec![String::new()];
    let mut next = 1;
    for &(first, last, text) in pieces {
        if first > next {
            segments.push(String::new());
        }
        if let Some(segment) = segments.last_mut() {
            segment.push_str(text);
            segment.push('\n');
        }
        next = last + 1;
    }
    if next <= total_lines {
        segments.push(String::new());
    }
    (omitted, segments)
}

/// Hands each whole line of `block` to `planner` until it declines.
pub fn feed<P: WholeLines>(planner: &mut P, block: &Block<'_>) {
    for line in block.lines() {
        if planner.declined() {
            return;
        }
        if line.continued || line.open {
            planner.decline();
            return;
        }
        planner.line(line.no, line.text);
    }
}

/// The part of the budget (1/n) a closing marker in `tier` may take at most: the full wording
/// 1/24, the compact one (exact numbers and the way back) 1/6, the terse one half.
fn marker_part(tier: marker::Tier) -> u64 {
    match tier {
        marker::Tier::Full => 24,
        marker::Tier::Compact | marker::Tier::Counted => 6,
        marker::Tier::Terse => 2,
    }
}

/// What every gapped plan is made within: the budget, its closing marker's tier and the widest
/// lengths of its markers, each with its `'\n'`.
pub struct Frame<'c> {
    pub budget: u64,
    tier: marker::Tier,
    pub closing_len: u64,
    pub gap_len: u64,
    pub context: &'c Context<'c>,
    shape: Shape,
}

impl<'c> Frame<'c> {
    /// The frame of a plan of `shape` within `budget` characters.
    #[must_use]
    pub fn new(context: &'c Context<'c>, budget: u64, shape: Shape) -> Self {
        debug_assert!(shape.gapped(), "Shape::gapped must say {} is", shape.name());
        let totals = context.totals;
        let widest = Facts::widest(context.profile.widest_line(totals.lines), totals.chars);
        let closing_len = |tier| widest.closing_len(tier, context.profile) + 1;
        let tier = TIERS
            .into_iter()
            .find(|&t| closing_len(t) <= budget / marker_part(t))
            .unwrap_or(marker::Tier::Terse);
        Frame {
            budget,
            tier,
            closing_len: closing_len(tier),
            gap_len: widest.gap_len() + 1,
            context,
            shape,
        }
    }

    /// The plan that shows `segments` around the `omitted` ranges: `segments[0]` before the
    /// first, `segments[i]` between ranges `i - 1` and `i`, the last after the last range.
    /// Each segment is whole lines with their `'\n'`; where the input's last line has none,
    /// the last segment's is dropped here, for every planner alike.
    #[must_use]
    pub fn plan(&self, omitted: Vec<LineRange>, segments: Vec<String>) -> Option<Plan> {
        let labels = vec![String::new(); omitted.len()];
        self.plan_labelled(omitted, segments, &labels)
    }

    /// The plan [`Frame::plan`] makes, where it fits the budget: for a planner that adds lines
    /// to a plan that fits, and keeps the one before when their markers grew too.
    #[must_use]
    pub fn plan_if_fits(&self, omitted: Vec<LineRange>, segments: Vec<String>) -> Option<Plan> {
        let labels = vec![String::new(); omitted.len()];
        self.build(omitted, segments, &labels)
            .filter(|plan| plan.fits(self.budget))
    }

    /// As [`Frame::plan`], each gap's marker with its label ([`marker::labelled_gap`]). The
    /// closing marker speaks for all the gaps, so a label of the last gap is said on a gap
    /// marker of its own line just before it; the caller counts that line in its budget.
    #[must_use]
    pub fn plan_labelled(
        &self,
        omitted: Vec<LineRange>,
        segments: Vec<String>,
        labels: &[String],
    ) -> Option<Plan> {
        let plan = self.build(omitted, segments, labels)?;
        debug_assert!(plan.fits(self.budget), "planned within the budget");
        Some(plan)
    }

    fn build(
        &self,
        omitted: Vec<LineRange>,
        mut segments: Vec<String>,
        labels: &[String],
    ) -> Option<Plan> {
        debug_assert_eq!(segments.len(), omitted.len() + 1);
        debug_assert_eq!(labels.len(), omitted.len());
        if !self.context.window.last_chars().ends_with('\n') {
            if let Some(last) = segments.last_mut().filter(|s| s.ends_with('\n')) {
                last.pop();
            }
        }
        let totals = self.context.totals;
        let shown: u64 = segments.iter().map(|s| char_count(s)).sum();
        let facts = Facts {
            first: omitted.first()?.first,
            last: omitted.last()?.last,
            total_lines: totals.lines,
            lines: omitted.iter().map(|r| r.len()).sum(),
            gaps: omitted.len() as u64,
            chars: totals.chars - shown,
        };
        let mut pieces = Vec::with_capacity(2 * segments.len());
        for (i, segment) in segments.into_iter().enumerate() {
            if !segment.is_empty() {
                pieces.push(Piece::Kept(segment));
            }
            let Some(gap) = omitted.get(i) else { break };
            let last = i + 1 == omitted.len();
            let label = &labels[i];
            let profile = self.context.profile;
            let said = marker::said(*gap, profile);
            let mut text = if !last {
                marker::labelled_gap(said, label)
            } else if label.is_empty() {
                facts.closing(self.tier, profile)
            } else {
                let closing = facts.closing(self.tier, profile);
                format!("{}\n{closing}", marker::labelled_gap(said, label))
            };
            // The closing marker ends its line even when it ends the output (its length was
            // sized with the newline).
            text.push('\n');
            pieces.push(Piece::Marker(text));
        }
        Some(Plan {
            shape: self.shape,
            pieces,
            omitted,
            omitted_chars: facts.chars,
        })
    }
}
