//! A shell's output with redrawn progress that is too long to show whole as a terminal leaves
//! it, and that no other planner planned (a log with errors is the log planner's): its first
//! and last lines as a terminal leaves them, each redrawn one as its last frame, around one
//! marker that names the lines between and counts every character not shown.
//!
//! A training script that prints a line an epoch and a bar in between is such an output: a
//! cut of its text would show the bars' raw frames at both ends, and the epochs' lines, which
//! say how the run went, would be lost among them. The head is kept as the lines come, while
//! it fits the room, and so are the last lines that fit it, as a ring; the room is split
//! between head and tail as the tool's profile weighs them. Past the head, the look-ahead
//! ([`super::look`]) finds where a block's last lines that may be shown start and, until some
//! redrawn line has shown progress, whether the lines before them redrew one; the planner reads
//! only those last lines: at once while it has seen no progress and they redraw a line, else at
//! the end or when the next block is too short to stand for them. The marker names lines and characters, not frames:
//! counting frames would mean finding every carriage return of a log with CRLF line ends.

use super::look::{Before, Look, Seen, next_redraw};
use super::marker::Cut;
use super::ranges;
use super::ring::Ring;
use super::screen::{Ended, Screen, last_frame, progress};
use crate::lines::Line;
use crate::plan::{Piece, Plan, Shape};
use crate::planner::{Context, Planner};
use crate::profile::ToolKind;
use crate::sink::{Block, Sink};
use crate::text::{char_count, count_chars_and_newlines};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// The part of the room (1/n) each of the marker's wordings may take at most, longest first,
/// as the clip sizes its own: a long marker at a small budget costs more lines than it is worth.
const MARKER_PARTS: [u64; 3] = [24, 6, 2];

/// The first and the last lines of a shell's output as a terminal leaves them, each while they
/// fit the room, and whether a redrawn line showed progress.
#[derive(Debug)]
pub struct FramesClipPlanner {
    room: u64,
    screen: Screen,
    /// The first lines, each with its `'\n'`.
    head: String,
    head_chars: u64,
    /// For each line of the head, the bytes and characters of the head through it.
    head_ends: Vec<(usize, u64)>,
    /// The lines of the head that were redrawn.
    head_redrawn: Vec<u64>,
    /// A line did not fit: the head holds no more.
    head_full: bool,
    last: Ring,
    deferred: Option<Deferred>,
    /// What the lines read whole showed; the screen knows what the lines in pieces did.
    seen: Seen,
    /// Shared with the look, set once `seen` is settled.
    settled: Arc<AtomicBool>,
}

impl FramesClipPlanner {
    /// Takes in what some lines showed; once settled, the look looks for no more.
    fn saw(&mut self, seen: Seen) {
        self.seen.redrawn = self.seen.redrawn || seen.redrawn;
        self.seen.progress = self.seen.progress || seen.progress;
        if self.seen.settled() {
            self.settled.store(true, Ordering::Relaxed);
        }
    }

    fn read_deferred(&mut self, deferred: &Deferred) {
        let (chars, newlines) = count_chars_and_newlines(deferred.text.as_bytes());
        let block = Block {
            text: &deferred.text,
            first_line: deferred.first_line,
            chars,
            newlines,
            continues_line: false,
            line_open: false,
        };
        for line in block.lines() {
            self.read(&line);
        }
    }

    /// Reads a whole line (without its `'\n'`), writing its last frame to the ring's text when
    /// it takes at most `limit` characters: as the screen would, without counting what was
    /// drawn over.
    fn whole(&mut self, text: &str, limit: u64) -> Ended {
        let (shown, redrawn) = last_frame(text);
        let chars = char_count(shown);
        if chars <= limit {
            self.last.text.push_str(shown);
        }
        if redrawn {
            self.saw(Seen {
                redrawn: true,
                progress: self.seen.progress || progress(text),
            });
        }
        Ended { chars, redrawn }
    }

    /// Reads a line, or a piece of one: a whole line at once, a line in pieces on the screen.
    fn read(&mut self, line: &Line<'_>) {
        let newline = u64::from(line.terminated);
        let limit = self.room.saturating_sub(newline);
        let start = self.last.text.len();
        let ended = if line.continued || line.open {
            let Some(ended) = self
                .screen
                .piece(line.text, !line.open, limit, &mut self.last.text)
            else {
                return;
            };
            self.saw(Seen {
                redrawn: ended.redrawn,
                progress: self.screen.progress,
            });
            ended
        } else {
            self.whole(line.text, limit)
        };
        if ended.chars > limit {
            // Neither this line nor any before it can be shown at the end.
            self.last.clear();
            self.head_full = true;
            return;
        }
        if line.terminated {
            self.last.text.push('\n');
        }
        let chars = ended.chars + newline;
        if !self.head_full && self.head_chars + chars <= self.room {
            self.head.push_str(&self.last.text[start..]);
            self.head_chars += chars;
            self.head_ends.push((self.head.len(), self.head_chars));
            if ended.redrawn {
                self.head_redrawn.push(line.no);
            }
        } else {
            self.head_full = true;
        }
        self.last.push(line.no, chars, ended.redrawn, self.room);
    }
}

