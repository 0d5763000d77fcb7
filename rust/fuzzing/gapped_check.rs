//! What a gapped plan (a read, a listing, a diff) promises: its kept text is exactly the input's lines
//! outside the omitted ranges, whole and in order, and its markers name those ranges.

use super::numbers::{number, printed_on, reads_again};
use super::program::Settings;
use std::borrow::Cow;

use crate::diagnostics::{
    self,
    line::{Line, Severity},
};
use crate::diff::hunk_counts;
use crate::engine::Outcome;
use crate::gapped::marker::labelled_gap;
use crate::markers::thousands;
use crate::plan::{LineRange, Piece, Plan, Shape};
use crate::text::ansi::clean;
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
    let first = plan.omitted[0].first;
    let lines_of = |range: LineRange| -> Vec<&str> {
        let from = usize::try_from(range.first - 1).unwrap_or(usize::MAX);
        text.split('\n')
            .skip(from)
            .take(usize::try_from(range.len()).unwrap_or(usize::MAX))
            .collect()
    };
    let final_marker = markers.len() - 1;
    let shown_lines: Vec<Cow<'_, str>> = if plan.shape == Shape::Diagnostics {
        text.split('\n').map(clean).collect()
    } else {
        Vec::new()
    };
    for (i, (marker, range)) in markers.iter().zip(&plan.omitted).enumerate() {
        // The last gap's label, if any, is a line of its own above the closing marker.
        let said = match marker.trim_end().split_once('\n') {
            Some((gap, _)) if i == final_marker => gap,
            _ if i == final_marker => continue,
            _ => marker.trim_end(),
        };
        // The output's numbers, or a numbered read's as its viewer printed them.
        let viewer = printed_on(text, range.first, range.last)
            .map(|(first, last)| labelled_gap(LineRange { first, last }, ""));
        let label = [Some(labelled_gap(*range, "")), viewer]
            .into_iter()
            .flatten()
            .find_map(|bare| said.strip_prefix(bare.trim_end_matches(']')))
            .and_then(|rest| rest.strip_suffix(']'))
            .unwrap_or_else(|| panic!("gap marker {said:?} for {range:?}"));
        assert!(
            label.is_empty()
                || matches!(
                    plan.shape,
                    Shape::Diff | Shape::Listing | Shape::Diagnostics
                ),
            "label {label:?}"
        );
        if plan.shape == Shape::Listing && !label.is_empty() {
            check_tally(label, *range);
        }
        if plan.shape == Shape::Diagnostics {
            check_diagnostics(&shown_lines, *range, label);
        }
        assert!(
            label.is_empty() || label.starts_with(": "),
            "label {label:?}"
        );
        if plan.shape == Shape::Diff {
            // Body lines never start with `@@`: every hunk header in the gap is counted.
            let hunks = lines_of(*range)
                .iter()
                .filter(|l| hunk_counts(l).is_some())
                .count();
            let counted = label
                .trim_start_matches(": ")
                .split(", ")
                .find_map(|part| {
                    let (n, noun) = part.split_once(' ')?;
                    matches!(noun, "hunk" | "hunks").then(|| n.replace(',', ""))
                })
                .map_or(0, |n| n.parse::<usize>().expect("a count"));
            assert_eq!(counted, hunks, "hunks in {said:?}");
        }
    }
    let closing = markers[markers.len() - 1];
    // A file read's offset reads the first omitted line again, by the file's own number.
    if let Some((_, rest)) = closing.split_once("offset ") {
        let digits = rest.split(' ').next().unwrap_or_default();
        assert!(reads_again(text, first, number(digits)), "{closing}");
    }
    check_closing(text, plan, out.totals.lines, closing);
}

