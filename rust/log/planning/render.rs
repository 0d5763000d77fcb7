//! The text of a log plan: the kept lines in input order, a labelled marker for every gap, and
//! a closing marker for what was left out.
//!
//! Every number in a marker is exact. A gap's kinds come from the running counts each kept line
//! carries, so they need no memory of the omitted lines: the classified lines in a gap are the
//! counts before the line after it minus the counts through the line before it. Consecutive
//! identical kept lines are shown once with `[shapeclip: ×N in a row]`; every note shapeclip adds
//! to a kept line is bracketed and starts `[shapeclip:`, so it cannot be read as part of the log.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::log::reading::class::Counts;
use crate::log::reading::store::Kept;
use crate::markers::{more_chars_note, plural, thousands, tokens, widest_len, width};
use crate::plan::{LineRange, Piece};
use crate::text::char_count;
use crate::way_back::WayBack;

/// How much a marker says; small budgets get the short form.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tier {
    Full,
    Short,
}

/// A kept line and the note appended to it (a dedup count), if any.
pub type Shown = BTreeMap<u64, (Kept, String)>;

/// What the closing marker reports.
#[derive(Debug, Clone, Copy, Default)]
pub struct LeftOut {
    pub blocks: u64,
    pub blocks_first: u64,
    pub blocks_last: u64,
    /// Warnings of kinds with no example shown.
    pub warnings: u64,
    pub warnings_first: u64,
    pub warnings_last: u64,
    /// Warnings past the kinds the planner keeps apart, not shown: their kinds are not known,
    /// and may be among those shown.
    pub unsorted: u64,
}

/// The rendered pieces, the omitted line ranges and characters.
pub struct Layout {
    pub pieces: Vec<Piece>,
    pub omitted: Vec<LineRange>,
    pub omitted_chars: u64,
    /// The widest gap.
    pub widest: Option<LineRange>,
}

/// Lays out `shown` for an input of `total_lines` lines whose classified lines total `totals`.
#[must_use]
pub fn layout(shown: &Shown, total_lines: u64, total_chars: u64, totals: Counts) -> Layout {
    let mut pieces = Vec::new();
    let mut omitted = Vec::new();
    let mut shown_chars = 0;
    let mut widest = None::<LineRange>;
    walk(shown, total_lines, totals, |part| match part {
        Part::Gap { first, last, kinds } => {
            pieces.push(Piece::Marker(gap(first, last, kinds)));
            let range = LineRange { first, last };
            omitted.push(range);
            if widest.is_none_or(|w| range.len() > w.len()) {
                widest = Some(range);
            }
        }
        Part::Line {
            line,
            note,
            last,
            repeats,
            folded,
        } => {
            shown_chars += folded;
            // The line is the input's text; what shapeclip says of it is a marker.
            let mut notes = String::new();
            if line.truncated {
                notes.push_str(&more_chars_note(
                    line.chars.saturating_sub(char_count(&line.text)),
                ));
                omitted.push(LineRange {
                    first: line.no,
                    last: line.no,
                });
                shown_chars += char_count(&line.text);
            } else {
                shown_chars += line.chars;
            }
            if repeats > 1 {
                let _ = write!(notes, " [shapeclip: \u{d7}{} in a row]", thousands(repeats));
            }
            notes.push_str(note);
            shown_chars += u64::from(line.nl);
            let end = if last.nl || last.no < total_lines {
                "\n"
            } else {
                ""
            };
            if notes.is_empty() {
                pieces.push(Piece::Kept(format!("{}{end}", line.text)));
            } else {
                pieces.push(Piece::Kept(line.text.to_string()));
                pieces.push(Piece::Marker(notes + end));
            }
        }
    });
    Layout {
        pieces,
        omitted: merge(omitted),
        omitted_chars: total_chars.saturating_sub(shown_chars),
        widest,
    }
}

