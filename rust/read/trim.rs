//! A read only a little too long for the budget: it loses its longest runs of filler (blank
//! and comment-only lines, docstrings and block comments) until it fits, and keeps every
//! other line where it was.
//!
//! A read just over the budget would otherwise lose its end, which is as likely as any part
//! to hold the line the agent acts on, to keep a licence header or a block of doc comments
//! whole. Runs go longest first, and only runs that save more than the marker standing for
//! them; when no choice of runs fits, the read is cut ([`super::cut`]).

use super::Line;
use crate::gapped::Frame;
use crate::plan::Plan;

/// The plan that drops runs of filler from `all` (every line of the input, with whether it is
/// filler), or `None` when dropping every worthwhile run still leaves it too long.
pub(super) fn plan(frame: &Frame<'_>, all: &[(Line, bool)]) -> Option<Plan> {
    let total = frame.context.totals.chars;
    // Runs of filler, by index into `all`, with the characters (newlines included) each holds.
    // The input's last line has no newline to end a marker's line with: it is never dropped.
    let mut runs: Vec<(usize, usize, u64)> = Vec::new();
    let mut at = 0;
    while at + 1 < all.len() {
        if !all[at].1 {
            at += 1;
            continue;
        }
        let start = at;
        let mut chars = 0;
        while at + 1 < all.len() && all[at].1 {
            chars += all[at].0.chars + 1;
            at += 1;
        }
        if chars > frame.gap_len {
            runs.push((start, at, chars));
        }
    }
    // Longest first; the earlier of two alike, so the choice is the same on every run.
    runs.sort_by(|a, b| b.2.cmp(&a.2).then(a.0.cmp(&b.0)));
    let mut dropped = 0;
    let mut chosen = 0;
    let fits = |dropped: u64, chosen: u64| {
        total - dropped + (chosen - 1) * frame.gap_len + frame.closing_len <= frame.budget
    };
    loop {
        let &(_, _, chars) = runs.get(chosen)?;
        dropped += chars;
        chosen += 1;
        if fits(dropped, chosen as u64) {
            break;
        }
    }
    let mut runs = runs[..chosen].to_vec();
    runs.sort_by_key(|r| r.0);
    let mut pieces = Vec::with_capacity(all.len());
    let mut next = 0;
    for &(start, end, _) in &runs {
        pieces.extend(
            all[next..start]
                .iter()
                .map(|(l, _)| (l.no, l.no, l.text.as_str())),
        );
        next = end;
    }
    pieces.extend(
        all[next..]
            .iter()
            .map(|(l, _)| (l.no, l.no, l.text.as_str())),
    );
    // Dropping whole runs may free more than the read was over by: the first lines of the
    // runs dropped take that back.
    let folded: Vec<super::Folded> = runs
        .iter()
        .map(|&(start, end, chars)| super::Folded {
            lines: all[start..end].iter().map(|(l, _)| l).collect(),
            chars,
        })
        .collect();
    super::plan_revealing(frame, &pieces, &folded)
}