/// A diagnostics plan's gap counts the diagnostics whose headers it holds, of `lines` (the
/// input's lines as a terminal shows them): a line that opens with its place, or a header
/// whose next line is its place; never an error, which leaves the output to the log planner.
/// (A gap may say nothing only where the planner kept too many numbers to count them all.)
fn check_diagnostics(lines: &[Cow<'_, str>], range: LineRange, label: &str) {
    if label.is_empty() {
        return;
    }
    let (mut warnings, mut findings) = (0, 0);
    for no in range.first..=range.last {
        let at = usize::try_from(no - 1).expect("a line number");
        let severity = match diagnostics::line::read(&lines[at]) {
            Line::Placed(severity, _) => Some(severity),
            Line::Header(severity) => lines
                .get(at + 1)
                .is_some_and(|next| diagnostics::line::read(next) == Line::Arrow)
                .then_some(severity),
            _ => None,
        };
        match severity {
            Some(Severity::Error) => {
                panic!("a diagnostics plan of output with an error, line {no}")
            }
            Some(Severity::Warning) => warnings += 1,
            Some(Severity::Finding) => findings += 1,
            None => {}
        }
    }
    assert_eq!(
        label,
        diagnostics::line::counted(warnings, findings),
        "{range:?}"
    );
}

/// The closing marker names the range of every gap, or the last gap's, or counts them.
fn check_closing(text: &str, plan: &Plan, total_lines: u64, closing: &str) {
    let (first, last) = (
        plan.omitted[0].first,
        plan.omitted[plan.omitted.len() - 1].last,
    );
    let lines: u64 = plan.omitted.iter().map(|r| r.len()).sum();
    let gap = plan.omitted[plan.omitted.len() - 1];
    let viewer = |first, last, grouped: bool| {
        printed_on(text, first, last).map_or_else(String::new, |(a, b)| {
            if grouped {
                format!("lines {}-{}", thousands(a), thousands(b))
            } else {
                format!("lines {a}-{b}")
            }
        })
    };
    let (all, last_gap) = (
        viewer(first, last, true),
        viewer(gap.first, gap.last, false),
    );
    assert!(
        closing.contains(&format!("lines {}-{} ", thousands(first), thousands(last)))
            || closing.contains(&format!("lines {}-{} ", gap.first, gap.last))
            || (!all.is_empty() && closing.contains(&format!("{all} omitted")))
            || (!last_gap.is_empty() && closing.contains(&format!("[{last_gap} omitted]")))
            || closing.contains(&format!(
                "{} of {} lines",
                thousands(lines),
                thousands(total_lines)
            ))
            || closing.contains(&format!(
                "[{} lines in {} gaps omitted]",
                thousands(lines),
                plan.omitted.len()
            )),
        "closing marker {closing:?} for lines {first}-{last}"
    );
}

/// A listing's gap tallies its paths by directory (`: 12 paths, by directory under src/: a/
/// 5; b/{* 3, c/ 4}`, or `...: a/ 5; 2 more directories, 7 paths`): the counts add up to the
/// paths said, no more than the gap's lines.
fn check_tally(label: &str, range: LineRange) {
    let (paths, places) = label
        .strip_prefix(": ")
        .and_then(|l| l.split_once(", by directory"))
        .unwrap_or_else(|| panic!("tally {label:?}"));
    let said = number(paths.split(' ').next().expect("a count"));
    let places = places.rsplit_once(": ").map_or(places, |(_, p)| p);
    // The directories not named are counted last: `; 5 more directories, 841 paths`.
    let (places, others) = match places.rsplit_once("; ") {
        Some((named, rest)) if rest.contains(" more director") => {
            let (_, paths) = rest.split_once(", ").expect("their paths");
            (named, number(paths.split(' ').next().expect("a count")))
        }
        _ => (places, 0),
    };
    let counted: u64 = others
        + places
            .split("; ")
            .flat_map(|p| p.split(", "))
            .map(|place| {
                let count = place.rsplit_once(' ').expect("a count").1;
                number(count.trim_end_matches('}'))
            })
            .sum::<u64>();
    assert_eq!(counted, said, "tally {label:?}");
    assert!(said <= range.len(), "tally {label:?} of {range:?}");
}
