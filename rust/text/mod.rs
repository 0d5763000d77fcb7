//! Text helpers shared by the reader, the planners and the renderers: the lower layer every
//! shape reads text through, so that the next shape does not write them again.
//!
//! Budgets and every count shapeclip prints are in characters (Unicode code points), the unit
//! Python's `len` uses, never bytes. The functions here convert between the two on UTF-8 text
//! (the words and numbers that markers print, and their printed widths, are in
//! [`crate::markers`]). Beside them: [`ansi`], a terminal's escape sequences and redraws, read
//! away or kept whole; and [`cut`], where a line may be cut without splitting what a reader sees
//! as one character (its table of combining characters is [`extenders`]); and [`code_points`],
//! a Python `str`'s characters written as UTF-8 for the engine.

pub mod ansi;
pub mod code_points;
pub mod cut;
pub mod elision;
pub mod extenders;

/// The line without a viewer's line number: `  12\t` (`cat -n`, `nl`, Claude Code's Read),
/// `12:` (SWE-agent's viewer) or `  12→` (the read tools of several agent harnesses) before
/// the text.
#[must_use]
pub fn past_line_number(line: &[u8]) -> &[u8] {
    let lead = line.iter().take_while(|&&b| b == b' ').count();
    let digits = line[lead..]
        .iter()
        .take_while(|b| b.is_ascii_digit())
        .count();
    if digits == 0 {
        return line;
    }
    let rest = &line[lead + digits..];
    match rest.first() {
        Some(b'\t' | b':') => &rest[1..],
        _ => rest.strip_prefix("→".as_bytes()).unwrap_or(line),
    }
}

/// Bytes counted into a byte-wide sum before it is widened: at most 255, so the sum cannot
/// overflow, and a multiple of 64, so no short tail is left outside the vector loop.
const COUNT_CHUNK: usize = 192;

/// Counts code points and `'\n'` bytes in one pass; a UTF-8 continuation byte is not a code point.
#[must_use]
pub fn count_chars_and_newlines(bytes: &[u8]) -> (u64, u64) {
    // Summing per fixed-size chunk keeps the inner loop branch-free so it vectorises.
    let mut chars = 0u64;
    let mut newlines = 0u64;
    for chunk in bytes.chunks(COUNT_CHUNK) {
        let mut c = 0u8;
        let mut n = 0u8;
        for &b in chunk {
            c += u8::from(b & 0xC0 != 0x80);
            n += u8::from(b == b'\n');
        }
        chars += u64::from(c);
        newlines += u64::from(n);
    }
    (chars, newlines)
}

/// The number of `'\n'` bytes in `bytes`; half the work of [`count_chars_and_newlines`].
#[must_use]
pub fn count_newlines(bytes: &[u8]) -> u64 {
    let mut newlines = 0u64;
    for chunk in bytes.chunks(COUNT_CHUNK) {
        let mut n = 0u8;
        for &b in chunk {
            n += u8::from(b == b'\n');
        }
        newlines += u64::from(n);
    }
    newlines
}

/// Code points in `s`.
#[must_use]
pub fn char_count(s: &str) -> u64 {
    count_chars_and_newlines(s.as_bytes()).0
}

/// `str::trim_start`, without decoding characters while they are ASCII: on the lines a
/// log's look classifies, decoding each character it looked at cost more than the test.
#[must_use]
pub fn trim_start(s: &str) -> &str {
    let ascii = s.bytes().take_while(|&b| is_ascii_space(b)).count();
    let rest = &s[ascii..];
    if rest.as_bytes().first().is_some_and(|&b| b >= 0x80) {
        // Unicode white space (a no-break space) starts with a byte past ASCII.
        rest.trim_start()
    } else {
        rest
    }
}

/// `str::trim_end`, without decoding characters while they are ASCII (see [`trim_start`]).
#[must_use]
pub fn trim_end(s: &str) -> &str {
    let ascii = s.bytes().rev().take_while(|&b| is_ascii_space(b)).count();
    let rest = &s[..s.len() - ascii];
    if rest.as_bytes().last().is_some_and(|&b| b >= 0x80) {
        rest.trim_end()
    } else {
        rest
    }
}

/// `str::trim`, without decoding characters while they are ASCII (see [`trim_start`]).
#[must_use]
pub fn trim(s: &str) -> &str {
    trim_end(trim_start(s))
}

/// Whether `s` holds a character `char::is_whitespace` takes. An ASCII line is tested sixteen
/// bytes at a time without decoding it: a listing's look at every line of an output of long
/// names, decoding each character, cost more than all the rest of the search planner's work.
#[must_use]
pub fn has_space(s: &str) -> bool {
    if !s.is_ascii() {
        return s.contains(char::is_whitespace);
    }
    // Comparisons OR-ed together over a whole chunk, which the compiler makes vector ones.
    s.as_bytes().chunks(64).any(|chunk| {
        chunk.iter().fold(0u8, |space, &b| {
            space | u8::from(b == b' ') | u8::from(b.wrapping_sub(b'\t') < 5)
        }) != 0
    })
}

/// `char::is_whitespace` for an ASCII byte: unlike `u8::is_ascii_whitespace`, with U+000B.
#[must_use]
pub fn is_ascii_space(b: u8) -> bool {
    matches!(b, b'\t'..=b'\r' | b' ')
}

