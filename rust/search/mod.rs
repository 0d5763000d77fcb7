//! The search planner: grep and ripgrep floods become a complete, exact map of matching files.
//!
//! An agent greps to decide which files to open next, so the map (which files matched, how
//! often) is worth more than the text of match number 1,400. This planner watches the engine's
//! single pass, sorts every line into match rows, context rows, headings, separators and other
//! lines ([`row`]), and keeps a bounded per-file table ([`table`]). At `finish` it declines
//! unless the output is clearly search-shaped ([`SearchPlanner::is_search_shaped`]); otherwise
//! [`plan`] folds, groups or rolls the table up to fit the budget, with exact counts. A line
//! whose reading waits for the next one is held (`held.rs`); the bulk of a flood is counted by
//! a walk that skips the general parse (`run.rs`).

mod ahead;
mod closing;
mod hashing;
mod held;
pub mod plan;
mod rollup;
pub mod row;
mod run;
pub mod table;

use std::sync::atomic::Ordering;

use crate::plan::Plan;
use crate::planner::{Context, Planner};
use crate::sink::{Block, Sink};
use crate::text::char_count;
use ahead::{Sure, SurePaths, sure_path};
use hashing::Hashed;
use held::{Held, Unproven};
use row::{
    Previous, RowParse, is_diagnostic_after_number, looks_like_heading, parse_bare_row,
    parse_path_row,
};
use table::{FileTable, Other, Row, SPILLED, shown_part};

/// Lines that must parse as search output before the planner believes it.
pub const MIN_SEARCH_LINES: u64 = 20;
/// The share of non-empty lines (in percent) that must parse as search output.
pub const MIN_SEARCH_PERCENT: u64 = 75;

/// Non-empty lines after which the planner judges the output so far, and stops reading it if it
/// is not search-shaped. Search output is homogeneous (a tool prints row after row), so a prefix
/// of this many lines that is not search output means the whole is not, and the rest of a large
/// log or file then costs this planner nothing.
pub const DECIDE_AFTER: u64 = 4096;

/// Lines read as no search row, past which the judgement of the first [`DECIDE_AFTER`] lines
/// cannot be search-shaped, whatever the lines before it still to come: each non-empty line
/// is counted as a search line once at most, so then fewer than [`MIN_SEARCH_PERCENT`]% of
/// them can be. The planner stops there, a quarter of the way into a log or a file.
const NOT_SEARCH_AT_MOST: u64 = DECIDE_AFTER * (100 - MIN_SEARCH_PERCENT) / 100;

/// Where the rest of a line that arrives in pieces goes.
#[derive(Debug, Clone, Copy)]
enum OpenLine {
    /// Nothing kept: only the input totals need it, and the reader counts those.
    Dropped,
    Row {
        file: usize,
        row: usize,
    },
    Other(usize),
}

/// The last row read, which the next row may continue ([`Previous`]).
#[derive(Debug, Clone, Copy)]
struct LastRow {
    file: usize,
    line_no: u64,
    /// A `--` came after it.
    separated: bool,
}

/// The judgement of the output's first [`DECIDE_AFTER`] non-empty lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Prefix {
    Reading,
    SearchShaped,
    /// Not search output: nothing more is read.
    Declined,
}

#[derive(Debug)]
pub struct SearchPlanner {
    budget: u64,
    pub(crate) table: FileTable,
    /// Lines that parsed as rows or confirmed headings.
    search_lines: u64,
    /// Non-empty lines, `--` separators not included (they are neither prose nor rows).
    nonempty_lines: u64,
    /// Non-empty lines read as no search row (kept as [`Other`]s), which no later line makes
    /// rows: never more than `nonempty_lines - search_lines`.
    other_lines: u64,
    /// Match rows whose text is a compiler or linter diagnostic
    /// ([`row::is_diagnostic_after_number`]).
    diagnostic_rows: u64,
    /// Rows whose line number is not past the last row's of the same file
    /// ([`FileTable::in_order`]). A search tool prints a file's lines in order, each once (but
    /// for `-o`, one row per match, which repeats a line's number only for a line with
    /// several). A log whose every line starts with a date or a time reads as rows numbered
    /// 2024, or 10, over and over, of one file (under a first line that looks like a path) or
    /// of a few (an access log's `127.0.0.1 - - [15/Mar/2024:10:…`, a file per client).
    disordered_rows: u64,
    /// What the first [`DECIDE_AFTER`] non-empty lines said.
    prefix: Prefix,
    /// A `--` separator or a context row was seen, so gaps between rows get a `--`.
    pub(crate) context_mode: bool,
    /// The last row: its file is the first candidate for the next row's path.
    last: Option<LastRow>,
    /// The file whose `--heading` the bare rows below belong to.
    heading: Option<usize>,
    held: Option<Held>,
    /// Lines before the held one, each a context row of one file continued by the line after
    /// it, in order: they wait for a match of that file, which proves them its rows.
    run: Vec<Unproven>,
    /// Bytes of the lines in `run`.
    run_bytes: usize,
    after_blank: bool,
    open: OpenLine,
    /// A lower bound of the lossless fold's length; once over the budget, the fold is impossible.
    fold_floor: u64,
    pub(crate) fold_possible: bool,
    /// Shared with the look-ahead, which stops looking once the planner has declined.
    looks: SurePaths,
}

