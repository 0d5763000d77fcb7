//! The words of the clip's marker: what was cut, exactly, and how to get it back.
//!
//! The marker is a contract with the model that reads it. Every number is exact (the token
//! figure is characters / 4 rounded up, and says it is an estimate), and the hint names a
//! concrete way to fetch the omitted lines for the kind of tool that produced them. Smaller
//! budgets get shorter tiers of the same statement; the smallest is a bare ellipsis.

use crate::markers::{plural, thousands, tokens};
use crate::profile::{Profile, ToolKind};

/// What a clip omitted. Lines are 1-based; a line cut in two counts as omitted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Span {
    pub first: u64,
    pub last: u64,
    pub total_lines: u64,
    /// Characters of line `first` shown before the cut (0: the cut is at its start).
    pub first_shown: u64,
    /// Characters of line `last` shown after the cut (0: the cut is at its end).
    pub last_shown: u64,
    pub chars: u64,
    /// Lines with at least one omitted character: `last - first + 1` for a real span.
    pub lines: u64,
}

impl Span {
    /// Whole lines `first..=last` of `total_lines`, holding `chars` omitted characters.
    #[must_use]
    pub fn lines(first: u64, last: u64, total_lines: u64, chars: u64) -> Self {
        Span {
            first,
            last,
            total_lines,
            first_shown: 0,
            last_shown: 0,
            chars,
            lines: last - first + 1,
        }
    }

    /// A span whose every number is at least as long, printed, as any real span's of an input
    /// with these totals, so its marker's length bounds theirs.
    #[must_use]
    pub fn widest(total_lines: u64, total_chars: u64) -> Self {
        Span {
            first: total_lines,
            last: total_lines.saturating_add(1),
            total_lines,
            first_shown: total_chars,
            last_shown: total_chars,
            chars: total_chars,
            lines: total_lines,
        }
    }
}

/// Marker sizes, longest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tier {
    Full,
    /// The numbers and the way back.
    Compact,
    /// The numbers alone, where the way back makes the compact wording too long.
    Counted,
    Terse,
    Bare,
}

pub const TIERS: [Tier; 5] = [
    Tier::Full,
    Tier::Compact,
    Tier::Counted,
    Tier::Terse,
    Tier::Bare,
];

/// The marker text for `span` in `tier`, on one line.
#[must_use]
pub fn render(tier: Tier, span: &Span, profile: &Profile) -> String {
    match tier {
        Tier::Full => {
            format!(
                "[shapeclip: {} omitted from this {}output ({}, {}, ~{}). {}]",
                place(span, profile),
                tool_words(profile),
                plural(span.lines, "line", "lines"),
                plural(span.chars, "char", "chars"),
                tokens(span.chars),
                hint(span, profile),
            )
        }
        Tier::Compact | Tier::Counted => format!(
            "[shapeclip: {}{} omitted, ~{}{}]",
            if partial(span) {
                format!("{} of ", plural(span.chars, "char", "chars"))
            } else {
                String::new()
            },
            lines_of(span, profile),
            tokens(span.chars),
            if tier == Tier::Compact {
                short_hint(span.first, span.last, profile)
            } else {
                String::new()
            },
        ),
        Tier::Terse => format!(
            "[{} omitted{}]",
            {
                let (a, b, _) = said(span, profile);
                line_range(a, b, false)
            },
            if partial(span) { " in part" } else { "" }
        ),
        Tier::Bare => "\u{2026}".to_owned(),
    }
}

/// Whether a line at either end of the span is cut inside, so that it is omitted only in part.
fn partial(span: &Span) -> bool {
    span.first_shown > 0 || span.last_shown > 0
}

/// The numbers a marker gives the span's first and last lines, and the output's line count
/// where they are the output's own: a numbered read names them as its viewer numbered them,
/// which are no lines of the output's count.
fn said(span: &Span, profile: &Profile) -> (u64, u64, Option<u64>) {
    match profile.printed_lines(span.first, span.last) {
        Some((a, b)) => (a, b, None),
        None => (span.first, span.last, Some(span.total_lines)),
    }
}

