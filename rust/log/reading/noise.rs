//! Terminal noise removed from the lines a log plan looks at or shows.
//!
//! Programs that think they talk to a terminal colour their output with ANSI escapes and redraw
//! progress bars with carriage returns. Neither carries signal for a model, and both break
//! keyword matching, so a line is read as a terminal would leave it: escapes gone, and of the
//! states a `'\r'` separates only the last one that is not empty. Runs of identical lines are
//! the third kind of noise; the renderer collapses them.

use std::borrow::Cow;

/// `raw` (one line, without its `'\n'`) as a terminal would finally show it.
#[must_use]
pub fn clean(raw: &str) -> Cow<'_, str> {
    without_escapes(last_state(raw))
}

/// `state` (one line state, see [`last_state`]) with its escape sequences removed.
#[must_use]
pub fn without_escapes(state: &str) -> Cow<'_, str> {
    if memchr::memchr(0x1b, state.as_bytes()).is_some() {
        Cow::Owned(strip_ansi(state))
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

/// Removes CSI sequences (`ESC [ … final`), OSC sequences (`ESC ] … BEL` or `ESC \`), and
/// two-byte escapes.
fn strip_ansi(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = String::with_capacity(s.len());
    let mut copied = 0;
    let mut i = 0;
    while let Some(off) = memchr::memchr(0x1b, &bytes[i..]) {
        let esc = i + off;
        out.push_str(&s[copied..esc]);
        let mut j = esc + 1;
        match bytes.get(j) {
            Some(b'[') => {
                j += 1;
                while j < bytes.len() && !(0x40..=0x7e).contains(&bytes[j]) {
                    j += 1;
                }
                j = (j + 1).min(bytes.len());
            }
            Some(b']') => {
                while j < bytes.len()
                    && bytes[j] != 0x07
                    && !(bytes[j] == b'\\' && bytes[j - 1] == 0x1b)
                {
                    j += 1;
                }
                j = (j + 1).min(bytes.len());
            }
            // Character set designations carry one more byte: `ESC ( B`.
            Some(b'(' | b')') => j += 2,
            Some(b) if b.is_ascii() => j += 1,
            _ => {}
        }
        // Never run past the end (`ESC (` may be the line's last two bytes), and never stop
        // inside a multi-byte character.
        j = j.min(bytes.len());
        while !s.is_char_boundary(j) {
            j += 1;
        }
        copied = j;
        i = j;
    }
    out.push_str(&s[copied..]);
    out
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
}
