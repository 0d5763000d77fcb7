//! The line-aware head and tail clip: the shape for output with no other shape, and the
//! fallback of every other planner.
//!
//! The budget pays first for the marker (sized for the widest numbers this input could need),
//! and the rest is split between head and tail by the tool's profile. Each side is cut at a
//! line boundary when one is near (within a quarter of that side's share; what the cut leaves
//! goes back in whole lines, to the side with the larger share first), and inside the line
//! otherwise, so a single 50 MB line is still cut, between two characters as a reader
//! sees them (see [`crate::text::cut`]). A colour the head leaves on is turned off before the marker.

pub mod marker;

use crate::markers;
use crate::plan::{LineRange, Piece, Plan, Shape};
use crate::profile::Profile;
use crate::sink::Totals;
use crate::text::ansi::{SGR_RESET, sgr_open};
use crate::text::cut::{cut_after, cut_before};
use crate::text::{byte_at_char, byte_at_char_from_end, char_count, count_chars_and_newlines};
use crate::window::Window;
use marker::{Span, TIERS, Tier};

/// The part of the budget a marker in `tier` may take at most (1/n): the longest wording that
/// fits is used. At small budgets a long marker costs more lines than it is worth, so the full
/// wording takes at most 1/24, the compact one (numbers and the way back) 1/6, as does the
/// counted one (the numbers alone), and the terse one (the line numbers alone) half, before
/// the bare ellipsis.
fn marker_part(tier: Tier) -> u64 {
    match tier {
        Tier::Full => 24,
        Tier::Compact | Tier::Counted => 6,
        Tier::Terse | Tier::Bare => 2,
    }
}

/// Newlines that may set the marker on a line of its own: one before it, one after it.
const MARKER_SEPARATORS: u64 = 2;

/// Plans a clip of an input longer than `budget` characters, seen through `window`.
/// The plan renders to at most `budget` characters.
#[must_use]
pub fn plan(window: &Window, totals: &Totals, budget: u64, profile: &Profile) -> Plan {
    debug_assert!(totals.chars > budget);
    // Numbers as wide as any the marker may print, in the output's numbering or a viewer's;
    // the output's wording, with its total, is the longer.
    let widest = Span::widest(profile.widest_line(totals.lines), totals.chars);
    let worst = |tier| {
        markers::widest_len([widest], |span| marker::render(tier, span, profile))
            + MARKER_SEPARATORS
    };
    let tier = TIERS
        .into_iter()
        .find(|&t| worst(t) <= budget / marker_part(t))
        .unwrap_or(Tier::Bare);
    let room = budget.saturating_sub(worst(tier));
    let total_weight = profile.head_weight + profile.tail_weight;
    let head_room = room * profile.head_weight / total_weight;
    let mut tail_room = room - head_room;

    let (mut head, reset) = head_and_reset(&window.head, head_room, &mut tail_room);
    // The window may hold more than the last `budget + 1` characters, more or fewer depending
    // on how the input was fed; a cut looks at no more, so that a stream cuts where one call does.
    let tail_text = &window.tail[byte_at_char_from_end(&window.tail, budget + 1)..];
    let mut tail_start = cut_tail(tail_text, tail_room);
    // What cutting each side at a line's end left of the room goes back, in whole lines, to
    // the side with the larger share first. Head and tail then still hold less than the
    // budget, so less than the input, and never meet.
    let reset_chars = if reset { char_count(SGR_RESET) } else { 0 };
    let mut spare =
        room.saturating_sub(char_count(head) + char_count(&tail_text[tail_start..]) + reset_chars);
    let tail_first = profile.tail_weight >= profile.head_weight;
    for tail_turn in [tail_first, !tail_first] {
        if tail_turn {
            let start = tail_lines_back(tail_text, tail_start, spare);
            spare -= char_count(&tail_text[start..tail_start]);
            tail_start = start;
        } else if !reset {
            let longer = head_lines_on(&window.head, head.len(), spare);
            spare -= char_count(&window.head[head.len()..longer]);
            head = &window.head[..longer];
        }
    }
    let tail = &tail_text[tail_start..];
    let span = omitted_span(head, tail_text, tail_start, totals);

    let mut pieces = Vec::with_capacity(3);
    let mut marker_line = marker::render(tier, &span, profile);
    if !head.is_empty() {
        if !head.ends_with('\n') {
            marker_line.insert(0, '\n');
        }
        if reset {
            marker_line.insert_str(0, SGR_RESET);
        }
        pieces.push(Piece::Kept(head.to_owned()));
    }
    // The marker ends its line even when it ends the output (a shell's prompt then starts on
    // a line of its own); the separators were paid for, except by the bare ellipsis.
    if !tail.is_empty() || tier != Tier::Bare {
        marker_line.push('\n');
    }
    pieces.push(Piece::Marker(marker_line));
    if !tail.is_empty() {
        pieces.push(Piece::Kept(tail.to_owned()));
    }
    Plan {
        shape: Shape::Clip,
        pieces,
        omitted: vec![LineRange {
            first: span.first,
            last: span.last,
        }],
        omitted_chars: span.chars,
    }
}