#[cfg(test)]
thread_local! {
    static STEPPED: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Counts `lines` shown lines looked at to measure a rendering, and returns the count so far:
/// a test of the selection checks that what it looks at grows linearly.
#[cfg(test)]
pub(super) fn stepped(lines: u64) -> u64 {
    STEPPED.with(|s| {
        s.set(s.get() + lines);
        s.get()
    })
}

/// Sets the count of [`stepped`] back, after a check that is not part of the work counted.
#[cfg(test)]
pub(super) fn set_stepped(lines: u64) {
    STEPPED.with(|s| s.set(lines));
}

/// Whether `next` is one more line of the run of identical lines that `line` starts and
/// `last` ends, so that it is shown only as the run's count.
pub(super) fn runs_on(line: &Kept, note: &str, last: &Kept, next: &Kept, next_note: &str) -> bool {
    next.no == last.no + 1
        && next.text == line.text
        && !line.text.trim().is_empty()
        && note.is_empty()
        && next_note.is_empty()
        && !line.truncated
        && !next.truncated
}

/// One step of the walk that [`layout`] and [`measure`] share.
enum Part<'s> {
    /// Lines `first..=last` are omitted; `kinds` counts the classified ones.
    Gap {
        first: u64,
        last: u64,
        kinds: Counts,
    },
    /// A shown line and its note. `last` ends the run of identical lines it starts, `repeats`
    /// lines in all, and `folded` is what the run's other lines held, `'\n'` included.
    Line {
        line: &'s Kept,
        note: &'s str,
        last: &'s Kept,
        repeats: u64,
        folded: u64,
    },
}

/// Visits the rendering of `shown` in order: each gap, then each shown line with the run of
/// identical lines after it.
fn walk<'s>(shown: &'s Shown, total_lines: u64, totals: Counts, mut visit: impl FnMut(Part<'s>)) {
    #[cfg(test)]
    stepped(shown.len() as u64);
    let mut prev: Option<&Kept> = None;
    let mut lines = shown.values().peekable();
    while let Some((line, note)) = lines.next() {
        let prev_no = prev.map_or(0, |p| p.no);
        if line.no > prev_no + 1 {
            let before = prev.map_or(Counts::default(), |p| p.cum);
            visit(Part::Gap {
                first: prev_no + 1,
                last: line.no - 1,
                kinds: line.cum.before(line.class).minus(before),
            });
        }
        let mut run = vec![line];
        let mut folded = 0;
        while let Some((next, next_note)) = lines.peek() {
            if !runs_on(line, note, run[run.len() - 1], next, next_note) {
                break;
            }
            folded += next.chars + u64::from(next.nl);
            run.push(next);
            lines.next();
        }
        let repeats = run.len() as u64;
        let last = run[run.len() - 1];
        // A run is told by its count only when the count is shorter than the lines it folds.
        if repeats > 1 && folded > repeat_note_len(repeats) {
            visit(Part::Line {
                line,
                note,
                last,
                repeats,
                folded,
            });
        } else {
            // Only a line with no note starts a run, so each line of one keeps `note`.
            for one in run {
                visit(Part::Line {
                    line: one,
                    note,
                    last: one,
                    repeats: 1,
                    folded: 0,
                });
            }
        }
        prev = Some(last);
    }
    let prev_no = prev.map_or(0, |p| p.no);
    if prev_no < total_lines {
        let before = prev.map_or(Counts::default(), |p| p.cum);
        visit(Part::Gap {
            first: prev_no + 1,
            last: total_lines,
            kinds: totals.minus(before),
        });
    }
}

/// `layout(..).chars`, without building the text: what debug builds check the selection's
/// kept length against.
#[cfg(debug_assertions)]
#[must_use]
pub fn measure(shown: &Shown, total_lines: u64, totals: Counts) -> u64 {
    let mut chars = 0;
    walk(shown, total_lines, totals, |part| match part {
        Part::Gap { first, last, kinds } => chars += gap_len(first, last, kinds),
        Part::Line {
            line,
            note,
            last,
            repeats,
            ..
        } => {
            let text_chars = char_count(&line.text);
            chars += text_chars + char_count(note);
            if line.truncated {
                chars += crate::markers::more_chars_note_len(line.chars.saturating_sub(text_chars));
            }
            if repeats > 1 {
                chars += repeat_note_len(repeats);
            }
            chars += u64::from(last.nl || last.no < total_lines);
        }
    });
    chars
}

/// Characters of `" [shapeclip: ×N in a row]"`.
pub(super) fn repeat_note_len(repeats: u64) -> u64 {
    24 + width(repeats)
}

/// The classified kinds of a gap, as (count, singular, plural), in the order markers name
/// them. Other lines are not named: the line numbers say how many lines a gap holds.
fn gap_parts(kinds: Counts) -> [(u64, &'static str, &'static str); 3] {
    [
        (kinds.errors, "error line", "error lines"),
        (kinds.warnings, "warning", "warnings"),
        (kinds.summaries, "summary line", "summary lines"),
    ]
}

