//! Whether the first lines of an output are a table, and if so which of its lines are rows and
//! which fields of a row it may be grouped by.
//!
//! Three kinds are recognised, each on strong evidence from the first lines alone:
//! - a header of column names over rows aligned to it (`ps aux`, `docker ps`, `kubectl get`,
//!   `df`, `pip list`): the header's words are names, not values, some are two spaces apart,
//!   and in nine rows in ten each of the first fields lies under the same header words, no
//!   two fields under the same word;
//! - `ls -l`: no header, and three lines in four start with a file mode (`drwxr-xr-x`);
//! - `git status --porcelain` (or `-s`): nine lines in ten are a two-character status, a
//!   space and a path.
//!
//! Rows are then told apart by a rule cheap enough for every line of a large output; any other
//! line (a blank, an error, `ls -lR`'s directory headings and totals) is one of the table's
//! other lines. Fields are split at ASCII white space, as Python's `str.split()` splits ASCII.

use std::collections::HashSet;

use crate::hash::FastHash;

/// Lines of a header or row looked at when judging alignment.
const MAX_WIDTH: usize = 512;
/// Lines before the header (a title, `ls -lR`'s first heading and total) that may be skipped.
const MAX_PREAMBLE: usize = 2;
/// Rows the judged lines must hold, at least.
const MIN_SAMPLE_ROWS: usize = 8;
/// Columns a table may be grouped by, at most: the leading ones.
const MAX_COLUMNS: usize = 16;

/// How rows are told from the table's other lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Under a header: a row has at least this many fields.
    Headed(usize),
    /// `ls -l`: a row's first field is a file mode, and it has at least five fields.
    LongListing,
    /// `git status --porcelain`: a status of two characters, a space and a path.
    Porcelain,
}

/// A table's layout, judged from its first lines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    pub kind: Kind,
    /// Lines before the first row (a title, the header, a rule under it): always shown.
    pub head: usize,
    /// The names of the columns rows may be grouped by: fields `0..names.len()` of a row (the
    /// status of a porcelain row), in order.
    pub names: Vec<String>,
}

impl Layout {
    /// Whether `line` (without its `'\n'`) is a row of this table.
    #[must_use]
    pub fn is_row(&self, line: &str) -> bool {
        match self.kind {
            Kind::Headed(min_fields) => line.split_ascii_whitespace().nth(min_fields - 1).is_some(),
            Kind::LongListing => {
                let mut fields = line.split_ascii_whitespace();
                fields.next().is_some_and(is_mode) && fields.nth(3).is_some()
            }
            Kind::Porcelain => is_porcelain(line),
        }
    }

    /// Hands `value(i, field)` the value of each column of a row, left to right.
    pub fn values<'a>(&self, row: &'a str, mut value: impl FnMut(usize, &'a str)) {
        if self.kind == Kind::Porcelain {
            value(0, &row[..2]);
            return;
        }
        for (i, field) in row
            .split_ascii_whitespace()
            .take(self.names.len())
            .enumerate()
        {
            value(i, field);
        }
    }
}

/// The layout of a table whose first lines are `sample`, or `None` when they are not one.
#[must_use]
pub fn judge(sample: &[String]) -> Option<Layout> {
    (0..=MAX_PREAMBLE)
        .find_map(|h| headed(sample, h))
        .or_else(|| long_listing(sample))
        .or_else(|| porcelain(sample))
}

/// A word of a line and where it is, in characters.
#[derive(Debug, Clone, Copy)]
struct Word<'a> {
    text: &'a str,
    first: usize,
    last: usize,
}