impl Sink for FramesClipPlanner {
    type Lookahead = Look;

    fn lookahead(&self) -> Look {
        Look {
            room: self.room,
            settled: Arc::clone(&self.settled),
        }
    }

    fn block(&mut self, block: &Block<'_>, found: Before) {
        let (continuation, mut lines) = block.split();
        let tail_at = lines.start() + found.tail_at;
        if let Some(deferred) = self.deferred.take() {
            let superseded = self.head_full && !block.line_open && tail_at > lines.start();
            if !superseded {
                self.read_deferred(&deferred);
            }
        }
        if let Some(line) = continuation {
            self.read(&line);
        }
        // The look read the lines before the tail's start where it reads them alone: past the
        // head, in a block that ends with a line.
        let looked = self.head_full && !block.line_open;
        while block.line_open || !self.head_full {
            let Some(line) = lines.next() else { return };
            self.read(&line);
        }
        let at = tail_at.max(lines.start());
        if looked {
            self.saw(found.seen);
        } else if !self.seen.settled() {
            self.saw(Seen::of(&block.text[lines.start()..at]));
        }
        if at > lines.start() {
            self.last.clear();
        }
        let rest = &block.text[at..];
        if !self.seen.settled() && next_redraw(rest, 0).is_some() {
            for line in block.lines_from(at) {
                self.read(&line);
            }
        } else if !rest.is_empty() {
            // Read only if the next block leaves the room for them, or at the end.
            self.deferred = Some(Deferred {
                first_line: block.lines_from(at).no(),
                text: rest.to_owned(),
            });
        }
    }
}

/// The last lines of a block past the head, not read yet: lines that may redraw one are read at
/// once until the output is known to show progress.
#[derive(Debug)]
struct Deferred {
    first_line: u64,
    text: String,
}

impl Planner for FramesClipPlanner {
    fn serves(kind: ToolKind) -> bool {
        kind == ToolKind::Shell
    }

    fn new(room: u64) -> Self {
        FramesClipPlanner {
            room,
            screen: Screen::default(),
            head: String::new(),
            head_chars: 0,
            head_ends: Vec::new(),
            head_redrawn: Vec::new(),
            head_full: false,
            last: Ring::default(),
            deferred: None,
            seen: Seen::default(),
            settled: Arc::new(AtomicBool::new(false)),
        }
    }

    fn plan(mut self, context: &Context<'_>) -> Option<Plan> {
        if let Some(deferred) = self.deferred.take() {
            self.read_deferred(&deferred);
        }
        if !self.seen.settled() {
            return None;
        }
        let totals = context.totals;
        let profile = context.profile;
        let widest = Cut::widest(totals.lines, totals.chars);
        // Each wording with its '\n'; the head ends in one, so none is needed before it.
        let (tier, marker_len) = widest
            .wordings(profile)
            .iter()
            .map(|text| char_count(text) + 1)
            .zip(MARKER_PARTS)
            .enumerate()
            .find(|&(_, (len, part))| len <= self.room / part)
            .map(|(tier, (len, _))| (tier, len))?;
        let room = self.room - marker_len;
        let weights = profile.head_weight + profile.tail_weight;
        let head_room = room * profile.head_weight / weights;
        let head_lines = self
            .head_ends
            .partition_point(|&(_, chars)| chars <= head_room);
        let (head_bytes, head_chars) = head_lines
            .checked_sub(1)
            .map_or((0, 0), |last| self.head_ends[last]);
        let tail = self
            .last
            .tail(room - head_chars, head_lines as u64 + 1, totals.lines);
        let first = head_lines as u64 + 1;
        let last = tail.first.checked_sub(1).filter(|&last| last >= first)?;
        let cut = Cut {
            first,
            last,
            total_lines: totals.lines,
            chars: totals.chars - head_chars - tail.chars,
        };
        let mut marker = cut.wordings(profile)[tier].clone();
        marker.push('\n');

        let shown_redrawn = self.head_redrawn.partition_point(|&no| no < first);
        let mut redrawn = self.head_redrawn[..shown_redrawn].to_vec();
        redrawn.extend(first..=last);
        redrawn.extend(tail.redrawn);
        let mut pieces = Vec::with_capacity(3);
        let mut head = self.head;
        head.truncate(head_bytes);
        if !head.is_empty() {
            pieces.push(Piece::Kept(head));
        }
        pieces.push(Piece::Marker(marker));
        if !tail.text.is_empty() {
            pieces.push(Piece::Kept(tail.text));
        }
        Some(Plan {
            shape: Shape::Frames,
            pieces,
            omitted: ranges(&redrawn),
            omitted_chars: cut.chars,
        })
    }
}
