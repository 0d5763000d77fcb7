//! The signal words of a log line: `error`, `FAILED`, `panicked`, `warning`, and CamelCase
//! names that end in one (`ValueError`, `DeprecationWarning`).
//!
//! A word counts only where it stands on its own (not inside `error_handler.py` or `-Werror`),
//! in lower, Capitalised or UPPER case, and not negated (`0 errors`, `failures=0`). The earliest
//! such word decides the line's class. Lines reach this check only after the block-wide
//! prefilter hit them, so it is one short walk over a line of a few dozen bytes.

use super::class::Class;
use super::marks::{Marks, first_marked};
use crate::lanes::Lanes;
use crate::text::trim_end;

/// Keywords and the class they signal. Longer forms are listed so that a match can demand a
/// word boundary after it.
const KEYWORDS: &[(&str, Class)] = &[
    ("error", Class::Error),
    ("errors", Class::Error),
    ("err!", Class::Error),
    ("fail", Class::Error),
    ("fails", Class::Error),
    ("failed", Class::Error),
    ("failure", Class::Error),
    ("failures", Class::Error),
    ("failing", Class::Error),
    ("fatal", Class::Error),
    ("exception", Class::Error),
    ("panic", Class::Error),
    ("panicked", Class::Error),
    ("traceback", Class::Error),
    ("warn", Class::Warning),
    ("warning", Class::Warning),
    ("warnings", Class::Warning),
];

/// Suffixes of CamelCase names that signal: `ValueError`, `DeprecationWarning`.
const CAMEL: &[(&str, Class)] = &[
    ("Error", Class::Error),
    ("Exception", Class::Error),
    ("Failure", Class::Error),
    ("Warning", Class::Warning),
];

/// The class of the earliest keyword that stands as a word of its own, or that ends a
/// CamelCase name.
pub(super) fn first_signal(line: &str) -> Class {
    first_signal_from(line, 0)
}

/// [`first_signal`] of a line in which no keyword starts before byte `quiet` (what the
/// prefilter's scan already knows): the walk starts there.
pub(super) fn first_signal_from(line: &str, quiet: usize) -> Class {
    first_keyword(line, quiet).map_or(Class::Other, |(_, class)| class)
}

/// The earliest keyword from byte `from` on, where it starts and its class; a CamelCase
/// suffix starts inside its name.
fn first_keyword(line: &str, from: usize) -> Option<(usize, Class)> {
    let bytes = line.as_bytes();
    // Only a byte that may start a keyword stops the walk; what stands before it is one
    // look-up back.
    first_marked(bytes, from, &MayStart, |at| {
        let kind = KIND[usize::from(bytes[at])];
        let prev = at.checked_sub(1).map_or(0, |i| KIND[usize::from(bytes[i])]);
        let class = if prev & WORD != 0 {
            // Inside a word only a CamelCase suffix can start.
            if kind & CAMEL_START != 0 {
                camel_at(bytes, at)
            } else {
                None
            }
        } else if prev & JOINER != 0 {
            // Joined to an identifier, a path, a flag or a dotted name: `-Werror`.
            None
        } else {
            keyword_at(line, at)
        };
        class.map(|class| (at, class))
    })
}

/// Whether `line`'s first error or warning word reads as a report of an event rather than a
/// word of prose: in capitals (`ERROR`, `FAILED`), the end of a CamelCase name
/// (`ValueError`), before an exit status (make's `[all] Error 2`), or among the line's first
/// [`REPORT_WORDS`] words (`Error: Process completed`, `collect2: error: ld returned`, `Build
/// failed with an exception`). A package's description names errors further into its
/// sentence: `a fast memory error detector`, `Limited Error Raster Compression library`.
pub(super) fn reports(line: &str) -> bool {
    let Some((at, _)) = first_keyword(line, 0) else {
        return false;
    };
    let bytes = line.as_bytes();
    let camel = at > 0 && bytes[at - 1].is_ascii_alphanumeric();
    let word = bytes[at..]
        .iter()
        .take_while(|b| b.is_ascii_alphabetic())
        .count();
    let shouted = bytes[at..at + word].iter().all(u8::is_ascii_uppercase);
    let status = bytes.get(at + word) == Some(&b' ')
        && bytes.get(at + word + 1).is_some_and(u8::is_ascii_digit);
    camel || shouted || status || line[..at].split_whitespace().count() < REPORT_WORDS
}

