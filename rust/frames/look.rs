//! The look-ahead of the frames' ends ([`super::FramesClipPlanner`]), on the lines that start
//! in a block, alone: where its last lines that may be in a tail start, and, until some line
//! showed redrawn progress, whether the lines before them did. Past the head, that is all the
//! planner reads of most of a block.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use super::screen::{last_frame, progress};
use crate::sink::Lookahead;
use crate::text::char_count;

/// Looks at a block's lines for a planner of `room` characters.
#[derive(Debug, Clone)]
pub struct Look {
    pub room: u64,
    /// Set once a redrawn line showed progress: nothing more is looked for but the tail.
    pub settled: Arc<AtomicBool>,
}

/// What [`Look`] found.
#[derive(Debug)]
pub struct Before {
    /// Byte offset of the first line that may be in a tail ([`tail_start`]).
    pub tail_at: usize,
    pub seen: Seen,
}

impl Lookahead for Look {
    type Found = Before;

    fn look(&self, text: &str) -> Before {
        let tail_at = tail_start(text, self.room);
        let seen = if self.settled.load(Ordering::Relaxed) {
            Seen::default()
        } else {
            Seen::of(&text[..tail_at])
        };
        Before { tail_at, seen }
    }
}

/// Whether whole lines redrew one, and whether a redrawn one showed progress: all the ends
/// need to know of the lines they do not show.
#[derive(Debug, Default, Clone, Copy)]
pub struct Seen {
    pub redrawn: bool,
    pub progress: bool,
}

impl Seen {
    /// What `text`, whole lines, shows: only a line with a carriage return that redraws it is
    /// read, and none after the first that shows progress.
    pub fn of(text: &str) -> Seen {
        let bytes = text.as_bytes();
        let mut seen = Seen::default();
        let mut from = 0;
        while let Some(cr) = next_redraw(text, from) {
            let start = memchr::memrchr(b'\n', &bytes[..cr]).map_or(0, |nl| nl + 1);
            let end = memchr::memchr(b'\n', &bytes[cr..]).map_or(text.len(), |nl| cr + nl);
            seen.redrawn = true;
            if progress(&text[start..end]) {
                seen.progress = true;
                break;
            }
            from = end + 1;
        }
        seen
    }

    /// Both: the output is one the ends may plan.
    pub fn settled(self) -> bool {
        self.redrawn && self.progress
    }
}

/// The first carriage return in `text` from byte `from` that redraws its line: one followed by
/// more of the line.
pub fn next_redraw(text: &str, from: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    memchr::memchr_iter(b'\r', bytes.get(from..)?)
        .map(|at| from + at)
        .find(|&at| {
            bytes
                .get(at + 1)
                .is_some_and(|&next| next != b'\r' && next != b'\n')
        })
}

/// Byte offset in `text` (whole lines) of the first of its last lines that, as a terminal
/// leaves them, hold at most `room` characters: no line before it can be in a tail. A redrawn
/// line counts its last frame alone, however long its text.
fn tail_start(text: &str, room: u64) -> usize {
    let bytes = text.as_bytes();
    let mut end = text.len();
    let mut chars = 0;
    while end > 0 {
        let body_end = end - usize::from(bytes[end - 1] == b'\n');
        let start = memchr::memrchr(b'\n', &bytes[..body_end]).map_or(0, |nl| nl + 1);
        let (shown, _) = last_frame(&text[start..body_end]);
        chars += char_count(shown) + (end - body_end) as u64;
        if chars > room {
            return end;
        }
        end = start;
    }
    0
}
