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

use super::render::{self, Shown};
use crate::log::reading::class::Counts;
use crate::log::reading::store::Kept;
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
    /// The runs the updates since [`Lengths::settle`] changed, with what they were, to undo
    /// them back to any [`Mark`] in between.
    journal: Vec<(u64, Option<Run>)>,
    /// The numbers of the lines an update is for, sorted: kept to spare an allocation each.
    nos: Vec<u64>,
}

/// A state of [`Lengths`] that [`Lengths::revert`] goes back to.
#[derive(Debug, Clone, Copy)]
pub(super) struct Mark {
    journal: usize,
    total: u64,
    tail: u64,
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
            nos: Vec::new(),
        };
        lengths.tail = lengths.tail_gap(None);
        lengths.total = lengths.tail;
        lengths
    }

    /// Characters of the rendering: `render::measure` of the shown lines.
    pub fn total(&self) -> u64 {
        self.total
    }

    /// The state now, to [`Lengths::revert`] to until the next [`Lengths::settle`].
    pub fn mark(&self) -> Mark {
        Mark {
            journal: self.journal.len(),
            total: self.total,
            tail: self.tail,
        }
    }

    /// Forgets how to undo the updates so far: they stay.
    pub fn settle(&mut self) {
        self.journal.clear();
    }

    /// Brings the length up to date after the lines `added` (numbers, and whether only a note
    /// was added) joined `shown`. [`Lengths::revert`] to a mark taken before undoes it.
    pub fn update(&mut self, shown: &Shown, added: &[(u64, bool)]) {
        let mut nos = std::mem::take(&mut self.nos);
        nos.clear();
        nos.extend(added.iter().map(|a| a.0));
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
        self.nos = nos;
    }

    /// Undoes the updates since `mark` was taken.
    pub fn revert(&mut self, mark: Mark) {
        for (no, old) in self.journal.drain(mark.journal..).rev() {
            match old {
                Some(run) => self.runs.insert(no, run),
                None => self.runs.remove(&no),
            };
        }
        (self.total, self.tail) = (mark.total, mark.tail);
    }

    /// Lower bounds on the length with each leading part of `lines` taken (`lines[..k]` at
    /// `k`), found without taking them: a part the bound already rules out need not be
    /// measured. What the lines join (the gap around them, a shown run next to them) is
    /// counted as gone, and of what they add only the run each line surely starts: its text,
    /// and the `'\n'` of the run before it. A line is known to start a run when the line before
    /// it is one of `lines` and differs from it; so a bound needs a look at `runs` only where
    /// `lines` stop running on, one after or before the other. While the lines so far run on
    /// in one stretch, what it surely adds around itself counts too (see [`Lengths::around`]):
    /// a line tried alone in the middle of a long gap is then bounded within its own `'\n'`.
    pub fn floors<'a>(&self, shown: &'a Shown, lines: &'a [Kept]) -> Vec<u64> {
        let mut floors = Vec::with_capacity(lines.len() + 1);
        floors.push(self.total);
        let (mut gained, mut gone) = (0, 0);
        let mut stretch: Option<Stretch<'a>> = None;
        // The stretches before it, first and last line.
        let mut stretches: Vec<(u64, u64)> = Vec::new();
        for (i, line) in lines.iter().enumerate() {
            let no = line.no;
            let before = i.checked_sub(1).map(|j| &lines[j]);
            if before.is_some_and(|b| b.no == no) {
                // The line again, as a headline whose first and last error line are one gives
                // it: it adds nothing.
                floors.push(floors[i]);
                continue;
            }
            let on = match (stretch.as_mut(), before) {
                (Some(s), Some(before))
                    if no == before.no + 1 && s.last.no == before.no && no < s.high =>
                {
                    if starts_run(before, line) {
                        gained += char_count(&line.text) + 1;
                    }
                    s.last = line;
                    true
                }
                (Some(s), Some(before))
                    if no + 1 == before.no && s.first.no == before.no && no > s.low =>
                {
                    if starts_run(line, before) {
                        gained += char_count(&before.text) + 1;
                    }
                    s.first = line;
                    true
                }
                _ => false,
            };
            if !on {
                if let Some(s) = stretch.take() {
                    stretches.push((s.first.no, s.last.no));
                }
                // A line met twice would count twice, and scattered lines cost a look each at
                // every stretch: no bound from here on.
                if stretches.len() > MAX_STRETCHES
                    || stretches
                        .iter()
                        .any(|&(first, last)| (first..=last).contains(&no))
                {
                    floors.resize(lines.len() + 1, 0);
                    return floors;
                }
                let run_before = self.runs.range(..=no).next_back();
                if run_before.is_some_and(|(_, run)| run.last >= no) {
                    // Shown already: it adds nothing.
                    floors.push(floors[i]);
                    continue;
                }
                let run_after = self.runs.range(no + 1..).next();
                gone += run_after.map_or(self.tail, |(_, run)| run.gap);
                let prev = run_before.map_or(0, |(_, run)| run.last);
                let next = run_after.map_or(u64::MAX, |(&start, _)| start);
                let below = stretches.iter().map(|s| s.1).filter(|&last| last < no);
                let above = stretches.iter().map(|s| s.0).filter(|&first| first > no);
                stretch = Some(Stretch {
                    first: line,
                    last: line,
                    low: below.fold(prev, u64::max),
                    high: above.fold(next, u64::min),
                    prev: run_before.map(|(_, run)| &shown[&run.last].0),
                    prev_len: run_before.map_or(0, |(_, run)| run.len),
                    next: run_after.map(|(start, _)| &shown[start].0),
                    next_len: run_after.map_or(0, |(_, run)| run.len),
                    prev_gone: false,
                    next_gone: false,
                });
            }
            let s = stretch.as_mut().expect("a line not shown is in a stretch");
            if !s.prev_gone && s.first.no == s.prev_no() + 1 {
                s.prev_gone = true;
                gone += s.prev_len;
            }
            if !s.next_gone && s.last.no + 1 == s.next_no() {
                s.next_gone = true;
                gone += s.next_len;
            }
            let around = if stretches.is_empty() {
                self.around(s)
            } else {
                0
            };
            floors.push((self.total + gained + around).saturating_sub(gone));
        }
        floors
    }

    /// What the stretch `s`, the only one so far, surely adds besides what [`Lengths::floors`]
    /// counts of it: where no shown line runs into it from before, its first line's text,
    /// which starts a run, and the gap marker before it; where none comes right after it, the
    /// gap marker after it. The gap it splits is counted as gone, so these are exact.
    fn around(&self, s: &Stretch) -> u64 {
        let mut len = 0;
        if s.first.no > s.prev_no() + 1 {
            len += Self::gap_between(s.prev, s.first) + char_count(&s.first.text);
        }
        if s.last.no + 1 < s.next_no() {
            len += match s.next {
                Some(next) => Self::gap_between(Some(s.last), next),
                None => self.tail_gap(Some(s.last)),
            };
        }
        len
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

    /// The gap marker between shown line `prev` (or the input's start) and `line`.
    fn gap_before(shown: &Shown, prev: Option<u64>, line: &Kept) -> u64 {
        Self::gap_between(prev.map(|p| &shown[&p].0), line)
    }

    /// The gap marker between line `prev` (or the input's start) and `line`.
    fn gap_between(prev: Option<&Kept>, line: &Kept) -> u64 {
        let prev_no = prev.map_or(0, |p| p.no);
        if line.no <= prev_no + 1 {
            return 0;
        }
        let before = prev.map_or(Counts::default(), |p| p.cum);
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

/// Stretches of candidate lines that [`Lengths::floors`] bounds: a few runs of lines, far more
/// than the plan ever tries at once.
const MAX_STRETCHES: usize = 64;

/// Lines of [`Lengths::floors`] that run on one after the other, not shown, between two shown
/// lines.
struct Stretch<'a> {
    first: &'a Kept,
    last: &'a Kept,
    /// The stretch runs on only between these: the shown lines around it, and the stretches
    /// before it.
    low: u64,
    high: u64,
    /// The shown line before the stretch, and the length of its run.
    prev: Option<&'a Kept>,
    prev_len: u64,
    /// The shown line after the stretch, and the length of its run.
    next: Option<&'a Kept>,
    next_len: u64,
    /// Whether the runs of `prev` and `next` are counted as gone.
    prev_gone: bool,
    next_gone: bool,
}

impl Stretch<'_> {
    /// The number of the shown line before the stretch, 0 for none.
    fn prev_no(&self) -> u64 {
        self.prev.map_or(0, |line| line.no)
    }

    /// The number of the shown line after the stretch, `u64::MAX` for none.
    fn next_no(&self) -> u64 {
        self.next.map_or(u64::MAX, |line| line.no)
    }
}

/// Whether `line` surely starts a run of its own after `before`, the line before it: a run
/// holds identical lines only, none cut short.
fn starts_run(before: &Kept, line: &Kept) -> bool {
    line.text != before.text || line.truncated || before.truncated
}

#[cfg(test)]
mod tests;
