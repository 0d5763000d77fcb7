//! One block's preparation: the work on a block of whole lines that needs no other block, so
//! that it can run ahead of the sink on a second core (see [`super::ahead`]) as well as in the
//! reader's own thread (see [`super::reader`]).

use std::borrow::Cow;

use crate::lines::starting_lines_at;
use crate::sink::Lookahead;
use crate::text::count_chars_and_newlines;

/// A block with everything about it that needs no earlier block: its text decoded, its counts,
/// and what the sink's look-ahead found in it.
pub(super) struct Prepared<'a, F> {
    pub(super) text: Cow<'a, str>,
    pub(super) chars: u64,
    pub(super) newlines: u64,
    pub(super) found: F,
}

/// `bytes` decoded as Python's `errors="replace"` does. Most blocks are valid UTF-8, and the
/// standard check reads ASCII a word at a time where the lossy decoder reads a byte at a
/// time (on a log of errors as bytes, a twentieth of the whole plan): only a block with an
/// invalid sequence is decoded again, lossily.
fn decode(bytes: &[u8]) -> Cow<'_, str> {
    match std::str::from_utf8(bytes) {
        Ok(text) => Cow::Borrowed(text),
        Err(_) => String::from_utf8_lossy(bytes),
    }
}

/// Prepares one block of `bytes` (known to be UTF-8 when `valid`, and starting inside a line
/// begun in an earlier block when `continues`) for a sink whose look-ahead is `look`.
pub(super) fn prepare<'a, L: Lookahead>(
    bytes: &'a [u8],
    valid: bool,
    continues: bool,
    look: &L,
) -> Prepared<'a, L::Found> {
    let text: Cow<'a, str> = if valid {
        // SAFETY: `bytes` is a slice of a `&str` cut at '\n' bytes or by
        // `sequence_safe_cut`, so it starts and ends on character boundaries.
        Cow::Borrowed(unsafe { std::str::from_utf8_unchecked(bytes) })
    } else {
        decode(bytes)
    };
    // The look goes first: its scan does enough work per byte to hide the trip to memory,
    // and the counting after it, which does not, then reads the block from cache.
    let found = look.look(&text[starting_lines_at(&text, continues)..]);
    let (chars, newlines) = count_chars_and_newlines(text.as_bytes());
    Prepared {
        text,
        chars,
        newlines,
        found,
    }
}
