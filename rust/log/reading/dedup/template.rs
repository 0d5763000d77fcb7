//! A diagnostic's variant key, its template, and the hash both are known by in the tables.
//!
//! Every warning of a build goes through here, so on a log whose every line is a new
//! diagnostic this is most of the planner's own work. The bytes are read eight at a time: a
//! word is hashed whole, and one test of a word tells whether any of its bytes starts a run
//! to blank (see [`specials`]), so the plain text between runs costs a few instructions a
//! word instead of a table look-up a byte. A key with nothing to blank is its own template
//! and is hashed once for both. Whatever runs outside ASCII (a path ending in a Unicode
//! space) still goes a character at a time. Past the table's cap, most new templates are told
//! from those in the table by their first two words alone (see [`key_head_hash`]).

use std::hash::Hasher;

use crate::hash::FxLikeHasher;
use crate::text::{is_ascii_space, trim_start};

/// The text after a leading location such as `src/a.c:12:5: ` or `a.py:21: `; of a line of
/// pytest's short test summary, the kind of its failure ([`summary_kind`]).
pub fn variant_key(text: &str) -> &str {
    let t = trim_start(text);
    if let Some(kind) = summary_kind(t) {
        return kind;
    }
    let bytes = t.as_bytes();
    // A path-like first word followed by `:digits` fields: the first ':' comes before any ' '.
    let colon = find_either(bytes, b':', b' ');
    if colon == 0 || bytes.get(colon) != Some(&b':') {
        return t;
    }
    // Where the last whole `:digits` field ends, if any.
    let mut end = 0;
    let mut at = colon + 1;
    loop {
        let digits = at;
        while bytes.get(at).is_some_and(u8::is_ascii_digit) {
            at += 1;
        }
        if at == digits || bytes.get(at) != Some(&b':') {
            break;
        }
        at += 1;
        end = at;
    }
    if end > 0 { trim_start(&t[end..]) } else { t }
}

/// Of a line of pytest's short test summary, `FAILED tests/a.py::test_b - AssertionError: ...`
/// (or `ERROR`), the dash and the first word of its message: the exception's name (`-
/// AssertionError`), or `- assert` for a bare assertion. The test's id names one test, and
/// pytest cuts the message to the terminal's width at a place that moves with the id's length
/// (`... - AssertionError: bad order for {'a': 6...`): keyed by their whole text, each line
/// was a kind of its own, the rarest kind there is, and a list of dozens took the room of
/// every traceback it lists. The dash keeps the kind apart from the place line's under a
/// traceback (`tests/a.py:12: AssertionError`), which counts the same failures once more.
fn summary_kind(t: &str) -> Option<&str> {
    let rest = t
        .strip_prefix("FAILED ")
        .or_else(|| t.strip_prefix("ERROR "))?;
    // A parametrised id may hold blanks (`a.py::test_b[x y]`), seldom the separator.
    let sep = rest.find(" - ")?;
    // A test's id (`a.py::test_b`), or a module that failed to collect (`ERROR tests/a.py`).
    let id = &rest[..sep];
    if !id.contains("::") && !id.contains(".py") {
        return None;
    }
    let dashed = &rest[sep + 1..];
    let message = &dashed[2..];
    let end = message
        .find(|c: char| c == ':' || c.is_whitespace())
        .unwrap_or(message.len());
    (end > 0).then(|| &dashed[..2 + end])
}

/// The hash a variant key or a template is known by in [`super::Dedup`]'s tables: a word at a
/// time, the last one padded with zeros and the length after it, so that no two texts share
/// their words.
pub fn text_hash(bytes: &[u8]) -> u64 {
    let mut hasher = FxLikeHasher::default();
    let mut words = bytes.chunks_exact(8);
    for word in &mut words {
        hasher.write_u64(u64::from_le_bytes(word.try_into().unwrap_or([0; 8])));
    }
    let rest = bytes.len() - words.remainder().len();
    if rest < bytes.len() {
        hasher.write_u64(word_at(bytes, rest));
    }
    hasher.write_usize(bytes.len());
    hasher.finish()
}

/// Bytes at the start of a template that [`head_hash`] covers: two words.
pub const HEAD: usize = 16;

/// The [`text_hash`] of the first [`HEAD`] bytes of `template` (all of it when shorter).
pub fn head_hash(template: &[u8]) -> u64 {
    text_hash(&template[..template.len().min(HEAD)])
}

/// The [`head_hash`] of the template of `key`, when that head is `key`'s own: nothing in it is
/// blanked. Two words read, whatever the key's length.
pub fn key_head_hash(key: &str) -> Option<u64> {
    let head = &key.as_bytes()[..key.len().min(HEAD)];
    (next_special(head, 0) == head.len()).then(|| text_hash(head))
}