/// Words at most before the error word of a line that reports an event, where the word is
/// neither in capitals nor a CamelCase name's end nor before an exit status.
const REPORT_WORDS: usize = 4;

/// The bytes that may start a keyword or a CamelCase suffix: where the walk in
/// [`first_signal`] stops.
struct MayStart;

impl Marks for MayStart {
    fn lanes(&self, lanes: Lanes) -> u32 {
        let lower = lanes.folded();
        lower.is(b'e') | lower.is(b'f') | lower.is(b'p') | lower.is(b't') | lower.is(b'w')
    }

    fn byte(&self, b: u8) -> bool {
        matches!(b | 0x20, b'e' | b'f' | b'p' | b't' | b'w')
    }
}

/// What a byte may be to the walk in [`first_signal`], as bits of [`KIND`].
const CAMEL_START: u8 = 2;
const WORD: u8 = 4;
/// Joins what follows to what stands before it: an identifier's `_`, a flag's `-`, a path's `/`,
/// a dotted name's `.`; or opens a name of code in backticks (rustc's `` `Error` ``, GHC's
/// `` `Error' ``), whose error word is a type's name, not an event.
const JOINER: u8 = 8;

/// The kind of every byte, so that the walk costs one look-up per byte of the line.
static KIND: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        #[allow(clippy::cast_possible_truncation, reason = "b < 256")]
        let c = b as u8;
        if c.is_ascii_alphanumeric() {
            table[b] |= WORD;
        }
        if matches!(c, b'E' | b'F' | b'W') {
            table[b] |= CAMEL_START;
        }
        if matches!(c, b'_' | b'-' | b'/' | b'.' | b'\\' | b'`') {
            table[b] |= JOINER;
        }
        b += 1;
    }
    table
};

/// The keywords that may start with the bytes `first`, `second` (in any casing): a slice of
/// [`KEYWORDS`], which lists each family together.
fn family(first: u8, second: u8) -> &'static [(&'static str, Class)] {
    match (first | 0x20, second | 0x20) {
        (b'e', b'r') => &KEYWORDS[..3],
        (b'f', b'a') => &KEYWORDS[3..10],
        (b'e', b'x') => &KEYWORDS[10..11],
        (b'p', b'a') => &KEYWORDS[11..13],
        (b't', b'r') => &KEYWORDS[13..14],
        (b'w', b'a') => &KEYWORDS[14..],
        _ => &[],
    }
}

/// The class of a keyword at `at` (after a word boundary) that qualifies, if any.
fn keyword_at(line: &str, at: usize) -> Option<Class> {
    let rest = &line.as_bytes()[at..];
    let second = rest.get(1).copied()?;
    family(rest[0], second).iter().find_map(|&(word, class)| {
        let matched = rest
            .get(..word.len())
            .is_some_and(|w| w.eq_ignore_ascii_case(word.as_bytes()));
        (matched && standalone(line, at, word)).then_some(class)
    })
}

/// The class of a CamelCase suffix at `at` that closes its name, if any.
fn camel_at(bytes: &[u8], at: usize) -> Option<Class> {
    let rest = &bytes[at..];
    CAMEL.iter().find_map(|&(suffix, class)| {
        let closed = match rest.get(suffix.len()) {
            None => true,
            Some(&next) => matches!(next, b':' | b' ' | b'(' | b')' | b',' | b'\r'),
        };
        (rest.starts_with(suffix.as_bytes()) && closed).then_some(class)
    })
}

/// Whether the keyword `word`, found at `at` (after a word boundary) in some casing, is in an
/// accepted casing, ends its word, and is not negated.
fn standalone(line: &str, at: usize, word: &str) -> bool {
    let bytes = line.as_bytes();
    let end = at + word.len();
    let original = &bytes[at..end];
    let casing_ok = original == word.as_bytes()
        || original.iter().all(|b| !b.is_ascii_lowercase())
        || original[1..].iter().all(|b| !b.is_ascii_uppercase());
    if !casing_ok {
        return false;
    }
    if let Some(&next) = bytes.get(end) {
        let after = bytes.get(end + 1).copied().unwrap_or(b' ');
        if next.is_ascii_alphanumeric()
            || next == b'_'
            || (b"./-".contains(&next) && after.is_ascii_alphanumeric())
        {
            return false;
        }
    }
    // `traceback` alone is a module name; the real thing says `Traceback (` or `traceback:`.
    if word == "traceback" {
        let real = match bytes.get(end) {
            Some(b':') => true,
            Some(b' ') => bytes.get(end + 1) == Some(&b'('),
            _ => false,
        };
        if !real {
            return false;
        }
    }
    !negated(line, at, end)
}