impl SearchPlanner {
    #[must_use]
    pub fn new(budget: u64) -> Self {
        SearchPlanner {
            budget,
            table: FileTable::new(budget),
            search_lines: 0,
            nonempty_lines: 0,
            other_lines: 0,
            diagnostic_rows: 0,
            disordered_rows: 0,
            prefix: Prefix::Reading,
            context_mode: false,
            last: None,
            heading: None,
            held: None,
            run: Vec::new(),
            run_bytes: 0,
            after_blank: true,
            open: OpenLine::Dropped,
            fold_floor: 0,
            fold_possible: true,
            looks: SurePaths::default(),
        }
    }

    /// At least [`MIN_SEARCH_LINES`] lines are search rows or headings, they are at least
    /// [`MIN_SEARCH_PERCENT`]% of the non-empty lines, at most half of them are compiler or
    /// linter diagnostics (`path:12: error: ...` is a build log, which the log planner or the
    /// clip reads better: its summary and its rare messages matter more than a per-file map),
    /// and at most half of them are out of order (see `disordered_rows`), and one of them at
    /// least is a match: a search tool prints context only around a match, while a table of
    /// comma-separated values with dates (`7,user,2024-01-02`) reads as context rows alone.
    /// An output whose first [`DECIDE_AFTER`] non-empty lines were not search-shaped is not.
    #[must_use]
    pub fn is_search_shaped(&self) -> bool {
        self.prefix != Prefix::Declined
            && self.search_lines >= MIN_SEARCH_LINES
            && self.shaped_so_far()
            && !self.table.files.is_empty()
            && self.table.matches > 0
    }

    fn shaped_so_far(&self) -> bool {
        self.search_lines * 100 >= self.nonempty_lines * MIN_SEARCH_PERCENT
            && self.diagnostic_rows * 2 <= self.search_lines
            && self.disordered_rows * 2 <= self.search_lines
    }

    /// Judges the first [`DECIDE_AFTER`] non-empty lines once they are read, or sooner once
    /// more than [`NOT_SEARCH_AT_MOST`] of them are not search rows, which decides the
    /// judgement already; drops everything if they are not search output.
    fn decide(&mut self) {
        debug_assert!(self.search_lines + self.other_lines <= self.nonempty_lines);
        if self.prefix != Prefix::Reading {
            return;
        }
        if self.other_lines > NOT_SEARCH_AT_MOST {
            self.decline();
        } else if self.nonempty_lines >= DECIDE_AFTER {
            self.prefix = Prefix::SearchShaped;
            if !self.shaped_so_far() {
                self.decline();
            }
        }
    }

    /// Stops reading: the output is not search output.
    fn decline(&mut self) {
        self.prefix = Prefix::Declined;
        self.looks.declined.store(true, Ordering::Relaxed);
        self.table = FileTable::new(0);
        self.held = None;
        self.run = Vec::new();
        self.run_bytes = 0;
        self.last = None;
        self.heading = None;
    }

    /// Reads the line still held; call once the input has ended.
    pub fn end(&mut self) {
        self.release(None);
    }

    /// Adds `chars` to the fold's lower bound and gives the fold up once it cannot fit.
    fn grow_fold(&mut self, chars: u64) {
        if !self.fold_possible {
            return;
        }
        self.fold_floor += chars;
        if self.fold_floor > self.budget {
            self.fold_possible = false;
            self.table.trim_to_shown();
        }
    }

