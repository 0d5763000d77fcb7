//! The lines a log plan shows so far, and the one test every candidate passes: the whole
//! rendering, markers and notes included, still fits.
//!
//! Measuring the rendering walks every shown line, so [`Selection`] keeps an upper bound of
//! the rendered length and takes a candidate whose worst-case growth fits under it without
//! measuring. A run of candidates in priority order (the tail going back, say) is taken by
//! a binary search over how many of them fit.

use super::class::Counts;
use super::render::{self, Shown};
use super::store::Kept;
use crate::markers::more_chars_note_len;
use crate::text::char_count;

/// Lines taken into a selection: their numbers, and whether only a note was added.
type Added = Vec<(u64, bool)>;

pub(super) struct Selection {
    pub shown: Shown,
    /// Characters the rendering of `shown` may take.
    pub limit: u64,
    /// A lower limit that the current step of the plan keeps to, if any.
    pub cap: Option<u64>,
    pub total_lines: u64,
    pub counts: Counts,
    /// At least the length of the rendering of `shown`, when known: a candidate that fits
    /// under it is taken without measuring everything again.
    bound: Option<u64>,
}

impl Selection {
    pub fn new(limit: u64, total_lines: u64, counts: Counts) -> Self {
        Selection {
            shown: Shown::new(),
            limit,
            cap: None,
            total_lines,
            counts,
            bound: None,
        }
    }

    /// Characters the rendering may take in the current step.
    pub fn room(&self) -> u64 {
        self.cap.map_or(self.limit, |cap| cap.min(self.limit))
    }

    /// Takes `lines` (and `note` on the last of them) if everything still fits.
    pub fn try_add(&mut self, lines: &[Kept], note: &str) -> bool {
        let last = lines.last().map_or(0, |l| l.no);
        self.try_add_noted(lines, note, last)
    }

    /// Takes `lines`, with `note` on line `note_on`, if everything still fits.
    pub fn try_add_noted(&mut self, lines: &[Kept], note: &str, note_on: u64) -> bool {
        let added = self.insert(lines, note, note_on);
        if added.is_empty() {
            return true;
        }
        if let Some(bound) = self.bound {
            let grown = bound + self.growth_bound(&added);
            if grown <= self.room() {
                self.bound = Some(grown);
                return true;
            }
        }
        let length = self.length();
        if length <= self.room() {
            self.bound = Some(length);
            return true;
        }
        self.undo(added);
        false
    }

    /// Takes the longest leading part of `lines` that fits, and says how long it is. Taking
    /// more lines seldom makes the rendering shorter, so a binary search finds a part that
    /// fits and is close to the longest.
    pub fn take_leading(&mut self, lines: &[Kept]) -> usize {
        let (mut fits, mut fails) = (0, lines.len() + 1);
        while fails - fits > 1 {
            let mid = fits + (fails - fits) / 2;
            let added = self.insert(&lines[..mid], "", 0);
            let ok = self.length() <= self.room();
            self.undo(added);
            if ok {
                fits = mid;
            } else {
                fails = mid;
            }
        }
        if fits > 0 {
            let added = self.insert(&lines[..fits], "", 0);
            if !added.is_empty() {
                self.bound = Some(self.length());
            }
        }
        fits
    }

    /// Takes `lines` if the rendering does not grow: lines that cost no more than the marker
    /// that stands for them.
    pub fn take_if_no_longer(&mut self, lines: &[Kept]) -> bool {
        let before = self.length();
        let added = self.insert(lines, "", 0);
        let after = self.length();
        if after <= before {
            self.bound = Some(after);
            return true;
        }
        self.undo(added);
        false
    }

    fn insert(&mut self, lines: &[Kept], note: &str, note_on: u64) -> Added {
        let mut added = Vec::new();
        for line in lines {
            let note = if line.no == note_on { note } else { "" };
            if let Some(old) = self.shown.get_mut(&line.no) {
                if old.1.is_empty() && !note.is_empty() {
                    added.push((line.no, true));
                    note.clone_into(&mut old.1);
                }
            } else {
                added.push((line.no, false));
                self.shown.insert(line.no, (line.clone(), note.to_owned()));
            }
        }
        added
    }

    fn undo(&mut self, added: Added) {
        for (no, only_note) in added {
            if only_note {
                if let Some(old) = self.shown.get_mut(&no) {
                    old.1.clear();
                }
            } else {
                self.shown.remove(&no);
            }
        }
    }

    /// At most what the rendering grew by when the lines `added` (numbers, and whether only a
    /// note was added) joined `shown`. Each line adds at most its text, its note, a newline,
    /// a truncation marker and a repeat marker. A note may split a run of repeats, which
    /// shows the line's text, and the same text of the line after it, again. Only the gaps
    /// next to a run of added lines change, and each of the at most two that take their place
    /// is at most the widest gap marker.
    fn growth_bound(&self, added: &[(u64, bool)]) -> u64 {
        let mut growth = 0;
        let mut runs = 0;
        let mut prev = None;
        let mut sorted = added.to_vec();
        sorted.sort_unstable();
        for (no, only_note) in sorted {
            let (line, note) = &self.shown[&no];
            let copies = if only_note { 2 } else { 1 };
            growth += copies * (char_count(&line.text) + 1) + char_count(note);
            growth += more_chars_note_len(line.chars) + render::repeat_note_len(self.total_lines);
            if prev.is_none_or(|p| p + 1 != no) {
                runs += 1;
            }
            prev = Some(no);
        }
        growth + runs * 2 * render::widest_gap(self.total_lines)
    }

    pub fn length(&self) -> u64 {
        render::measure(&self.shown, self.total_lines, self.counts)
    }
}