/// `0 errors`, `no failures`, `failed: 0`, `errors=0`, in any casing. Works on `line` as it
/// is: lowering ASCII letters moves no word boundary, so no lowered copy is needed. Every
/// line whose class a keyword decides comes here: it reads bytes, where `trim_end` and
/// `trim_start_matches` decoded each character they looked at.
fn negated(line: &str, at: usize, end: usize) -> bool {
    let before = trim_end(&line[..at]);
    let negating = short_previous_word(before, NEGATING_WORD_BYTES).is_some_and(|prev_word| {
        ["0", "no", "zero", "without"]
            .iter()
            .any(|w| prev_word.eq_ignore_ascii_case(w))
    });
    if negating {
        return true;
    }
    let after = &line.as_bytes()[end..];
    let after = &after[after.iter().take_while(|b| b":= ".contains(b)).count()..];
    after.first() == Some(&b'0') && !matches!(after.get(1), Some(b'0'..=b'9' | b'.'))
}

/// Bytes of the longest word that negates a keyword after it (`without`).
const NEGATING_WORD_BYTES: usize = 7;

/// [`previous_word`] when it has at most `max` bytes, else `None`: the walk back stops after
/// `max + 1` bytes of a word, where the whole word would cost a walk to the line's start (a
/// diagnostic's `src/x/y.c:12:5:` before its `error`).
fn short_previous_word(before: &str, max: usize) -> Option<&str> {
    let bytes = before.as_bytes();
    for (i, &b) in bytes.iter().enumerate().rev() {
        if b >= 0x80 {
            let word = previous_word(before);
            return (word.len() <= max).then_some(word);
        }
        if is_separator(char::from(b)) {
            return (bytes.len() - i - 1 <= max).then(|| &before[i + 1..]);
        }
        if bytes.len() - i > max {
            return None;
        }
    }
    (before.len() <= max).then_some(before)
}

/// What ends the word before a keyword: whitespace, `'('` or `','`.
fn is_separator(c: char) -> bool {
    c.is_whitespace() || c == '(' || c == ','
}