/// The words of the first [`MAX_WIDTH`] characters of `line`.
fn words(line: &str) -> Vec<Word<'_>> {
    let mut out = Vec::new();
    // The first character and byte of the word being read.
    let mut open: Option<(usize, usize)> = None;
    let (mut chars, mut bytes) = (0, 0);
    for (i, (at, c)) in line.char_indices().take(MAX_WIDTH).enumerate() {
        let blank = c.is_ascii_whitespace();
        match open {
            None if !blank => open = Some((i, at)),
            Some((first, from)) if blank => {
                out.push(Word {
                    text: &line[from..at],
                    first,
                    last: i - 1,
                });
                open = None;
            }
            _ => {}
        }
        (chars, bytes) = (i + 1, at + c.len_utf8());
    }
    if let Some((first, from)) = open {
        out.push(Word {
            text: &line[from..bytes],
            first,
            last: chars - 1,
        });
    }
    out
}

/// A header's word reads as a column's name: it has a letter and is no label, or it is a bar
/// of a drawn table.
fn is_name(word: &str) -> bool {
    // A word that ends in a colon labels what follows it (`path:`, `Error:`): no header's.
    (word.bytes().any(|b| b.is_ascii_alphabetic()) && !word.ends_with(':'))
        || matches!(word, "|" | "+")
}

/// A line of dashes or equals signs under a header (`pip list`, `psql`).
fn is_rule(line: &str) -> bool {
    let line = line.trim();
    line.bytes().filter(|&b| b == b'-' || b == b'=').count() >= 3
        && line.bytes().all(|b| b"-=+| ".contains(&b))
}

/// The table whose header is `sample[h]`, the lines before it its preamble.
fn headed(sample: &[String], h: usize) -> Option<Layout> {
    let header = sample.get(h)?;
    let names = words(header);
    let spaced = header.trim().contains("  ");
    if names.len() < 2 || header.chars().count() > MAX_WIDTH || !spaced {
        return None;
    }
    if !names.iter().all(|w| is_name(w.text)) {
        return None;
    }
    let ruled = sample.get(h + 1).is_some_and(|l| is_rule(l));
    let head = h + 1 + usize::from(ruled);
    // Each line once: a line repeated word for word (an error retried between rows) is no
    // more evidence than one, and, outnumbering the rows, it would set the median below.
    let mut seen: HashSet<&str, FastHash> = HashSet::default();
    let lines: Vec<Vec<Word<'_>>> = sample[head.min(sample.len())..]
        .iter()
        .filter(|l| !l.trim().is_empty() && seen.insert(l.as_str()))
        .map(|l| words(l))
        .collect();
    // Alignment is judged on the lines with at least the median number of fields: an error
    // or a heading between rows has fewer.
    let mut counts: Vec<usize> = lines.iter().map(Vec::len).collect();
    counts.sort_unstable();
    let median = counts.get(counts.len() / 2).copied().unwrap_or(0);
    let rows: Vec<&Vec<Word<'_>>> = lines.iter().filter(|r| r.len() >= median).collect();
    if rows.len() < MIN_SAMPLE_ROWS {
        return None;
    }
    let mut columns: Vec<String> = Vec::new();
    let mut with_names = 0;
    let mut after = 0;
    for i in 0..median.min(MAX_COLUMNS) {
        match common_span(&rows, &names, i) {
            Some(Some((first, last))) if first >= after => {
                let text = &names[first..=last];
                // A header word that is also the column's value in a row is not a name.
                let same = rows.iter().filter(|r| r[i].text == text[0].text).count();
                if first == last && same * 10 > rows.len() {
                    break;
                }
                after = last + 1;
                with_names += 1;
                columns.push(column_name(header, text, i));
            }
            // Fields under no header word lead a data frame (its index), and follow a free
            // last column (a command's arguments): only the first are columns.
            Some(None) if with_names == 0 => columns.push(format!("column {}", i + 1)),
            _ => break,
        }
    }
    // Two named columns may be a coincidence of indentation; three, or two under a rule, are
    // a table.
    if with_names < 3 - usize::from(ruled) {
        return None;
    }
    let min_fields = columns.len();
    // The last column is free text (a command, a mount point) unless nine rows in ten end
    // with it: only then a column to group by.
    let single = rows.iter().filter(|r| r.len() == min_fields).count();
    if single * 10 < rows.len() * 9 {
        columns.truncate(min_fields - 1);
    }
    Some(Layout {
        kind: Kind::Headed(min_fields),
        head,
        names: columns,
    })
}