fn line_range(first: u64, last: u64, grouped: bool) -> String {
    let n = |v: u64| if grouped { thousands(v) } else { v.to_string() };
    if first == last {
        format!("line {}", n(first))
    } else {
        format!("lines {}-{}", n(first), n(last))
    }
}

/// `lines A-B of N`, or a numbered read's `lines A-B`.
fn lines_of(span: &Span, profile: &Profile) -> String {
    let (a, b, total) = said(span, profile);
    match total {
        Some(total) => format!("{} of {}", line_range(a, b, true), thousands(total)),
        None => line_range(a, b, true),
    }
}

/// Which lines, and which parts of the two lines the cut passes through.
fn place(span: &Span, profile: &Profile) -> String {
    let range = lines_of(span, profile);
    let (first, last, _) = said(span, profile);
    let a = plural(span.first_shown, "char", "chars");
    let b = plural(span.last_shown, "char", "chars");
    if first == last {
        return match (span.first_shown, span.last_shown) {
            (0, 0) => range,
            (_, 0) => format!("{range} after its first {a}"),
            (0, _) => format!("{range} except its last {b}"),
            _ => format!(
                "{range} except its first {} and last {b}",
                thousands(span.first_shown)
            ),
        };
    }
    let (f, l) = (thousands(first), thousands(last));
    match (span.first_shown, span.last_shown) {
        (0, 0) => range,
        (_, 0) => format!("{range} (line {f} after its first {a})"),
        (0, _) => format!("{range} (line {l} except its last {b})"),
        _ => format!("{range} (line {f} after its first {a}; line {l} except its last {b})"),
    }
}

/// The tool's name and a space, as "from this bash output" says it; nothing for no name.
pub(crate) fn tool_words(profile: &Profile) -> String {
    name_words(&profile.tool)
}

/// A tool's name and a space, or nothing for no name.
pub(crate) fn name_words(tool: &str) -> String {
    if tool.is_empty() {
        String::new()
    } else {
        format!("{tool} ")
    }
}

/// The way back to lines `first..=last` in a few words, after `"; "`: the stored copy's `show`,
/// else a `sed -n` range of a shell command run again or a read's offset and limit; nothing
/// for tools whose way back needs more words than a short marker has.
pub(crate) fn short_hint(first: u64, last: u64, profile: &Profile) -> String {
    if let Some(way) = &profile.way_back {
        return format!("; {}", way.show_lines(first, last));
    }
    match profile.kind {
        ToolKind::Shell | ToolKind::ShellRead | ToolKind::ShellSearch => {
            format!("; re-run | sed -n '{first},{last}p'")
        }
        ToolKind::FileRead => format!(
            "; read offset {} limit {}",
            file_line(first, profile),
            last - first + 1
        ),
        ToolKind::Search | ToolKind::Web | ToolKind::Other => String::new(),
    }
}

/// The file's number of output line `line`, as a file-reading tool's offset takes it.
fn file_line(line: u64, profile: &Profile) -> u64 {
    profile
        .numbered
        .map_or(line, |numbered| numbered.file_line(line))
}

