//! Which lines a table's plan shows, and the marker that counts its rows.
//!
//! Lines are chosen by priority, each while the plan still fits: the head; the first row of
//! each value of the grouping column, most rows first; then, up to [`OUTLIER_PERCENT`] of the
//! budget, the outliers in their order: the lines that are not rows and every row of a rare
//! value of the grouping column, then every row of a rare value of another column and the row
//! with the largest number of each column of quantities; then first and last rows as the
//! tool's head and tail weights share what is left. Each line is priced exactly: its
//! characters, and the gap marker it adds or saves ([`Shown::add`]).

use std::borrow::Cow;
use std::collections::BTreeSet;
use std::fmt::Write as _;

use super::Table;
use super::column::{FIRST_ROWS, Group};
use super::store::Known;
use crate::gapped::Frame;
use crate::lookalike::disarm;
use crate::markers::{plural, thousands};
use crate::plan::{LineRange, Piece, Plan, Shape};
use crate::planner::Context;
use crate::text::char_count;

/// Rows a table must have before the planner believes it.
const MIN_ROWS: u64 = 20;
/// Below this budget a table is clipped.
const MIN_BUDGET: u64 = 400;
/// Columns that say a row's state: the rows are grouped by one of these when it groups well.
const STATE_NAMES: [&str; 3] = ["STATUS", "STATE", "PHASE"];
/// The part of the budget (1/n) the count of rows may take at most.
const SUMMARY_PART: u64 = 4;
/// Percent of the budget the outliers may fill; the rest is for first and last rows.
const OUTLIER_PERCENT: u64 = 75;

/// The plan of `table` within `budget` characters, or `None` when it is too small a table or
/// its head does not fit.
pub(super) fn plan(table: &Table, context: &Context<'_>, budget: u64) -> Option<Plan> {
    if budget < MIN_BUDGET || table.rows < MIN_ROWS {
        return None;
    }
    let column = group_column(table);
    let by = column.and_then(|i| {
        let mut groups: Vec<&Group> = table.tallies[i].groups(table.rows)?.iter().collect();
        // Most rows first; a sort that keeps equals in the order they were first seen.
        groups.sort_by_key(|g| std::cmp::Reverse(g.count));
        Some((table.layout.names[i].as_str(), groups))
    });
    let summary = summary(table, by.as_ref(), budget / SUMMARY_PART);
    let within = budget.checked_sub(char_count(&summary) + 1)?;
    let frame = Frame::new(context, within, Shape::Table);
    let mut shown = Shown::new(context.totals.lines, &frame);
    for (no, text) in (1..).zip(&table.head) {
        shown.add(no, text, u64::MAX);
    }
    if shown.cost > within {
        return None;
    }
    let largest: Vec<(u64, &str)> = table
        .tallies
        .iter()
        .filter_map(|t| t.largest(table.rows))
        .collect();
    let known = Known::new(
        context.window,
        context.totals,
        &table.head,
        &table.picked,
        largest.clone(),
    );
    let text = |no: u64| known.text(no);
    if let Some((_, groups)) = &by {
        for group in groups {
            if let Some(t) = text(group.rows[0]) {
                shown.add(group.rows[0], t, within);
            }
        }
    }
    let limit = within * OUTLIER_PERCENT / 100;
    for outliers in outliers(table, column, &largest) {
        for no in outliers {
            if let Some(t) = text(no) {
                shown.add(no, t, limit);
            }
        }
    }
    fill(&mut shown, &known, context, within);
    shown.close_small_gaps(&text);
    let (omitted, segments) = shown.segments(&text)?;
    let mut plan = frame.plan(omitted, segments)?;
    insert_summary(&mut plan, table, summary)?;
    Some(plan)
}