/// The header words (first and last index) that field `i` of nine rows in ten lies under
/// (`Some(None)`: under none, as a data frame's index column), or `None` when the rows
/// disagree.
#[allow(
    clippy::option_option,
    reason = "no agreement, or agreement on no words"
)]
fn common_span(
    rows: &[&Vec<Word<'_>>],
    names: &[Word<'_>],
    i: usize,
) -> Option<Option<(usize, usize)>> {
    let under = |row: &&Vec<Word<'_>>| {
        row.get(i).map(|field| {
            let mut over = names
                .iter()
                .enumerate()
                .filter(|(_, n)| n.first <= field.last && field.first <= n.last)
                .map(|(k, _)| k);
            over.next()
                .map(|first| (first, over.next_back().unwrap_or(first)))
        })
    };
    let mut tally: Vec<(Option<(usize, usize)>, usize)> = Vec::new();
    for span in rows.iter().filter_map(under) {
        match tally.iter_mut().find(|(s, _)| *s == span) {
            Some((_, n)) => *n += 1,
            None => tally.push((span, 1)),
        }
    }
    let (span, n) = tally.into_iter().max_by_key(|&(_, n)| n)?;
    (n * 10 >= rows.len() * 9).then_some(span)
}

/// A column's name as the header writes it (`CONTAINER ID`), or its number where the header's
/// text could be taken for a marker's.
fn column_name(header: &str, words: &[Word<'_>], i: usize) -> String {
    let (first, last) = (words[0].first, words[words.len() - 1].last);
    let name: String = header.chars().skip(first).take(last - first + 1).collect();
    if name.chars().all(|c| c.is_ascii_graphic() || c == ' ')
        && !name.contains(['[', ']', ';', ':'])
    {
        name
    } else {
        format!("column {}", i + 1)
    }
}

/// `ls -l`'s first field: a file type and nine permission characters, perhaps an ACL mark.
fn is_mode(field: &str) -> bool {
    let b = field.as_bytes();
    (b.len() == 10 || (b.len() == 11 && b".+@".contains(&b[10])))
        && b"-bcdlpsD".contains(&b[0])
        && b[1..10].iter().all(|c| b"-rwxsStTl".contains(c))
}

/// An `ls -l` output, perhaps under a `total` line or `ls -lR`'s first heading.
fn long_listing(sample: &[String]) -> Option<Layout> {
    let first = |l: &String| l.split_ascii_whitespace().next().is_some_and(is_mode);
    let head = sample.iter().take(MAX_PREAMBLE + 1).position(first)?;
    let lines: Vec<&String> = sample[head..]
        .iter()
        .filter(|l| !l.trim().is_empty())
        .collect();
    let rows = lines.iter().filter(|l| first(l)).count();
    (rows >= MIN_SAMPLE_ROWS && rows * 4 >= lines.len() * 3).then(|| Layout {
        kind: Kind::LongListing,
        head,
        names: (1..=4).map(|i| format!("column {i}")).collect(),
    })
}

/// `XY path`, X and Y a porcelain status each, not both blank.
fn is_porcelain(line: &str) -> bool {
    const STATUS: &[u8] = b" MTADRCU?!";
    let b = line.as_bytes();
    b.len() >= 4
        && STATUS.contains(&b[0])
        && STATUS.contains(&b[1])
        && b[..2] != *b"  "
        && b[2] == b' '
        && b[3] != b' '
}

/// A `git status --porcelain` output.
fn porcelain(sample: &[String]) -> Option<Layout> {
    let lines: Vec<&String> = sample.iter().filter(|l| !l.trim().is_empty()).collect();
    let rows = lines.iter().filter(|l| is_porcelain(l)).count();
    let first = sample.first().is_some_and(|l| is_porcelain(l));
    (first && rows >= MIN_SAMPLE_ROWS && rows * 10 >= lines.len() * 9).then(|| Layout {
        kind: Kind::Porcelain,
        head: 0,
        names: vec!["status".to_owned()],
    })
}
