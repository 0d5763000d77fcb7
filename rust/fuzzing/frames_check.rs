//! What a plan of redrawn lines promises: every line as a terminal leaves it, each redrawn one
//! as its last frame, and one closing marker that counts the frames drawn over, exactly.

use super::program::Settings;
use crate::engine::Outcome;
use crate::markers::{plural, thousands};
use crate::plan::{LineRange, Piece};
use crate::text::char_count;

pub fn check(settings: &Settings, text: &str, out: &Outcome) {
    let plan = &out.plan;
    let mut shown = String::new();
    let mut frames = 0;
    let mut redrawn: Vec<LineRange> = Vec::new();
    for (i, line) in text.split_inclusive('\n').enumerate() {
        let body = line.strip_suffix('\n').unwrap_or(line);
        let core = body.trim_end_matches('\r');
        let last = core.rfind('\r').map_or(core, |cr| &core[cr + 1..]);
        shown.push_str(last);
        shown.push_str(&body[core.len()..]);
        shown.push_str(&line[body.len()..]);
        if last.len() < core.len() {
            frames += core.split('\r').filter(|f| !f.is_empty()).count() as u64 - 1;
            let no = i as u64 + 1;
            match redrawn.last_mut() {
                Some(range) if range.last + 1 == no => range.last = no,
                _ => redrawn.push(LineRange {
                    first: no,
                    last: no,
                }),
            }
        }
    }
    let (kept, marker) = match plan.pieces.as_slice() {
        [Piece::Kept(kept), Piece::Marker(marker)] => (kept.as_str(), marker.as_str()),
        [Piece::Marker(marker)] => ("", marker.as_str()),
        pieces => panic!("pieces {pieces:?}, {settings:?}"),
    };
    assert_eq!(kept, shown, "each line's last frame, {settings:?}");
    assert_eq!(plan.omitted, redrawn, "the redrawn lines");
    assert_eq!(plan.omitted_chars, out.totals.chars - char_count(kept));
    let said = plural(frames, "progress frame", "progress frames");
    assert!(marker.contains(&said), "{marker} lacks {said}");
    if marker.starts_with("[shapeclip: ") {
        let chars = thousands(plan.omitted_chars);
        assert!(
            marker.contains(&format!("{chars} char")),
            "{marker} lacks {chars}"
        );
    }
}
