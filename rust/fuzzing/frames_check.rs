//! What a plan of redrawn lines promises: every line as a terminal leaves it, each redrawn one
//! as its last frame, and one closing marker that counts the frames drawn over, exactly; or,
//! where that does not fit, the first and the last lines so, around one marker that names the
//! lines between and counts every frame.

use super::program::Settings;
use crate::engine::Outcome;
use crate::frames::ranges;
use crate::markers::{plural, thousands};
use crate::plan::Piece;
use crate::text::char_count;

/// Each line of `text` as a terminal leaves it (with its `'\n'`), whether it was redrawn, and
/// the frames with text drawn over in all of them; computed naively.
fn terminal(text: &str) -> (Vec<(String, bool)>, u64) {
    let mut lines = Vec::new();
    let mut frames = 0;
    for line in text.split_inclusive('\n') {
        let body = line.strip_suffix('\n').unwrap_or(line);
        let core = body.trim_end_matches('\r');
        let last = core.rfind('\r').map_or(core, |cr| &core[cr + 1..]);
        let redrawn = last.len() < core.len();
        if redrawn {
            frames += core.split('\r').filter(|f| !f.is_empty()).count() as u64 - 1;
        }
        lines.push((format!("{last}{}", &line[core.len()..]), redrawn));
    }
    (lines, frames)
}

pub fn check(settings: &Settings, text: &str, out: &Outcome) {
    let plan = &out.plan;
    let (lines, frames) = terminal(text);
    let (head, marker, tail) = match plan.pieces.as_slice() {
        [Piece::Kept(head), Piece::Marker(marker), Piece::Kept(tail)] => {
            (head.as_str(), marker.as_str(), tail.as_str())
        }
        [Piece::Kept(head), Piece::Marker(marker)] => (head.as_str(), marker.as_str(), ""),
        [Piece::Marker(marker), Piece::Kept(tail)] => ("", marker.as_str(), tail.as_str()),
        [Piece::Marker(marker)] => ("", marker.as_str(), ""),
        pieces => panic!("pieces {pieces:?}, {settings:?}"),
    };
    assert_eq!(
        plan.omitted_chars,
        out.totals.chars - char_count(head) - char_count(tail),
        "every character shown or counted, {settings:?}"
    );
    if marker.starts_with("[shapeclip: ") {
        let chars = thousands(plan.omitted_chars);
        assert!(
            marker.contains(&format!("{chars} char")),
            "{marker} lacks {chars}"
        );
    }
    let shown: String = lines.iter().map(|(line, _)| line.as_str()).collect();
    let redrawn = |range: std::ops::Range<usize>| {
        lines[range.clone()]
            .iter()
            .zip(range)
            .filter(|((_, redrawn), _)| *redrawn)
            .map(|(_, i)| i as u64 + 1)
            .collect::<Vec<u64>>()
    };
    if head == shown {
        let said = plural(frames, "progress frame", "progress frames");
        assert!(
            marker.contains(&said),
            "{marker} lacks {said}, {settings:?}"
        );
        assert!(tail.is_empty(), "{settings:?}");
        assert_eq!(
            plan.omitted,
            ranges(&redrawn(0..lines.len())),
            "{settings:?}"
        );
        return;
    }
    // The ends: whole lines as a terminal leaves them, and the marker names the lines between.
    let head_lines = head.split_inclusive('\n').count();
    let tail_lines = tail.split_inclusive('\n').count();
    let first = head_lines + 1;
    let last = lines.len() - tail_lines;
    assert!(first <= last, "a gap, {settings:?}");
    let take = |range: std::ops::Range<usize>| -> String {
        lines[range].iter().map(|(line, _)| line.as_str()).collect()
    };
    assert_eq!(head, take(0..head_lines), "the first lines, {settings:?}");
    assert_eq!(
        tail,
        take(last..lines.len()),
        "the last lines, {settings:?}"
    );
    let range = if first == last {
        format!("line {}", thousands(first as u64))
    } else {
        format!(
            "lines {}-{}",
            thousands(first as u64),
            thousands(last as u64)
        )
    };
    assert!(
        marker.contains(&range),
        "{marker} lacks {range}, {settings:?}"
    );
    assert!(marker.contains("progress frames"), "{marker}, {settings:?}");
    let omitted = redrawn(0..head_lines)
        .into_iter()
        .chain(first as u64..=last as u64)
        .chain(redrawn(last..lines.len()));
    assert_eq!(
        plan.omitted,
        ranges(&omitted.collect::<Vec<u64>>()),
        "{settings:?}"
    );
}
