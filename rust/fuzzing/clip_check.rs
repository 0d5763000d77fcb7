//! What a clip promises: a head that starts the input, a tail that ends it, and one marker
//! whose every number equals a count over the input between them.

use super::numbers::{names, number, printed_on, reads_again, token_count};
use super::program::Settings;
use crate::engine::Outcome;
use crate::markers::{thousands, tokens_for_chars};
use crate::plan::{LineRange, Piece};
use crate::text::ansi::{SGR_RESET, sgr_open};
use crate::text::char_count;

/// The facts of the cut, counted from the input and the two ends shown.
struct Cut {
    range: LineRange,
    total_lines: u64,
    chars: u64,
    /// Characters of the first omitted line shown before the cut, and of the last after it.
    first_shown: u64,
    last_shown: u64,
}

pub fn check(settings: &Settings, text: &str, out: &Outcome) {
    let kept = |p: &Piece| match p {
        Piece::Kept(s) => s.clone(),
        Piece::Marker(_) => panic!("two markers in a clip: {:?}", out.plan.pieces),
    };
    let (head, marker, tail) = match out.plan.pieces.as_slice() {
        [Piece::Marker(m)] => (String::new(), m, String::new()),
        [h, Piece::Marker(m)] => (kept(h), m, String::new()),
        [Piece::Marker(m), t] => (String::new(), m, kept(t)),
        [h, Piece::Marker(m), t] => (kept(h), m, kept(t)),
        pieces => panic!("not a clip's pieces: {pieces:?}"),
    };
    assert!(text.starts_with(&head), "the head is not the input's start");
    assert!(text.ends_with(&tail), "the tail is not the input's end");
    assert!(
        head.len() + tail.len() < text.len(),
        "head and tail overlap"
    );
    let cut = cut(text, &head, &tail, out.totals.lines);
    assert_eq!(out.plan.omitted, [cut.range], "the omitted range");
    assert_eq!(out.plan.omitted_chars, cut.chars, "omitted characters");
    // A head that leaves a colour on has it turned off before the marker.
    let marker = if let Some(rest) = marker.strip_prefix(SGR_RESET) {
        assert!(sgr_open(&head), "a reset after a head with no colour on");
        rest
    } else {
        assert!(!sgr_open(&head), "a colour left on into the marker");
        marker.as_str()
    };
    // The marker is on a line of its own: after a '\n', and ending its line (the bare ellipsis
    // of a budget too small for separators only when a tail follows).
    assert_eq!(
        marker.starts_with('\n'),
        !head.is_empty() && !head.ends_with('\n'),
        "{marker:?}"
    );
    let bare = marker.trim_matches('\n') == "\u{2026}";
    assert_eq!(
        marker.ends_with('\n'),
        !tail.is_empty() || !bare,
        "{marker:?}"
    );
    check_marker(settings, text, marker.trim_matches('\n'), &cut);
}

fn cut(text: &str, head: &str, tail: &str, total_lines: u64) -> Cut {
    let newlines = |s: &str| s.bytes().filter(|&b| b == b'\n').count() as u64;
    let first = newlines(head) + 1;
    let first_shown = char_count(&head[head.rfind('\n').map_or(0, |i| i + 1)..]);
    let tail_at = text.len() - tail.len();
    let (last, last_shown) = if tail.is_empty() {
        (total_lines, 0)
    } else if tail_at == 0 || text.as_bytes()[tail_at - 1] == b'\n' {
        (newlines(&text[..tail_at]), 0)
    } else {
        let line = tail.find('\n').map_or(tail, |i| &tail[..i]);
        (newlines(&text[..tail_at]) + 1, char_count(line))
    };
    Cut {
        range: LineRange { first, last },
        total_lines,
        chars: char_count(text) - char_count(head) - char_count(tail),
        first_shown,
        last_shown,
    }
}

/// Reads `line 7` or `lines 1,007-1,009` off the start of `s`.
fn range_at(s: &str) -> (u64, u64, &str) {
    let rest = s
        .strip_prefix("lines ")
        .or_else(|| s.strip_prefix("line "))
        .unwrap_or_else(|| panic!("no line range in {s:?}"));
    let end = rest
        .find(|c: char| !(c.is_ascii_digit() || c == ',' || c == '-'))
        .unwrap_or(rest.len());
    let (place, after) = rest.split_at(end);
    let (a, b) = place.split_once('-').unwrap_or((place, place));
    (number(a), number(b), after)
}

