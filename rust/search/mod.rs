//! The search planner: grep and ripgrep floods become a complete, exact map of matching files.
//!
//! An agent greps to decide which files to open next, so the map (which files matched, how
//! often) is worth more than the text of match number 1,400. This planner watches the engine's
//! single pass, sorts every line into match rows, context rows, headings, separators and other
//! lines ([`line`]), and keeps a bounded per-file table ([`table`]). At `finish` it declines
//! unless the output is clearly search-shaped ([`SearchPlanner::is_search_shaped`]); otherwise
//! [`plan`] folds, groups or rolls the table up to fit the budget, with exact counts.

mod ahead;
pub mod line;
mod masks;
mod path;
pub mod plan;
mod rollup;
pub mod table;

use std::sync::atomic::Ordering;

use crate::lines::Lines;
use crate::plan::Plan;
use crate::planner::{Context, Planner};
use crate::sink::{Block, Sink};
use crate::text::char_count;
use ahead::{Sure, SurePaths, sure_path};
use line::{
    Continued, Previous, RowParse, continued_reading, is_diagnostic_after_number,
    looks_like_heading, parse_bare_row, parse_path_row, row_after,
};
use path::Choice;
use table::{FileTable, Hashed, Other, Row, SPILLED, shown_part};

/// Lines that must parse as search output before the planner believes it.
pub const MIN_SEARCH_LINES: u64 = 20;
/// The share of non-empty lines (in percent) that must parse as search output.
pub const MIN_SEARCH_PERCENT: u64 = 75;

/// Non-empty lines after which the planner judges the output so far, and stops reading it if it
/// is not search-shaped. Search output is homogeneous (a tool prints row after row), so a prefix
/// of this many lines that is not search output means the whole is not, and the rest of a large
/// log or file then costs this planner nothing.
pub const DECIDE_AFTER: u64 = 4096;

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

/// A whole line whose reading the line after it decides: a row whose path is not sure
/// (`a-1-b:2:x` is a match of `a-1-b` or a context row of `a`), or a line that may be a
/// `--heading` path, which only a bare row after it confirms.
#[derive(Debug)]
struct Held {
    text: String,
    input_line: u64,
    terminated: bool,
    /// How it reads as a path row, if it does.
    choice: Option<Choice>,
    may_be_heading: bool,
    files_before: usize,
}

/// A held line read as a context row of a file that the line after it continues with another
/// context row: it waits for a match of that file ([`Continued::awaits_match`]).
#[derive(Debug)]
struct Unproven {
    held: Held,
    /// Its context row of the file.
    row: RowParse,
}

/// Lines of a run of context rows waiting for its match, at most: a run this long (`-C 128`)
/// is read line by line as if no match came.
const MAX_RUN_LINES: usize = 128;
/// Bytes of a run of context rows waiting for its match, at most.
const MAX_RUN_BYTES: usize = 256 << 10;

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
    /// Match rows whose text is a compiler or linter diagnostic
    /// ([`line::is_diagnostic_after_number`]).
    diagnostic_rows: u64,
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
            diagnostic_rows: 0,
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
    /// [`MIN_SEARCH_PERCENT`]% of the non-empty lines, and at most half of them are compiler or
    /// linter diagnostics (`path:12: error: ...` is a build log, which the log planner or the
    /// clip reads better: its summary and its rare messages matter more than a per-file map).
    /// An output whose first [`DECIDE_AFTER`] non-empty lines were not search-shaped is not.
    #[must_use]
    pub fn is_search_shaped(&self) -> bool {
        self.prefix != Prefix::Declined
            && self.search_lines >= MIN_SEARCH_LINES
            && self.shaped_so_far()
            && !self.table.files.is_empty()
    }

    fn shaped_so_far(&self) -> bool {
        self.search_lines * 100 >= self.nonempty_lines * MIN_SEARCH_PERCENT
            && self.diagnostic_rows * 2 <= self.search_lines
    }

    /// Judges the first [`DECIDE_AFTER`] non-empty lines; drops everything if they are not
    /// search output.
    fn decide(&mut self) {
        self.prefix = Prefix::SearchShaped;
        if !self.shaped_so_far() {
            self.prefix = Prefix::Declined;
            self.looks.declined.store(true, Ordering::Relaxed);
            self.table = FileTable::new(0);
            self.held = None;
            self.run = Vec::new();
            self.run_bytes = 0;
            self.last = None;
            self.heading = None;
        }
    }

    /// Counts the run of rows that `lines` go on with and that belong to files which keep no
    /// more rows (the bulk of a flood) without the general parse: each row needs only a compare
    /// of the known path, its line number, and the next `'\n'`; a row of another file, only
    /// its path as the look-ahead found it (`sure`, of the block whose first line is number
    /// `first`) and a look-up of that path by the hashes found with it. Handles exactly the
    /// lines [`Self::line`] would have counted the same way, and walks `lines` past them (and
    /// past a row of a new file that keeps rows, read as [`Self::line`] reads it). Returns
    /// whether the line after them is known not to continue the last row's file: it was
    /// compared with its path, which [`Self::line`] then need not do again.
    fn count_run(&mut self, lines: &mut Lines<'_>, sure: &Sure, first: u64) -> bool {
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
                    if self.confirms_heading(&held.text, line, row) {
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

    /// Whether a bare row (`line`, a match when `bare_match`) after a line that may be a
    /// `--heading` path confirms it. `2024-01-02/x.c:3:y` reads as a bare row `2024-` too, but
    /// a sure path row wins; so does a row that continues the held line
    /// (`2024-01-02/a b/x.c:2:y` after `2024-01-02/a b/x.c:1:z`): both are rows of one file,
    /// not a heading and a row. A sure context row does not beat a bare match: `7:.a-3-a` is
    /// line 7 of the heading's file sooner than line 3 of a file `7:.a`, printed with no match.
    /// Nor does a path that starts with the bare match's own `N:`: `8:a0.0a:7:` is line 8 of
    /// the heading's file sooner than line 7 of a file `8:a0.0a`.
    fn confirms_heading(&self, held: &str, line: &str, bare: RowParse) -> bool {
        let beats_bare = |path: RowParse| {
            path.certain && (!bare.is_match || (path.is_match && path.path_len < bare.text_start))
        };
        !parse_path_row(line, self.previous(), None).is_some_and(|choice| beats_bare(choice.best))
            && continued_reading(held, line).is_none()
    }

    /// The last row, which the next one may continue.
    fn previous(&self) -> Option<Previous<'_>> {
        self.last.map(|last| Previous {
            path: &self.table.entry(last.file).path,
            line_no: last.line_no,
            separated: last.separated,
        })
    }

    fn hold(
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
    fn release(&mut self, next: Option<&str>) {
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
    fn settle_run(&mut self, proven: bool) {
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

    /// Counts and keeps a line that is not a search row; returns where it is kept.
    fn other(
        &mut self,
        line: &str,
        input_line: u64,
        terminated: bool,
        files_before: usize,
    ) -> usize {
        let chars = char_count(line);
        self.grow_fold(chars + 1);
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
            context.budget.room(Self::DIGEST),
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
            if self.prefix == Prefix::Reading && self.nonempty_lines >= DECIDE_AFTER {
                self.decide();
            }
        }
    }
}

#[cfg(test)]
mod tests;
