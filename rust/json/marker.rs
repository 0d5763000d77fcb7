//! The note that opens every JSON plan: which form the output is in, how to read it, and the
//! way back to the original. Like every marker it is sized to the budget: the longest tier
//! (the gapped plans' tiers) that takes at most its part of it ([`part`]).
//!
//! A summary's items are named by their index in their array and, when the input has more than
//! one line, by their lines; the way back is then the store's `show` (or `sed -n`, or a read's
//! offset and limit) with those lines, and for a one-line input `jq` with the item's path.

use std::fmt::Write as _;

pub use crate::gapped::marker::{TIERS, Tier};
use crate::markers::{plural, thousands};
use crate::profile::{Profile, ToolKind};
use crate::sink::Totals;

/// The part of the budget (1/n) a note in `tier` may take at most.
#[must_use]
pub fn part(tier: Tier) -> u64 {
    match tier {
        Tier::Full => 8,
        Tier::Compact | Tier::Counted => 4,
        Tier::Terse => 2,
    }
}

/// The form a JSON plan shows the input in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// Minified, `dropped` characters of whitespace left out.
    Minified { dropped: u64 },
    /// A table of `records` objects; `lines` when they are the documents of JSON Lines.
    Table { records: u64, lines: bool },
    /// A summary.
    Summary,
}

/// The note for `form` in `tier`, on one line, without its `'\n'`.
#[must_use]
pub fn note(form: Form, tier: Tier, totals: &Totals, profile: &Profile) -> String {
    let size = format!(
        "{}, {}",
        plural(totals.lines, "line", "lines"),
        plural(totals.chars, "char", "chars")
    );
    let tool = crate::clip::marker::tool_words(profile);
    match (form, tier) {
        (Form::Summary, Tier::Full) => format!(
            "[shapeclip: a summary of this JSON {tool}output ({size}): values are as written, \
             each \u{2026} says what it leaves out and how much, and the key paths come last \
             with their counts. {}]",
            item_hint(totals, profile)
        ),
        (Form::Summary, Tier::Compact) => format!(
            "[shapeclip: a JSON summary of {size}; \u{2026} marks what is left out{}]",
            short_hint(totals, profile)
        ),
        (Form::Summary, Tier::Counted) => {
            format!("[shapeclip: a JSON summary of {size}; \u{2026} marks what is left out]")
        }
        (Form::Summary, Tier::Terse) => "[JSON summary; \u{2026} marks cuts]".to_owned(),
        (Form::Minified { dropped }, Tier::Full) => format!(
            "[shapeclip: this JSON {tool}output ({size}) is shown minified: {} of whitespace \
             between tokens left out, nothing else.{}]",
            plural(dropped, "char", "chars"),
            original(totals, profile)
        ),
        (Form::Minified { dropped }, Tier::Compact | Tier::Counted) => format!(
            "[shapeclip: JSON minified, {} of whitespace left out]",
            plural(dropped, "char", "chars")
        ),
        (Form::Minified { .. }, Tier::Terse) => "[JSON minified]".to_owned(),
        (Form::Table { records, lines }, Tier::Full) => format!(
            "[shapeclip: this JSON {tool}output ({size}), {} with the same keys, is shown as a \
             table: the header names the keys in order, and each row holds one object's values \
             as written, separated by commas; only whitespace, braces and the repeated keys are \
             left out.{}]",
            if lines {
                format!("{} of one object each", plural(records, "line", "lines"))
            } else {
                format!("an array of {}", plural(records, "object", "objects"))
            },
            original(totals, profile)
        ),
        (Form::Table { records, .. }, Tier::Compact | Tier::Counted) => format!(
            "[shapeclip: JSON table of {}: the keys, then one row of values each]",
            plural(records, "object", "objects")
        ),
        (Form::Table { .. }, Tier::Terse) => "[JSON table: keys, then rows]".to_owned(),
    }
}

/// How to see an item a summary left out, in a sentence.
fn item_hint(totals: &Totals, profile: &Profile) -> String {
    let lines = totals.lines > 1;
    if let Some(way) = &profile.way_back {
        return if lines {
            format!(
                "To see items, run {} with the lines a \u{2026} names, or read {} with that \
                 offset and limit.",
                way.show_range("A", "B"),
                way.path()
            )
        } else {
            format!(
                "To see an item, run {} | jq '.PATH[N]' with the path and index a \u{2026} \
                 names.",
                way.show_range("1", "1")
            )
        };
    }
    match (profile.kind, lines) {
        (kind, true) if kind.reruns() => "To see items, run the command again piped through \
                                    sed -n 'A,Bp' with the lines a \u{2026} names."
            .to_owned(),
        (kind, false) if kind.reruns() => "To see an item, run the command again piped through \
                                     jq '.PATH[N]' with the path and index a \u{2026} names."
            .to_owned(),
        (ToolKind::FileRead, true) => "To see items, read the file again with the offset and \
                                       limit of the lines a \u{2026} names."
            .to_owned(),
        (ToolKind::FileRead, false) => "To see an item, run jq '.PATH[N]' on the file with the \
                                        path and index a \u{2026} names."
            .to_owned(),
        _ => "To see an item, call the tool again for a narrower result.".to_owned(),
    }
}

