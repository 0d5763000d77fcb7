//! The exact length of a selection's rendering, kept up to date as lines join it, so that
//! trying a candidate costs what the candidate changes, not what is already shown.
//!
//! [`render::measure`] walks every shown line; a plan that tries thousands of candidates
//! against thousands of shown lines (a flood of one error line) would walk them all each time.
//! The rendering is a sequence of runs, each a shown line with the identical lines after it
//! that [`render::runs_on`] folds into its count (or a line alone), each with the gap marker
//! before it, and a closing gap. [`Lengths`] keeps each run's length and the length of the
//! gap before it, keyed by the run's first line. Lines that join change only the runs they
//! fall in or next to and the gaps around those: the walk that finds the new runs starts at
//! the run before the first joining line, steps over a run that no joining line falls in as
//! a whole, and stops at the first old run that no joining line can reach. The runs are the
//! ones the rendering's own greedy walk finds, so the length is [`render::measure`]'s, exactly.

use std::collections::BTreeMap;

use super::class::Counts;
use super::render::{self, Shown};
use super::store::Kept;
use crate::markers::more_chars_note_len;
use crate::text::char_count;

/// A run of shown lines, keyed in [`Lengths::runs`] by its first line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Run {
    last: u64,
    count: u64,
    /// Characters, `'\n'` included, of the lines after the first.
    folded: u64,
    /// The length of the run's lines, each shown on its own.
    plain: u64,
    /// The length of the run's rendering.
    len: u64,
    /// The length of the gap marker before the run, 0 if there is none.
    gap: u64,
}

/// The rendered length of a [`Shown`], updated as lines join and undone if they do not fit.
pub(super) struct Lengths {
    runs: BTreeMap<u64, Run>,
    /// The closing gap marker's length.
    tail: u64,
    total: u64,
    total_lines: u64,
    totals: Counts,
    /// The runs the last update changed, with what they were, to undo it.
    journal: Vec<(u64, Option<Run>)>,
    saved: (u64, u64),
}

impl Lengths {
    /// The length for nothing shown: one gap over every line.
    pub fn new(total_lines: u64, totals: Counts) -> Self {
        let mut lengths = Lengths {
            runs: BTreeMap::new(),
            tail: 0,
            total: 0,
            total_lines,
            totals,
            journal: Vec::new(),
            saved: (0, 0),
        };
        lengths.tail = lengths.tail_gap(None);
        lengths.total = lengths.tail;
        lengths
    }

    /// Characters of the rendering: `render::measure` of the shown lines.
    pub fn total(&self) -> u64 {
        self.total
    }

    /// Brings the length up to date after the lines `added` (numbers, and whether only a note
    /// was added) joined `shown`. [`Lengths::revert`] undoes it.
    pub fn update(&mut self, shown: &Shown, added: &[(u64, bool)]) {
        self.journal.clear();
        self.saved = (self.total, self.tail);
        let mut nos: Vec<u64> = added.iter().map(|a| a.0).collect();
        nos.sort_unstable();
        nos.dedup();
        let touched = |first: u64, last: u64| {
            let i = nos.partition_point(|&n| n < first);
            i < nos.len() && nos[i] <= last
        };
        let mut i = 0;
        while i < nos.len() {
            let lo = nos[i];
            let mut start = self.runs.range(..=lo).next_back().map_or(lo, |(&k, _)| k);
            let mut prev = self.runs.range(..start).next_back().map(|(_, r)| r.last);
            loop {
                #[cfg(test)]
                render::stepped(1);
                let (first, note) = &shown[&start];
                let mut run = match self.take(start) {
                    Some(old) if !touched(start, old.last) => old,
                    _ => Run {
                        last: start,
                        count: 1,
                        folded: 0,
                        plain: self.line_len(first, note),
                        len: 0,
                        gap: 0,
                    },
                };
                while let Some((&no, (next, next_note))) = shown.range(run.last + 1..).next() {
                    if !render::runs_on(first, note, &shown[&run.last].0, next, next_note) {
                        break;
                    }
                    #[cfg(test)]
                    render::stepped(1);
                    let joined = next.chars + u64::from(next.nl);
                    match self.take(no) {
                        // Its lines are identical to `first`'s and carry no note: all join.
                        Some(old) if !touched(no, old.last) => {
                            run.count += old.count;
                            run.folded += joined + old.folded;
                            run.plain += old.plain;
                            run.last = old.last;
                        }
                        _ => {
                            run.count += 1;
                            run.folded += joined;
                            run.plain += self.line_len(next, next_note);
                            run.last = no;
                        }
                    }
                }
                run.len = self.run_len(first, note, &shown[&run.last].0, &run);
                run.gap = Self::gap_before(shown, prev, first);
                self.put(start, run);
                while i < nos.len() && nos[i] <= run.last {
                    i += 1;
                }
                prev = Some(run.last);
                let Some((&next, _)) = shown.range(run.last + 1..).next() else {
                    let tail = self.tail_gap(Some(&shown[&run.last].0));
                    self.total = self.total - self.tail + tail;
                    self.tail = tail;
                    break;
                };
                if let Some(&old) = self.runs.get(&next) {
                    if !touched(next, old.last + 1) {
                        // From here on nothing changed but the gap before this run.
                        let gap = Self::gap_before(shown, prev, &shown[&next].0);
                        self.put(next, Run { gap, ..old });
                        break;
                    }
                }
                start = next;
            }
        }
    }