/// Characters of `gap(first, last, kinds)`.
pub(super) fn gap_len(first: u64, last: u64, kinds: Counts) -> u64 {
    let place = if first == last {
        5 + width(first)
    } else {
        7 + width(first) + width(last)
    };
    let mut parts = 0;
    let mut named = 0;
    for (count, one, many) in gap_parts(kinds) {
        if count > 0 {
            let word = if count == 1 { one } else { many };
            parts += width(count) + 1 + word.len() as u64;
            named += 1;
        }
    }
    if named > 0 {
        // ": " before the parts, ", " between them.
        parts += 2 + 2 * (named - 1);
    }
    // "[" place " omitted" parts "]\n"
    1 + place + 8 + parts + 2
}

fn merge(mut ranges: Vec<LineRange>) -> Vec<LineRange> {
    ranges.sort_by_key(|r| r.first);
    let mut out: Vec<LineRange> = Vec::with_capacity(ranges.len());
    for r in ranges {
        match out.last_mut() {
            Some(last) if r.first <= last.last + 1 => last.last = last.last.max(r.last),
            _ => out.push(r),
        }
    }
    out
}

/// The marker for omitted lines `first..=last`, on a line of its own: where they are and
/// the classified lines among them. The closing marker says once how to get them back.
#[must_use]
pub fn gap(first: u64, last: u64, kinds: Counts) -> String {
    let place = if first == last {
        format!("line {}", thousands(first))
    } else {
        format!("lines {}-{}", thousands(first), thousands(last))
    };
    let parts: Vec<String> = gap_parts(kinds)
        .into_iter()
        .filter(|p| p.0 > 0)
        .map(|(count, one, many)| {
            format!(
                "{} {}",
                thousands(count),
                if count == 1 { one } else { many }
            )
        })
        .collect();
    if parts.is_empty() {
        format!("[{place} omitted]\n")
    } else {
        format!("[{place} omitted: {}]\n", parts.join(", "))
    }
}

/// What the closing marker reports of a plan's gaps.
#[derive(Debug, Clone, Copy)]
pub struct Omitted<'a> {
    /// Lines not shown whole: those gap markers stand for, and those cut short.
    pub lines: u64,
    pub total_lines: u64,
    /// Characters of the input not shown.
    pub chars: u64,
    /// The widest gap: the example of how to get lines back.
    pub example: LineRange,
    /// The tool's name, as in "this bash output".
    pub tool: &'a str,
    /// A stored copy of the output, which the marker then points into.
    pub way_back: Option<&'a WayBack>,
}

/// Where what a closing marker leaves out lies: `at line 7`, or `in lines 7-90`.
fn place(first: u64, last: u64) -> String {
    if first == last {
        format!("at line {}", thousands(first))
    } else {
        format!("in lines {}-{}", thousands(first), thousands(last))
    }
}

