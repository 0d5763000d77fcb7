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
//! line as its last frame).
//!
//! A frame ends at a carriage return that more of the line follows; the carriage returns at a
//! line's end (a CRLF's) stay with its last frame, so the shown text of a line is a suffix of
//! it, and the characters before it are what the marker counts. Only a shell's output is read
//! so: a file with carriage returns alone for line ends would show its last line. And only
//! output whose frames look like progress (a `%`, a bar's block or a spinner's dots).

mod marker;
#[cfg(test)]
mod tests;

use crate::plan::{LineRange, Piece, Plan, Shape};
use crate::planner::{Context, Planner};
use crate::profile::ToolKind;
use crate::sink::{Block, Sink};
use crate::text::char_count;

/// The lines of a shell's output as a terminal leaves them, while they fit the room.
#[derive(Debug)]
pub struct FramesPlanner {
    room: u64,
    /// Every finished line's last frame, with its `'\n'`.
    shown: String,
    shown_chars: u64,
    /// The current line's frame so far (empty once it outgrew the room).
    frame: String,
    frame_chars: u64,
    /// `'\r'`s at the end of the current line so far: a frame's end, or the line's.
    pending_cr: u64,
    /// What was drawn over: characters, frames, and the lines redrawn (at most one a character
    /// of the room, since each shows a frame of one character at least).
    drawn_chars: u64,
    frames: u64,
    redrawn: Vec<u64>,
    line_redrawn: bool,
    /// Some frame held a mark of progress.
    progress: bool,
    declined: bool,
}

impl FramesPlanner {
    /// Reads the next piece of line `no` (`text`, without its `'\n'`); `ends` when the line
    /// ends with it.
    fn piece(&mut self, no: u64, text: &str, ends: bool) {
        let body = text.trim_end_matches('\r');
        let trailing = (text.len() - body.len()) as u64;
        if body.is_empty() {
            self.pending_cr += trailing;
        } else {
            let redraw = memchr::memrchr(b'\r', body.as_bytes())
                .map(|cr| cr + 1)
                .or((self.pending_cr > 0).then_some(0));
            match redraw {
                Some(at) => self.redraw(&body[..at], &body[at..]),
                None => self.extend(body),
            }
            self.pending_cr = trailing;
        }
        if ends {
            self.end_line(no);
        }
    }

    /// The current frame, any carriage returns after it and `over` are drawn over by `frame`.
    fn redraw(&mut self, over: &str, frame: &str) {
        self.frames += self.frames_in(over);
        self.progress = self.progress || progress(&self.frame) || progress(over);
        self.drawn_chars += self.frame_chars + self.pending_cr + char_count(over);
        self.line_redrawn = true;
        self.frame.clear();
        self.frame_chars = 0;
        self.extend(frame);
    }

    /// The frames with text that `over`, which ends in a carriage return or is empty, ends:
    /// each run of carriage returns ends the frame before it, which starts with the current
    /// one's text unless carriage returns already ended that. An empty frame (before a line's
    /// first carriage return, as tqdm writes it) is none.
    fn frames_in(&self, over: &str) -> u64 {
        let mut frames = 0;
        let mut open = self.frame_chars > 0;
        if self.pending_cr > 0 {
            frames += u64::from(open);
            open = false;
        }
        // Every piece but the last is ended by a carriage return; the last is empty.
        let mut pieces = over.split('\r').peekable();
        while let Some(piece) = pieces.next() {
            if pieces.peek().is_none() {
                break;
            }
            frames += u64::from(open || !piece.is_empty());
            open = false;
        }
        frames
    }

    fn extend(&mut self, text: &str) {
        self.frame_chars += char_count(text);
        if self.shown_chars + self.frame_chars <= self.room {
            self.frame.push_str(text);
        } else {
            self.frame.clear();
        }
    }

    fn end_line(&mut self, no: u64) {
        self.frame_chars += self.pending_cr;
        self.shown_chars += self.frame_chars;
        if self.shown_chars > self.room {
            self.declined = true;
            return;
        }
        self.shown.push_str(&self.frame);
        self.shown.extend(std::iter::repeat_n(
            '\r',
            usize::try_from(self.pending_cr).unwrap_or(0),
        ));
        if self.line_redrawn {
            self.progress = self.progress || progress(&self.frame);
            self.redrawn.push(no);
        }
        self.frame.clear();
        self.frame_chars = 0;
        self.pending_cr = 0;
        self.line_redrawn = false;
    }
}

/// Whether a frame shows progress: a percentage, a bar's blocks, a spinner's braille dots.
fn progress(frame: &str) -> bool {
    memchr::memchr(b'%', frame.as_bytes()).is_some()
        || frame
            .chars()
            .any(|c| matches!(c, '\u{2580}'..='\u{259f}' | '\u{2501}' | '\u{2800}'..='\u{28ff}'))
}

impl Sink for FramesPlanner {
    type Lookahead = ();
    fn lookahead(&self) {}

    fn block(&mut self, block: &Block<'_>, (): ()) {
        for line in block.lines() {
            if self.declined {
                return;
            }
            self.piece(line.no, line.text, !line.open);
            if line.terminated && !self.declined {
                self.shown.push('\n');
                self.shown_chars += 1;
                self.declined = self.shown_chars > self.room;
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
            shown: String::new(),
            shown_chars: 0,
            frame: String::new(),
            frame_chars: 0,
            pending_cr: 0,
            drawn_chars: 0,
            frames: 0,
            redrawn: Vec::new(),
            line_redrawn: false,
            progress: false,
            declined: false,
        }
    }

    fn plan(self, context: &Context<'_>) -> Option<Plan> {
        if self.declined || self.redrawn.is_empty() || !self.progress {
            return None;
        }
        debug_assert_eq!(
            self.shown_chars + self.drawn_chars,
            context.totals.chars,
            "every character is shown or drawn over"
        );
        let omitted = ranges(&self.redrawn);
        let facts = marker::Facts {
            first: self.redrawn[0],
            last: self.redrawn[self.redrawn.len() - 1],
            total_lines: context.totals.lines,
            lines: self.redrawn.len() as u64,
            frames: self.frames,
            chars: self.drawn_chars,
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
            omitted_chars: self.drawn_chars,
        })
    }
}

/// `lines`, in increasing order, as ranges of consecutive lines.
fn ranges(lines: &[u64]) -> Vec<LineRange> {
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
