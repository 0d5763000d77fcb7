//! What a table plan promises: the marker that counts its rows stands right under the head
//! (the input's first lines, shown whole); without it, the plan is a gapped plan (its kept
//! text is exactly the input's lines outside the omitted ranges, its markers name them); and
//! the rows and other lines it counts are every line after the head.

use super::gapped_check;
use super::numbers::number;
use super::program::Settings;
use crate::engine::Outcome;
use crate::plan::{Piece, Plan};

/// The opening of the marker that counts a table's rows.
pub const COUNT: &str = "[shapeclip: table of ";

/// The index of the counting marker among `plan`'s pieces, and its text.
pub fn count_marker(plan: &Plan) -> (usize, &str) {
    plan.pieces
        .iter()
        .enumerate()
        .find_map(|(i, p)| match p {
            Piece::Marker(t) if t.starts_with(COUNT) => Some((i, t.as_str())),
            _ => None,
        })
        .expect("a table plan counts its rows")
}

/// The rows and other lines a counting marker states.
pub fn counted(marker: &str) -> (u64, u64) {
    let rest = &marker[COUNT.len()..];
    let end = rest.find([';', ']']).expect("the marker ends");
    let mut parts = rest[..end].split(", ");
    let rows = parts.next().and_then(|p| p.split(' ').next()).map(number);
    let others = parts
        .next()
        .and_then(|p| p.split(' ').next())
        .map_or(0, number);
    (rows.expect("rows are counted"), others)
}

pub fn check(settings: &Settings, text: &str, out: &Outcome) {
    let (at, marker) = count_marker(&out.plan);
    let head: String = out.plan.pieces[..at].iter().map(Piece::text).collect();
    assert!(
        text.starts_with(&head),
        "the head is the input's first lines"
    );
    assert!(
        head.is_empty() || head.ends_with('\n'),
        "the head is whole lines"
    );
    let head_lines = head.matches('\n').count() as u64;
    let (rows, others) = counted(marker);
    assert_eq!(
        head_lines + rows + others,
        out.totals.lines,
        "every line after the head is a row or another line: {marker}"
    );
    let mut pieces = out.plan.pieces.clone();
    pieces.remove(at);
    let rest = Outcome {
        plan: Plan {
            pieces,
            ..out.plan.clone()
        },
        totals: out.totals,
        digest: None,
    };
    gapped_check::check(settings, text, &rest);
}
