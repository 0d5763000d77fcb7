//! What a gapped plan (a read, a listing, a diff) promises: its kept text is exactly the input's lines
//! outside the omitted ranges, whole and in order, and its markers name those ranges.

use super::program::Settings;
use crate::engine::Outcome;
use crate::markers::thousands;
use crate::plan::{Piece, Plan};
use crate::text::char_count;

/// The texts of the plan's kept pieces (`kept`) or of its markers, in order.
fn texts(plan: &Plan, kept: bool) -> impl Iterator<Item = &str> {
    plan.pieces.iter().filter_map(move |p| match p {
        Piece::Kept(t) if kept => Some(t.as_str()),
        Piece::Marker(t) if !kept => Some(t.as_str()),
        _ => None,
    })
}

pub fn check(settings: &Settings, text: &str, out: &Outcome) {
    let plan = &out.plan;
    let mut outside = String::new();
    let mut ranges = plan.omitted.iter().peekable();
    for (i, line) in text.split_inclusive('\n').enumerate() {
        let no = i as u64 + 1;
        while ranges.next_if(|r| r.last < no).is_some() {}
        if ranges.peek().is_none_or(|r| no < r.first) {
            outside.push_str(line);
        }
    }
    let kept: String = texts(plan, true).collect();
    assert_eq!(kept, outside, "kept lines, {settings:?}");
    assert_eq!(
        plan.omitted_chars,
        out.totals.chars - char_count(&kept),
        "omitted characters"
    );
    let markers: Vec<&str> = texts(plan, false).collect();
    assert_eq!(markers.len(), plan.omitted.len(), "one marker per gap");
    let (first, last) = (
        plan.omitted[0].first,
        plan.omitted[plan.omitted.len() - 1].last,
    );
    for (marker, range) in markers.iter().zip(&plan.omitted).take(markers.len() - 1) {
        let said = if range.first == range.last {
            format!("[line {} omitted]", range.first)
        } else {
            format!("[lines {}-{} omitted]", range.first, range.last)
        };
        assert_eq!(marker.trim_end(), said, "gap marker");
    }
    let closing = markers[markers.len() - 1];
    let lines: u64 = plan.omitted.iter().map(|r| r.len()).sum();
    let gap = plan.omitted[plan.omitted.len() - 1];
    assert!(
        closing.contains(&format!("lines {}-{} ", thousands(first), thousands(last)))
            || closing.contains(&format!("lines {}-{} ", gap.first, gap.last))
            || closing.contains(&format!(
                "{} of {} lines",
                thousands(lines),
                thousands(out.totals.lines)
            ))
            || closing.contains(&format!(
                "[{} lines in {} gaps omitted]",
                thousands(lines),
                plan.omitted.len()
            )),
        "closing marker {closing:?} for lines {first}-{last}"
    );
}
