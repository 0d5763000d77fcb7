//! The lines a log plan shows so far, and the one test every candidate passes: the whole
//! rendering, markers and notes included, still fits.
//!
//! Measuring the rendering walks every shown line, so [`Selection`] keeps the rendered length
//! up to date as lines join ([`Lengths`]): trying a candidate costs what it changes. A run of
//! candidates in priority order (the tail going back, say) is taken by a binary search over
//! how many of them fit.

use super::class::Counts;
use super::lengths::Lengths;
#[cfg(debug_assertions)]
use super::render;
use super::render::Shown;
use super::store::Kept;

/// Lines taken into a selection: their numbers, and whether only a note was added.
type Added = Vec<(u64, bool)>;

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
        if added.is_empty() || self.length() <= self.room() {
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
            self.insert(&lines[..fits], "", 0);
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
            return true;
        }
        self.undo(added);
        false
    }

    /// Adds `lines` to `shown`, and says which were added (or only given a note), for
    /// [`Selection::undo`].
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
        self.lengths.update(&self.shown, &added);
        added
    }

    /// Takes out the lines the last [`Selection::insert`] added.
    fn undo(&mut self, added: Added) {
        self.lengths.revert();
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

    /// Characters of the rendering of `shown`: `render::measure`, kept up to date.
    pub fn length(&self) -> u64 {
        let length = self.lengths.total();
        #[cfg(debug_assertions)]
        {
            // The check looks at every line; the steps the selection takes do not count it.
            #[cfg(test)]
            let steps = render::stepped(0);
            let measured = render::measure(&self.shown, self.total_lines, self.counts);
            assert_eq!(length, measured, "the kept length is the rendering's");
            #[cfg(test)]
            render::set_stepped(steps);
        }
        length
    }
}
