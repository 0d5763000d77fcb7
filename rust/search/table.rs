//! The per-file table: every matching file in first-seen order, its exact counts, and the few
//! rows the plan could ever show.
//!
//! Counts are kept for every file, because the map must account for all of them. Rows are kept
//! only while they could be shown: all of them while the whole output might still fold into the
//! budget (the lossless plan needs every row), then only each file's first [`MAX_MATCHES_SHOWN`]
//! matches with their context, capped in number and in length, and none at all for files past
//! the point where even a bare header per file could no longer fit. Lines that are not search
//! rows are counted, and the first few and the latest kept, so none disappears without a trace
//! and a closing summary survives.

use std::collections::HashMap;

use super::hash::FastHash;

use crate::text::{byte_at_char, char_count};

/// Matches shown per file at most (the K).
pub const MAX_MATCHES_SHOWN: u64 = 5;
/// Rows (matches and context) kept per file once the lossless fold is out of reach.
const MAX_ROWS_KEPT: usize = 64;
/// Characters of a row kept (and shown) once the lossless fold is out of reach; the rest of a
/// longer row is counted and labelled.
pub const ROW_CHARS_SHOWN: u64 = 300;
/// Non-search lines kept verbatim from the start (all are counted; the latest is kept too).
const MAX_OTHERS_KEPT: usize = 32;
/// The shortest header a file can have (`x (1 match)` and its newline): a file later than
/// `budget / MIN_HEADER_CHARS` in the table can never be shown with rows, so it keeps none.
const MIN_HEADER_CHARS: u64 = 12;

/// One kept row of a file.
#[derive(Debug, Clone)]
pub struct Row {
    /// The row's text from the line number on (`12:text`, `12-text`), without its `'\n'`; a
    /// prefix when the row is longer than what is kept.
    pub text: String,
    /// Characters of the whole row text.
    pub chars: u64,
    pub line_no: u64,
    pub is_match: bool,
    /// 1-based line of the input it came from.
    pub input_line: u64,
    /// Characters of that input line, with its path prefix and its `'\n'`.
    pub input_chars: u64,
}

/// A line that is neither a search row nor a heading (a warning, `Binary file x matches`).
#[derive(Debug, Clone)]
pub struct Other {
    pub text: String,
    pub chars: u64,
    pub input_line: u64,
    pub input_chars: u64,
    /// How many files had been seen before it: where it sits between file groups.
    pub files_before: usize,
}

#[derive(Debug, Clone)]
pub struct FileEntry {
    pub path: String,
    pub path_chars: u64,
    /// Matching lines (context lines are not matches).
    pub matches: u64,
    pub rows: Vec<Row>,
    /// Matches among `rows`.
    pub kept_matches: u64,
    /// Some row of this file is not in `rows`.
    pub truncated: bool,
    /// No further row of this file will be kept.
    sealed: bool,
}

#[derive(Debug, Default)]
pub struct FileTable {
    pub files: Vec<FileEntry>,
    /// Looks a path up in `files`; never iterated, so its order cannot reach the output.
    index: HashMap<String, usize, FastHash>,
    pub others: Vec<Other>,
    pub other_lines: u64,
    pub matches: u64,
    pub context_rows: u64,
    /// Files past this index keep no rows.
    row_files: usize,
}

impl FileTable {
    #[must_use]
    pub fn new(budget: u64) -> Self {
        FileTable {
            row_files: usize::try_from(budget / MIN_HEADER_CHARS + 1).unwrap_or(usize::MAX),
            ..FileTable::default()
        }
    }

    /// The index of `path`'s entry, added at the end when new.
    pub fn file(&mut self, path: &str) -> usize {
        if let Some(&i) = self.index.get(path) {
            return i;
        }
        let i = self.files.len();
        self.files.push(FileEntry {
            path: path.to_owned(),
            path_chars: char_count(path),
            matches: 0,
            rows: Vec::new(),
            kept_matches: 0,
            truncated: false,
            sealed: i >= self.row_files,
        });
        self.index.insert(path.to_owned(), i);
        i
    }

