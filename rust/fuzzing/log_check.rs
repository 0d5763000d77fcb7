//! What a log plan promises, checked by walking its pieces against the input's lines.
//!
//! The pieces must account for every line exactly once, in order: a kept line is the input
//! line as a terminal shows it (escapes and redraws gone, see `text::ansi`), cut at the
//! planner's line length with an exact label, possibly standing for a run of identical lines;
//! a gap marker names the next lines and how many error, warning and summary lines they hold,
//! which must equal a count by `classify` of each line on its own (no prefilter, no blocks,
//! no state); the closing marker states the omitted line and character totals.

use super::numbers::{number, token_count};
use super::program::Settings;
use crate::engine::Outcome;
use crate::engine::reader::LINE_PIECE_CAP;
use crate::log::reading::class::Class;
use crate::log::reading::classify::classify;
use crate::markers::more_chars_note;
use crate::plan::{LineRange, Piece};
use crate::text::ansi::clean;
use crate::text::cut::cut_before;
use crate::text::{byte_at_char, char_count};

/// The input, split into lines, and what the walk has accounted for so far.
struct Walk<'a> {
    lines: Vec<&'a str>,
    ends_in_newline: bool,
    classes: Vec<Class>,
    line_keep: u64,
    /// The next line a piece must account for (1-based).
    next: u64,
    gaps: Vec<LineRange>,
    truncated: Vec<LineRange>,
    omitted_chars: u64,
}

pub fn check(settings: &Settings, text: &str, out: &Outcome) {
    let mut lines: Vec<&str> = text.split('\n').collect();
    if text.ends_with('\n') {
        lines.pop();
    }
    let mut walk = Walk {
        classes: lines.iter().map(|l| classify(l)).collect(),
        lines,
        ends_in_newline: text.ends_with('\n'),
        line_keep: ((settings.budget - settings.digest_room) / 8).clamp(120, 8192),
        next: 1,
        gaps: Vec::new(),
        truncated: Vec::new(),
        omitted_chars: 0,
    };
    let pieces = &out.plan.pieces;
    let mut closing = None;
    let mut pieces_left = pieces.iter().enumerate().peekable();
    while let Some((i, piece)) = pieces_left.next() {
        match piece {
            // What shapeclip says of a kept line (its length, a run) is a marker after it.
            Piece::Kept(line) => match pieces_left.next_if(|(_, p)| is_line_note(p)) {
                Some((_, Piece::Marker(note))) => walk.kept(&format!("{line}{note}")),
                _ => walk.kept(line),
            },
            Piece::Marker(m) if m.trim_start_matches('\n').starts_with("[shapeclip: ") => {
                assert_eq!(i + 1, pieces.len(), "the closing marker is not last: {m}");
                closing = Some(m.as_str());
            }
            Piece::Marker(m) => walk.gap(m),
        }
    }
    assert_eq!(walk.next, walk.total() + 1, "lines not accounted for");
    let mut omitted = walk.gaps.clone();
    omitted.extend(&walk.truncated);
    assert_eq!(out.plan.omitted, merge(omitted), "omitted ranges");
    assert_eq!(
        out.plan.omitted_chars, walk.omitted_chars,
        "omitted characters"
    );
    assert_eq!(
        closing.is_some(),
        !out.plan.omitted.is_empty(),
        "a closing marker iff something was omitted"
    );
    if let Some(closing) = closing {
        walk.closing(closing, out);
    }
}

impl<'a> Walk<'a> {
    fn total(&self) -> u64 {
        self.lines.len() as u64
    }