    /// One whole line, or the first piece of a long one (`open`), without its `'\n'`; `sure`:
    /// the length of its sure path and the path's hashes, if the look-ahead found one;
    /// `new_file`: it is known not to continue the last row's file ([`Self::count_run`]).
    fn line(
        &mut self,
        line: &str,
        input_line: u64,
        terminated: bool,
        open: bool,
        sure: Option<(usize, Hashed)>,
        new_file: bool,
    ) {
        self.open = OpenLine::Dropped;
        let bare = line.strip_suffix('\r').unwrap_or(line);
        if bare.bytes().all(|b| b.is_ascii_whitespace()) {
            self.release(None);
            self.heading = None;
            self.after_blank = true;
            return;
        }
        if bare == "--" {
            self.release(None);
            self.context_mode = true;
            if let Some(last) = &mut self.last {
                last.separated = true;
            }
            return;
        }
        self.nonempty_lines += 1;
        let after_blank = std::mem::replace(&mut self.after_blank, false);
        if line.as_bytes()[0].is_ascii_digit() {
            if let Some(row) = parse_bare_row(line.as_bytes()) {
                if let Some(file) = self.heading {
                    self.row(file, line, row, input_line, terminated, open);
                    return;
                }
                if let Some(held) = self.held.take_if(|h| h.may_be_heading) {
                    if self.confirms_heading(&held, line, row) {
                        self.search_lines += 1;
                        self.grow_fold(char_count(&held.text) + 2);
                        let path = held.text.strip_suffix('\r').unwrap_or(&held.text);
                        let file = self.table.file(path, None);
                        self.heading = Some(file);
                        self.row(file, line, row, input_line, terminated, open);
                        return;
                    }
                    self.held = Some(held);
                }
            }
        }
        self.release(Some(line));
        let previous = if new_file { None } else { self.previous() };
        if let Some(choice) = parse_path_row(line, previous, sure.map(|s| s.0)) {
            if choice.best.certain {
                self.settle_run(false);
                // The hashes are of the sure path, which the row need not have.
                let hashed = sure.filter(|s| s.0 == choice.best.path_len).map(|s| s.1);
                self.path_row(line, choice.best, input_line, terminated, open, hashed);
            } else if open {
                // A line in pieces cannot wait for the next one.
                self.settle_run(false);
                let row = choice.alone(false).unwrap_or(choice.best);
                self.path_row(line, row, input_line, terminated, open, None);
            } else {
                // After a blank line, `lib/a-1-b/Makefile` may be a heading, not a row of `lib/a`.
                let may_be_heading =
                    after_blank && self.heading.is_none() && looks_like_heading(line);
                self.hold(line, input_line, terminated, Some(choice), may_be_heading);
            }
            return;
        }
        self.settle_run(false);
        if after_blank && self.heading.is_none() && !open && looks_like_heading(line) {
            self.hold(line, input_line, terminated, None, true);
            return;
        }
        self.heading = None;
        let files_before = self.table.files.len();
        let i = self.other(line, input_line, terminated, files_before);
        if open {
            self.open = OpenLine::Other(i);
        }
    }

