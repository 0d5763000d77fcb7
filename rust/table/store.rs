//! The lines of a table a plan may show: the first and last lines, which the engine's window
//! already holds ([`crate::window`]), and lines picked on the way (the first rows of each
//! value, the lines that are not rows), kept here up to twice the room.

use std::collections::BTreeMap;

use crate::sink::Totals;
use crate::text::char_count;
use crate::window::Window;

/// Lines kept apart as they are read, by line number.
#[derive(Debug)]
pub struct Picked {
    room: u64,
    lines: BTreeMap<u64, String>,
    chars: u64,
}

impl Picked {
    #[must_use]
    pub fn new(room: u64) -> Self {
        Picked {
            room,
            lines: BTreeMap::new(),
            chars: 0,
        }
    }

    /// Keeps line `no`, while the lines kept take at most twice the room; returns whether it
    /// is kept.
    pub fn pick(&mut self, no: u64, text: &str) -> bool {
        if self.lines.contains_key(&no) {
            return true;
        }
        let cost = char_count(text) + 1;
        if self.chars + cost > self.room.saturating_mul(2) {
            return false;
        }
        self.chars += cost;
        self.lines.insert(no, text.to_owned());
        true
    }

    #[cfg(test)]
    pub fn chars(&self) -> u64 {
        self.chars
    }
}

/// Every line whose text a plan can show.
pub struct Known<'a> {
    head: &'a [String],
    /// The whole lines at the start of the input, from line 1.
    opening: Vec<&'a str>,
    /// The whole lines at its end, from line `tail_first`.
    tail: Vec<&'a str>,
    tail_first: u64,
    picked: &'a Picked,
    /// Rows their tallies kept (the largest numbers).
    rows: Vec<(u64, &'a str)>,
}

impl<'a> Known<'a> {
    #[must_use]
    pub fn new(
        window: &'a Window,
        totals: Totals,
        head: &'a [String],
        picked: &'a Picked,
        rows: Vec<(u64, &'a str)>,
    ) -> Self {
        let opening = match memchr::memrchr(b'\n', window.head.as_bytes()) {
            Some(end) => window.head[..end].split('\n').collect(),
            None => Vec::new(),
        };
        let last = window.last_chars();
        // The first line there is whole only when the window holds the whole input.
        let whole = char_count(last) == totals.chars;
        let start = if whole {
            0
        } else {
            memchr::memchr(b'\n', last.as_bytes()).map_or(last.len(), |i| i + 1)
        };
        let rest = &last[start..];
        let tail: Vec<&str> = if rest.is_empty() {
            Vec::new()
        } else {
            rest.strip_suffix('\n')
                .unwrap_or(rest)
                .split('\n')
                .collect()
        };
        let tail_first = totals.lines + 1 - tail.len() as u64;
        Known {
            head,
            opening,
            tail,
            tail_first,
            picked,
            rows,
        }
    }

    /// The text of line `no`, if a plan can show it.
    #[must_use]
    pub fn text(&self, no: u64) -> Option<&'a str> {
        let i = usize::try_from(no).ok()?.checked_sub(1)?;
        if let Some(line) = self.head.get(i) {
            return Some(line);
        }
        if let Some(line) = self.opening.get(i) {
            return Some(line);
        }
        if no >= self.tail_first {
            return self
                .tail
                .get(usize::try_from(no - self.tail_first).ok()?)
                .copied();
        }
        let picked = self.picked.lines.get(&no).map(String::as_str);
        picked.or_else(|| self.rows.iter().find(|(n, _)| *n == no).map(|(_, t)| *t))
    }

    /// The first lines after the head, in order, with their numbers.
    pub fn opening(&self) -> impl Iterator<Item = (u64, &'a str)> + '_ {
        (1..)
            .zip(self.opening.iter().copied())
            .skip(self.head.len())
    }

    /// The last lines, last first, with their numbers.
    pub fn tail(&self) -> impl Iterator<Item = (u64, &'a str)> + '_ {
        let first = self.tail_first;
        self.tail
            .iter()
            .enumerate()
            .rev()
            .map(move |(i, line)| (first + i as u64, *line))
    }
}