/// The template of `key`, written to `scratch`; `None` when it is `key` itself, nothing in it
/// being blanked (its hash is then the key's).
pub fn template<'a>(key: &str, scratch: &'a mut Vec<u8>) -> Option<&'a [u8]> {
    let first = next_special(key.as_bytes(), 0);
    if first == key.len() {
        return None;
    }
    template_from(key, first, scratch);
    Some(scratch)
}

/// Writes to `out` the template of `key`, whose first byte to start a blanked run is at
/// `first`: numbers, hex, paths and quoted names blanked out.
fn template_from(key: &str, first: usize, out: &mut Vec<u8>) {
    // Every character that starts a blanked run is ASCII, so the text between such runs is
    // copied as whole slices, and `out` is UTF-8 as `key` is.
    let bytes = key.as_bytes();
    out.clear();
    let mut copied = 0;
    let mut i = first;
    while i < bytes.len() {
        let c = bytes[i];
        if c.is_ascii_digit() {
            let run = bytes[i + 1..]
                .iter()
                .take_while(|&&b| b.is_ascii_hexdigit() || matches!(b, b'x' | b'.'))
                .count();
            out.extend_from_slice(&bytes[copied..i]);
            out.push(b'#');
            i += 1 + run;
        } else if matches!(c, b'/' | b'\\') {
            out.extend_from_slice(&bytes[copied..i]);
            out.push(b'/');
            i = path_end(key, i + 1);
        } else {
            // A quoted name: up to the closing quote on the same line. An unclosed quote
            // keeps the rest as it is.
            let close = find_byte(bytes, i + 1, c);
            if close == bytes.len() {
                break;
            }
            out.extend_from_slice(&bytes[copied..=i]);
            out.extend_from_slice("\u{2026}".as_bytes());
            out.push(c);
            i = close + 1;
        }
        copied = i;
        i = next_special(bytes, i);
    }
    out.extend_from_slice(&bytes[copied..]);
}

/// Where the path word going on at byte `from` of `key` ends: at whitespace, ':', ',' or ')'.
fn path_end(key: &str, from: usize) -> usize {
    let bytes = key.as_bytes();
    let mut j = from;
    while j < bytes.len() {
        let b = bytes[j];
        if b < 0x80 {
            if is_ascii_space(b) || matches!(b, b':' | b',' | b')') {
                break;
            }
            j += 1;
        } else {
            // `j` is at a character's first byte: every step before went over a whole one.
            let c = key[j..].chars().next().unwrap_or(' ');
            if c.is_whitespace() {
                break;
            }
            j += c.len_utf8();
        }
    }
    j
}

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// The eight bytes of `bytes` from `at`, little-endian, zeros past the end.
fn word_at(bytes: &[u8], at: usize) -> u64 {
    let load = |from: usize| u64::from_le_bytes(bytes[from..from + 8].try_into().unwrap_or([0; 8]));
    if at + 8 <= bytes.len() {
        load(at)
    } else if bytes.len() >= 8 {
        // The last eight bytes, shifted down to start at `at`: no copy of a short tail.
        load(bytes.len() - 8) >> (8 * (at + 8 - bytes.len()))
    } else {
        bytes[at..]
            .iter()
            .rev()
            .fold(0, |word, &b| (word << 8) | u64::from(b))
    }
}

/// The high bit of each byte of `low`, whose high bits are clear, that is `c` (ASCII).
fn equal_low(low: u64, c: u8) -> u64 {
    // A zero byte plus 0x7f stays below 0x80; any other reaches it, without a carry out.
    !((low ^ (ONES * u64::from(c))) + !HIGHS) & HIGHS
}

/// The high bit of each byte of `word` that starts a blanked run in a template: a quote, a
/// digit, '/' or '\\' (ASCII all of them; `'/'..='9'` is one range).
fn specials(word: u64) -> u64 {
    let low = word & !HIGHS;
    // Adding 0x80 - n to a byte below 0x80 sets its high bit exactly when it is at least n.
    let range = (low + ONES * (0x80 - 0x2f)) & !(low + ONES * (0x80 - 0x3a));
    let quotes =
        equal_low(low, b'"') | equal_low(low, b'\'') | equal_low(low, b'`') | equal_low(low, b'\\');
    (range | quotes) & !word & HIGHS
}

/// The first byte at or after `from` that starts a blanked run, or the length.
#[inline]
fn next_special(bytes: &[u8], from: usize) -> usize {
    first_where(bytes, from, specials)
}

