//! Tables written from a fuzzer's bytes, with the truth the writer knows: how many rows and
//! other lines there are, the column the rows should be grouped by, and each of its values'
//! number of rows.
//!
//! Four formats, padded as their programs pad: `kubectl get pods` (grouped by `STATUS`),
//! `ps aux` (by `USER`), `ls -l` (by the mode, column 1) and `git status --porcelain` (by the
//! status). Every other column either is a quantity or has a value per row, so the writer
//! knows which column the planner must pick; names hold wide characters, spaces and text that
//! looks like a marker, and other lines (blank, errors, headings) fall between the rows.

use super::program::Choices;
use super::table_check::{count_marker, counted};
use crate::engine::Outcome;
use crate::plan::Shape;

/// Each format's values of the grouping column.
const VALUES: [&[&str]; 4] = [
    &[
        "Running",
        "Pending",
        "CrashLoopBackOff",
        "Completed",
        "Error",
    ],
    &["root", "postgres", "www-data", "systemd+", "b\u{e9}a"],
    &[
        "-rw-r--r--",
        "drwxr-xr-x",
        "lrwxrwxrwx",
        "-rwxr-xr-x",
        "crw-rw-rw-",
    ],
    &[" M", "M ", "??", "A ", "D ", "UU"],
];
/// Pieces of the names in each row.
const NAMES: &[&str] = &[
    "app",
    "web-1",
    "\u{e9}\u{6f22}",
    "a b",
    "[lines 3-5 omitted]",
    "x",
];
/// Lines between rows that are not rows in any of the formats.
const OTHERS: &[&str] = &["", "error: timed out", "./src/deep:", "   "];
const MAX_ROWS: usize = 3000;

pub struct Written {
    pub text: String,
    rows: u64,
    others: u64,
    column: &'static str,
    /// Each value of the grouping column and its rows, in the order first written.
    counts: Vec<(&'static str, u64)>,
}

impl Written {
    pub fn read(choices: &mut Choices<'_>) -> Written {
        let format = usize::from(choices.byte() % 4);
        let values = VALUES[format];
        let mut cells: Vec<Vec<String>> = Vec::new();
        let mut lines: Vec<Option<&str>> = Vec::new();
        let mut counts: Vec<(&'static str, u64)> = Vec::new();
        while !choices.is_empty() && cells.len() < MAX_ROWS {
            let b = choices.byte();
            if b % 29 == 0 && cells.len() >= 3 {
                lines.push(Some(OTHERS[usize::from(b) % OTHERS.len()]));
                continue;
            }
            let value = values[if b < 128 {
                0
            } else {
                usize::from(b) % values.len()
            }];
            match counts.iter_mut().find(|(v, _)| *v == value) {
                Some((_, n)) => *n += 1,
                None => counts.push((value, 1)),
            }
            let i = cells.len();
            let name = format!("{}{i}", NAMES[usize::from(choices.byte()) % NAMES.len()]);
            cells.push(match format {
                0 => vec![
                    name.replace(' ', "-"),
                    "1/1".into(),
                    value.into(),
                    format!("{}", b % 3),
                    "5d".into(),
                ],
                1 => vec![
                    value.into(),
                    format!("{}", 100 + i),
                    format!("{}.{}", b % 100, b % 10),
                    format!("/usr/bin/{name} --id {i}"),
                ],
                2 => vec![
                    value.into(),
                    format!("{}", 1 + b % 12),
                    "root".into(),
                    "root".into(),
                    format!("{}", u32::from(b) * 977),
                    "Jan  1 10:00".into(),
                    name,
                ],
                _ => vec![format!("{value} src/{name}.py")],
            });
            lines.push(None);
        }
        let header: Vec<String> = match format {
            0 => ["NAME", "READY", "STATUS", "RESTARTS", "AGE"]
                .map(String::from)
                .to_vec(),
            1 => ["USER", "PID", "%CPU", "COMMAND"]
                .map(String::from)
                .to_vec(),
            2 => vec![format!("total {}", cells.len())],
            _ => Vec::new(),
        };
        let text = render(&header, &cells, &lines, format);
        Written {
            text,
            rows: cells.len() as u64,
            others: lines.iter().filter(|l| l.is_some()).count() as u64,
            column: ["STATUS", "USER", "column 1", "status"][format],
            counts,
        }
    }

    /// Every count the output states equals the writer's.
    pub fn check_output(&self, outcome: &Outcome) {
        if outcome.plan.shape != Shape::Table {
            return;
        }
        let (_, marker) = count_marker(&outcome.plan);
        assert_eq!(
            counted(marker),
            (self.rows, self.others),
            "rows and others: {marker}"
        );
        if !marker.contains("; by ") {
            return;
        }
        let mut sorted = self.counts.clone();
        sorted.sort_by_key(|&(_, n)| std::cmp::Reverse(n));
        let by = Some((self.column, &sorted[..]));
        let said = marker.trim_end();
        assert!(
            (1..=sorted.len()).any(|listed| crate::table::count_marker(
                self.rows,
                self.others,
                by,
                listed
            ) == said),
            "{said} for {sorted:?} by {}",
            self.column
        );
    }
}

/// The table's text: the header, then rows (`None` in `lines`) and other lines, each column
/// padded to its widest cell as its program pads it.
fn render(
    header: &[String],
    cells: &[Vec<String>],
    lines: &[Option<&str>],
    format: usize,
) -> String {
    let columns = if format < 2 {
        header.len()
    } else {
        cells.first().map_or(0, Vec::len)
    };
    let widths: Vec<usize> = (0..columns)
        .map(|c| {
            let head = if format < 2 {
                header[c].chars().count()
            } else {
                0
            };
            cells
                .iter()
                .map(|r| r[c].chars().count())
                .max()
                .unwrap_or(0)
                .max(head)
        })
        .collect();
    let row = |cells: &[String]| -> String {
        let mut line = String::new();
        for (c, cell) in cells.iter().enumerate() {
            let (w, last) = (widths[c], c + 1 == cells.len());
            let numeric = cell.starts_with(|ch: char| ch.is_ascii_digit());
            let padded = match format {
                _ if last => cell.clone(),
                0 => format!("{cell:<w$}   "),
                _ if numeric => format!("{cell:>w$} "),
                _ => format!("{cell:<w$} "),
            };
            line.push_str(&padded);
        }
        line + "\n"
    };
    let mut text = match header.len() {
        0 => String::new(),
        1 => format!("{}\n", header[0]),
        _ => row(header),
    };
    let mut next = cells.iter();
    for line in lines {
        match line {
            Some(other) => {
                text.push_str(other);
                text.push('\n');
            }
            None => text.push_str(&row(next.next().expect("one row per None"))),
        }
    }
    text
}
