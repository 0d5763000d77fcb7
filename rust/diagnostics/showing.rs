//! The lines a diagnostics plan shows, added a few at a time while the plan they make fits:
//! each addition is weighed with every marker it changes, the gap markers' counts included.

use std::collections::BTreeMap;

use super::line::{self, Severity};
use crate::gapped::marker::{labelled_gap, said};
use crate::gapped::{self, Frame};
use crate::plan::{LineRange, Plan};
use crate::text::char_count;

pub(super) struct Showing<'f> {
    frame: &'f Frame<'f>,
    /// Every diagnostic's header line number and severity, in order.
    numbers: &'f [(u64, Severity)],
    /// Whether `numbers` holds every diagnostic's.
    complete: bool,
    lines: BTreeMap<u64, &'f str>,
}

impl<'f> Showing<'f> {
    pub(super) fn new(
        frame: &'f Frame<'f>,
        numbers: &'f [(u64, Severity)],
        complete: bool,
    ) -> Self {
        Showing {
            frame,
            numbers,
            complete,
            lines: BTreeMap::new(),
        }
    }

    pub(super) fn shows(&self, no: u64) -> bool {
        self.lines.contains_key(&no)
    }

    /// Shows `lines` (numbers and text) if the plan with them fits the budget; says whether
    /// it did. A line already shown is left as it is.
    pub(super) fn try_add(&mut self, lines: impl IntoIterator<Item = (u64, &'f str)>) -> bool {
        self.try_add_within(lines, self.frame.budget)
    }

    /// [`Showing::try_add`] where the plan must take at most `limit` characters.
    fn try_add_within(
        &mut self,
        lines: impl IntoIterator<Item = (u64, &'f str)>,
        limit: u64,
    ) -> bool {
        let added: Vec<u64> = lines
            .into_iter()
            .filter(|&(no, text)| self.lines.insert(no, text).is_none())
            .map(|(no, _)| no)
            .collect();
        if self.cost() <= limit {
            return true;
        }
        for no in added {
            self.lines.remove(&no);
        }
        false
    }

    /// Fills what room is left with the output's last lines, going back, until they take half
    /// of it, then its first lines, then its last lines again. `head` is the output's first
    /// characters, `tail` its last whole lines, the first of them line `first_tail`.
    pub(super) fn fill(&mut self, head: &'f str, tail: &[&'f str], first_tail: u64) {
        let cost = self.cost();
        let tail_room = cost + self.frame.budget.saturating_sub(cost) / 2;
        let mut back = tail
            .iter()
            .enumerate()
            .rev()
            .map(|(i, &text)| (first_tail + i as u64, text))
            .peekable();
        while let Some(&(no, text)) = back.peek() {
            if self.shows(no) {
                back.next();
                continue;
            }
            if !self.try_add_within([(no, text)], tail_room) {
                break;
            }
            back.next();
        }
        let head = gapped::head_lines(head, self.frame.budget);
        for (no, text) in (1..).zip(head.split_terminator('\n')) {
            if !self.shows(no) && !self.try_add([(no, text)]) {
                break;
            }
        }
        for (no, text) in back {
            if !self.shows(no) && !self.try_add([(no, text)]) {
                break;
            }
        }
    }

    /// The plan of the lines shown.
    pub(super) fn plan(&self) -> Option<Plan> {
        let total = self.frame.context.totals.lines;
        let pieces: Vec<(u64, u64, &str)> =
            self.lines.iter().map(|(&no, &t)| (no, no, t)).collect();
        let (omitted, segments) = gapped::layout(&pieces, total);
        let labels: Vec<String> = omitted.iter().map(|&gap| self.label(gap)).collect();
        self.frame.plan_labelled(omitted, segments, &labels)
    }

    /// Characters of the plan of the lines shown, at most: every line with its `'\n'`, each
    /// gap's marker, and the widest closing marker.
    fn cost(&self) -> u64 {
        let total = self.frame.context.totals.lines;
        let profile = self.frame.context.profile;
        let mut cost = self.frame.closing_len;
        let mut next = 1;
        let mut gaps = Vec::new();
        for (&no, text) in &self.lines {
            cost += char_count(text) + 1;
            if no > next {
                gaps.push(LineRange {
                    first: next,
                    last: no - 1,
                });
            }
            next = no + 1;
        }
        if next <= total {
            gaps.push(LineRange {
                first: next,
                last: total,
            });
        }
        for (i, &gap) in gaps.iter().enumerate() {
            let label = self.label(gap);
            // The last gap's marker is the closing one, but for a label said before it.
            if i + 1 < gaps.len() || !label.is_empty() {
                cost += char_count(&labelled_gap(said(gap, profile), &label)) + 1;
            }
        }
        cost
    }

    /// What a gap's marker says of the diagnostics it holds ([`line::counted`]), or nothing
    /// where their count is not known.
    fn label(&self, gap: LineRange) -> String {
        let last_known = self.numbers.last().map_or(0, |&(no, _)| no);
        if !self.complete && gap.last > last_known {
            return String::new();
        }
        let from = self.numbers.partition_point(|&(no, _)| no < gap.first);
        let to = self.numbers.partition_point(|&(no, _)| no <= gap.last);
        let held = &self.numbers[from..to];
        let warnings = held
            .iter()
            .filter(|&&(_, s)| s == Severity::Warning)
            .count();
        line::counted(warnings as u64, (held.len() - warnings) as u64)
    }
}
