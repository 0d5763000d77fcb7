//! The lines a log plan shows so far, and the one test every candidate passes: the whole
//! rendering, markers and notes included, still fits.
//!
//! Measuring the rendering walks every shown line, so [`Selection`] keeps the rendered length
//! up to date as lines join ([`Lengths`]): trying a candidate costs what it changes. A run of
//! candidates in priority order (the tail going back, say) is taken by a binary search over
//! how many of them fit.

use std::collections::HashSet;

use super::lengths::{Lengths, Mark};
use super::library;
#[cfg(debug_assertions)]
use super::render;
use super::render::Shown;
use crate::log::reading::class::Counts;
use crate::log::reading::heading;
use crate::log::reading::store::Kept;

pub(super) struct Selection {
    pub shown: Shown,
    /// Characters the rendering of `shown` may take.
    pub limit: u64,
    /// A lower limit that the current step of the plan keeps to, if any.
    pub cap: Option<u64>,
    pub total_lines: u64,
    /// What the debug build's cross-check of the length needs.
    #[cfg(debug_assertions)]
    counts: Counts,
    /// The length of the rendering of `shown`.
    lengths: Lengths,
    /// The lines taken since the step began, by number, and whether only a note was added:
    /// what [`Selection::undo`] takes out again.
    added: Vec<(u64, bool)>,
}

/// A state of a [`Selection`] within a step, to go back to.
#[derive(Clone, Copy)]
struct Undo {
    added: usize,
    lengths: Mark,
}

/// Whether `below` is the line after `above` and gives the place of what `above` says, as
/// rustc and ruff print a diagnostic's place under its message (`  --> src/main.rs:57:20`).
pub(super) fn places_line_above(above: &Kept, below: &Kept) -> bool {
    below.no == above.no + 1
        && below
            .text
            .trim_start()
            .strip_prefix("--> ")
            .is_some_and(|place| place.contains(':'))
}

/// Whether `below` is the line after `above` and completes what `above` began to say: its
/// place ([`places_line_above`]), or the first line of a message that `above` only announces,
/// indented under it (node's TAP `error: |-`, a YAML block; `Caused by:`). Alone, `above` says
/// nothing a count does not. Indents are measured after a CI system's prefix.
pub(super) fn completes_line_above(above: &Kept, below: &Kept) -> bool {
    if places_line_above(above, below) {
        return true;
    }
    let said = above.text.trim_end();
    let announces = said.ends_with(':')
        || [": |", ": |-", ": |+", ": >", ": >-", ": >+"]
            .iter()
            .any(|block| said.ends_with(block));
    let indent = |line: &Kept| {
        let own = line.body();
        (
            own.len() - own.trim_start().len(),
            own.trim_start().is_empty(),
        )
    };
    let ((above_indent, _), (below_indent, blank)) = (indent(above), indent(below));
    // A trace's first frame (under `Traceback (most recent call last):`) is no message.
    below.no == above.no + 1
        && announces
        && !blank
        && below_indent > above_indent
        && !library::is_frame(&below.text)
}

/// Whether `line` only points into the line above it: carets, with the tildes, dashes and
/// bars compilers draw around them (`    ^~~~`, `  |     ^^^^^`), after any CI prefix.
fn points_up(line: &Kept) -> bool {
    let body = line.body().trim();
    body.contains('^')
        && body
            .chars()
            .all(|c| matches!(c, '^' | '~' | '-' | '|' | ' '))
}

impl Selection {
    pub fn new(limit: u64, total_lines: u64, counts: Counts) -> Self {
        Selection {
            shown: Shown::new(),
            limit,
            cap: None,
            total_lines,
            #[cfg(debug_assertions)]
            counts,
            lengths: Lengths::new(total_lines, counts),
            added: Vec::new(),
        }
    }

    /// Characters the rendering may take in the current step.
    pub fn room(&self) -> u64 {
        self.cap.map_or(self.limit, |cap| cap.min(self.limit))
    }

    /// The texts of the lines shown, to tell a line that says something new.
    pub fn shown_texts(&self) -> HashSet<String> {
        self.shown
            .values()
            .map(|(k, _)| k.text.to_string())
            .collect()
    }

    /// Takes `lines` (and `note` on the last of them) if everything still fits.
    pub fn try_add(&mut self, lines: &[Kept], note: &str) -> bool {
        let last = lines.last().map_or(0, |l| l.no);
        self.try_add_noted(lines, note, last)
    }