    /// Counts a row of file `i`.
    pub fn count_row(&mut self, i: usize, is_match: bool) {
        if is_match {
            self.files[i].matches += 1;
            self.matches += 1;
        } else {
            self.context_rows += 1;
        }
    }

    /// Counts `matches` match rows and `context` context rows of file `i` at once.
    pub fn count_rows(&mut self, i: usize, matches: u64, context: u64) {
        self.files[i].matches += matches;
        self.matches += matches;
        self.context_rows += context;
    }

    /// File `i` keeps no further row: only its counts change.
    #[must_use]
    pub fn counts_only(&self, i: usize) -> bool {
        self.files[i].sealed && self.files[i].truncated
    }

    /// Whether a row just counted for file `i` is one of those the plan could show (its first
    /// matches and their context). A refusal is final for the file.
    pub fn wants_row(&mut self, i: usize, is_match: bool) -> bool {
        let file = &mut self.files[i];
        if file.sealed
            || (is_match && file.kept_matches == MAX_MATCHES_SHOWN)
            || file.rows.len() >= MAX_ROWS_KEPT
        {
            file.sealed = true;
            file.truncated = true;
            return false;
        }
        true
    }

    /// Keeps a row of file `i`; `text` is cut to what is kept
    /// unless `keep_all`.
    pub fn keep_row(&mut self, i: usize, mut row: Row, keep_all: bool) -> usize {
        if !keep_all {
            cut_to(&mut row.text, ROW_CHARS_SHOWN);
        }
        let file = &mut self.files[i];
        file.kept_matches += u64::from(row.is_match);
        file.rows.push(row);
        file.rows.len() - 1
    }

    /// Counts a non-search line and keeps it (cut, unless `keep_all`): all of them while
    /// `keep_all`, else the first [`MAX_OTHERS_KEPT`] and, in one more slot, the latest, which
    /// is where a tool's closing summary ends up. Returns where it is kept.
    pub fn other(&mut self, mut other: Other, keep_all: bool) -> usize {
        self.other_lines += 1;
        if !keep_all {
            cut_to(&mut other.text, ROW_CHARS_SHOWN);
        }
        let full = !keep_all && self.others.len() > MAX_OTHERS_KEPT;
        match self.others.last_mut() {
            Some(latest) if full => *latest = other,
            _ => self.others.push(other),
        }
        self.others.len() - 1
    }

    /// Drops what only the lossless fold needed: rows past each file's first matches and their
    /// context, rows of files too late to be shown, long texts, and extra non-search lines.
    pub fn trim_to_shown(&mut self) {
        for (i, file) in self.files.iter_mut().enumerate() {
            let before = file.rows.len();
            if i >= self.row_files {
                file.rows.clear();
                file.sealed = true;
            } else {
                let mut seen = 0;
                let end = file
                    .rows
                    .iter()
                    .position(|r| {
                        seen += u64::from(r.is_match);
                        seen > MAX_MATCHES_SHOWN
                    })
                    .unwrap_or(file.rows.len())
                    .min(MAX_ROWS_KEPT);
                file.sealed |= end < file.rows.len();
                file.rows.truncate(end);
            }
            file.truncated |= file.rows.len() < before;
            file.kept_matches = file.rows.iter().map(|r| u64::from(r.is_match)).sum();
            for row in &mut file.rows {
                cut_to(&mut row.text, ROW_CHARS_SHOWN);
            }
        }
        if self.others.len() > MAX_OTHERS_KEPT + 1 {
            let latest = self.others.pop();
            self.others.truncate(MAX_OTHERS_KEPT);
            self.others.extend(latest);
        }
        for other in &mut self.others {
            cut_to(&mut other.text, ROW_CHARS_SHOWN);
        }
    }
}

/// Cuts `text` to its first `chars` characters.
pub fn cut_to(text: &mut String, chars: u64) {
    let end = byte_at_char(text, chars);
    text.truncate(end);
}