/// What follows the line range that opens `body`, past the output's total where the range is
/// the output's: a numbered read's range is its viewer's numbers, with no total.
fn past_range<'m>(text: &str, body: &'m str, cut: &Cut) -> &'m str {
    let range = cut.range;
    let (a, b, rest) = range_at(body);
    let Some(rest) = rest.strip_prefix(" of ") else {
        let viewer = printed_on(text, range.first, range.last);
        assert_eq!(viewer, Some((a, b)), "no total in {body}");
        return rest;
    };
    assert_eq!((a, b), (range.first, range.last), "{body}");
    let total_end = rest.find(' ').unwrap_or(rest.len());
    assert_eq!(number(&rest[..total_end]), cut.total_lines, "{body}");
    &rest[total_end..]
}

fn check_marker(settings: &Settings, text: &str, marker: &str, cut: &Cut) {
    let range = cut.range;
    if marker == "\u{2026}" {
        return;
    }
    if let Some(terse) = marker.strip_prefix('[').filter(|m| m.starts_with("line")) {
        let (a, b, rest) = range_at(terse);
        let partial = cut.first_shown > 0 || cut.last_shown > 0;
        let ending = if partial {
            " omitted in part]"
        } else {
            " omitted]"
        };
        assert!(names(text, range.first, range.last, (a, b)), "{marker}");
        assert_eq!(rest, ending, "{marker}");
        assert!(!terse.contains(','), "terse numbers are plain: {marker}");
        return;
    }
    let body = marker
        .strip_prefix("[shapeclip: ")
        .and_then(|m| m.strip_suffix(']'))
        .unwrap_or_else(|| panic!("not a marker: {marker:?}"));
    // A short marker of a span cut inside a line counts its characters first.
    let body = match body.split_once(" of ") {
        Some((chars, rest)) if !chars.starts_with("line") => {
            assert!(cut.first_shown > 0 || cut.last_shown > 0, "{marker}");
            let said = chars
                .strip_suffix(" chars")
                .or_else(|| chars.strip_suffix(" char"));
            assert_eq!(said.map(number), Some(cut.chars), "{marker}");
            rest
        }
        _ => body,
    };
    let rest = past_range(text, body, cut);
    let tokens = tokens_for_chars(cut.chars);
    if let Some(compact) = rest.strip_prefix(" omitted, ~") {
        let (count, hint) = compact.split_once("; ").unwrap_or((compact, ""));
        assert_eq!(count, token_count(tokens), "{marker}");
        let (a, b) = (range.first, range.last);
        let read = hint
            .strip_prefix("read offset ")
            .and_then(|h| h.strip_suffix(&format!(" limit {}", b - a + 1)))
            .is_some_and(|offset| reads_again(text, a, number(offset)));
        assert!(
            read || ["", &format!("re-run | sed -n '{a},{b}p'")].contains(&hint)
                || hint.ends_with(&format!(" --lines {a}:{b}")),
            "{marker}"
        );
        return;
    }
    let (place, facts) = rest
        .split_once(" omitted from this ")
        .unwrap_or_else(|| panic!("no full marker: {marker}"));
    // "after its first 3 chars", "except its last 5 chars", "except its first 3 and last 5".
    let shown = |phrases: &[&str]| {
        phrases.iter().find_map(|phrase| {
            let (_, after) = place.split_once(phrase)?;
            Some(number(after.split(' ').next().expect("a number follows")))
        })
    };
    assert_eq!(
        shown(&["its first "]),
        (cut.first_shown > 0).then_some(cut.first_shown),
        "{marker}"
    );
    assert_eq!(
        shown(&["its last ", " and last "]),
        (cut.last_shown > 0).then_some(cut.last_shown),
        "{marker}"
    );
    let lines = range.last - range.first + 1;
    let counts = format!(
        "output ({} {}, {} {}, ~{}). ",
        thousands(lines),
        if lines == 1 { "line" } else { "lines" },
        thousands(cut.chars),
        if cut.chars == 1 { "char" } else { "chars" },
        token_count(tokens),
    );
    assert!(facts.contains(&counts), "{marker} lacks {counts}");
    let (a, b) = (range.first, range.last);
    if settings.kind == "file_read" {
        let offset = facts
            .split_once("offset ")
            .and_then(|(_, h)| {
                h.strip_suffix(&format!(" and limit {lines} (line numbers start at 1)."))
            })
            .unwrap_or_else(|| panic!("{marker} lacks an offset and limit {lines}"));
        assert!(reads_again(text, a, number(offset)), "{marker}");
        return;
    }
    let hint = match settings.kind {
        "shell" | "shell_read" => format!("sed -n '{a},{b}p'"),
        _ => String::new(),
    };
    assert!(facts.contains(&hint), "{marker} lacks {hint}");
}