    /// Takes `lines`, with `note` on line `note_on`, if everything still fits.
    pub fn try_add_noted(&mut self, lines: &[Kept], note: &str, note_on: u64) -> bool {
        if self.surely_over(lines, self.room()) {
            return false;
        }
        let before = self.mark();
        self.insert(lines, note, note_on);
        let fits = self.added.len() == before.added || self.length() <= self.room();
        if !fits {
            self.undo(before);
        }
        self.settle();
        fits
    }

    /// Takes the longest leading part of `lines` that fits and does not end on a message whose
    /// place is the next line, and says how long it is. Taking
    /// more lines seldom makes the rendering shorter, so a binary search finds a part that
    /// fits and is close to the longest. A part whose lower bound is over the room fails
    /// unmeasured; otherwise the lines join one at a time as far as the search looks, and the
    /// search reads each part's length from what was noted on the way.
    pub fn take_leading(&mut self, lines: &[Kept]) -> usize {
        let room = self.room();
        let floors = self.lengths.floors(&self.shown, lines);
        // The state and the length with the first `k` lines taken, at `k`.
        let mut parts = vec![(self.mark(), self.lengths.total())];
        let (mut fits, mut fails) = (0, lines.len() + 1);
        while fails - fits > 1 {
            let mid = fits + (fails - fits) / 2;
            if floors[mid] <= room && self.part(lines, &mut parts, mid) <= room {
                fits = mid;
            } else {
                fails = mid;
            }
        }
        #[cfg(debug_assertions)]
        {
            // The bounds hold where they decided, and wherever a length was measured.
            if fails <= lines.len() {
                let length = self.part(lines, &mut parts, fails);
                assert!(length > room, "a part the bound ruled out fits");
            }
            let measured = parts.iter().zip(&floors);
            assert!(
                measured.into_iter().all(|(part, &floor)| floor <= part.1),
                "a bound over the length"
            );
            // The whole rendering, measured for the longest part looked at.
            self.check();
        }
        // A part does not end on a message whose place is the next line: shown alone, one
        // more `error[E0308]: mismatched types` says nothing.
        while fits > 0 && fits < lines.len() && places_line_above(&lines[fits - 1], &lines[fits]) {
            fits -= 1;
        }
        // Going back, a part that stops among lines under a heading (eslint's `  12:5  error
        // ...` under a file's path) stops before them, at their heading where it has it: they
        // would not say which file they are in.
        let back = lines.len() > 1 && lines[0].no > lines[1].no;
        if back && fits > 0 && fits < lines.len() && heading::is_under(&lines[fits - 1]) {
            if let Some(at) = lines[..fits].iter().rposition(|l| !heading::is_under(l)) {
                fits = at + 1;
            }
        }
        // Going back, a part does not stop at a line that only points into the line above it
        // (the `^` that gcc, javac and Python print under the code they quote): alone it
        // points at nothing.
        while back && fits > 0 && fits < lines.len() && points_up(&lines[fits - 1]) {
            fits -= 1;
        }
        self.undo(parts[fits].0);
        #[cfg(debug_assertions)]
        self.check();
        self.settle();
        fits
    }

    /// The length with `lines[..k]` taken, `parts` holding it for each `k` taken so far: the
    /// lines join one at a time, each costing what it changes.
    fn part(&mut self, lines: &[Kept], parts: &mut Vec<(Undo, u64)>, k: usize) -> u64 {
        while parts.len() <= k {
            let next = parts.len() - 1;
            self.insert(&lines[next..=next], "", 0);
            parts.push((self.mark(), self.lengths.total()));
        }
        parts[k].1
    }

    /// Takes `lines` if the rendering does not grow: lines that cost no more than the marker
    /// that stands for them.
    pub fn take_if_no_longer(&mut self, lines: &[Kept]) -> bool {
        let length = self.length();
        if self.surely_over(lines, length) {
            return false;
        }
        let before = self.mark();
        self.insert(lines, "", 0);
        let taken = self.length() <= length;
        if !taken {
            self.undo(before);
        }
        self.settle();
        taken
    }

    /// Whether taking `lines` would surely make the rendering longer than `limit`, notes or
    /// not: known from a lower bound, without taking them. Lines all shown already change
    /// nothing, and are never ruled out.
    fn surely_over(&mut self, lines: &[Kept], limit: u64) -> bool {
        let floor = self
            .lengths
            .floors(&self.shown, lines)
            .last()
            .copied()
            .unwrap_or(0);
        let over = floor > limit && lines.iter().any(|l| !self.shown.contains_key(&l.no));
        #[cfg(debug_assertions)]
        if over {
            let before = self.mark();
            self.insert(lines, "", 0);
            assert!(self.length() >= floor, "a bound over the length");
            self.undo(before);
        }
        over
    }