/// The last word of `before`: what follows its last whitespace, `'('` or `','`.
fn previous_word(before: &str) -> &str {
    let bytes = before.as_bytes();
    // Byte by byte while the text is ASCII; a wider character may be Unicode whitespace.
    for (i, &b) in bytes.iter().enumerate().rev() {
        if b >= 0x80 {
            return before.rsplit(is_separator).next().unwrap_or("");
        }
        if is_separator(char::from(b)) {
            return &before[i + 1..];
        }
    }
    before
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_helpers::word_lines;

    #[test]
    fn a_report_leads_with_its_error_or_shouts_it() {
        for line in [
            "error: cannot find symbol",
            "collect2: error: ld returned 1 exit status",
            "Build failed with an exception.",
            "Error: Process completed with exit code 1.",
            "make[2]: *** [src/CMakeFiles/app.dir/build.make:76: src/main.o] Error 1",
            "tests/test_x.py::test_y some words and then FAILED",
            "the words before it do not matter to a ValueError",
        ] {
            assert!(reports(line), "{line}");
        }
        for line in [
            "ii  libasan8:amd64  12.2.0  amd64  AddressSanitizer -- a fast memory error detector",
            "ii  liblerc4:amd64  4.0.0  amd64  Limited Error Raster Compression library",
            "libfoo-dev - a library of helpers that report errors",
            "all is well here",
        ] {
            assert!(!reports(line), "{line}");
        }
    }

    #[test]
    fn the_walk_stops_at_the_same_bytes_sixteen_at_a_time() {
        crate::log::reading::marks::assert_lanes_agree(&MayStart);
    }

    #[test]
    fn camel_suffixes_start_where_the_walk_looks() {
        for &(suffix, _) in CAMEL {
            assert!(
                KIND[usize::from(suffix.as_bytes()[0])] & CAMEL_START != 0,
                "{suffix}"
            );
            assert!(MayStart.byte(suffix.as_bytes()[0]), "{suffix}");
        }
    }

    #[test]
    fn families_are_the_keywords_by_their_first_two_letters() {
        for &(word, _) in KEYWORDS {
            let w = word.as_bytes();
            assert!(MayStart.byte(w[0]), "{word}");
            assert!(family(w[0], w[1]).iter().any(|k| k.0 == word), "{word}");
        }
        let listed: usize = [b"er", b"fa", b"ex", b"pa", b"tr", b"wa"]
            .iter()
            .map(|p| family(p[0], p[1]).len())
            .sum();
        assert_eq!(listed, KEYWORDS.len());
    }

    /// The plain statement: every case-insensitive occurrence of every keyword, and the
    /// earliest one that is standalone or a closed CamelCase suffix.
    fn first_signal_naive(line: &str) -> Class {
        let bytes = line.as_bytes();
        let mut best: Option<(usize, Class)> = None;
        for at in 0..bytes.len() {
            for &(word, class) in KEYWORDS {
                let end = at + word.len();
                if end > bytes.len() || !bytes[at..end].eq_ignore_ascii_case(word.as_bytes()) {
                    continue;
                }
                let joined = at > 0
                    && (bytes[at - 1].is_ascii_alphanumeric()
                        || b"_-/.\\".contains(&bytes[at - 1]));
                let own = !joined && standalone(line, at, word);
                let camel = CAMEL
                    .iter()
                    .find(|(suffix, _)| suffix.as_bytes() == &bytes[at..end])
                    .filter(|_| at > 0 && bytes[at - 1].is_ascii_alphanumeric())
                    .filter(|_| end == bytes.len() || b": (),\r".contains(&bytes[end]));
                let hit = if own { Some(class) } else { camel.map(|c| c.1) };
                if let Some(c) = hit {
                    if best.is_none_or(|(b, _)| at < b) {
                        best = Some((at, c));
                    }
                }
            }
        }
        best.map_or(Class::Other, |(_, c)| c)
    }

    fn previous_word_naive(before: &str) -> &str {
        before
            .rsplit(|c: char| c.is_whitespace() || c == '(' || c == ',')
            .next()
            .unwrap_or("")
    }

    #[test]
    fn same_as_the_plain_statement() {
        let words = [
            "error",
            "Error",
            "ERROR",
            "eRRor",
            "errors",
            "ERR!",
            "err!",
            "fail",
            "FAILED",
            "Failing",
            "fatal",
            "panic",
            "panicked",
            "Traceback",
            "traceback:",
            "Traceback (",
            "warn",
            "Warning",
            "WARNINGS",
            "ValueError",
            "AnException",
            "TestFailure",
            "DeprecationWarning",
            "0",
            "no",
            "zero",
            "Without",
            "=0",
            ": 0",
            "0.5",
            "_",
            "-",
            "/",
            ".",
            "\\",
            "(",
            ")",
            ":",
            ",",
            " ",
            "\t",
            "\r",
            "\u{a0}",
            "\u{e9}",
            "x",
            "1",
        ];
        for line in word_lines(&words, 0x9e37_79b9_7f4a_7c15, 8, false).take(200_000) {
            assert_eq!(first_signal(&line), first_signal_naive(&line), "{line:?}");
            assert_eq!(previous_word(&line), previous_word_naive(&line), "{line:?}");
            for end in (0..=line.len()).filter(|&i| line.is_char_boundary(i)) {
                let after = line[end..].trim_start_matches([':', '=', ' ']);
                let zero = after.starts_with('0')
                    && !after[1..].starts_with(|c: char| c.is_ascii_digit() || c == '.');
                let before = short_previous_word(line[..end].trim_end(), NEGATING_WORD_BYTES);
                let negating = before.is_some_and(|w| {
                    ["0", "no", "zero", "without"]
                        .iter()
                        .any(|n| w.eq_ignore_ascii_case(n))
                });
                assert_eq!(negated(&line, end, end), negating || zero, "{line:?} {end}");
            }
            for max in [0, 1, 3, NEGATING_WORD_BYTES] {
                let word = previous_word_naive(&line);
                let short = (word.len() <= max).then_some(word);
                assert_eq!(short_previous_word(&line, max), short, "{line:?} {max}");
            }
        }
    }
}