    /// Undoes the last [`Lengths::update`].
    pub fn revert(&mut self) {
        while let Some((no, old)) = self.journal.pop() {
            match old {
                Some(run) => self.runs.insert(no, run),
                None => self.runs.remove(&no),
            };
        }
        (self.total, self.tail) = self.saved;
    }

    fn take(&mut self, no: u64) -> Option<Run> {
        let old = self.runs.remove(&no)?;
        self.journal.push((no, Some(old)));
        self.total -= old.len + old.gap;
        Some(old)
    }

    fn put(&mut self, no: u64, run: Run) {
        let old = self.runs.insert(no, run);
        if let Some(old) = old {
            self.total -= old.len + old.gap;
        }
        self.journal.push((no, old));
        self.total += run.len + run.gap;
    }

    /// What `render::measure` counts for `line` shown on its own with `note`.
    fn line_len(&self, line: &Kept, note: &str) -> u64 {
        let text_chars = char_count(&line.text);
        let mut len = text_chars + char_count(note) + self.end(line);
        if line.truncated {
            len += more_chars_note_len(line.chars.saturating_sub(text_chars));
        }
        len
    }

    /// What `render::measure` counts for `run`, which `first` starts and `last` ends.
    fn run_len(&self, first: &Kept, note: &str, last: &Kept, run: &Run) -> u64 {
        if run.count > 1 && run.folded > render::repeat_note_len(run.count) {
            // A run of more than one line starts with a line that has no note and is whole.
            char_count(&first.text)
                + char_count(note)
                + render::repeat_note_len(run.count)
                + self.end(last)
        } else {
            run.plain
        }
    }

    /// 1 if a `'\n'` ends `line`'s rendering.
    fn end(&self, line: &Kept) -> u64 {
        u64::from(line.nl || line.no < self.total_lines)
    }

    /// The gap marker between line `prev` (or the input's start) and `line`.
    fn gap_before(shown: &Shown, prev: Option<u64>, line: &Kept) -> u64 {
        let prev_no = prev.unwrap_or(0);
        if line.no <= prev_no + 1 {
            return 0;
        }
        let before = prev.map_or(Counts::default(), |p| shown[&p].0.cum);
        render::gap_len(
            prev_no + 1,
            line.no - 1,
            line.cum.before(line.class).minus(before),
        )
    }

    /// The closing gap marker after line `prev` (or for an input with nothing shown).
    fn tail_gap(&self, prev: Option<&Kept>) -> u64 {
        let prev_no = prev.map_or(0, |p| p.no);
        if prev_no >= self.total_lines {
            return 0;
        }
        let before = prev.map_or(Counts::default(), |p| p.cum);
        render::gap_len(prev_no + 1, self.total_lines, self.totals.minus(before))
    }
}

#[cfg(test)]
mod tests {
    use super::super::class::Class;
    use super::super::selection::Selection;
    use super::*;

    fn line(no: u64, text: &str, class: Class, cum: Counts) -> Kept {
        Kept {
            no,
            class,
            cum,
            text: text.into(),
            chars: char_count(text),
            nl: true,
            truncated: false,
        }
    }

    /// Lines joining one at a time, in the orders the plan takes them: the length stays the
    /// rendering's (`Selection::length` checks it in debug builds), and the lines looked at
    /// grow with the lines tried, not with their square (issue 11: a flood of one error line
    /// made every candidate measure every shown line).
    #[test]
    fn a_flood_of_one_line_is_measured_in_linear_steps() {
        let n: u64 = 4_000;
        let count = 4_000_usize;
        let mut cum = Counts::default();
        let lines: Vec<Kept> = (1..=n)
            .map(|no| {
                let (text, class) = match no % 1_000 {
                    0 => ("warning: disk", Class::Warning),
                    7 => ("", Class::Other),
                    _ => ("FAILED", Class::Error),
                };
                cum.add(class);
                line(no, text, class, cum)
            })
            .collect();
        for order in 0..3 {
            // A small limit: the plan measures most candidates against it.
            let mut sel = Selection::new(2_000, n, cum);
            let before = render::stepped(0);
            for i in 0..count {
                let k = match order {
                    0 => i,
                    1 => count - 1 - i,
                    _ => (i * 7_919) % count,
                };
                let note = if k % 997 == 0 { "[shapeclip: x]" } else { "" };
                if sel.try_add(std::slice::from_ref(&lines[k]), note) {
                    // Taking a line that is shown already changes nothing.
                    assert!(sel.try_add(std::slice::from_ref(&lines[k]), ""));
                }
                assert!(sel.length() <= 2_000);
            }
            let steps = render::stepped(0) - before;
            assert!(steps < 20 * n, "order {order}: {steps} steps for {n} lines");
            assert_eq!(sel.length(), render::measure(&sel.shown, n, cum));
        }
    }
}