pub(crate) fn hint(span: &Span, profile: &Profile) -> String {
    let (a, b) = (span.first, span.last);
    if let Some(way) = &profile.way_back {
        return format!("To see them, {}.", way.lines_hint(a, b, span.lines));
    }
    match profile.kind {
        ToolKind::Shell | ToolKind::ShellRead | ToolKind::ShellSearch => format!(
            "To see them, run the command again piped through sed -n '{a},{b}p' (or head, tail, grep), or narrow it."
        ),
        ToolKind::FileRead => format!(
            "To see them, read the file again with offset {} and limit {} (line numbers start at 1).",
            file_line(a, profile),
            span.lines
        ),
        ToolKind::Search => {
            "To see them, search again narrower: a more specific pattern, a subdirectory, \
                             or -l / -c for just the files and counts."
                .to_owned()
        }
        ToolKind::Web => {
            "To see them, fetch it again narrower: one section, one page, or a query.".to_owned()
        }
        // Nothing says such a tool takes a line range: no advice it may not be able to follow.
        ToolKind::Other => "To see them, call the tool again for a narrower result.".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn profile(kind: &str) -> Profile {
        Profile::new(kind, Some("bash"), 1, 1).unwrap()
    }

    #[test]
    fn full_marker_states_exact_lines_and_a_way_back() {
        let span = Span {
            first: 412,
            last: 9873,
            total_lines: 10_240,
            first_shown: 0,
            last_shown: 0,
            chars: 393_240,
            lines: 9462,
        };
        assert_eq!(
            render(Tier::Full, &span, &profile("shell")),
            "[shapeclip: lines 412-9,873 of 10,240 omitted from this bash output (9,462 lines, 393,240 chars, \
             ~98,310 tokens). To see them, run the command again piped through sed -n '412,9873p' \
             (or head, tail, grep), or narrow it.]"
        );
        assert_eq!(
            render(Tier::Compact, &span, &profile("shell")),
            "[shapeclip: lines 412-9,873 of 10,240 omitted, ~98,310 tokens; re-run | sed -n '412,9873p']"
        );
        assert_eq!(
            render(Tier::Terse, &span, &profile("shell")),
            "[lines 412-9873 omitted]"
        );
        assert!(
            render(Tier::Full, &span, &profile("file_read")).contains("offset 412 and limit 9462")
        );
    }

    #[test]
    fn a_stored_copy_is_the_way_back() {
        let mut p = profile("search");
        p.way_back = Some(crate::way_back::WayBack::Stored {
            id: "3f9a2c1b7d04".into(),
            path: "/s/3f9a2c1b7d04.out".into(),
        });
        let span = Span {
            first: 5,
            last: 7,
            lines: 3,
            chars: 120,
            first_shown: 0,
            last_shown: 0,
            ..Span::widest(10, 200)
        };
        assert!(render(Tier::Full, &span, &p).ends_with(
            "To see them, run shapeclip show 3f9a2c1b7d04 --lines 5:7, or read \
             /s/3f9a2c1b7d04.out with offset 5 and limit 3.]"
        ));
        assert_eq!(
            render(Tier::Compact, &span, &p),
            "[shapeclip: lines 5-7 of 10 omitted, ~30 tokens; shapeclip show 3f9a2c1b7d04 --lines 5:7]"
        );
    }

    #[test]
    fn partial_lines_are_described() {
        let span = Span {
            first: 1,
            last: 1,
            total_lines: 1,
            first_shown: 3000,
            last_shown: 2000,
            chars: 10,
            lines: 1,
        };
        assert!(render(Tier::Full, &span, &profile("other")).starts_with(
            "[shapeclip: line 1 of 1 except its first 3,000 and last 2,000 chars omitted from this bash output (1 line,"
        ));
    }

    #[test]
    fn counts_of_one_are_singular() {
        let span = Span {
            first: 3,
            last: 3,
            total_lines: 9,
            first_shown: 1,
            last_shown: 0,
            chars: 1,
            lines: 1,
        };
        let full = render(Tier::Full, &span, &profile("shell"));
        assert!(
            full.starts_with(
                "[shapeclip: line 3 of 9 after its first 1 char omitted from this bash output (1 line, 1 char, ~1 token)."
            ),
            "{full}"
        );
        let ends = Span {
            first: 3,
            last: 4,
            last_shown: 1,
            lines: 2,
            ..span
        };
        assert!(
            render(Tier::Full, &ends, &profile("shell"))
                .contains("(line 3 after its first 1 char; line 4 except its last 1 char) omitted")
        );
        assert!(render(Tier::Compact, &span, &profile("other")).ends_with("~1 token]"));
    }

    #[test]
    fn widest_span_bounds_every_tier() {
        let widest = Span::widest(10_240, 500_000);
        let real = Span {
            first: 9,
            last: 10_240,
            total_lines: 10_240,
            first_shown: 5,
            last_shown: 0,
            chars: 499_000,
            lines: 10_232,
        };
        for tier in TIERS {
            for kind in ToolKind::NAMES {
                let p = profile(kind);
                assert!(
                    render(tier, &real, &p).chars().count()
                        <= render(tier, &widest, &p).chars().count()
                );
            }
        }
    }
}
