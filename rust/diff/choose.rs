//! Which lines of a diff a plan shows: the headers at the richest level that fits, then what
//! the budget leaves, in order, and a gap marker that counts what each gap hides.
//!
//! Every gap costs its own marker here, the last one too, although the closing marker stands
//! for it (and its label line only when it has one): a bound a few characters over, never
//! under, what the plan renders.

use super::kind::{Counts, Kind};
use crate::gapped::{Frame, marker::labelled_gap};
use crate::plan::{LineRange, Plan};

/// A line outside any hunk body, a hunk body, or lines past the bound on what is kept.
#[derive(Debug)]
pub enum Item {
    Header {
        no: u64,
        text: String,
        kind: Kind,
        counts: Counts,
    },
    Body {
        first: u64,
        last: u64,
        /// The body's lines with their newlines; `None` once bodies passed the bound on what
        /// is kept, and then it is never shown.
        text: Option<String>,
        chars: u64,
        counts: Counts,
        /// Whether its lines are changes (`+`, `-`) rather than context: a body is read as
        /// runs of one or the other.
        changes: bool,
        /// Whether it is the first run of its hunk's body, just after the hunk's header.
        opens_hunk: bool,
        /// Whether it is a later chunk of the run the item before it holds the start of.
        continues: bool,
        /// Whether it is that run's first chunk of added lines after removed ones.
        opens_side: bool,
    },
    /// Lines read after the headers passed the bound on what is kept, which no plan shows:
    /// only what they hold is kept.
    Counted {
        first: u64,
        last: u64,
        counts: Counts,
    },
}

impl Item {
    fn lines(&self) -> LineRange {
        match self {
            Item::Header { no, .. } => LineRange {
                first: *no,
                last: *no,
            },
            Item::Body { first, last, .. } | Item::Counted { first, last, .. } => LineRange {
                first: *first,
                last: *last,
            },
        }
    }

    fn counts(&self) -> Counts {
        match self {
            Item::Header { counts, .. }
            | Item::Body { counts, .. }
            | Item::Counted { counts, .. } => *counts,
        }
    }

    /// Characters shown when the item is, `None` when it cannot be.
    fn shown_chars(&self) -> Option<u64> {
        match self {
            Item::Header { text, .. } => Some(crate::text::char_count(text) + 1),
            Item::Body {
                text: Some(_),
                chars,
                ..
            } => Some(*chars),
            Item::Body { text: None, .. } | Item::Counted { .. } => None,
        }
    }

    /// Whether a shown name starts a commit or a file here (a counted run may hold many).
    fn starts_entry(&self) -> bool {
        let counts = self.counts();
        matches!(self, Item::Header { .. }) && counts.commits + counts.files > 0
    }
}

/// The items of one diff and what sums of their counts need.
struct Chooser<'a> {
    items: &'a [Item],
    /// `before[i]`: the counts of `items[..i]`.
    before: Vec<Counts>,
    closing_len: u64,
}