/// The outliers, in two lists of line numbers in order: first the lines that are not rows and
/// the rows of rare values of the grouping column (at most [`FIRST_ROWS`] rows each), then the
/// rows of rare values of the other columns that group well (a zombie among sleeping
/// processes) and the rows with the largest numbers.
fn outliers(table: &Table, column: Option<usize>, largest: &[(u64, &str)]) -> [Vec<u64>; 2] {
    let rare = |i: usize| {
        table.tallies[i]
            .groups(table.rows)
            .into_iter()
            .flatten()
            .filter(|g| g.count <= FIRST_ROWS as u64)
            .flat_map(|g| g.rows.iter().copied())
    };
    let mut first = table.misfits.clone();
    let mut second: Vec<u64> = largest.iter().map(|(no, _)| *no).collect();
    for i in 0..table.tallies.len() {
        if Some(i) == column {
            first.extend(rare(i));
        } else {
            second.extend(rare(i));
        }
    }
    for list in [&mut first, &mut second] {
        list.sort_unstable();
        list.dedup();
    }
    [first, second]
}

/// The column to group rows by: a state column that groups them well, else the leftmost
/// column that does.
fn group_column(table: &Table) -> Option<usize> {
    let names = &table.layout.names;
    let groups = |i: &usize| table.tallies[*i].groups(table.rows).is_some();
    let state = |i: &usize| {
        STATE_NAMES
            .iter()
            .any(|s| names[*i].eq_ignore_ascii_case(s))
    };
    (0..names.len())
        .filter(state)
        .find(groups)
        .or_else(|| (0..names.len()).find(groups))
}

/// First rows, then last rows, as the tool's weights share the room left; then first rows
/// again with what the last rows left.
fn fill(shown: &mut Shown, known: &Known<'_>, context: &Context<'_>, budget: u64) {
    let profile = context.profile;
    let left = u128::from(budget.saturating_sub(shown.cost));
    let weights = u128::from(profile.head_weight) + u128::from(profile.tail_weight);
    let head = u64::try_from(left * u128::from(profile.head_weight) / weights).unwrap_or(0);
    let head_limit = shown.cost + head;
    // A row too long for what is left is passed over for the shorter ones after it.
    for (no, text) in known.opening() {
        shown.add(no, text, head_limit);
    }
    for (no, text) in known.tail() {
        shown.add(no, text, budget);
    }
    for (no, text) in known.opening() {
        shown.add(no, text, budget);
    }
}

/// The marker that counts the table's rows, at most `max` characters unless even its
/// shortest form is longer: as many values as fit, most rows first.
fn summary(table: &Table, by: Option<&(&str, Vec<&Group>)>, max: u64) -> String {
    let Some((name, groups)) = by else {
        return count_marker(table.rows, table.others, None, 0);
    };
    let counts: Vec<(&str, u64)> = groups.iter().map(|g| (g.value.as_str(), g.count)).collect();
    (1..=counts.len())
        .rev()
        .map(|listed| count_marker(table.rows, table.others, Some((name, &counts)), listed))
        .find(|text| char_count(text) <= max)
        .unwrap_or_else(|| count_marker(table.rows, table.others, None, 0))
}

/// The marker that counts a table's rows, on one line without its `'\n'`: `rows` rows and
/// `others` other lines, and with `by` (a column's name and its values with their counts)
/// the first `listed` values and the count of the rest.
#[must_use]
pub(crate) fn count_marker(
    rows: u64,
    others: u64,
    by: Option<(&str, &[(&str, u64)])>,
    listed: usize,
) -> String {
    let mut text = format!("[shapeclip: table of {}", plural(rows, "row", "rows"));
    // Writing to a `String` cannot fail.
    if others > 0 {
        let _ = write!(text, ", {}", plural(others, "other line", "other lines"));
    }
    if let Some((name, counts)) = by {
        let shown: Vec<String> = counts[..listed]
            .iter()
            .map(|(value, count)| format!("{} {}", shown_value(value), thousands(*count)))
            .collect();
        let _ = write!(text, "; by {name}: {}", shown.join("; "));
        let rest = &counts[listed..];
        if !rest.is_empty() {
            let rows = rest.iter().map(|(_, count)| count).sum();
            let _ = write!(
                text,
                "; {} in {}",
                plural(rest.len() as u64, "more value", "more values"),
                plural(rows, "row", "rows")
            );
        }
    }
    text.push(']');
    text
}