    /// The last row, which the next one may continue.
    fn previous(&self) -> Option<Previous<'_>> {
        self.last.map(|last| Previous {
            path: &self.table.entry(last.file).path,
            line_no: last.line_no,
            separated: last.separated,
        })
    }

    /// Counts and keeps a line that is not a search row; returns where it is kept.
    fn other(
        &mut self,
        line: &str,
        input_line: u64,
        terminated: bool,
        files_before: usize,
    ) -> usize {
        self.other_lines += 1;
        let chars = char_count(line);
        self.grow_fold(chars + 1);
        // Cut here, before the copy, and only here: a line may be long.
        let kept = if self.fold_possible {
            line
        } else {
            shown_part(line)
        };
        let other = Other {
            text: kept.to_owned(),
            chars,
            input_line,
            input_chars: chars + u64::from(terminated),
            files_before,
        };
        self.table.other(other, self.fold_possible)
    }

    /// A `path:NN:text` or `path-NN-text` row; `hashed`: its path's hashes, when the
    /// look-ahead found them.
    fn path_row(
        &mut self,
        line: &str,
        row: RowParse,
        input_line: u64,
        terminated: bool,
        open: bool,
        hashed: Option<Hashed>,
    ) {
        self.heading = None;
        let path = &line[..row.path_len];
        let file = match self.last {
            Some(last) if row.is_current => last.file,
            _ => {
                let known = self.table.file_count();
                let i = self.table.file(path, hashed);
                if self.table.file_count() > known {
                    self.grow_fold(2);
                }
                i
            }
        };
        self.row(file, line, row, input_line, terminated, open);
    }

    fn row(
        &mut self,
        file: usize,
        line: &str,
        row: RowParse,
        input_line: u64,
        terminated: bool,
        open: bool,
    ) {
        self.search_lines += 1;
        if !self.table.in_order(file, row.line_no) {
            self.disordered_rows += 1;
        }
        self.last = Some(LastRow {
            file,
            line_no: row.line_no,
            separated: false,
        });
        self.context_mode |= !row.is_match;
        if row.is_match && is_diagnostic_after_number(&line.as_bytes()[row.text_start..]) {
            self.diagnostic_rows += 1;
        }
        self.table.count_row(file, row.is_match);
        // A file past the table's cap keeps no rows (the fold is out of reach long before).
        if file == SPILLED || (!self.fold_possible && !self.table.wants_row(file, row.is_match)) {
            return;
        }
        let text = &line[row.row_start..];
        let chars = char_count(text);
        self.grow_fold(chars + 1);
        // Growing may have given the fold up, and then only the rows a plan could show stay.
        if !self.fold_possible && !self.table.wants_row(file, row.is_match) {
            return;
        }
        let prefix_chars = if row.path_len == 0 {
            0
        } else {
            self.table.entry(file).path_chars + 1
        };
        let kept = Row {
            text: text.to_owned(),
            chars,
            line_no: row.line_no,
            is_match: row.is_match,
            input_line,
            input_chars: prefix_chars + chars + u64::from(terminated),
        };
        let i = self.table.keep_row(file, kept, self.fold_possible);
        if open {
            self.open = OpenLine::Row { file, row: i };
        }
    }

    /// More of a line that arrived in pieces.
    fn more_of_line(&mut self, piece: &str, terminated: bool) {
        let chars = char_count(piece);
        match self.open {
            OpenLine::Dropped => {}
            OpenLine::Other(i) => {
                self.grow_fold(chars);
                if let Some(other) = self.table.others.get_mut(i) {
                    if self.fold_possible {
                        other.text.push_str(piece);
                    }
                    other.chars += chars;
                    other.input_chars += chars + u64::from(terminated);
                }
            }
            OpenLine::Row { file, row } => {
                self.grow_fold(chars);
                if let Some(r) = self
                    .table
                    .files
                    .get_mut(file)
                    .and_then(|f| f.rows.get_mut(row))
                {
                    if self.fold_possible {
                        r.text.push_str(piece);
                    }
                    r.chars += chars;
                    r.input_chars += chars + u64::from(terminated);
                }
            }
        }
        if terminated {
            self.open = OpenLine::Dropped;
        }
    }
}

impl Planner for SearchPlanner {
    fn new(room: u64) -> Self {
        SearchPlanner::new(room)
    }

    fn plan(mut self, context: &Context<'_>) -> Option<Plan> {
        self.end();
        plan::plan(
            &self,
            &context.totals,
            self.budget,
            context.profile.way_back.as_ref(),
        )
    }
}

impl Sink for SearchPlanner {
    type Lookahead = SurePaths;
    fn lookahead(&self) -> SurePaths {
        self.looks.clone()
    }
    fn block(&mut self, block: &Block<'_>, sure: Sure) {
        if self.prefix == Prefix::Declined {
            return;
        }
        let (continuation, mut lines) = block.split();
        if let Some(piece) = continuation {
            self.more_of_line(piece.text, piece.terminated);
        }
        let first = lines.no();
        while self.prefix != Prefix::Declined {
            // After a run, the next line continues no file that keeps no rows: a second run
            // would be empty.
            let new_file = self.count_run(&mut lines, &sure, first);
            let Some(line) = lines.next() else {
                break;
            };
            let sure = sure_path(&sure, line.no - first);
            self.line(
                line.text,
                line.no,
                line.terminated,
                line.open,
                sure,
                new_file,
            );
            self.decide();
        }
    }
}

#[cfg(test)]
mod tests;
