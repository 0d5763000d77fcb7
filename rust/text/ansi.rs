//! The terminal's marks in a tool's output: ANSI escape sequences and carriage-return redraws.
//!
//! Programs that think they talk to a terminal colour their output with escapes and redraw
//! progress bars with carriage returns. Neither carries signal for a model, and both break
//! keyword matching, so a planner that reads lines reads them as a terminal would leave them
//! ([`clean`]: escapes gone, and of the states a `'\r'` separates only the last one that is not
//! empty). A cut must not split a sequence ([`crate::text::cut`] asks [`ends_by`]), and a marker after
//! text that leaves a colour on is preceded by [`SGR_RESET`] ([`sgr_open`]). One grammar of the
//! sequences serves all of them, so what is stripped, kept whole and reset always agree.

use std::borrow::Cow;

/// The byte that starts every escape sequence.
pub const ESC: u8 = 0x1b;
/// Turns every colour and style off.
pub const SGR_RESET: &str = "\x1b[0m";

/// `raw` (one line, without its `'\n'`) as a terminal would finally show it.
#[must_use]
pub fn clean(raw: &str) -> Cow<'_, str> {
    without_escapes(last_state(raw))
}

/// `state` (one line state, see [`last_state`]) with its escape sequences removed.
#[must_use]
pub fn without_escapes(state: &str) -> Cow<'_, str> {
    if memchr::memchr(ESC, state.as_bytes()).is_some() {
        Cow::Owned(strip(state))
    } else {
        Cow::Borrowed(state)
    }
}

/// The last non-empty state of a line redrawn with `'\r'` (a CRLF's `'\r'` is dropped too).
pub fn last_state(raw: &str) -> &str {
    let trimmed = raw.trim_end_matches('\r');
    match memchr::memrchr(b'\r', trimmed.as_bytes()) {
        Some(cr) => &trimmed[cr + 1..],
        None => trimmed,
    }
}

/// `s` with every escape sequence removed: CSI (`ESC [ … final`), OSC (`ESC ] … BEL` or
/// `ESC \\`), character set designations (`ESC ( B`) and two-byte escapes; a lone `ESC` goes
/// alone. An unterminated sequence runs to the end.
fn strip(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut copied = 0;
    while let Some(off) = memchr::memchr(ESC, &s.as_bytes()[copied..]) {
        let esc = copied + off;
        out.push_str(&s[copied..esc]);
        copied = escape_end(s, esc);
    }
    out.push_str(&s[copied..]);
    out
}

/// The kinds of escape sequence, by the byte after the `ESC`.
#[derive(Debug, Clone, Copy)]
enum Escape {
    /// `ESC [` parameters and a final byte in `@`..`~`.
    Csi,
    /// `ESC ]` text, ended by BEL or `ESC \`.
    Osc,
    /// `ESC (` or `ESC )` and one character.
    Charset,
    /// `ESC` and one ASCII character.
    Pair,
    /// An `ESC` before anything else, or at the end.
    Lone,
}

fn kind(text: &[u8], esc: usize) -> Escape {
    match text.get(esc + 1) {
        Some(b'[') => Escape::Csi,
        Some(b']') => Escape::Osc,
        Some(b'(' | b')') => Escape::Charset,
        Some(b) if b.is_ascii() => Escape::Pair,
        _ => Escape::Lone,
    }
}

/// Whether byte `k` of a CSI or OSC sequence is its last.
fn closes(text: &[u8], k: usize, kind: Escape) -> bool {
    match kind {
        Escape::Csi => (0x40..=0x7e).contains(&text[k]),
        _ => text[k] == 0x07 || (text[k] == b'\\' && text[k - 1] == ESC),
    }
}

/// Whether the sequence starting at byte `esc` ends at or before byte `at`.
pub fn ends_by(text: &[u8], esc: usize, at: usize) -> bool {
    match kind(text, esc) {
        k @ (Escape::Csi | Escape::Osc) => (esc + 2..at).any(|i| closes(text, i, k)),
        Escape::Charset => esc + 2 < at,
        Escape::Pair => esc + 1 < at,
        Escape::Lone => true,
    }
}

/// Byte just past the sequence starting at byte `esc` of `text` (its end, if unterminated).
pub fn escape_end(text: &str, esc: usize) -> usize {
    let bytes = text.as_bytes();
    match kind(bytes, esc) {
        k @ (Escape::Csi | Escape::Osc) => (esc + 2..bytes.len())
            .find(|&i| closes(bytes, i, k))
            .map_or(bytes.len(), |i| i + 1),
        Escape::Charset => text[esc + 2..]
            .chars()
            .next()
            .map_or(bytes.len(), |c| esc + 2 + c.len_utf8()),
        Escape::Pair => esc + 2,
        Escape::Lone => esc + 1,
    }
}

/// Whether `text` leaves a colour or style on: its last SGR sequence (`ESC [ … m`) sets one
/// rather than turning all off (`ESC[m`, `ESC[0m`, `ESC[0;0m`).
#[must_use]
pub fn sgr_open(text: &str) -> bool {
    let bytes = text.as_bytes();
    let mut open = false;
    let mut from = 0;
    while let Some(off) = memchr::memchr(ESC, &bytes[from..]) {
        let esc = from + off;
        let end = escape_end(text, esc);
        if let [ESC, b'[', params @ .., b'm'] = &bytes[esc..end] {
            if params
                .iter()
                .all(|b| b.is_ascii_digit() || matches!(b, b';' | b':'))
            {
                open = !params.iter().all(|b| matches!(b, b'0' | b';'));
            }
        }
        from = end;
    }
    open
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_are_removed() {
        assert_eq!(clean("\x1b[1m\x1b[31mE   boom\x1b[0m"), "E   boom");
        assert_eq!(clean("\x1b]0;title\x07text"), "text");
        assert_eq!(clean("a\x1b(Bb"), "ab");
        assert_eq!(clean("cut \x1b["), "cut ");
        assert_eq!(clean("\x1b\u{e9}x"), "\u{e9}x");
        // Issue 4: a charset designation cut off at the end of a line hung the planner.
        assert_eq!(clean("a\x1b("), "a");
        assert_eq!(clean("a\x1b)"), "a");
        assert_eq!(clean("\x1b(\u{e9}"), "");
    }

    #[test]
    fn progress_bars_keep_their_last_state() {
        assert_eq!(clean(" 10%\r 50%\r100% done"), "100% done");
        assert_eq!(clean("line with crlf\r"), "line with crlf");
        assert_eq!(clean("a\rb\r\r"), "b");
        assert_eq!(clean("plain"), "plain");
    }

    #[test]
    fn colours_left_on_are_seen() {
        assert!(sgr_open("a\x1b[31mred"));
        assert!(sgr_open("\x1b[1;0m"));
        assert!(!sgr_open("a\x1b[31mred\x1b[0m"));
        assert!(!sgr_open("\x1b[31mred\x1b[m plain"));
        assert!(sgr_open("\x1b[0m\x1b[38;5;0m"));
        assert!(!sgr_open("\x1b[31mred\x1b[0;0m\x1b[2K"));
        assert!(!sgr_open("no escapes"));
        assert!(!sgr_open("\x1b]8;;\x1b[31m\x07"));
    }
}
