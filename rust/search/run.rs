//! The fast count of a flood: rows of files that keep no more rows, counted without the
//! general parse.
//!
//! Past the fold, most rows of a large grep output only add to their file's counts. This walk
//! compares each row with the path it continues, or takes its path as the look-ahead found it,
//! and hands every other line back to the general reading.

use super::ahead::{Sure, sure_path};
use super::row::{Previous, is_diagnostic_after_number, parse_bare_row, row_after};
use super::{LastRow, OpenLine, Prefix, SearchPlanner};
use crate::lines::Lines;

impl SearchPlanner {
    /// Counts the run of rows that `lines` go on with and that belong to files which keep no
    /// more rows (the bulk of a flood) without the general parse: each row needs only a compare
    /// of the known path, its line number, and the next `'\n'`; a row of another file, only
    /// its path as the look-ahead found it (`sure`, of the block whose first line is number
    /// `first`) and a look-up of that path by the hashes found with it. Handles exactly the
    /// lines [`Self::line`] would have counted the same way, and walks `lines` past them (and
    /// past a row of a new file that keeps rows, read as [`Self::line`] reads it). Returns
    /// whether the line after them is known not to continue the last row's file: it was
    /// compared with its path, which [`Self::line`] then need not do again.
    pub(super) fn count_run(&mut self, lines: &mut Lines<'_>, sure: &Sure, first: u64) -> bool {
        if self.prefix != Prefix::SearchShaped
            || self.fold_possible
            || self.held.is_some()
            || !self.run.is_empty()
            || !matches!(self.open, OpenLine::Dropped)
        {
            return false;
        }
        let (mut file, bare) = match (self.heading, self.last) {
            (Some(f), _) => (f, true),
            (None, Some(last)) => (last.file, false),
            (None, None) => return false,
        };
        if !self.table.counts_only(file) {
            return false;
        }
        let mut line_no = self.last.map_or(0, |last| last.line_no);
        let mut separated = self.last.is_some_and(|last| last.separated);
        // Rows and matches of `file` not yet counted in the table, and of the whole run.
        let (mut file_rows, mut file_matches) = (0u64, 0u64);
        let (mut rows, mut matches, mut diagnostics) = (0u64, 0u64, 0u64);
        let mut new_file = false;
        loop {
            // The parse reads on from the row's start, as far as it needs.
            let rest = lines.text().as_bytes();
            let row = if bare {
                parse_bare_row(rest)
            } else {
                let path = &self.table.entry(file).path;
                Previous {
                    path,
                    line_no,
                    separated,
                }
                .row_of(rest)
            };
            let (row, other_file) = match row {
                Some(row) => (row, None),
                None if bare => break,
                None => {
                    new_file = true;
                    let Some((len, hashed)) = sure_path(sure, lines.no() - first) else {
                        break;
                    };
                    // A sure path is followed by its row.
                    let Some(row) = row_after(rest, len) else {
                        break;
                    };
                    (row, Some((len, hashed)))
                }
            };
            let Some(line) = lines.next_if(|l| l.terminated) else {
                break;
            };
            if let Some((len, hashed)) = other_file {
                new_file = false;
                self.table
                    .count_rows(file, file_matches, file_rows - file_matches);
                (file_rows, file_matches) = (0, 0);
                // The fold is out of reach, so a new file grows nothing.
                let next = self.table.file(&line.text[..len], Some(hashed));
                if !self.table.counts_only(next) {
                    self.end_run(file, line_no, rows, matches, diagnostics);
                    self.nonempty_lines += 1;
                    self.after_blank = false;
                    self.row(next, line.text, row, line.no, true, false);
                    return false;
                }
                file = next;
            }
            // `text_start <= line.text.len()`: the digits and their separator are not `'\n'`.
            file_rows += 1;
            rows += 1;
            if row.is_match {
                file_matches += 1;
                matches += 1;
                let text = &line.text.as_bytes()[row.text_start..];
                diagnostics += u64::from(is_diagnostic_after_number(text));
            }
            line_no = row.line_no;
            separated = false;
        }
        self.table
            .count_rows(file, file_matches, file_rows - file_matches);
        self.end_run(file, line_no, rows, matches, diagnostics);
        new_file
    }

    /// Counts a run of `rows` rows, `matches` of them matches, whose last was line `line_no`
    /// of `file` (the table counted them already).
    fn end_run(&mut self, file: usize, line_no: u64, rows: u64, matches: u64, diagnostics: u64) {
        if rows > 0 {
            self.last = Some(LastRow {
                file,
                line_no,
                separated: false,
            });
            self.search_lines += rows;
            self.nonempty_lines += rows;
            self.diagnostic_rows += diagnostics;
            self.context_mode |= rows > matches;
            self.after_blank = false;
        }
    }
}