impl Chooser<'_> {
    fn label(&self, lo: usize, hi: usize) -> String {
        (self.before[hi + 1] - self.before[lo]).label()
    }

    /// The length of the marker, with its `'\n'`, of a gap that hides `items[lo..=hi]`.
    fn gap_len(&self, lo: usize, hi: usize) -> u64 {
        let lines = LineRange {
            first: self.items[lo].lines().first,
            last: self.items[hi].lines().last,
        };
        labelled_gap(lines, &self.label(lo, hi)).len() as u64 + 1
    }

    /// What `items[lo..hi]` cost under `shown`: the shown ones and a marker for each run of
    /// the others. Exact for the whole diff, and for a part whose ends are shown.
    fn cost(&self, shown: &[bool], lo: usize, hi: usize) -> u64 {
        let mut used = 0;
        let mut run: Option<usize> = None;
        for (i, &seen) in shown.iter().enumerate().take(hi).skip(lo) {
            if seen {
                if let Some(start) = run.take() {
                    used += self.gap_len(start, i - 1);
                }
                used += self.items[i].shown_chars().unwrap_or(0);
            } else if run.is_none() {
                run = Some(i);
            }
        }
        used + run.map_or(0, |start| self.gap_len(start, hi - 1))
    }

    fn total(&self, shown: &[bool]) -> u64 {
        self.closing_len + self.cost(shown, 0, self.items.len())
    }

    fn mask(&self, level: u8) -> Vec<bool> {
        self.items
            .iter()
            .map(|item| matches!(item, Item::Header { kind, .. } if kind.kept_at(level)))
            .collect()
    }

    /// How many changed lines (`+`, `-`) `shown` shows.
    fn changes(&self, shown: &[bool]) -> u64 {
        self.items
            .iter()
            .zip(shown)
            .filter_map(|(item, &seen)| match item {
                Item::Body {
                    changes: true,
                    counts,
                    ..
                } if seen => Some(counts.plus + counts.minus),
                _ => None,
            })
            .sum()
    }

    /// Shows the bodies of the hunks whose headers are shown: first their runs of changed
    /// lines, first to last, each that fits whole, then the runs of context around them. An
    /// agent reads a diff for what changed; the hunk header already says where. Then runs of
    /// changes too long to show whole show their first lines: a chunk of the removed lines
    /// and of the added lines of each such run in turn, then the next of each, while they fit.
    fn fill_bodies(&self, shown: &mut [bool], mut used: u64, budget: u64) {
        let n = self.items.len();
        let mut open = vec![false; n];
        for i in 0..n {
            if let Item::Body { opens_hunk, .. } = self.items[i] {
                open[i] = if opens_hunk {
                    i > 0 && shown[i - 1]
                } else {
                    open[i - 1]
                };
            }
        }
        for changed in [true, false] {
            self.show_in_turn(shown, &mut used, budget, &|i, _| {
                let Item::Body {
                    changes, continues, ..
                } = self.items[i]
                else {
                    return None;
                };
                (changes == changed && !continues && open[i]).then(|| self.run_end(i))
            });
        }
        // Round by round, each side's next chunk, after the chunks before it on its side.
        while self.show_in_turn(shown, &mut used, budget, &|i, shown| {
            let Item::Body {
                changes,
                continues,
                opens_side,
                ..
            } = self.items[i]
            else {
                return None;
            };
            (changes && open[i] && (!continues || opens_side || shown[i - 1])).then_some(i)
        }) {}
    }

    /// Shows, first to last, each run of hidden items `items[i..=end]` that `pick(i, shown)`
    /// offers (`Some(end)`) and that fits; once one is shown, the rest of its side of a run
    /// waits for the next call. Whether any was shown.
    fn show_in_turn(
        &self,
        shown: &mut [bool],
        used: &mut u64,
        budget: u64,
        pick: &dyn Fn(usize, &[bool]) -> Option<usize>,
    ) -> bool {
        let n = self.items.len();
        // The last hidden item of the hidden run from each hidden item on.
        let mut hidden_to = vec![0; n];
        for i in (0..n).rev() {
            hidden_to[i] = if i + 1 < n && !shown[i + 1] {
                hidden_to[i + 1]
            } else {
                i
            };
        }
        let mut any = false;
        let mut lo = 0;
        let mut i = 0;
        while i < n {
            if shown[i] {
                lo = i + 1;
                i += 1;
                continue;
            }
            let Some(end) = pick(i, shown) else {
                i += 1;
                continue;
            };
            let chars: Option<u64> = (i..=end).map(|j| self.items[j].shown_chars()).sum();
            let Some(chars) = chars else {
                i = end + 1;
                continue;
            };
            let hi = hidden_to[i];
            let before = if lo < i { self.gap_len(lo, i - 1) } else { 0 };
            let after = if hi > end {
                self.gap_len(end + 1, hi)
            } else {
                0
            };
            let then = *used - self.gap_len(lo, hi) + before + chars + after;
            if then > budget {
                i = end + 1;
                continue;
            }
            shown[i..=end].fill(true);
            *used = then;
            any = true;
            lo = end + 1;
            i = end + 1;
            // The rest of this side of the run waits for the next round.
            while i < n
                && matches!(
                    self.items[i],
                    Item::Body {
                        continues: true,
                        opens_side: false,
                        ..
                    }
                )
            {
                i += 1;
            }
        }
        any
    }

    /// The index of the last chunk of the run whose chunk `items[i]` is.
    fn run_end(&self, i: usize) -> usize {
        let later = self.items[i + 1..]
            .iter()
            .take_while(|item| {
                matches!(
                    item,
                    Item::Body {
                        continues: true,
                        ..
                    }
                )
            })
            .count();
        i + later
    }

    /// From the names only, gives each commit and file its lines kept at `level` back (3: its
    /// hunk headers and notes), first to last, each whose lines fit; returns what the plan
    /// then costs.
    fn restore_entries(&self, shown: &mut [bool], mut used: u64, budget: u64, level: u8) -> u64 {
        let starts: Vec<usize> = (0..self.items.len())
            .filter(|&i| self.items[i].starts_entry())
            .chain([self.items.len()])
            .collect();
        let richer = self.mask(level);
        for pair in starts.windows(2) {
            let (lo, hi) = (pair[0], pair[1]);
            let before = self.cost(shown, lo, hi);
            let old: Vec<bool> = shown[lo..hi].to_vec();
            for i in lo..hi {
                shown[i] |= richer[i];
            }
            let then = used - before + self.cost(shown, lo, hi);
            if then <= budget {
                used = then;
            } else {
                shown[lo..hi].copy_from_slice(&old);
            }
        }
        used
    }

    /// The names from the first on, as many as fit, the rest one gap that counts them. A
    /// commit's name comes with its subject or not at all: alone it says nothing.
    fn names_prefix(&self, budget: u64) -> Option<Vec<bool>> {
        let n = self.items.len();
        let names = self.mask(4);
        let subject_follows = |i: usize| {
            names[i + 1..]
                .iter()
                .position(|&name| name)
                .is_some_and(|j| {
                    matches!(
                        self.items[i + 1 + j],
                        Item::Header {
                            kind: Kind::Subject,
                            ..
                        }
                    )
                })
        };
        let tail = |from: usize| {
            if from < n {
                self.gap_len(from, n - 1)
            } else {
                0
            }
        };
        let mut best = (self.closing_len + tail(0) <= budget).then_some(0)?;
        let (mut used, mut last_shown) = (0, None::<usize>);
        for (i, &name) in names.iter().enumerate() {
            if !name {
                continue;
            }
            let start = last_shown.map_or(0, |l| l + 1);
            if start < i {
                used += self.gap_len(start, i - 1);
            }
            used += self.items[i].shown_chars().unwrap_or(0);
            last_shown = Some(i);
            if self.closing_len + used + tail(i + 1) <= budget && !subject_follows(i) {
                best = i + 1;
            }
        }
        Some((0..n).map(|i| i < best && names[i]).collect())
    }
}