/// A value as the marker names it: input text, so a look-alike marker in it is disarmed as in
/// shown lines (see [`crate::lookalike`]), and quoted where it is empty or holds spaces or the
/// marker's separators.
fn shown_value(value: &str) -> Cow<'_, str> {
    let value = disarm(value);
    if value.is_empty()
        || value.contains(|c: char| c.is_whitespace() || matches!(c, ';' | '"' | '\\'))
    {
        Cow::Owned(format!("{value:?}"))
    } else {
        value
    }
}

/// Puts the count of rows right under the head.
fn insert_summary(plan: &mut Plan, table: &Table, summary: String) -> Option<()> {
    let head: usize = table.head.iter().map(|l| l.len() + 1).sum();
    let marker = Piece::Marker(summary + "\n");
    if head == 0 {
        plan.pieces.insert(0, marker);
        return Some(());
    }
    let Piece::Kept(first) = plan.pieces.first_mut()? else {
        return None;
    };
    let rest = first.split_off(head);
    plan.pieces.insert(1, marker);
    if !rest.is_empty() {
        plan.pieces.insert(2, Piece::Kept(rest));
    }
    Some(())
}

/// The lines a plan shows, and what it costs: their characters and newlines, a gap marker in
/// each gap but the last and the closing marker in the last.
struct Shown {
    lines: BTreeSet<u64>,
    total: u64,
    gap: u64,
    cost: u64,
}

impl Shown {
    /// Nothing shown: all of the input one gap.
    fn new(total: u64, frame: &Frame<'_>) -> Self {
        Shown {
            lines: BTreeSet::new(),
            total,
            gap: frame.gap_len,
            cost: frame.closing_len,
        }
    }

    /// Whether line `no` is shown, or is outside the input (no gap there).
    fn has(&self, no: u64) -> bool {
        no == 0 || no > self.total || self.lines.contains(&no)
    }

    /// Shows line `no`, `text`, if the plan then takes at most `limit` characters; whether it
    /// is shown. A line between two hidden ones opens a gap; one between two shown ones
    /// closes one.
    fn add(&mut self, no: u64, text: &str, limit: u64) -> bool {
        if self.lines.contains(&no) {
            return true;
        }
        let mut cost = self.cost + char_count(text) + 1;
        match (self.has(no - 1), self.has(no + 1)) {
            (false, false) => cost += self.gap,
            (true, true) => cost = cost.saturating_sub(self.gap),
            _ => {}
        }
        if cost > limit {
            return false;
        }
        self.cost = cost;
        self.lines.insert(no);
        true
    }

    /// The hidden ranges, in order.
    fn gaps(&self) -> Vec<LineRange> {
        crate::plan::gaps(self.lines.iter().copied(), self.total)
    }

    /// Shows the lines of each gap but the last one standing whose marker is no shorter than
    /// they are: that costs nothing, and hides nothing.
    fn close_small_gaps<'t>(&mut self, text: &impl Fn(u64) -> Option<&'t str>) {
        let gaps = self.gaps();
        let mut open = gaps.len();
        for gap in gaps {
            if open < 2 || gap.len() > self.gap {
                continue;
            }
            let lines: Option<Vec<u64>> = (gap.first..=gap.last)
                .map(|no| text(no).map(|t| char_count(t) + 1))
                .collect();
            let Some(lines) = lines else { continue };
            let chars: u64 = lines.iter().sum();
            if chars <= self.gap {
                self.lines.extend(gap.first..=gap.last);
                self.cost = self.cost + chars - self.gap;
                open -= 1;
            }
        }
    }

    /// The omitted ranges and the text shown around them, as [`Frame::plan`] takes them.
    fn segments<'t>(
        &self,
        text: &impl Fn(u64) -> Option<&'t str>,
    ) -> Option<(Vec<LineRange>, Vec<String>)> {
        let omitted = self.gaps();
        let mut segments = vec![String::new()];
        let mut next = omitted.iter().peekable();
        for &no in &self.lines {
            if next.next_if(|gap| gap.last < no).is_some() {
                segments.push(String::new());
            }
            let segment = segments.last_mut()?;
            segment.push_str(text(no)?);
            segment.push('\n');
        }
        if segments.len() == omitted.len() {
            segments.push(String::new());
        }
        Some((omitted, segments))
    }
}