/// The way back in a few words, after `"; "`, or nothing.
fn short_hint(totals: &Totals, profile: &Profile) -> String {
    let lines = totals.lines > 1;
    if let Some(way) = &profile.way_back {
        let (first, last) = if lines { ("A", "B") } else { ("1", "1") };
        return format!("; {}", way.show_range(first, last));
    }
    match (profile.kind, lines) {
        (kind, true) if kind.reruns() => "; re-run | sed -n 'A,Bp'".to_owned(),
        (kind, false) if kind.reruns() => "; re-run | jq".to_owned(),
        (ToolKind::FileRead, true) => "; read offset A limit N".to_owned(),
        _ => String::new(),
    }
}

/// The way back to the original of a lossless form, after a sentence, or nothing.
fn original(totals: &Totals, profile: &Profile) -> String {
    if let Some(way) = &profile.way_back {
        return format!(
            " The original: {}, or read {}.",
            way.show_lines(1, totals.lines),
            way.path()
        );
    }
    match profile.kind {
        kind if kind.reruns() => " The original: run the command again.".to_owned(),
        ToolKind::FileRead => " The original: read the file again.".to_owned(),
        _ => String::new(),
    }
}

/// The line in a record array where items `first..=last` (of an array, or documents of JSON
/// Lines) are left out, with the lines that hold them when the input has more than one.
#[must_use]
pub fn elision(first: u64, last: u64, lines: Option<(u64, u64)>, stream: bool) -> String {
    let n = last - first + 1;
    let mut text = if stream {
        format!("\u{2026}{}", plural(n, "document", "documents"))
    } else if n == 1 {
        format!("\u{2026}1 item [{first}]")
    } else {
        format!("\u{2026}{} items [{first}-{last}]", thousands(n))
    };
    if let Some((a, b)) = lines {
        if a == b {
            let _ = write!(text, ", line {a}");
        } else {
            let _ = write!(text, ", lines {a}-{b}");
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::way_back::WayBack;

    fn totals(lines: u64) -> Totals {
        Totals {
            chars: 123_456,
            lines,
            newlines: lines,
        }
    }

    #[test]
    fn the_summary_note_names_the_way_back_for_each_kind() {
        let shell = Profile::new("shell", Some("bash"), 1, 1).unwrap();
        let full = note(Form::Summary, Tier::Full, &totals(4000), &shell);
        assert!(full.starts_with(
            "[shapeclip: a summary of this JSON bash output (4,000 lines, 123,456 chars)"
        ));
        assert!(full.ends_with("sed -n 'A,Bp' with the lines a \u{2026} names.]"));
        assert!(note(Form::Summary, Tier::Full, &totals(1), &shell).contains("jq '.PATH[N]'"));
        let mut stored = shell.clone();
        stored.way_back = Some(WayBack::Stored {
            id: "3f9a2c1b7d04".into(),
            path: "/s/3f9a2c1b7d04.out".into(),
        });
        assert!(
            note(Form::Summary, Tier::Compact, &totals(9), &stored)
                .ends_with("; shapeclip show 3f9a2c1b7d04 --lines A:B]")
        );
        assert!(
            note(
                Form::Minified { dropped: 1 },
                Tier::Full,
                &totals(9),
                &stored
            )
            .contains("1 char of whitespace")
        );
    }

    #[test]
    fn elisions_count_items_and_name_their_lines() {
        assert_eq!(
            elision(1, 147, Some((6, 590)), false),
            "\u{2026}147 items [1-147], lines 6-590"
        );
        assert_eq!(
            elision(5, 5, Some((9, 9)), false),
            "\u{2026}1 item [5], line 9"
        );
        assert_eq!(
            elision(2, 1001, None, false),
            "\u{2026}1,000 items [2-1001]"
        );
        assert_eq!(
            elision(1, 2, Some((2, 3)), true),
            "\u{2026}2 documents, lines 2-3"
        );
    }
}