/// The closing marker: once, the whole statement of what was omitted and how to see it, and
/// what was left out with no marker of its own.
#[must_use]
pub fn closing(omitted: &Omitted<'_>, left: &LeftOut, tier: Tier) -> String {
    let mut what = Vec::with_capacity(2);
    if left.blocks > 0 {
        what.push(format!(
            "{} error {} (starting {})",
            thousands(left.blocks),
            if left.blocks == 1 { "block" } else { "blocks" },
            place(left.blocks_first, left.blocks_last),
        ));
    }
    if left.warnings > 0 {
        what.push(format!(
            "{} of kinds with no example above ({})",
            plural(left.warnings, "warning", "warnings"),
            place(left.warnings_first, left.warnings_last),
        ));
    }
    if left.unsorted > 0 {
        what.push(format!(
            "{} not sorted by kind",
            plural(left.unsorted, "more warning", "more warnings"),
        ));
    }
    let left_out = if what.is_empty() {
        String::new()
    } else {
        format!("; left out: {}", what.join("; "))
    };
    let (a, b) = (omitted.example.first, omitted.example.last);
    let lines = format!(
        "{} of {} {}",
        thousands(omitted.lines),
        thousands(omitted.total_lines),
        if omitted.total_lines == 1 {
            "line"
        } else {
            "lines"
        }
    );
    let (way, grep, some) = match omitted.way_back {
        None => (
            format!("run the command again piped through sed -n '{a},{b}p'"),
            ", or through grep -n -i -E 'error|fail|warn' for every error and warning".to_owned(),
            format!("sed -n '{a},{b}p'"),
        ),
        Some(stored) => (
            stored.lines_hint(a, b, omitted.example.len()),
            format!(
                ", or {} for every error and warning",
                stored.show_words("error|fail|warn")
            ),
            stored.show_lines(a, b),
        ),
    };
    let grep = if what.is_empty() { "" } else { &grep };
    // The stored copy's lines are numbered as every gap marker is, so the one command named
    // here reads any of them: said once, not in each gap marker, where it would cost a line.
    let any = if omitted.way_back.is_some() {
        " (or any range above)"
    } else {
        ""
    };
    match tier {
        Tier::Full => format!(
            "[shapeclip: {lines} omitted from this {}output (~{}){left_out}. To see {}{any}, {way}{grep}.]\n",
            crate::clip::marker::name_words(omitted.tool),
            tokens(omitted.chars),
            if a == b {
                format!("line {}", thousands(a))
            } else {
                format!("lines {}-{}", thousands(a), thousands(b))
            },
        ),
        Tier::Short => format!("[shapeclip: {lines} omitted{left_out}; {some} shows some]\n"),
    }
}

