//! A shell's output whose progress displays redrew their lines with carriage returns: a
//! download's meter, tqdm's bar, apt's `Reading package lists... 0%`, each frame written over
//! the one before it on the same line.
//!
//! A terminal shows each such line's last frame; a tool that captures the output keeps every
//! frame, so a few lines of training epochs come back as a hundred kilobytes of bars, and a head
//! and tail cut shows bars and loses the lines between them (`Epoch 1 done: val_loss=1.100`).
//! Where the output as a terminal leaves it fits the budget, this plan shows exactly that:
//! every line, each redrawn one as its last frame, and one closing marker that counts the
//! frames drawn over, their characters and lines, and says how to see them again. Where it does
//! not fit, the planners after this one plan the output (the log planner, too, reads a redrawn
//! line as its last frame), and what none of them plans, [`FramesClipPlanner`], registered
//! last, shows by its first and last lines so.
//!
//! A frame ends at a carriage return that more of the line follows; the carriage returns at a
//! line's end (a CRLF's) stay with its last frame, so the shown text of a line is a suffix of
//! it, and the characters before it are what the marker counts. Only a shell's output is read
//! so: a file with carriage returns alone for line ends would show its last line. And only
//! output whose frames look like progress (a `%`, a bar's block or a spinner's dots).

mod clip;
mod look;
mod marker;
mod ring;
mod screen;
#[cfg(test)]
mod tests;

pub use clip::FramesClipPlanner;

use crate::plan::{LineRange, Piece, Plan, Shape};
use crate::planner::{Context, Planner};
use crate::profile::ToolKind;
use crate::sink::{Block, Sink};
use screen::Screen;

/// The lines of a shell's output as a terminal leaves them, while they fit the room.
#[derive(Debug)]
pub struct FramesPlanner {
    room: u64,
    screen: Screen,
    /// Every finished line's last frame, with its `'\n'`.
    shown: String,
    shown_chars: u64,
    /// The lines redrawn (at most one a character of the room, since each shows a frame of one
    /// character at least).
    redrawn: Vec<u64>,
    declined: bool,
}

impl Sink for FramesPlanner {
    type Lookahead = ();
    fn lookahead(&self) {}

    fn block(&mut self, block: &Block<'_>, (): ()) {
        for line in block.lines() {
            if self.declined {
                return;
            }
            let limit = self.room - self.shown_chars;
            if let Some(ended) = self
                .screen
                .piece(line.text, !line.open, limit, &mut self.shown)
            {
                self.shown_chars += ended.chars;
                if ended.redrawn {
                    self.redrawn.push(line.no);
                }
            }
            self.shown_chars += u64::from(line.terminated);
            if self.shown_chars > self.room {
                self.declined = true;
                return;
            }
            if line.terminated {
                self.shown.push('\n');
            }
        }
    }
}

impl Planner for FramesPlanner {
    fn serves(kind: ToolKind) -> bool {
        kind == ToolKind::Shell
    }

    fn new(room: u64) -> Self {
        FramesPlanner {
            room,
            screen: Screen::default(),
            shown: String::new(),
            shown_chars: 0,
            redrawn: Vec::new(),
            declined: false,
        }
    }

    fn plan(self, context: &Context<'_>) -> Option<Plan> {
        if self.declined || self.redrawn.is_empty() || !self.screen.progress {
            return None;
        }
        debug_assert_eq!(
            self.shown_chars + self.screen.drawn_chars,
            context.totals.chars,
            "every character is shown or drawn over"
        );
        let omitted = ranges(&self.redrawn);
        let facts = marker::Facts {
            first: self.redrawn[0],
            last: self.redrawn[self.redrawn.len() - 1],
            total_lines: context.totals.lines,
            lines: self.redrawn.len() as u64,
            frames: self.screen.frames,
            chars: self.screen.drawn_chars,
        };
        // The marker starts a line of its own and ends it.
        let opens = !self.shown.is_empty() && !self.shown.ends_with('\n');
        let room = self
            .room
            .checked_sub(self.shown_chars + 1 + u64::from(opens))?;
        let mut text = facts.fitting(room, context.profile)?;
        if opens {
            text.insert(0, '\n');
        }
        text.push('\n');
        let mut pieces = Vec::with_capacity(2);
        if !self.shown.is_empty() {
            pieces.push(Piece::Kept(self.shown));
        }
        pieces.push(Piece::Marker(text));
        Some(Plan {
            shape: Shape::Frames,
            pieces,
            omitted,
            omitted_chars: self.screen.drawn_chars,
        })
    }
}

/// `lines`, in increasing order, as ranges of consecutive lines.
pub(crate) fn ranges(lines: &[u64]) -> Vec<LineRange> {
    let mut ranges: Vec<LineRange> = Vec::new();
    for &no in lines {
        match ranges.last_mut() {
            Some(range) if range.last + 1 == no => range.last = no,
            _ => ranges.push(LineRange {
                first: no,
                last: no,
            }),
        }
    }
    ranges
}