/// Byte index of the start of the `n`th code point of `s`, or `s.len()` when `s` is shorter.
#[must_use]
pub fn byte_at_char(s: &str, n: u64) -> usize {
    let Ok(mut left) = usize::try_from(n) else {
        return s.len();
    };
    // A string of at most `n` bytes has at most `n` characters: no need to walk it.
    if s.len() <= left {
        return s.len();
    }
    // Whole chunks are skipped by counting the characters that start in them, a vector at a
    // time; a character at a time, this walk was the search planner's costliest step on the
    // long lines of a log it had not yet declined. A chunk may end inside a character: the
    // walk after them counts starts, not whole characters.
    let bytes = s.as_bytes();
    let mut at = 0;
    for chunk in bytes.chunks_exact(SKIP_CHUNK) {
        // Summed in a byte (a chunk has fewer than 256), which vectorises where `count` did not.
        let starts = usize::from(
            chunk
                .iter()
                .fold(0u8, |n, &b| n + u8::from(!is_continuation(b))),
        );
        if starts > left {
            break;
        }
        left -= starts;
        at += SKIP_CHUNK;
    }
    bytes[at..]
        .iter()
        .enumerate()
        .filter(|&(_, &b)| !is_continuation(b))
        .nth(left)
        .map_or(s.len(), |(i, _)| at + i)
}

/// Bytes [`byte_at_char`] counts at once: a few vectors, and few enough to walk after them.
const SKIP_CHUNK: usize = 64;
// The count of a chunk's characters fits a byte.
const _: () = assert!(SKIP_CHUNK < 256);

/// A UTF-8 byte that goes on a character begun before it.
fn is_continuation(byte: u8) -> bool {
    byte & 0xC0 == 0x80
}

/// Byte index where the last `n` code points of `s` begin (0 when `s` is shorter).
#[must_use]
pub fn byte_at_char_from_end(s: &str, n: u64) -> usize {
    if n == 0 {
        return s.len();
    }
    let Ok(n) = usize::try_from(n) else { return 0 };
    s.char_indices().rev().nth(n - 1).map_or(0, |(i, _)| i)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_code_points_not_bytes() {
        let s = "a\u{e9}\u{4e2d}\u{1f600}\ne\u{301}\n";
        assert_eq!(count_chars_and_newlines(s.as_bytes()), (8, 2));
        let long = "\u{1f600}x\n".repeat(1000);
        assert_eq!(count_chars_and_newlines(long.as_bytes()), (3000, 1000));
    }

    #[test]
    fn char_positions_past_whole_chunks() {
        // Characters of every width, so that chunks end inside characters at every offset.
        let s: String = "a\u{e9}\u{4e2d}\u{1f600}".repeat(200);
        let starts: Vec<usize> = s.char_indices().map(|(i, _)| i).collect();
        for n in 0..=starts.len() + 2 {
            let expected = starts.get(n).copied().unwrap_or(s.len());
            assert_eq!(byte_at_char(&s, n as u64), expected, "character {n}");
            assert_eq!(byte_at_char(&s[1..], n as u64), expected_from(&s[1..], n));
        }
    }

    fn expected_from(s: &str, n: usize) -> usize {
        s.char_indices().nth(n).map_or(s.len(), |(i, _)| i)
    }

    #[test]
    fn char_positions() {
        let s = "\u{4e2d}a\u{1f600}b";
        assert_eq!(byte_at_char(s, 0), 0);
        assert_eq!(byte_at_char(s, 2), 4);
        assert_eq!(byte_at_char(s, 9), s.len());
        assert_eq!(byte_at_char_from_end(s, 1), 8);
        assert_eq!(byte_at_char_from_end(s, 2), 4);
        assert_eq!(byte_at_char_from_end(s, 0), s.len());
        assert_eq!(byte_at_char_from_end(s, 9), 0);
    }

    #[test]
    fn takes_every_ascii_byte_as_char_is_whitespace_does_wherever_it_is() {
        for b in 0..0x80u8 {
            for at in 0..24 {
                let mut line = vec![b'x'; 24];
                line[at] = b;
                let line = String::from_utf8(line).unwrap_or_default();
                assert_eq!(has_space(&line), char::from(b).is_whitespace(), "{line:?}");
            }
        }
    }

    #[test]
    fn finds_a_space_anywhere_in_a_long_line() {
        for len in 0..70 {
            let plain = "x".repeat(len);
            assert!(!has_space(&plain));
            assert!(!has_space(&format!("{plain}\u{e9}\u{1c}")));
            for at in 0..=len {
                for space in [" ", "\t", "\x0b", "\r", "\u{a0}", "\u{3000}"] {
                    let line = format!("{}{space}{}", &plain[..at], &plain[at..]);
                    assert!(has_space(&line), "{line:?}");
                }
            }
        }
    }

    #[test]
    fn trims_and_finds_spaces_as_the_standard_ones() {
        let words = [
            " ", "\t", "\r", "\n", "\x0b", "\x0c", "\x1c", "\u{a0}", "\u{3000}", "\u{e9}", "x", ":",
        ];
        for line in
            crate::test_helpers::word_lines(&words, 0x2545_f491_4f6c_dd1d, 7, false).take(50_000)
        {
            assert_eq!(trim_start(&line), line.trim_start(), "{line:?}");
            assert_eq!(trim_end(&line), line.trim_end(), "{line:?}");
            assert_eq!(trim(&line), line.trim(), "{line:?}");
            assert_eq!(
                has_space(&line),
                line.contains(char::is_whitespace),
                "{line:?}"
            );
        }
    }
}