/// The head to show from `text` within `room` characters, and whether it leaves a colour on.
/// The reset that turns the colour off before the marker is paid from the tail's room, then
/// from the head's.
fn head_and_reset<'t>(text: &'t str, room: u64, tail_room: &mut u64) -> (&'t str, bool) {
    let head = &text[..cut_head(text, room)];
    if !sgr_open(head) {
        return (head, false);
    }
    let reset = char_count(SGR_RESET);
    let from_tail = reset.min(*tail_room);
    *tail_room -= from_tail;
    if from_tail == reset {
        return (head, true);
    }
    let head = &text[..cut_head(text, room.saturating_sub(reset - from_tail))];
    (head, sgr_open(head))
}

/// Byte length of the head to show from `text` within `room` characters.
fn cut_head(text: &str, room: u64) -> usize {
    let at = byte_at_char(text, room);
    match memchr::memrchr(b'\n', &text.as_bytes()[..at]) {
        Some(nl) if char_count(&text[..=nl]) >= room - room / 4 => nl + 1,
        // The line's own newline takes the place of the separator the marker would need, so
        // the whole line shows at no extra cost and no one mistakes it for a cut one.
        _ if room > 0 && text.as_bytes().get(at) == Some(&b'\n') => at + 1,
        _ => cut_before(text, at),
    }
}

/// Byte offset in `text` where the tail to show, at most `room` characters, starts.
fn cut_tail(text: &str, room: u64) -> usize {
    if room == 0 {
        return text.len();
    }
    let at = byte_at_char_from_end(text, room);
    // The window holds one character more than any tail, so `at` is never 0 here.
    match memchr::memchr(b'\n', &text.as_bytes()[at - 1..]) {
        Some(i) if char_count(&text[at + i..]) >= room - room / 4 => at + i,
        _ => cut_after(text, at),
    }
}

/// Where the tail starting at `start` of `text` starts once it takes the whole lines before
/// it that fit in `spare` characters; `start` itself when it is no line's start, or none fits.
fn tail_lines_back(text: &str, start: usize, spare: u64) -> usize {
    let bytes = text.as_bytes();
    if start == 0 || bytes[start - 1] != b'\n' {
        return start;
    }
    let mut at = start;
    let mut left = spare;
    // Only a line with a `'\n'` before it in `text` is whole: the first may be a part.
    while let Some(nl) = memchr::memrchr(b'\n', &bytes[..at - 1]) {
        let chars = char_count(&text[nl + 1..at]);
        if chars > left {
            break;
        }
        left -= chars;
        at = nl + 1;
    }
    at
}

/// How long the head of `text` whose first `end` bytes are shown is once it takes the whole
/// lines after them that fit in `spare` characters; `end` itself when it is no line's end,
/// none fits, or they would leave a colour on (its reset was not paid for).
fn head_lines_on(text: &str, end: usize, spare: u64) -> usize {
    let bytes = text.as_bytes();
    if end == 0 || bytes[end - 1] != b'\n' {
        return end;
    }
    let mut at = end;
    let mut left = spare;
    while let Some(nl) = memchr::memchr(b'\n', &bytes[at..]).map(|i| at + i) {
        let chars = char_count(&text[at..=nl]);
        if chars > left {
            break;
        }
        left -= chars;
        at = nl + 1;
    }
    if sgr_open(&text[..at]) { end } else { at }
}

fn omitted_span(head: &str, tail_text: &str, tail_start: usize, totals: &Totals) -> Span {
    let (head_chars, head_newlines) = count_chars_and_newlines(head.as_bytes());
    let tail = &tail_text[tail_start..];
    let (tail_chars, tail_newlines) = count_chars_and_newlines(tail.as_bytes());
    let first = head_newlines + 1;
    let first_shown = char_count(&head[head.rfind('\n').map_or(0, |nl| nl + 1)..]);
    let (last, last_shown) = if tail.is_empty() {
        (totals.lines, 0)
    } else {
        let tail_start_line = 1 + totals.newlines - tail_newlines;
        if tail_text[..tail_start].ends_with('\n') {
            (tail_start_line - 1, 0)
        } else {
            (
                tail_start_line,
                char_count(&tail[..tail.find('\n').unwrap_or(tail.len())]),
            )
        }
    };
    Span {
        first,
        last,
        total_lines: totals.lines,
        first_shown,
        last_shown,
        chars: totals.chars - head_chars - tail_chars,
        lines: last - first + 1,
    }
}
