//! Lines whose reading waits for the line after them.
//!
//! A row like `a-1-b:2:x` is a match of `a-1-b` or a context row of `a`, and a line may be a
//! `--heading` path that only a bare row after it confirms. The planner holds such a line
//! until the next one decides, and context rows that another context row continues wait, as a
//! bounded run, for a match that proves them rows of their file.

use super::SearchPlanner;
use super::row::{
    Choice, Continued, RowParse, continued_reading, has_extension, inside_time, parse_path_row,
};

/// A whole line whose reading the line after it decides: a row whose path is not sure
/// (`a-1-b:2:x` is a match of `a-1-b` or a context row of `a`), or a line that may be a
/// `--heading` path, which only a bare row after it confirms.
#[derive(Debug)]
pub(super) struct Held {
    pub(super) text: String,
    input_line: u64,
    terminated: bool,
    /// How it reads as a path row, if it does.
    choice: Option<Choice>,
    pub(super) may_be_heading: bool,
    files_before: usize,
}

/// A held line read as a context row of a file that the line after it continues with another
/// context row: it waits for a match of that file ([`Continued::awaits_match`]).
#[derive(Debug)]
pub(super) struct Unproven {
    held: Held,
    /// Its context row of the file.
    row: RowParse,
}

/// Lines of a run of context rows waiting for its match, at most: a run this long (`-C 128`)
/// is read line by line as if no match came.
const MAX_RUN_LINES: usize = 128;
/// Bytes of a run of context rows waiting for its match, at most.
const MAX_RUN_BYTES: usize = 256 << 10;

impl SearchPlanner {
    /// Whether a bare row (`line`, a match when `bare_match`) after a line that may be a
    /// `--heading` path confirms it. `2024-01-02/x.c:3:y` reads as a bare row `2024-` too, but
    /// a sure path row wins; so does a row that continues the held line
    /// (`2024-01-02/a b/x.c:2:y` after `2024-01-02/a b/x.c:1:z`): both are rows of one file,
    /// not a heading and a row. A sure context row does not beat a bare match: `7:.a-3-a` is
    /// line 7 of the heading's file sooner than line 3 of a file `7:.a`, printed with no match.
    /// Nor does a path that starts with the bare match's own `N:`: `8:a0.0a:7:` is line 8 of
    /// the heading's file sooner than line 7 of a file `8:a0.0a`. When the held line reads as a
    /// match row of a file with an extension (`a-12-b.py:2:x`), or of any file whose line number
    /// is not part of a time (`src/0Makefile:4:x`, but not `logs/10:15:30`), any path reading of
    /// `line` wins: two rows of plain grep output are likelier than a heading with `:4:` in its
    /// name over a bare row whose text reads as a path row (`110:00:01.log:4:x`).
    pub(super) fn confirms_heading(&self, held: &Held, line: &str, bare: RowParse) -> bool {
        let held_matches = held.choice.and_then(|c| c.first_match).is_some_and(|m| {
            has_extension(&held.text[..m.path_len]) || !inside_time(held.text.as_bytes(), &m)
        });
        let beats_bare = |path: RowParse| {
            held_matches
                || path.certain
                    && (!bare.is_match || (path.is_match && path.path_len < bare.text_start))
        };
        !parse_path_row(line, self.previous(), None).is_some_and(|choice| beats_bare(choice.best))
            && continued_reading(&held.text, line).is_none()
    }

    pub(super) fn hold(
        &mut self,
        line: &str,
        input_line: u64,
        terminated: bool,
        choice: Option<Choice>,
        may_be_heading: bool,
    ) {
        self.heading = None;
        self.held = Some(Held {
            text: line.to_owned(),
            input_line,
            terminated,
            choice,
            may_be_heading,
            files_before: self.table.files.len(),
        });
    }

    /// Reads the held line, if any, now that the line after it is known: `next`, or `None` at
    /// a blank line, a `--` or the end. It is the reading `next` continues, else the one it has
    /// alone ([`Choice::alone`]), else a line that is not a search row. A context row continued
    /// by another context row waits in the run for a match of its file.
    pub(super) fn release(&mut self, next: Option<&str>) {
        let Some(held) = self.held.take() else {
            return;
        };
        let Some(continued) = next.and_then(|next| continued_reading(&held.text, next)) else {
            self.settle_run(false);
            self.read_alone(&held);
            return;
        };
        let run_file = self.run.first().map(|r| r.row.path_len);
        let same_file = run_file == Some(continued.row.path_len);
        if continued.awaits_match {
            let fits =
                self.run.len() < MAX_RUN_LINES && self.run_bytes + held.text.len() <= MAX_RUN_BYTES;
            if !same_file || !fits {
                self.settle_run(false);
            }
            if self.run_bytes + held.text.len() <= MAX_RUN_BYTES {
                self.run_bytes += held.text.len();
                self.run.push(Unproven {
                    held,
                    row: continued.row,
                });
            } else {
                self.read_alone(&held);
            }
            return;
        }
        // `next` is a match of the run's file, or the held reading is a match: no run waits.
        self.settle_run(same_file);
        let Continued { row, .. } = continued;
        self.held_row(&held, row);
    }

    /// Reads a held line as the path row `row`.
    fn held_row(&mut self, held: &Held, row: RowParse) {
        self.path_row(
            &held.text,
            row,
            held.input_line,
            held.terminated,
            false,
            None,
        );
    }

    /// Reads a held line that no line after it decides ([`Choice::alone`]).
    fn read_alone(&mut self, held: &Held) {
        match held.choice.and_then(|c| c.alone(held.may_be_heading)) {
            Some(row) => self.held_row(held, row),
            None => {
                self.other(
                    &held.text,
                    held.input_line,
                    held.terminated,
                    held.files_before,
                );
            }
        }
    }

    /// Reads the lines waiting in the run, in order: as context rows of their file when a match
    /// of it came (`proven`), else each as if alone.
    pub(super) fn settle_run(&mut self, proven: bool) {
        if self.run.is_empty() {
            return;
        }
        self.run_bytes = 0;
        for Unproven { held, row } in std::mem::take(&mut self.run) {
            if proven {
                self.held_row(&held, row);
            } else {
                self.read_alone(&held);
            }
        }
    }
}
