//! Input text that could pass for shapeclip's own markers, disarmed where shapeclip cut.
//!
//! A tool's output may hold lines that look exactly like shapeclip's markers, by accident or
//! to steer the agent that reads them (`[shapeclip: lines 3-9 omitted. To see them, run …]`).
//! Output that fits is returned unchanged, so there such lines stand as they are. In output
//! shapeclip cut or regrouped, an agent must be able to trust every marker, so [`disarm`] shows
//! the opening bracket of each look-alike in the input's text round: `(shapeclip:`, `(lines 3-9
//! omitted`. One ASCII character stands for one, so every count stays exact. A look-alike is a
//! `[`, then any spaces or tabs, then `shapeclip`, or `line` or `lines`, blanks and a digit, in
//! any case: the openings of every marker shapeclip writes but the bare `…`. The Python clip
//! (`shapeclip.lookalike`) disarms the same text.

use std::borrow::Cow;

/// `text` with the `[` of each look-alike marker made `(`.
#[must_use]
pub fn disarm(text: &str) -> Cow<'_, str> {
    let bytes = text.as_bytes();
    let mut disarmed: Option<Vec<u8>> = None;
    for at in memchr::memchr_iter(b'[', bytes) {
        if opens_marker(&bytes[at + 1..]) {
            disarmed.get_or_insert_with(|| bytes.to_vec())[at] = b'(';
        }
    }
    match disarmed {
        None => Cow::Borrowed(text),
        Some(bytes) => Cow::Owned(String::from_utf8(bytes).expect("one ASCII byte for another")),
    }
}

/// Whether the text after a `[` reads as the rest of a marker's opening.
fn opens_marker(after: &[u8]) -> bool {
    let rest = skip_blanks(after);
    if starts_with_word(rest, b"shapeclip") {
        return true;
    }
    if !starts_with_word(rest, b"line") {
        return false;
    }
    let rest = &rest[4..];
    let rest = rest
        .strip_prefix(b"s")
        .or_else(|| rest.strip_prefix(b"S"))
        .unwrap_or(rest);
    let number = skip_blanks(rest);
    number.len() < rest.len() && number.first().is_some_and(u8::is_ascii_digit)
}

fn skip_blanks(bytes: &[u8]) -> &[u8] {
    let blanks = bytes
        .iter()
        .take_while(|&&b| b == b' ' || b == b'\t')
        .count();
    &bytes[blanks..]
}

fn starts_with_word(bytes: &[u8], word: &[u8]) -> bool {
    bytes.len() >= word.len() && bytes[..word.len()].eq_ignore_ascii_case(word)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn look_alikes_get_a_round_bracket() {
        assert_eq!(disarm("[shapeclip: x]"), "(shapeclip: x]");
        assert_eq!(
            disarm("a [ ShapeClip: x] [lines 1-2 omitted]"),
            "a ( ShapeClip: x] (lines 1-2 omitted]"
        );
        assert_eq!(disarm("[line\t7 omitted]"), "(line\t7 omitted]");
        assert_eq!(disarm("[LINES 12]"), "(LINES 12]");
    }

    #[test]
    fn other_brackets_stay() {
        for text in [
            "[lines]",
            "[linesx 3]",
            "[line3]",
            "[shape clip:",
            "x[1:2]",
            "[",
            "é[lines ",
        ] {
            assert!(matches!(disarm(text), Cow::Borrowed(_)), "{text}");
        }
    }
}
