//! Where a line may be cut: between what a reader sees as characters, never inside one.
//!
//! A cut at a character count could split a letter from its accents, an emoji from its skin
//! tone or the rest of its ZWJ sequence, a flag in two, or an ANSI escape sequence, whose broken
//! half then swallows the marker after it on a terminal. [`cut_before`] and [`cut_after`] move
//! a cut to the nearest place that splits none of these, by at most [`MAX_SHIFT`] characters: a
//! longer cluster is pathological, and is cut where it was. The rules are those of Unicode's
//! extended grapheme clusters (UAX #29) that matter to a cut: never before an extender (see
//! [`super::extenders`]), never after a zero-width joiner, regional indicators in pairs. Hangul
//! jamo sequences and Indic conjuncts across a virama are not kept whole. Escape sequences are
//! read by the grammar the log planner strips them with ([`super::ansi`]). The Python clip
//! (`shapeclip.cut`) cuts identically.

use std::cmp::Ordering;

use super::ansi::ends_by;
use super::extenders::EXTENDERS;

/// Characters a cut moves at most to keep a cluster or an escape sequence whole.
pub const MAX_SHIFT: usize = 32;
const ZWJ: char = '\u{200d}';

fn extends(c: char) -> bool {
    let c = u32::from(c);
    EXTENDERS
        .binary_search_by(|&(first, last)| {
            if last < c {
                Ordering::Less
            } else if first > c {
                Ordering::Greater
            } else {
                Ordering::Equal
            }
        })
        .is_ok()
}

fn regional_indicator(c: char) -> bool {
    ('\u{1f1e6}'..='\u{1f1ff}').contains(&c)
}

/// Which side of a cut is whole text, from which a run of regional indicators is paired: the
/// text before a cut made from a line's start, the text after a cut made from the input's end.
#[derive(Debug, Clone, Copy)]
enum Whole {
    Before,
    After,
}

/// Whether a cut at byte `at`, a character boundary inside `text`, splits a cluster or an
/// escape sequence.
fn splits(text: &str, at: usize, whole: Whole) -> bool {
    let (Some(a), Some(b)) = (text[..at].chars().next_back(), text[at..].chars().next()) else {
        return false;
    };
    if extends(b) || a == ZWJ {
        return true;
    }
    if regional_indicator(a) && regional_indicator(b) {
        // Flags pair from the start of their run; for a run of whole flags, from its end too.
        let run = match whole {
            Whole::Before => text[..at]
                .chars()
                .rev()
                .take_while(|&c| regional_indicator(c))
                .count(),
            Whole::After => text[at..]
                .chars()
                .take_while(|&c| regional_indicator(c))
                .count(),
        };
        return run % 2 == 1;
    }
    in_escape(text.as_bytes(), &text[..at])
}

/// Whether the end of `before`, a prefix of `text`, is inside an escape sequence that starts
/// in its last [`MAX_SHIFT`] characters.
fn in_escape(text: &[u8], before: &str) -> bool {
    // Most text has no escape near the cut: its last bytes say so without decoding them.
    let near = before.len().saturating_sub(4 * MAX_SHIFT);
    if memchr::memrchr(b'\x1b', &before.as_bytes()[near..]).is_none() {
        return false;
    }
    let esc = before
        .char_indices()
        .rev()
        .take(MAX_SHIFT)
        .find(|&(_, c)| c == '\x1b');
    esc.is_some_and(|(esc, _)| !ends_by(text, esc, before.len()))
}

/// The latest place at or before byte `at` of `text` that splits no cluster or escape
/// sequence, at most [`MAX_SHIFT`] characters back (`at` itself when there is none). `text`
/// starts where a line or the input does.
#[must_use]
#[inline]
pub fn cut_before(text: &str, at: usize) -> usize {
    // Most lines are kept whole, and a cut at an end splits nothing.
    if at == 0 || at >= text.len() {
        return at;
    }
    shift(text, at, Whole::Before)
}

/// The earliest place at or after byte `at` of `text` that splits no cluster or escape
/// sequence, at most [`MAX_SHIFT`] characters on (`at` itself when there is none). `text` ends
/// where the input does.
#[must_use]
pub fn cut_after(text: &str, at: usize) -> usize {
    shift(text, at, Whole::After)
}

/// Moves a cut at `at` toward the whole side of `text`, a character at a time, until it splits
/// nothing.
fn shift(text: &str, at: usize, whole: Whole) -> usize {
    let mut cut = at;
    for _ in 0..=MAX_SHIFT {
        if cut == 0 || cut >= text.len() || !splits(text, cut, whole) {
            return cut;
        }
        cut = match whole {
            Whole::Before => text[..cut].char_indices().next_back().map_or(0, |(i, _)| i),
            Whole::After => cut + text[cut..].chars().next().map_or(0, char::len_utf8),
        };
    }
    at
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `text` cut before and after character `n`, as character counts.
    fn cuts(text: &str, n: usize) -> (usize, usize) {
        let at = text.char_indices().nth(n).map_or(text.len(), |(i, _)| i);
        let count = |b: usize| text[..b].chars().count();
        (count(cut_before(text, at)), count(cut_after(text, at)))
    }

    #[test]
    fn clusters_stay_whole() {
        assert_eq!(cuts("xe\u{301}y", 2), (1, 3));
        assert_eq!(cuts("x\u{1f44d}\u{1f3fd}y", 2), (1, 3));
        assert_eq!(cuts("x\u{1f468}\u{200d}\u{1f469}y", 3), (1, 4));
        assert_eq!(cuts("x\u{915}\u{93f}y", 2), (1, 3));
        assert_eq!(cuts("xy", 1), (1, 1));
    }

    #[test]
    fn flags_pair_from_the_whole_side() {
        let flags = "\u{1f1eb}\u{1f1f7}\u{1f1e9}\u{1f1ea}";
        assert_eq!(cuts(flags, 1), (0, 2));
        assert_eq!(cuts(flags, 2), (2, 2));
        assert_eq!(cuts(flags, 3), (2, 4));
    }

    #[test]
    fn escape_sequences_stay_whole() {
        let text = "ab\x1b[38;5;196mcd";
        for n in 3..13 {
            assert_eq!(cuts(text, n), (2, 13), "{n}");
        }
        assert_eq!(cuts("a\x1b]8;;u\x1b\\b", 6), (1, 9));
        assert_eq!(cuts("a\x1b(Bb", 2), (1, 4));
        assert_eq!(cuts("a\x1b\u{e9}", 2), (2, 2));
    }

    #[test]
    fn a_cluster_longer_than_the_shift_is_cut_where_it_was() {
        let zalgo = format!("x{}", "\u{301}".repeat(100));
        assert_eq!(cuts(&zalgo, 50), (50, 50));
        assert_eq!(cuts(&zalgo, 20), (0, 20));
    }
}