    fn mark(&self) -> Undo {
        Undo {
            added: self.added.len(),
            lengths: self.lengths.mark(),
        }
    }

    /// Ends a step: what it took stays.
    fn settle(&mut self) {
        self.added.clear();
        self.lengths.settle();
    }

    /// Adds `lines` to `shown`, and notes which were added (or only given a note), for
    /// [`Selection::undo`].
    fn insert(&mut self, lines: &[Kept], note: &str, note_on: u64) {
        let from = self.added.len();
        for line in lines {
            let note = if line.no == note_on { note } else { "" };
            if let Some(old) = self.shown.get_mut(&line.no) {
                if old.1.is_empty() && !note.is_empty() {
                    self.added.push((line.no, true));
                    note.clone_into(&mut old.1);
                }
            } else {
                self.added.push((line.no, false));
                self.shown.insert(line.no, (line.clone(), note.to_owned()));
            }
        }
        self.lengths.update(&self.shown, &self.added[from..]);
    }

    /// Takes out the lines added since `mark`.
    fn undo(&mut self, mark: Undo) {
        self.lengths.revert(mark.lengths);
        for (no, only_note) in self.added.drain(mark.added..) {
            if only_note {
                if let Some(old) = self.shown.get_mut(&no) {
                    old.1.clear();
                }
            } else {
                self.shown.remove(&no);
            }
        }
    }

    /// Characters of the rendering of `shown`: `render::measure`, kept up to date.
    pub fn length(&self) -> u64 {
        #[cfg(debug_assertions)]
        self.check();
        self.lengths.total()
    }

    /// The debug build's cross-check that the kept length is the rendering's.
    #[cfg(debug_assertions)]
    fn check(&self) {
        // The check looks at every line; the steps the selection takes do not count it.
        #[cfg(test)]
        let steps = render::stepped(0);
        let measured = render::measure(&self.shown, self.total_lines, self.counts);
        assert_eq!(
            self.lengths.total(),
            measured,
            "the kept length is the rendering's"
        );
        #[cfg(test)]
        render::set_stepped(steps);
    }
}

#[cfg(test)]
mod tests {
    use super::completes_line_above;
    use crate::log::reading::class::{Class, Counts};
    use crate::log::reading::store::Kept;

    fn line(no: u64, text: &str) -> Kept {
        Kept {
            no,
            class: Class::Other,
            cum: Counts::default(),
            text: text.into(),
            chars: text.chars().count() as u64,
            nl: true,
            truncated: false,
        }
    }

    #[test]
    fn a_line_completes_the_one_that_announces_it_or_names_its_place() {
        let pairs = [
            ("error[E0308]: mismatched types", "  --> src/main.rs:57:20"),
            (
                "  error: |-",
                "    Expected values to be strictly deep-equal:",
            ),
            ("  expected: >-", "    [1, 2]"),
            ("Caused by:", "    java.io.IOException: closed"),
            (
                "2026-11-23T10:15:41.9797438Z       error: |-",
                "2026-11-23T10:15:41.9822319Z         Expected values to be strictly deep-equal:",
            ),
        ];
        for (above, below) in pairs {
            assert!(
                completes_line_above(&line(7, above), &line(8, below)),
                "{above}"
            );
            assert!(
                !completes_line_above(&line(7, above), &line(9, below)),
                "{above}"
            );
        }
        let apart = [
            ("  error: |-", "  code: 'ERR_ASSERTION'"),
            ("  error: |-", "      "),
            ("  error: 'boom'", "    at run (/app/a.js:1:2)"),
            (
                "2026-11-23T10:15:41.9797438Z       error: |-",
                "2026-11-23T10:15:41.9822319Z       code: 'ERR_ASSERTION'",
            ),
            (
                "Traceback (most recent call last):",
                "  File \"/srv/app/m0.py\", line 1, in f0",
            ),
            ("stack backtrace:", "   0: __rustc::rust_begin_unwind"),
        ];
        for (above, below) in apart {
            assert!(
                !completes_line_above(&line(7, above), &line(8, below)),
                "{above} / {below}"
            );
        }
    }
}