/// The first byte that is `a` or `b` (ASCII both, not NUL), or the length.
#[inline]
fn find_either(bytes: &[u8], a: u8, b: u8) -> usize {
    first_where(bytes, 0, |word| {
        let low = word & !HIGHS;
        (equal_low(low, a) | equal_low(low, b)) & !word
    })
}

/// The first byte `c` (ASCII, not NUL) at or after `from`, or the length.
#[inline]
fn find_byte(bytes: &[u8], from: usize, c: u8) -> usize {
    first_where(bytes, from, |word| equal_low(word & !HIGHS, c) & !word)
}

/// The first byte at or after `from` whose high bit `found` sets in its word, or the length;
/// `found` leaves the bit of a NUL byte clear, so that the zeros padding the last word count
/// for nothing.
#[inline]
fn first_where(bytes: &[u8], from: usize, found: impl Fn(u64) -> u64) -> usize {
    let mut at = from;
    let mut words = bytes[from..].chunks_exact(8);
    for word in &mut words {
        let bits = found(u64::from_le_bytes(word.try_into().unwrap_or([0; 8])));
        if bits != 0 {
            return at + bits.trailing_zeros() as usize / 8;
        }
        at += 8;
    }
    if at < bytes.len() {
        let bits = found(word_at(bytes, at));
        if bits != 0 {
            return at + bits.trailing_zeros() as usize / 8;
        }
    }
    bytes.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_summary_line_is_of_the_kind_of_its_exception() {
        // pytest cuts each message at the terminal's width, wherever the id leaves it.
        let cut = [
            "FAILED tests/test_pricing.py::test_price_of_kale - AssertionError: assert 493...",
            "FAILED tests/test_pricing.py::test_price_of_honeydew_melon - AssertionError: ...",
            "FAILED tests/test_pricing.py::test_price_of_spinach - AssertionError: assert ...",
            "FAILED tests/test_pricing.py::test_price_of_kale - AssertionError",
        ];
        for line in cut {
            assert_eq!(variant_key(line), "- AssertionError", "{line}");
        }
        assert_eq!(
            variant_key("FAILED tests/a.py::test_b[3 4] - assert 3 == 4"),
            "- assert"
        );
        assert_eq!(
            variant_key("ERROR tests/a.py::test_db - sqlite3.OperationalError: locked"),
            "- sqlite3.OperationalError"
        );
        // The place line under a traceback counts the same failures: a kind of its own.
        assert_eq!(
            variant_key("tests/test_pricing.py:5: AssertionError"),
            "AssertionError"
        );
    }

    #[test]
    fn other_lines_that_open_with_failed_keep_their_whole_key() {
        for line in [
            "FAILED (failures=2, errors=1)",
            "FAILED tests/a.py::test_b",
            "FAILED to start the service - see the journal",
            "ERROR: could not find a version that satisfies the requirement",
        ] {
            assert_eq!(variant_key(line), line, "{line}");
        }
    }

    fn template_of(key: &str) -> String {
        let mut scratch = Vec::new();
        let text = template(key, &mut scratch).unwrap_or(key.as_bytes());
        String::from_utf8(text.to_vec()).expect("a template is UTF-8")
    }

    /// `template_of` one character at a time: the plain statement of what it does.
    fn template_of_naive(key: &str) -> String {
        let mut out = String::new();
        let mut chars = key.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '\'' | '"' | '`' => {
                    let mut rest = String::new();
                    let mut closed = false;
                    for d in chars.by_ref() {
                        if d == c {
                            closed = true;
                            break;
                        }
                        rest.push(d);
                    }
                    out.push(c);
                    if closed {
                        out.push('\u{2026}');
                        out.push(c);
                    } else {
                        out.push_str(&rest);
                    }
                }
                '0'..='9' => {
                    out.push('#');
                    while chars
                        .peek()
                        .is_some_and(|d| d.is_ascii_hexdigit() || matches!(d, 'x' | '.'))
                    {
                        chars.next();
                    }
                }
                '/' | '\\' => {
                    out.push('/');
                    while chars
                        .peek()
                        .is_some_and(|d| !d.is_whitespace() && !matches!(d, ':' | ',' | ')'))
                    {
                        chars.next();
                    }
                }
                _ => out.push(c),
            }
        }
        out
    }

    /// `variant_key` as it was before its ASCII fast paths.
    fn variant_key_naive(text: &str) -> &str {
        let t = text.trim_start();
        let bytes = t.as_bytes();
        let Some(colon) = memchr::memchr2(b':', b' ', bytes) else {
            return t;
        };
        if colon == 0 || bytes[colon] != b':' {
            return t;
        }
        let mut at = colon + 1;
        let mut fields = 0;
        loop {
            let digits = bytes[at..]
                .iter()
                .take_while(|b| b.is_ascii_digit())
                .count();
            if digits == 0 || bytes.get(at + digits) != Some(&b':') {
                break;
            }
            at += digits + 1;
            fields += 1;
        }
        if fields > 0 { t[at..].trim_start() } else { t }
    }

    /// Keys of up to `most` parts drawn from `parts` by a fixed xorshift, so that every run
    /// sees the same ones.
    fn generated(parts: &[&str], most: u64, count: usize) -> Vec<String> {
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        (0..count)
            .map(|_| {
                let len = next() % (most + 1);
                let n = parts.len() as u64;
                (0..len)
                    .map(|_| parts[usize::try_from(next() % n).unwrap()])
                    .collect()
            })
            .collect()
    }

    /// Everything that starts or ends a run, ASCII and not, and non-ASCII bytes whose low
    /// seven bits are a special byte's (U+00A2 is C2 A2, and A2 & 0x7f is '"').
    const PARTS: [&str; 36] = [
        "a",
        "Z",
        " ",
        "0",
        "9",
        "x",
        ".",
        "'",
        "\"",
        "`",
        "/",
        "\\",
        ":",
        ",",
        ")",
        "\u{a0}",
        "\u{b}",
        "\u{c}",
        "\u{e9}",
        "\u{4e2d}",
        "warning: ",
        "f",
        "\t",
        "\u{a2}",
        "\u{a7}",
        "\u{b0}",
        "\u{af}",
        "\u{700}",
        "\u{800}",
        "\u{85}",
        "\u{2003}",
        "\0",
        "abcdefgh",
        "-",
        "[",
        "\u{1f600}",
    ];

    #[test]
    fn template_of_same_as_naive() {
        // Short keys, and keys long enough to span several words, ending anywhere in one.
        for (most, count) in [(12, 50_000), (48, 20_000)] {
            for key in generated(&PARTS, most, count) {
                assert_eq!(template_of(&key), template_of_naive(&key), "{key:?}");
            }
        }
    }

    /// The hash that [`key_head_hash`] takes a short cut to is that of the template's head.
    #[test]
    fn a_key_head_hash_is_its_templates() {
        let mut heads = 0;
        for key in generated(&PARTS, 30, 20_000) {
            if let Some(head) = key_head_hash(&key) {
                assert_eq!(
                    head,
                    head_hash(template_of_naive(&key).as_bytes()),
                    "{key:?}"
                );
                heads += 1;
            }
        }
        assert!(heads > 1000, "{heads} keys with a head of their own");
    }

    #[test]
    fn variant_key_same_as_naive() {
        let parts = [
            "src/a.c", "a", " ", "\t", "\u{b}", "\u{a0}", "\u{2003}", ":", "1", "23", ": ", "x.py",
            "/", "\u{e9}", "warning", "\u{85}",
        ];
        for text in generated(&parts, 10, 50_000) {
            assert_eq!(variant_key(&text), variant_key_naive(&text), "{text:?}");
        }
    }

    #[test]
    fn texts_that_share_their_words_hash_apart() {
        let texts = [
            "",
            "\0",
            "a",
            "a\0",
            "abcdefgh",
            "abcdefgh\0",
            "abcdefgh\0\0",
        ];
        for (i, a) in texts.iter().enumerate() {
            for b in &texts[i + 1..] {
                assert_ne!(
                    text_hash(a.as_bytes()),
                    text_hash(b.as_bytes()),
                    "{a:?} {b:?}"
                );
            }
        }
    }

    #[test]
    fn locations_are_not_part_of_a_variant() {
        assert_eq!(variant_key("src/a.c:12:5: warning: x"), "warning: x");
        assert_eq!(
            variant_key("a.py:21: DeprecationWarning: y"),
            "DeprecationWarning: y"
        );
        assert_eq!(variant_key("warning: no location"), "warning: no location");
        assert_eq!(
            variant_key("WARNING:linecheck:a.py: 3 lines"),
            "WARNING:linecheck:a.py: 3 lines"
        );
    }

    #[test]
    fn templates_blank_numbers_paths_and_names() {
        assert_eq!(
            template_of("conversion to 'char' from 'unsigned char' [-Wsign-conversion]"),
            "conversion to '\u{2026}' from '\u{2026}' [-Wsign-conversion]"
        );
        assert_eq!(
            template_of("x.py: 32 lines over 79 at 0x7f3a in /usr/lib/a.py"),
            "x.py: # lines over # at # in /"
        );
        assert_eq!(template_of("unclosed 'quote"), "unclosed 'quote");
    }
}