    fn raw(&self, no: u64) -> &'a str {
        self.lines[usize::try_from(no - 1).expect("line numbers fit")]
    }

    fn has_newline(&self, no: u64) -> bool {
        no < self.total() || self.ends_in_newline
    }

    fn class_counts(&self, range: LineRange) -> [u64; 3] {
        let mut counts = [0; 3];
        for no in range.first..=range.last {
            match self.classes[usize::try_from(no - 1).expect("line numbers fit")] {
                Class::Error => counts[0] += 1,
                Class::Warning => counts[1] += 1,
                Class::Summary => counts[2] += 1,
                Class::Other => {}
            }
        }
        counts
    }

    /// A gap marker: `[lines A-B omitted: N error lines, N warnings, N summary lines]`.
    fn gap(&mut self, marker: &str) {
        let (first, last, said) =
            parse_gap(marker).unwrap_or_else(|| panic!("not a gap marker: {marker:?}"));
        let range = LineRange { first, last };
        assert_eq!(
            first,
            self.next,
            "{marker} does not follow line {}",
            self.next - 1
        );
        assert!(
            first <= last && last <= self.total(),
            "{marker} of {} lines",
            self.total()
        );
        assert_eq!(
            said,
            self.class_counts(range),
            "{marker}: the kinds of its lines"
        );
        for no in first..=last {
            self.omitted_chars += char_count(self.raw(no)) + u64::from(self.has_newline(no));
        }
        self.gaps.push(range);
        self.next = last + 1;
    }

    /// A kept line, with what shapeclip added to it: a truncation label, a run count, a note.
    fn kept(&mut self, piece: &str) {
        let no = self.next;
        assert!(no <= self.total(), "a kept line past the end: {piece:?}");
        let raw = self.raw(no);
        let cleaned = clean(raw);
        // Cut at the planner's line length, or a little before where that would split a
        // character cluster or an escape sequence.
        let cut = cut_before(&cleaned, byte_at_char(&cleaned, self.line_keep));
        let body = piece.strip_suffix('\n').unwrap_or(piece);
        // A line that came in pieces shows its first piece, cleaned on its own: what it
        // shows is what precedes its length label. (Past half the cap in decoded bytes, since
        // each invalid byte became three.)
        let piece_shown = (raw.len() > LINE_PIECE_CAP / 2)
            .then(|| long_line_shown(body, raw))
            .flatten();
        let shown = piece_shown.unwrap_or_else(|| {
            assert!(
                body.starts_with(&cleaned[..cut]),
                "line {no} is not {:?}: {body:?}",
                &cleaned[..cut]
            );
            &cleaned[..cut]
        });
        let mut rest = &body[shown.len()..];
        if piece_shown.is_some() || shown.len() < cleaned.len() {
            let more = char_count(raw) - char_count(shown);
            let label = more_chars_note(more);
            rest = rest
                .strip_prefix(label.as_str())
                .unwrap_or_else(|| panic!("line {no} lacks {label:?}: {rest:?}"));
            self.truncated.push(LineRange {
                first: no,
                last: no,
            });
            self.omitted_chars += more;
        }
        let mut last = no;
        let run = rest
            .strip_prefix(" [shapeclip: \u{d7}")
            .and_then(|r| r.split_once(']'))
            .and_then(|(inside, after)| Some((inside.strip_suffix(" in a row")?, after)));
        if let Some((count, after)) = run {
            let repeats = number(count);
            assert!(repeats >= 2, "a run of {repeats}");
            last = no + repeats - 1;
            for other in no + 1..=last {
                assert!(other <= self.total(), "a run past the end");
                assert_eq!(
                    clean(self.raw(other)),
                    shown,
                    "line {other} in the run of line {no}"
                );
            }
            rest = after;
        }
        assert!(
            rest.is_empty() || (rest.starts_with(" [shapeclip: ") && rest.ends_with(']')),
            "line {no}: not a note {rest:?}"
        );
        assert_eq!(
            piece.ends_with('\n'),
            self.has_newline(last),
            "line {last}'s newline"
        );
        self.next = last + 1;
    }

    /// `[shapeclip: X of N lines omitted ...]`: X the lines not shown whole (in the gap
    /// markers, or cut short), as `omitted_lines` counts them, N the input's,
    /// the tokens those of the omitted characters, the example range the widest gap, and the
    /// warnings it says are left out at most those the gaps hold.
    fn closing(&self, marker: &str, out: &Outcome) {
        let body = marker.trim_start_matches('\n');
        let rest = body
            .strip_prefix("[shapeclip: ")
            .expect("checked by the caller");
        let (x, rest) = rest.split_once(" of ").expect("X of N");
        let (n, _) = rest.split_once(' ').expect("N lines");
        let want = (out.plan.omitted_lines(), self.total());
        assert_eq!((number(x), number(n)), want, "{marker}");
        if let Some((_, tokens)) = body.split_once(" output (~") {
            // `~1 token)` for one, as for any count of one.
            let want = token_count(out.plan.omitted_chars.div_ceil(4));
            assert!(tokens.starts_with(&format!("{want})")), "{marker}");
        }
        // The example is the first of the widest gaps, or the first line cut short.
        let mut example = out.plan.omitted[0];
        if let Some(&first) = self.gaps.first() {
            example = first;
            for &gap in &self.gaps {
                if gap.len() > example.len() {
                    example = gap;
                }
            }
        }
        let sed = format!("sed -n '{},{}p'", example.first, example.last);
        assert!(body.contains(&sed), "{marker} lacks {sed}");
        let left_out = body.split_once("; left out: ").map_or("", |(_, l)| l);
        for part in left_out.split("; ") {
            if let Some((warnings, _)) = part.split_once(" of kinds with no example above") {
                let said = number(warnings.split(' ').next().expect("a count"));
                let omitted: u64 = self.gaps.iter().map(|&r| self.class_counts(r)[1]).sum();
                assert!(
                    said <= omitted,
                    "{marker}: {said} warnings left out, {omitted} omitted"
                );
            }
        }
    }
}

