//! The last lines read, as a terminal leaves them, that a tail of the room may show.

use std::collections::VecDeque;

/// The last lines read as a terminal leaves them, while the lines after the first hold less
/// than the room: every tail of at most the room's characters is among them.
#[derive(Debug, Default)]
pub struct Ring {
    /// The lines, each with its `'\n'`, after `start` bytes no longer held.
    pub text: String,
    start: usize,
    /// Each line's number, end in `text`, characters, and whether it was redrawn.
    lines: VecDeque<(u64, usize, u64, bool)>,
    chars: u64,
}

impl Ring {
    /// Takes line `no`, just written to `text`.
    pub fn push(&mut self, no: u64, chars: u64, redrawn: bool, room: u64) {
        self.lines.push_back((no, self.text.len(), chars, redrawn));
        self.chars += chars;
        while let Some(&(_, end, first, _)) = self.lines.front() {
            if self.chars - first < room {
                break;
            }
            self.lines.pop_front();
            self.chars -= first;
            self.start = end;
        }
        // Text no line needs goes once it is half of what is held: a copy of a byte per byte
        // written, at most.
        if self.start * 2 > self.text.len() {
            self.text.drain(..self.start);
            for line in &mut self.lines {
                line.1 -= self.start;
            }
            self.start = 0;
        }
    }

    pub fn clear(&mut self) {
        self.text.clear();
        self.start = 0;
        self.lines.clear();
        self.chars = 0;
    }

    /// The last lines, from line `from` at the earliest, within `room` characters; they end
    /// the input (of `total_lines`) or none is shown.
    pub fn tail(&self, room: u64, from: u64, total_lines: u64) -> Tail {
        let mut tail = Tail {
            text: String::new(),
            chars: 0,
            first: total_lines + 1,
            redrawn: Vec::new(),
        };
        let mut start = self.text.len();
        for (i, &(no, _, chars, redrawn)) in self.lines.iter().enumerate().rev() {
            if no + 1 != tail.first || no < from || tail.chars + chars > room {
                break;
            }
            tail.first = no;
            tail.chars += chars;
            start = self
                .lines
                .get(i.wrapping_sub(1))
                .map_or(self.start, |line| line.1);
            if redrawn {
                tail.redrawn.push(no);
            }
        }
        tail.redrawn.reverse();
        self.text[start..].clone_into(&mut tail.text);
        tail
    }
}

/// The last lines of an output as a terminal leaves them.
pub struct Tail {
    pub text: String,
    pub chars: u64,
    /// The number of the first line shown (one past the last line when none is).
    pub first: u64,
    /// The lines shown that were redrawn, in order.
    pub redrawn: Vec<u64>,
}
