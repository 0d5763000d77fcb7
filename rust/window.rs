//! The engine's bounded memory of the input: its first characters and its last characters.
//!
//! Whatever the input's size, the clip (and a log plan's head and tail) only ever shows a
//! prefix and a suffix shorter than the budget, so the engine keeps the first `budget`
//! characters and at least the last `budget + 1` (one more, to know whether the shown suffix
//! starts at a line start). A block of any size costs a copy of at most a few budgets' worth
//! of bytes.

use crate::sink::{Block, Sink};
use crate::text::{byte_at_char, byte_at_char_from_end};

/// The first `budget` and at least the last `budget + 1` characters of the input, fed as a
/// [`Sink`].
#[derive(Debug)]
pub struct Window {
    budget: u64,
    /// The first `min(budget, input)` characters.
    pub head: String,
    head_chars: u64,
    /// At least the last `budget + 1` characters (all of them for a shorter input).
    pub tail: String,
}

impl Window {
    /// An empty window for outputs of `budget` characters.
    #[must_use]
    pub fn new(budget: u64) -> Self {
        Window {
            budget,
            head: String::new(),
            head_chars: 0,
            tail: String::new(),
        }
    }

    /// The last `budget + 1` characters (all of them for a shorter input): what the tail holds
    /// however the input was fed, so a plan that reads no further back is the same for a
    /// stream as for one call.
    #[must_use]
    pub fn last_chars(&self) -> &str {
        &self.tail[byte_at_char_from_end(&self.tail, self.budget + 1)..]
    }

    /// Bytes that surely hold `budget + 1` characters, whatever their width.
    fn tail_keep_bytes(&self) -> usize {
        usize::try_from(self.budget.saturating_add(2).saturating_mul(4)).unwrap_or(usize::MAX)
    }
}

impl Sink for Window {
    type Lookahead = ();
    fn lookahead(&self) {}
    fn block(&mut self, block: &Block<'_>, (): ()) {
        let text = block.text;
        if self.head_chars < self.budget {
            let end = byte_at_char(text, self.budget - self.head_chars);
            self.head.push_str(&text[..end]);
            self.head_chars += if end == text.len() {
                block.chars
            } else {
                self.budget - self.head_chars
            };
        }
        // In an ASCII block (as many characters as bytes) the last `budget + 1` bytes are
        // exactly the characters needed; else take enough bytes for the widest characters.
        let keep = if block.chars == text.len() as u64 {
            usize::try_from(self.budget.saturating_add(1)).unwrap_or(usize::MAX)
        } else {
            self.tail_keep_bytes()
        };
        let mut start = text.len().saturating_sub(keep);
        while !text.is_char_boundary(start) {
            start += 1;
        }
        if start > 0 {
            // The block alone holds enough: what was kept before is no longer needed.
            self.tail.clear();
        }
        self.tail.push_str(&text[start..]);
        if self.tail.len() > 2 * self.tail_keep_bytes() {
            let cut = byte_at_char_from_end(&self.tail, self.budget + 1);
            self.tail.drain(..cut);
        }
    }
}
