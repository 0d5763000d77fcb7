//! The closing marker of a search plan: what it left out, with exact counts, and how to get it.
//!
//! A plan must fit its budget with its marker, whose numbers are known only once the plan is.
//! So the marker is sized first: [`widest_marker`] words it with numbers at least as long as
//! any this input could need ([`Facts::widest`]), for either listing, and the plan takes the
//! longest wording ([`Tier`]) that stays within a quarter of the budget. [`marker`] then words
//! it with the real numbers, which never make it longer.

use super::SearchPlanner;
use super::table::MAX_MATCHES_SHOWN;
use crate::markers::{plural, thousands, widest_len, word};
use crate::way_back::WayBack;

/// Marker sizes, longest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Tier {
    Full,
    Compact,
}

/// How the closing marker is worded: its size, and the stored copy it points into, if any.
#[derive(Debug, Clone, Copy)]
pub(super) struct Closing<'a> {
    pub(super) tier: Tier,
    pub(super) way_back: Option<&'a WayBack>,
}

#[derive(Debug, Clone, Copy)]
pub(super) enum Listing {
    Grouped {
        with_rows: u64,
    },
    Rolled {
        named: u64,
        rolled: u64,
        dir_lines: u64,
    },
}

/// The numbers a marker states.
#[derive(Debug, Clone, Copy)]
pub(super) struct Facts {
    pub(super) total_matches: u64,
    pub(super) shown_matches: u64,
    pub(super) files: u64,
    pub(super) listing: Listing,
    pub(super) others: u64,
    pub(super) others_shown: u64,
    pub(super) context_mode: bool,
}

impl Facts {
    /// Facts whose every number is at least as long, printed, as any real one for this input,
    /// in the listing whose marker is longer, so its marker bounds the real marker's length.
    pub(super) fn widest(planner: &SearchPlanner) -> Self {
        let table = &planner.table;
        let n = table.matches.max(table.file_count()).max(table.other_lines);
        Facts {
            total_matches: n,
            shown_matches: 0,
            files: n,
            listing: Listing::Rolled {
                named: n,
                rolled: n,
                dir_lines: n,
            },
            others: n.max(1),
            others_shown: 0,
            context_mode: true,
        }
    }

    /// The real totals, keeping the listing and shown counts already set.
    pub(super) fn exact(self, planner: &SearchPlanner) -> Self {
        let table = &planner.table;
        Facts {
            total_matches: table.matches,
            files: table.file_count(),
            others: table.other_lines,
            context_mode: planner.context_mode,
            ..self
        }
    }
}

/// The longest marker this input could need, whichever listing it describes.
pub(super) fn widest_marker(planner: &SearchPlanner, closing: Closing<'_>) -> u64 {
    let rolled = Facts::widest(planner);
    let n = rolled.files;
    let grouped = Facts {
        listing: Listing::Grouped { with_rows: n },
        ..rolled
    };
    widest_len([rolled, grouped], |facts| marker(closing, facts))
}

/// The marker: what was omitted, exactly, and how to get it. It ends the output, so it ends
/// its line: a shell's prompt after a printed plan starts on a line of its own.
pub(super) fn marker(closing: Closing<'_>, facts: &Facts) -> String {
    let omitted = facts.total_matches - facts.shown_matches;
    let lines = |n: u64| if n == 1 { "line" } else { "lines" };
    // Each singular wording is no longer than its plural, so `widest_marker` bounds it.
    if closing.tier == Tier::Compact {
        let way = closing
            .way_back
            .map(|w| format!("; {}", w.show_fixed("PATTERN")))
            .unwrap_or_default();
        return format!(
            "[shapeclip: {} of {} matched {} omitted; {}{way}]\n",
            thousands(omitted),
            thousands(facts.total_matches),
            lines(facts.total_matches),
            plural(facts.files, "file", "files"),
        );
    }
    let listing = match facts.listing {
        Listing::Grouped { with_rows } => {
            let files = if facts.files == 1 {
                "1 file is listed with its exact match count".to_owned()
            } else {
                format!(
                    "All {} files are listed with exact match counts",
                    thousands(facts.files)
                )
            };
            format!(
                "{files}; {} {} first matches (up to {MAX_MATCHES_SHOWN} each).",
                thousands(with_rows),
                word(with_rows, "shows its", "show their"),
            )
        }
        Listing::Rolled {
            named,
            rolled,
            dir_lines,
        } => format!(
            "Of {}, {} {} and {} {} in {}.",
            plural(facts.files, "file", "files"),
            thousands(named),
            word(
                named,
                "is named with its exact count",
                "are named with exact match counts"
            ),
            thousands(rolled),
            word(rolled, "is counted", "are counted"),
            plural(dir_lines, "directory line", "directory lines"),
        ),
    };
    let others = if facts.others == 0 {
        String::new()
    } else {
        format!(
            " {} of {} other {} (not search results) omitted.",
            thousands(facts.others - facts.others_shown),
            thousands(facts.others),
            lines(facts.others),
        )
    };
    let context = if facts.context_mode {
        ", fewer context lines"
    } else {
        ""
    };
    // With a stored copy the omitted rows are read from it; without, the search is run again.
    let way = match closing.way_back {
        Some(stored) => format!(
            "To read omitted rows, run {} with a file's path or a word as PATTERN, or read {}",
            stored.show_fixed("PATTERN"),
            stored.path(),
        ),
        None => format!(
            "To get the rest, search again narrower (a more specific pattern, a subdirectory{context}), or use -l for the file list and -c for per-file counts"
        ),
    };
    format!(
        "[shapeclip: {} of {} matched {} omitted. {listing}{others} {way}.]\n",
        thousands(omitted),
        thousands(facts.total_matches),
        lines(facts.total_matches),
    )
}
