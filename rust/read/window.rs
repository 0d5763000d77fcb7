//! A viewer's window positioned inside a file: the view that SWE-agent-style windowed viewers
//! print (`[File: PATH (N lines total)]`, `(M more lines above)`, then numbered lines `K:text`
//! and `(L more lines below)`). Such a viewer puts the line it was pointed at a sixth of the
//! way down its window (SWE-agent's `open FILE LINE` and `goto LINE`), where a cut window's
//! head reaches; after an edit it centres the window on the edited lines and says so below it
//! (`File updated. Please review the changes ...`), so a cut window that shows an edit keeps
//! the lines around its middle as well as its head ([`Window::shows_edit`]).
//!
//! Unless the file ends first: a viewer does not show past the file's last line, so a window
//! that reaches it (no `(L more lines below)`) was pointed at a line further down, anywhere in
//! its lower part, and its tail matters as much as its head ([`Window::ends_file`]).
//!
//! A window that starts at the file's first line says no lines above, and is read from its
//! head like any file.

use super::Line;

/// A window holds at most this many times the room; a longer read is no viewer's window.
const MAX_ROOMS: u64 = 8;

/// How many lines may come before the `(M more lines above)` line (the `[File: ...]` line).
const HEADER_LINES: u64 = 2;

/// The lines of a positioned window, while the read may still be one.
#[derive(Debug)]
pub(super) struct Window {
    /// `None` once the read is known not to be a positioned window.
    lines: Option<Vec<Line>>,
    /// The number of the `(M more lines above)` line, once seen.
    above: Option<u64>,
    /// Whether the viewer said after the window that it shows an edit.
    edited: bool,
    chars: u64,
    room: u64,
}

/// Whether `text` is `(M more lines above)` (`where_` is `"above"`) or `(L more lines below)`.
fn says_lines(text: &str, where_: &str) -> bool {
    text.strip_prefix('(')
        .and_then(|t| t.strip_suffix(')'))
        .and_then(|t| t.strip_suffix(where_))
        .and_then(|t| t.strip_suffix(" more lines "))
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// Whether `text` is what SWE-agent's and `OpenHands`' viewers print after the window that shows
/// an edit, `File updated. Please review the changes ...` (`OpenHands` in brackets).
fn says_edited(text: &str) -> bool {
    text.strip_prefix('[')
        .unwrap_or(text)
        .starts_with("File updated. Please review the changes")
}

/// Whether `text` starts with a viewer's line number, `K:`.
fn is_numbered(text: &str) -> bool {
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    digits > 0 && text.as_bytes().get(digits) == Some(&b':')
}

impl Window {
    pub(super) fn new(room: u64) -> Self {
        Window {
            lines: Some(Vec::new()),
            above: None,
            edited: false,
            chars: 0,
            room,
        }
    }

    /// Reads the next line, `whole` when it is not a piece of a longer one.
    pub(super) fn line(&mut self, line: &crate::lines::Line<'_>, whole: bool) {
        let Some(lines) = &mut self.lines else { return };
        let positioned = match self.above {
            None if line.no <= HEADER_LINES + 1 && says_lines(line.text, "above") => {
                self.above = Some(line.no);
                true
            }
            None => line.no <= HEADER_LINES,
            Some(above) => line.no > above + 1 || is_numbered(line.text),
        };
        self.edited |= self.above.is_some() && says_edited(line.text);
        let kept = Line::new(line);
        self.chars += kept.chars + 1;
        if !positioned || !whole || self.chars > self.room.saturating_mul(MAX_ROOMS) {
            self.lines = None;
            return;
        }
        lines.push(kept);
    }

    /// Line `no` of a positioned window.
    pub(super) fn shown_line(&self, no: u64) -> Option<&Line> {
        let index = usize::try_from(no.checked_sub(1)?).ok()?;
        self.lines
            .as_ref()?
            .get(index)
            .filter(|_| self.above.is_some())
    }

    /// Whether the read is a window positioned inside a file.
    pub(super) fn positioned(&self) -> bool {
        self.lines.is_some() && self.above.is_some()
    }

    /// Whether the read is a window positioned inside a file that the viewer centred on an
    /// edit: the lines around its middle are the edited ones.
    pub(super) fn shows_edit(&self) -> bool {
        self.positioned() && self.edited
    }

    /// Whether the read is a window positioned inside a file that reaches the file's end: no
    /// `(L more lines below)` follows its last numbered line.
    pub(super) fn ends_file(&self) -> bool {
        let (Some(lines), Some(_)) = (&self.lines, self.above) else {
            return false;
        };
        lines
            .iter()
            .rposition(|l| is_numbered(&l.text))
            .is_some_and(|last| {
                !lines[last + 1..]
                    .iter()
                    .any(|l| says_lines(&l.text, "below"))
            })
    }

    /// The lines around the window's middle within `room` characters, in order, none at or
    /// before line `after` or at or after line `before`; empty when the read is no
    /// positioned window.
    pub(super) fn middle(&self, room: u64, after: u64, before: u64) -> Vec<&Line> {
        let (Some(lines), Some(above)) = (&self.lines, self.above) else {
            return Vec::new();
        };
        // The numbered lines run from the one after `(M more lines above)` to the last
        // numbered one (the line after it says how many lines are below).
        let Some(last) = lines.iter().rposition(|l| is_numbered(&l.text)) else {
            return Vec::new();
        };
        let first = usize::try_from(above).unwrap_or(usize::MAX);
        if first > last {
            return Vec::new();
        }
        let usable = |i: usize| lines[i].no > after && lines[i].no < before;
        let cost = |i: usize| lines[i].chars + 1;
        let mid = first + (last - first) / 2;
        if !usable(mid) || cost(mid) > room {
            return Vec::new();
        }
        let (mut low, mut high) = (mid, mid);
        let mut spent = cost(mid);
        // Grow one line below, then one above, while they fit.
        loop {
            let mut grew = false;
            if high < last && usable(high + 1) && spent + cost(high + 1) <= room {
                high += 1;
                spent += cost(high);
                grew = true;
            }
            if low > first && usable(low - 1) && spent + cost(low - 1) <= room {
                low -= 1;
                spent += cost(low);
                grew = true;
            }
            if !grew {
                return lines[low..=high].iter().collect();
            }
        }
    }
}