/// A note on the kept line before it: it begins with a space, where markers of their own
/// begin a line.
fn is_line_note(piece: &Piece) -> bool {
    matches!(piece, Piece::Marker(m) if m.starts_with(" [shapeclip: "))
}

/// The shown start of a line that came in pieces: what comes before its length label, if any.
fn long_line_shown<'b>(body: &'b str, raw: &str) -> Option<&'b str> {
    let total = char_count(raw);
    body.match_indices(" [shapeclip: ")
        .map(|(at, _)| &body[..at])
        .find(|shown| {
            let more = total.checked_sub(char_count(shown));
            more.is_some_and(|more| body[shown.len()..].starts_with(&more_chars_note(more)))
        })
}

/// The numbers of a gap marker (with or without its `'\n'`): its first and last line, and the
/// error, warning and summary lines it names.
pub fn parse_gap(marker: &str) -> Option<(u64, u64, [u64; 3])> {
    let marker = marker.strip_suffix('\n').unwrap_or(marker);
    let rest = marker.strip_prefix('[')?.strip_suffix(']')?;
    let rest = rest
        .strip_prefix("lines ")
        .or_else(|| rest.strip_prefix("line "))?;
    let (place, kinds) = rest.split_once(" omitted")?;
    let (a, b) = place.split_once('-').unwrap_or((place, place));
    let mut said = [0; 3];
    if let Some(kinds) = kinds.strip_prefix(": ") {
        for part in kinds.split(", ") {
            let (n, word) = part.split_once(' ')?;
            let slot = match word {
                "error line" | "error lines" => 0,
                "warning" | "warnings" => 1,
                "summary line" | "summary lines" => 2,
                _ => return None,
            };
            said[slot] += number(n);
        }
    } else if !kinds.is_empty() {
        return None;
    }
    Some((number(a), number(b), said))
}

fn merge(mut ranges: Vec<LineRange>) -> Vec<LineRange> {
    ranges.sort_by_key(|r| r.first);
    let mut out: Vec<LineRange> = Vec::new();
    for r in ranges {
        match out.last_mut() {
            Some(last) if r.first <= last.last + 1 => last.last = last.last.max(r.last),
            _ => out.push(r),
        }
    }
    out
}
