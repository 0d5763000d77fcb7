//! Rows a search tool already summarised, one file and its count of matches on each
//! (`PATH (N matches)`, between a `Found N matches for "X" in DIR:` line and an `End of
//! matches` line, as SWE-agent's `search_dir` prints them).
//!
//! The tool has already cut each file's matches down to a count, so what is left to choose is
//! which files to name. An agent opens the file with the most matches far more often than
//! the first one listed, and a file of the project's own code (its tests included) before a
//! copy in generated documentation, a build output or vendored code, which such a search
//! finds once per copy; and a search for a name, the file named for it. So the rows are shown
//! by rank: the lines that are not rows (the tool's own header and footer) first, then the
//! project's files named for the term searched, then its other files, then the rest, each by
//! most matches, the earlier of equals first; each row in its place, the rows between them one
//! exact gap.
//!
//! Only the best ranks are stored, at most twice the room, so memory follows the budget.

use std::cmp::Reverse;
use std::collections::{BTreeMap, BTreeSet};

use super::line::is_not_own_code;
use crate::gapped::Frame;
use crate::plan::{LineRange, Plan, gaps};
use crate::text::char_count;

/// Where a line stands in the order in which rows are shown: lower first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Rank {
    /// 0: not a row (the tool's header or footer, a blank line); 1: a row of the project's own
    /// code whose file is named for the term searched; 2: another row of the project's own
    /// code; 3: a row under documentation, build outputs, caches or vendored code.
    tier: u8,
    matches: Reverse<u64>,
    no: u64,
}

/// The best-ranked lines of a listing of summarised rows, within a bound set by the budget.
#[derive(Debug)]
pub(super) struct Rows {
    ranked: BTreeMap<Rank, String>,
    /// Characters of `ranked`, a newline for each line included.
    stored: u64,
    /// The most characters `ranked` keeps once it holds more than one line.
    cap: u64,
    /// Summarised rows read, stored or not.
    pub(super) count: u64,
    /// The term searched, as the tool's header line says it.
    term: Option<String>,
}

impl Rows {
    /// Rows for plans of at most `room` characters.
    pub(super) fn new(room: u64) -> Self {
        Rows {
            ranked: BTreeMap::new(),
            stored: 0,
            cap: room.saturating_mul(2),
            count: 0,
            term: None,
        }
    }

    /// Reads line `no`: a row in `dir` with `matches` when `row` says so, else another line.
    pub(super) fn line(&mut self, no: u64, text: &str, row: Option<(&str, u64)>) {
        let rank = if let Some((dir, matches)) = row {
            self.count += 1;
            Rank {
                tier: self.tier(dir, text),
                matches: Reverse(matches),
                no,
            }
        } else {
            if self.count == 0 && self.term.is_none() {
                self.term = searched_term(text);
            }
            Rank {
                tier: 0,
                matches: Reverse(0),
                no,
            }
        };
        let full = self.stored >= self.cap;
        if full
            && self
                .ranked
                .last_key_value()
                .is_some_and(|(worst, _)| rank > *worst)
        {
            return;
        }
        self.stored += char_count(text) + 1;
        self.ranked.insert(rank, text.to_owned());
        // Past the cap the worst-ranked lines go: no plan within the room could reach them
        // before the better ones had filled it.
        while self.stored > self.cap && self.ranked.len() > 1 {
            if let Some((_, text)) = self.ranked.pop_last() {
                self.stored -= char_count(&text) + 1;
            }
        }
    }

    /// The tier of row `text` in `dir` (see [`Rank::tier`]). A file named for the term searched
    /// is where the name is defined, most often: an agent searching for a name opens it next.
    fn tier(&self, dir: &str, text: &str) -> u8 {
        if is_not_own_code(dir) {
            return 3;
        }
        let path = text.rsplit_once(" (").map_or(text, |(path, _)| path);
        let name = path.rsplit('/').next().unwrap_or(path);
        if self.term.as_deref().is_some_and(|term| name.contains(term)) {
            1
        } else {
            2
        }
    }

    /// The plan that shows the best-ranked lines that fit `frame`, each in its place.
    pub(super) fn plan(&self, frame: &Frame<'_>) -> Option<Plan> {
        let total = frame.context.totals.lines;
        let mut shown: BTreeSet<u64> = BTreeSet::new();
        // Every line hidden is one gap at first: the closing marker's.
        let mut cost = frame.closing_len;
        for (rank, text) in &self.ranked {
            let no = rank.no;
            let before = shown.range(..no).next_back().map_or(0, |&n| n);
            let after = shown.range(no..).next().map_or(total + 1, |&n| n);
            // Showing a line of a gap closes it, shortens it or splits it in two: one marker
            // fewer, as many, or one more.
            let (closes, splits) = (
                before + 1 == no && no + 1 == after,
                before + 1 < no && no + 1 < after,
            );
            let with = (cost + char_count(text) + 1 + u64::from(splits) * frame.gap_len)
                .saturating_sub(u64::from(closes) * frame.gap_len);
            if with <= frame.budget {
                cost = with;
                shown.insert(no);
            }
        }
        self.fill_small_gaps(frame, &mut shown);
        let by_line: BTreeMap<u64, &str> = self
            .ranked
            .iter()
            .filter(|(rank, _)| shown.contains(&rank.no))
            .map(|(rank, text)| (rank.no, text.as_str()))
            .collect();
        super::show(frame, by_line)
    }

    /// Shows the lines of every gap between shown lines that hold no more characters than the
    /// gap's marker would, where they are stored: that costs no more, and hides nothing.
    fn fill_small_gaps(&self, frame: &Frame<'_>, shown: &mut BTreeSet<u64>) {
        let stored: BTreeMap<u64, &str> = self
            .ranked
            .iter()
            .map(|(rank, text)| (rank.no, text.as_str()))
            .collect();
        let inner: Vec<LineRange> = gaps(shown.iter().copied(), frame.context.totals.lines)
            .into_iter()
            .filter(|g| shown.contains(&(g.first - 1)) && shown.contains(&(g.last + 1)))
            .collect();
        for gap in inner {
            let chars: Option<u64> = (gap.first..=gap.last)
                .map(|no| stored.get(&no).map(|text| char_count(text) + 1))
                .sum();
            if chars.is_some_and(|chars| chars <= frame.gap_len) {
                shown.extend(gap.first..=gap.last);
            }
        }
    }
}

/// The term a `Found N matches for "TERM" in DIR:` line names, where it is long enough to
/// name a file by (three characters or more).
fn searched_term(line: &str) -> Option<String> {
    let (_, rest) = line.split_once(" matches for \"")?;
    let (term, _) = rest.rsplit_once("\" in ")?;
    (line.starts_with("Found ") && term.chars().count() >= 3).then(|| term.to_owned())
}