/// The plan of a diff's `items` within `frame`'s budget: every header if they fit (2: less
/// what other lines already say, where that shows more changed lines; 3: less commit messages
/// but for their subjects too), and the hunks' changed lines, then their context, each run that
/// fits, first to last; else
/// the names of every commit and file (4: with each commit's subject, 5: without) with what
/// each holds counted in the gap after it, and then each file's hunk headers and hunks back,
/// in order, each that fits; else the names and subjects from the first on, as many as fit,
/// the rest counted. Steps before `first_step` are not tried: not all their lines were kept.
/// A commit `log` without patches is planned by [`log_shown`].
pub fn plan(items: &[Item], frame: &Frame<'_>, first_step: u8, log: bool) -> Option<Plan> {
    let budget = frame.budget;
    let mut before = Vec::with_capacity(items.len() + 1);
    let mut sum = Counts::default();
    before.push(sum);
    for item in items {
        sum = sum + item.counts();
        before.push(sum);
    }
    let chooser = Chooser {
        items,
        before,
        closing_len: frame.closing_len,
    };
    if log {
        let shown = log_shown(&chooser, first_step, budget)?;
        return render(&chooser, &shown, frame);
    }
    let filled = |level: u8| {
        let mut shown = chooser.mask(level);
        let used = chooser.total(&shown);
        (used <= budget).then(|| {
            chooser.fill_bodies(&mut shown, used, budget);
            shown
        })
    };
    let shown = (first_step..=3)
        .find_map(|level| filled(level).map(|shown| (level, shown)))
        .map(|(level, shown)| {
            // Level 1 adds only lines that repeat others, three a file: they stay only where
            // they take no room that changed lines would have.
            match filled(2) {
                Some(fewer) if level == 1 && chooser.changes(&fewer) > chooser.changes(&shown) => {
                    fewer
                }
                _ => shown,
            }
        })
        .or_else(|| {
            (first_step.max(4)..=5).find_map(|level| {
                let mut shown = chooser.mask(level);
                let used = chooser.total(&shown);
                (used <= budget).then(|| {
                    let used = chooser.restore_entries(&mut shown, used, budget, 3);
                    chooser.fill_bodies(&mut shown, used, budget);
                    shown
                })
            })
        })
        .or_else(|| chooser.names_prefix(budget))?;
    render(&chooser, &shown, frame)
}

/// What a commit log shows: every line if they fit; else every commit's name and subject,
/// and then each commit's author, date and message back, first to last, each that fits; else
/// the names and subjects from the first on, as many as fit. A commit's name without its
/// subject says nothing an agent can use, so no step shows names alone.
fn log_shown(chooser: &Chooser<'_>, first_step: u8, budget: u64) -> Option<Vec<bool>> {
    if first_step == 1 {
        let shown = chooser.mask(1);
        if chooser.total(&shown) <= budget {
            return Some(shown);
        }
    }
    if first_step <= 4 {
        let mut shown = chooser.mask(4);
        let used = chooser.total(&shown);
        if used <= budget {
            chooser.restore_entries(&mut shown, used, budget, 1);
            return Some(shown);
        }
    }
    chooser.names_prefix(budget)
}

fn render(chooser: &Chooser<'_>, shown: &[bool], frame: &Frame<'_>) -> Option<Plan> {
    let items = chooser.items;
    let mut omitted: Vec<LineRange> = Vec::new();
    let mut labels: Vec<String> = Vec::new();
    let mut segments = vec![String::new()];
    let mut run: Option<usize> = None;
    let mut close_run = |start: usize, end: usize, segments: &mut Vec<String>| {
        omitted.push(LineRange {
            first: items[start].lines().first,
            last: items[end].lines().last,
        });
        labels.push(chooser.label(start, end));
        segments.push(String::new());
    };
    for (i, item) in items.iter().enumerate() {
        if !shown[i] {
            run = run.or(Some(i));
            continue;
        }
        if let Some(start) = run.take() {
            close_run(start, i - 1, &mut segments);
        }
        let segment = segments.last_mut()?;
        match item {
            Item::Header { text, .. } => {
                segment.push_str(text);
                segment.push('\n');
            }
            Item::Body { text, .. } => segment.push_str(text.as_deref()?),
            Item::Counted { .. } => return None,
        }
    }
    if let Some(start) = run {
        close_run(start, items.len() - 1, &mut segments);
    }
    frame.plan_labelled(omitted, segments, &labels)
}
