//! A plan says what a compression keeps and what it omits; rendering turns it into text.
//!
//! Planning and rendering are separate steps so that a later stage (a digest of the omitted part)
//! can write into a marker without planning again, and so that every planner's output is
//! accounted the same way: a plan's rendered length is at most the budget it was made for.

use crate::lookalike::disarm;
use crate::text::char_count;

/// Which planner produced the output.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// The input fitted the budget and is returned unchanged.
    Passthrough,
    /// Line-aware head and tail with a marker where the middle was.
    Clip,
    /// Search output grouped by file with exact counts (grep, ripgrep).
    Search,
    /// A build or test log: errors with their traces, summaries, warnings once per kind.
    Log,
    /// A file read: its head, the definitions of its middle, its last lines.
    Read,
    /// A listing of paths: every directory, and as many of each one's entries as fit.
    Listing,
    /// A unified diff: every file and hunk header, whole hunks while they fit.
    Diff,
    /// A compiler's or linter's diagnostics: every header and place, then their code frames.
    Diagnostics,
    /// Aligned columns under a header: rows counted by a column, outliers and whole rows kept.
    Table,
    /// JSON or JSON Lines: minified, as a table, or a summary that keeps its values.
    Json,
    /// A search's output that is no map of files: its definitions, first and last lines.
    Matches,
    /// A shell's output as a terminal leaves it: each line redrawn by progress its last frame.
    Frames,
}

impl Shape {
    /// Every shape: Python reads their names from here (`shapeclip._core.SHAPES`).
    pub const ALL: [Shape; 12] = [
        Shape::Passthrough,
        Shape::Clip,
        Shape::Search,
        Shape::Log,
        Shape::Read,
        Shape::Listing,
        Shape::Diff,
        Shape::Diagnostics,
        Shape::Table,
        Shape::Json,
        Shape::Matches,
        Shape::Frames,
    ];

    /// Whether this shape's plans are made by `gapped::Frame`: whole lines of the input
    /// around gaps, each named by a marker. The fuzz checks hold every such plan to that
    /// (`fuzzing::gapped_check`), so a gapped shape needs no check of its own.
    #[must_use]
    pub fn gapped(self) -> bool {
        matches!(
            self,
            Shape::Read
                | Shape::Listing
                | Shape::Diff
                | Shape::Diagnostics
                | Shape::Table
                | Shape::Matches
        )
    }

    /// The name Python sees as `result.shape`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Shape::Passthrough => "passthrough",
            Shape::Clip => "clip",
            Shape::Search => "search",
            Shape::Log => "log",
            Shape::Read => "read",
            Shape::Listing => "listing",
            Shape::Diff => "diff",
            Shape::Diagnostics => "diagnostics",
            Shape::Table => "table",
            Shape::Json => "json",
            Shape::Matches => "matches",
            Shape::Frames => "frames",
        }
    }
}

/// An inclusive range of 1-based line numbers, some or all of whose text was omitted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LineRange {
    /// The first line of the range.
    pub first: u64,
    /// The last line of the range, at least `first`.
    pub last: u64,
}

impl LineRange {
    /// The number of lines in the range.
    #[must_use]
    #[allow(
        clippy::len_without_is_empty,
        reason = "an inclusive range of lines holds at least one"
    )]
    pub fn len(self) -> u64 {
        self.last - self.first + 1
    }
}

/// The ranges of an input of `total_lines` lines that `shown`, line numbers in increasing
/// order (repeats allowed), leaves out.
#[must_use]
pub fn gaps(shown: impl IntoIterator<Item = u64>, total_lines: u64) -> Vec<LineRange> {
    let mut gaps = Vec::new();
    let mut next = 1;
    for line in shown.into_iter().chain(std::iter::once(total_lines + 1)) {
        if line > next {
            gaps.push(LineRange {
                first: next,
                last: line - 1,
            });
        }
        next = next.max(line + 1);
    }
    gaps
}

/// One part of the output, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Piece {
    /// Input text shown as it was, and nothing else: [`Plan::render`] disarms the markers it
    /// may imitate, which it could not do to text mixed with shapeclip's own.
    Kept(String),
    /// What shapeclip writes: a label for a cut, what was dropped and how to get it back.
    Marker(String),
}

/// What an output keeps of the input and what it says in place of the rest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    /// The planner that made it.
    pub shape: Shape,
    /// The output's parts, in order: [`Plan::render`] joins them.
    pub pieces: Vec<Piece>,
    /// Lines with at least one omitted character, in order.
    pub omitted: Vec<LineRange>,
    /// Characters of the input that the output does not show.
    pub omitted_chars: u64,
}

impl Plan {
    /// Lines with at least one omitted character.
    #[must_use]
    pub fn omitted_lines(&self) -> u64 {
        self.omitted.iter().map(|r| r.len()).sum()
    }

    /// Whether the plan renders to at most `room` characters: the one test of an output
    /// against a budget, by which the engine keeps a planner's plan or drops it, and a planner
    /// chooses among the forms it could give.
    #[must_use]
    pub fn fits(&self, room: u64) -> bool {
        char_count(&self.render()) <= room
    }

    /// The output text: the pieces, concatenated, with the input's look-alike markers
    /// disarmed unless the input is passed through (see `lookalike.rs`).
    #[must_use]
    pub fn render(&self) -> String {
        let len = self.pieces.iter().map(|p| p.text().len()).sum();
        let mut out = String::with_capacity(len);
        for piece in &self.pieces {
            match piece {
                Piece::Kept(text) if self.shape != Shape::Passthrough => {
                    out.push_str(&disarm(text));
                }
                _ => out.push_str(piece.text()),
            }
        }
        out
    }
}

impl Piece {
    /// The piece's text as planned (before [`Plan::render`] disarms look-alike markers).
    #[must_use]
    pub fn text(&self) -> &str {
        match self {
            Piece::Kept(s) | Piece::Marker(s) => s,
        }
    }
}
