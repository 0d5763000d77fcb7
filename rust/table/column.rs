//! What the table planner counts of each column it may group rows by: every value with its
//! exact number of rows and its first rows, while the values are few enough to name; and, for
//! a column of numbers, the row with the largest.
//!
//! State is bounded by fixed caps: at most [`MAX_GROUPS`] values of at most [`MAX_VALUE`]
//! characters, [`FIRST_ROWS`] line numbers each, and one number with its row.

/// Values a column may have and still group the rows.
pub const MAX_GROUPS: usize = 12;
/// Rows of each value remembered: a value with no more rows than this is an outlier, every
/// row of it known and shown.
pub const FIRST_ROWS: usize = 3;
/// Characters of a value a marker may name.
const MAX_VALUE: usize = 40;

/// One value of a column and its rows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Group {
    pub value: String,
    /// Rows with this value: an exact count.
    pub count: u64,
    /// Line numbers of its first rows, at most [`FIRST_ROWS`].
    pub rows: Vec<u64>,
}

/// A column's counts over the rows read so far.
#[derive(Debug, Default)]
pub struct Tally {
    /// The values in the order first seen; `None` once there are too many, or one a marker
    /// could not name.
    groups: Option<Vec<Group>>,
    /// Rows whose value is a quantity.
    numbers: u64,
    /// The largest number, the line of the first row that holds it, and that row's text
    /// when it is at most [`MAX_LARGEST`] characters long.
    largest: Option<(f64, u64, Option<String>)>,
}

/// Characters of a row with the largest number that its tally keeps.
const MAX_LARGEST: usize = 1024;

/// A value a marker can name: short, and on one line.
fn nameable(value: &str) -> bool {
    value.chars().count() <= MAX_VALUE && !value.contains(char::is_control)
}

/// Whether a value is a quantity: it starts with a digit, perhaps signed (`42`, `-1.5`,
/// `4.0K`, `1/1`, `0:00`, `5d`). Such values count or measure; they do not group rows.
fn quantity(value: &str) -> bool {
    value
        .trim_start_matches(['-', '+'])
        .bytes()
        .next()
        .is_some_and(|b| b.is_ascii_digit())
}

/// A quantity that is a plain number (`42`, `-1.5`, `99%`), as a number.
fn number(value: &str) -> Option<f64> {
    let digits = value.strip_suffix('%').unwrap_or(value);
    digits
        .parse::<f64>()
        .ok()
        .filter(|n| n.is_finite() && quantity(value))
}

impl Tally {
    #[must_use]
    pub fn new() -> Self {
        Tally {
            groups: Some(Vec::new()),
            numbers: 0,
            largest: None,
        }
    }

    /// Counts `value`, the column's value in row `no` (`row`); returns whether the row is one
    /// of the first of a value that is not a quantity, whose text is then worth keeping.
    pub fn add(&mut self, no: u64, value: &str, row: &str) -> bool {
        let quantity = quantity(value);
        if quantity {
            self.numbers += 1;
        }
        if let Some(n) = number(value) {
            if self.largest.as_ref().is_none_or(|(top, _, _)| n > *top) {
                let text = (row.len() <= MAX_LARGEST).then(|| row.to_owned());
                self.largest = Some((n, no, text));
            }
        }
        let Some(groups) = &mut self.groups else {
            return false;
        };
        if let Some(group) = groups.iter_mut().find(|g| g.value == value) {
            group.count += 1;
            if group.rows.len() < FIRST_ROWS {
                group.rows.push(no);
                return !quantity;
            }
        } else if groups.len() < MAX_GROUPS && nameable(value) {
            groups.push(Group {
                value: value.to_owned(),
                count: 1,
                rows: vec![no],
            });
            return !quantity;
        } else {
            self.groups = None;
        }
        false
    }

    /// The groups, when this column groups `rows` rows well: two values at least, each with
    /// four rows on average, and not a column of quantities (sizes, counts, times).
    #[must_use]
    pub fn groups(&self, rows: u64) -> Option<&[Group]> {
        let groups = self.groups.as_deref()?;
        let n = groups.len() as u64;
        (n >= 2 && n * 4 <= rows && self.numbers * 2 <= rows).then_some(groups)
    }

    /// The first row with the largest number, in a column of quantities: its line and text.
    #[must_use]
    pub fn largest(&self, rows: u64) -> Option<(u64, &str)> {
        match &self.largest {
            Some((_, no, Some(text))) if self.numbers * 2 > rows => Some((*no, text)),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_values_until_there_are_too_many() {
        let mut tally = Tally::new();
        for (no, value) in ["root", "alice", "root", "root", "root", "bob"]
            .iter()
            .enumerate()
        {
            tally.add(no as u64 + 1, value, value);
        }
        let groups = tally.groups(24).expect("three values group 24 rows");
        assert_eq!(groups[0].count, 4);
        assert_eq!(groups[0].rows, vec![1, 3, 4]);
        assert_eq!(groups[2].value, "bob");
        assert!(
            tally.groups(8).is_none(),
            "three values in 8 rows say little"
        );
        for i in 0..MAX_GROUPS {
            let user = format!("user{i}");
            tally.add(100 + i as u64, &user, &user);
        }
        assert!(tally.groups(1000).is_none());
    }

    #[test]
    fn numbers_make_no_groups_but_have_a_largest_row() {
        let mut tally = Tally::new();
        for (no, value) in ["0.0", "12.5", "3", "12.5", "99%"].iter().enumerate() {
            assert!(
                !tally.add(no as u64 + 1, value, value),
                "no row kept for a number"
            );
        }
        assert!(tally.groups(5).is_none());
        assert_eq!(tally.largest(5), Some((5, "99%")));
        assert_eq!(number("-rw-r--r--"), None);
        assert_eq!(number("1/1"), None);
        assert!(quantity("1/1") && quantity("-2") && !quantity("-rw-r--r--"));
        assert_eq!(number("inf"), None);
    }

    #[test]
    fn a_value_a_marker_cannot_name_ends_the_grouping() {
        let mut tally = Tally::new();
        tally.add(1, "ok", "ok");
        tally.add(2, "a\u{1b}[31m", "a\u{1b}[31m");
        assert!(tally.groups(100).is_none());
    }
}