/// The widest closing marker an input of `total_lines` lines and `total_chars` characters
/// can need, when a plan can leave out no more than `most` of each kind (its places are not
/// read).
#[must_use]
pub fn widest_closing(
    total_lines: u64,
    total_chars: u64,
    tool: &str,
    way_back: Option<&WayBack>,
    tier: Tier,
    most: &LeftOut,
) -> u64 {
    let big = total_lines.max(10);
    // A range of two lines or more is said with both numbers, each at most `big`: the widest
    // such pair ends at `big`, one line alone is said with one.
    let left = LeftOut {
        blocks: most.blocks,
        blocks_first: big - 1,
        blocks_last: big,
        warnings: most.warnings,
        warnings_first: big - 1,
        warnings_last: big,
        unsorted: most.unsorted,
    };
    let omitted = Omitted {
        lines: big,
        total_lines: big,
        chars: total_chars.max(40),
        // A stored copy's hint also prints the example's length, as wide as `big` at most.
        example: LineRange {
            first: big - 1,
            last: if way_back.is_some() { 2 * big } else { big },
        },
        tool,
        way_back,
    };
    widest_len([(omitted, left)], |(omitted, left)| {
        closing(omitted, left, tier)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Found by the log fuzzer: a line cut short to exactly the text of the whole line before
    /// it joined that line's run, so `×2 in a row` claimed two equal lines and the second's
    /// cut was never said.
    #[test]
    fn a_line_cut_short_runs_on_from_no_other() {
        let kept = |no: u64, chars: u64| Kept {
            no,
            class: crate::log::reading::class::Class::Other,
            cum: Counts::default(),
            text: "FAILED".repeat(20).into(),
            chars,
            nl: true,
            truncated: chars > 120,
        };
        let shown: Shown = [
            (1, (kept(1, 120), String::new())),
            (2, (kept(2, 122), String::new())),
        ]
        .into_iter()
        .collect();
        let layout = layout(&shown, 2, 244, Counts::default());
        let text: String = layout
            .pieces
            .iter()
            .map(|p| match p {
                Piece::Kept(s) | Piece::Marker(s) => s.as_str(),
            })
            .collect();
        assert!(!text.contains("in a row"), "{text}");
        assert!(
            text.ends_with(" [shapeclip: 2 more chars of this line]\n"),
            "{text}"
        );
        assert_eq!(layout.omitted, [LineRange { first: 2, last: 2 }]);
    }

    #[test]
    fn gap_markers_state_lines_and_kinds() {
        let kinds = Counts {
            errors: 0,
            warnings: 14,
            summaries: 0,
        };
        assert_eq!(
            gap(88, 1291, kinds),
            "[lines 88-1,291 omitted: 14 warnings]\n"
        );
        assert_eq!(gap(7, 7, Counts::default()), "[line 7 omitted]\n");
    }

    #[test]
    fn gap_len_is_the_length_of_gap() {
        for (first, last) in [
            (1, 1),
            (9, 10),
            (999, 1000),
            (1, 1_234_567),
            (77, 10_000_000),
        ] {
            for (e, w, s) in [(0, 0, 0), (1, 0, 0), (0, 2, 1), (1, 1, 1)] {
                let n = last - first + 1;
                let kinds = Counts {
                    errors: e.min(n),
                    warnings: w.min(n - e.min(n)),
                    summaries: 0,
                };
                let kinds = Counts {
                    summaries: s.min(n - kinds.errors - kinds.warnings),
                    ..kinds
                };
                let text = gap(first, last, kinds);
                assert_eq!(gap_len(first, last, kinds), char_count(&text), "{text}");
            }
        }
    }

    /// Lines 5-94 of a hundred omitted, as `tool` printed them.
    fn ninety_of_a_hundred<'a>(tool: &'a str, way_back: Option<&'a WayBack>) -> Omitted<'a> {
        Omitted {
            lines: 90,
            total_lines: 100,
            chars: 4000,
            example: LineRange { first: 5, last: 94 },
            tool,
            way_back,
        }
    }

    /// A tool with no name is "this output", as the clip says it, and a file's way back names
    /// the file.
    #[test]
    fn the_closing_of_an_unnamed_tool_reads_as_one_sentence() {
        let way = WayBack::File {
            path: "build 7.log".into(),
        };
        let omitted = ninety_of_a_hundred("", Some(&way));
        let left = LeftOut {
            blocks: 2,
            blocks_first: 7,
            blocks_last: 40,
            ..LeftOut::default()
        };
        let closing = closing(&omitted, &left, Tier::Full);
        assert!(
            closing.contains(" omitted from this output (~1,000 tokens)"),
            "{closing}"
        );
        assert!(
            closing.contains("run sed -n '5,94p' 'build 7.log', or read build 7.log")
                && closing.contains("grep -n -i -E 'error|fail|warn' 'build 7.log'"),
            "{closing}"
        );
    }

    /// One line is named as one, for warnings, error blocks and the lines to see: `in lines
    /// 2-2` reads as a typo.
    #[test]
    fn what_is_left_out_on_one_line_is_placed_at_that_line() {
        let omitted = ninety_of_a_hundred("bash", None);
        let left = LeftOut {
            blocks: 1,
            blocks_first: 7,
            blocks_last: 7,
            warnings: 1,
            warnings_first: 2,
            warnings_last: 2,
            ..LeftOut::default()
        };
        let closing_of_one = closing(
            &Omitted {
                lines: 1,
                example: LineRange { first: 9, last: 9 },
                ..omitted
            },
            &left,
            Tier::Full,
        );
        assert!(
            closing_of_one.contains("To see line 9, run"),
            "{closing_of_one}"
        );
        let closing = closing(&omitted, &left, Tier::Full);
        assert!(
            closing.contains("1 error block (starting at line 7)")
                && closing.contains("1 warning of kinds with no example above (at line 2)"),
            "{closing}"
        );
    }

    #[test]
    fn widest_closing_bounds_real_ones() {
        for total in [1, 9, 10, 99, 1000, 123_456, 10_000_000] {
            // Every count at its widest, with places of one line and of two or more.
            let places = [(1, total), (total.max(2) - 1, total), (total, total)];
            for (tier, (first, last)) in [Tier::Full, Tier::Short]
                .into_iter()
                .flat_map(|tier| places.map(|place| (tier, place)))
            {
                let left = LeftOut {
                    blocks: total,
                    blocks_first: first,
                    blocks_last: last,
                    warnings: total,
                    warnings_first: first,
                    warnings_last: last,
                    unsorted: total,
                };
                let chars = total * 80;
                let omitted = Omitted {
                    lines: total,
                    total_lines: total,
                    chars,
                    example: LineRange { first, last },
                    tool: "bash",
                    way_back: None,
                };
                let real = char_count(&closing(&omitted, &left, tier));
                assert!(real <= widest_closing(total, chars, "bash", None, tier, &left));
                let way = WayBack::Stored {
                    id: "0123456789ab".into(),
                    path: "/s/0123456789ab.out".into(),
                };
                let stored = Omitted {
                    way_back: Some(&way),
                    ..omitted
                };
                let real = char_count(&closing(&stored, &left, tier));
                assert!(real <= widest_closing(total, chars, "bash", Some(&way), tier, &left));
            }
        }
    }
}
