//! The diff planner: a unified diff (`git diff`, `git show`, `git log -p`, `diff -u`) that does
//! not fit stays a patch an agent can read: every file header and hunk header is kept, and
//! the changed lines before the context around them.
//!
//! An agent reads a diff to learn which files changed and where, then which lines. A blind cut
//! loses the headers that say where the kept lines belong (`diff --git`, `---`/`+++`, `@@`),
//! and what it keeps is no longer a patch. This planner keeps every line outside a hunk's body
//! (file headers, hunk headers with their exact line ranges and counts, commit headers and
//! messages of `git log -p`, binary and rename notes), then the hunks' runs of changed lines
//! (`+`, `-`), first to last, each that fits in what is left, then the runs of context around
//! them, then the first lines of runs of changes too long to show whole (their removed lines
//! and the added ones after them, four at a time, each such run in turn); what it cannot show
//! is one exact gap ([`crate::gapped`]). A hunk's end is found from
//! its header's counts, so a removed line that starts with `--` is never taken for a file
//! header.
//!
//! A commit log without patches (`git log`, `--stat`, `--oneline`) is planned the same way,
//! as a diff of commits and no files: each commit's name and subject, the rest of each while
//! it fits ([`LogForm`]).

mod choose;
mod kind;

use crate::gapped::{self, Frame, WholeLines};
use crate::plan::{Plan, Shape};
use crate::planner::{Context, Planner};
use crate::sink::{Block, Sink};
use crate::text::char_count;
use choose::Item;
use kind::{Counts, Reader};

/// Below this budget a diff is clipped.
const MIN_BUDGET: u64 = 400;
/// A run of a hunk's body is kept in chunks of this many lines: a plan shows a run whole
/// where it can, else as many of its first chunks as fit.
const CHUNK_LINES: u64 = 4;

/// Watches an output for a unified diff, keeping its headers (up to four times the room) and
/// its hunk bodies (their changed lines up to twice the room, and their context as much).
///
/// Past four times the room no plan shows every header, so from there on only the names (and
/// subjects) that could still all fit in the room are kept, and every other line is counted,
/// not stored, in the gap it falls in: a `git log -p` of any length still gets its names from
/// the first on and exact counts of the rest, in memory bounded by the room.
#[derive(Debug)]
pub struct DiffPlanner {
    room: u64,
    items: Vec<Item>,
    /// Characters of the header lines read; past four times the room the planner stops
    /// keeping what only steps 1 to 3 show.
    headers: u64,
    /// Characters of the `Name` lines read, and of the `Name` and `Subject` lines: while one
    /// is within the room, step 5 (names) or 4 (names and subjects) may still fit.
    names: u64,
    names_and_subjects: u64,
    /// Characters kept of the hunk bodies' context lines, and of their changed lines: of
    /// each, none after twice the room, so that context never crowds out changes.
    stored: [u64; 2],
    /// Old and new lines the open hunk still has to show.
    open: Option<(u64, u64)>,
    hunks: u64,
    file_headers: u64,
    body_lines: u64,
    /// Whether the last line of a hunk's body read was a removed one.
    last_removed: bool,
    /// Whether the run being read has shown an added line after removed ones.
    side_opened: bool,
    /// Characters kept of the run's side (its removed or its added lines) being read.
    side_stored: u64,
    reader: Reader,
    /// Which commit log the lines read may be.
    log: LogForm,
    /// Not a patch by its first lines, or a line too long to be in a patch.
    declined: bool,
}

/// Which commit log without patches the lines read so far may be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum LogForm {
    /// `git log`: the first line names a commit, and every line may be a commit log's
    /// ([`in_commit_log`]).
    Full,
    /// `git log --oneline`: every line is a hash and a subject ([`one_line_commit`]);
    /// `letters` once some hash holds a letter (a column of numbers followed by words, as
    /// `wc` prints, is no list of hashes).
    OneLine { letters: bool },
    /// No commit log.
    No,
}

/// Whether `text` names a commit as `git log` does: `commit HASH`, and perhaps its refs.
fn names_commit(text: &str) -> bool {
    let Some(rest) = text.strip_prefix("commit ") else {
        return false;
    };
    let hex = rest.bytes().take_while(u8::is_ascii_hexdigit).count();
    hex >= 7 && matches!(rest.as_bytes().get(hex), None | Some(b' '))
}

/// Whether `text` is a commit as `git log --oneline` prints one: an abbreviated hash (7 to
/// 12 hex digits, as git abbreviates them, or all 40), one space and a subject. Not a
/// checksum's line (`md5sum` puts two spaces or ` *` before the path), nor a blame's.
fn one_line_commit(text: &str) -> bool {
    let hex = text.bytes().take_while(u8::is_ascii_hexdigit).count();
    let subject = text.get(hex + 1..).unwrap_or("");
    ((7..=12).contains(&hex) || hex == 40)
        && text.as_bytes().get(hex) == Some(&b' ')
        && !subject.is_empty()
        && !subject.starts_with([' ', '*'])
        && !blames(subject)
}

/// Whether `rest`, what follows a hash and a space, is the rest of a `git blame` line: the
/// line's number closes its first parenthesis, after the author and a date (`(A U Thor
/// 2024-01-01 12:00:00 +0000  12) code`, perhaps after the path where `-C` found the line),
/// or alone with `-s` (` 12) code`). A subject that opens with a parenthesis holds no date.
fn blames(rest: &str) -> bool {
    let rest = rest.trim_start_matches(' ').as_bytes();
    let number_closes = |inside: &[u8]| {
        let digits = inside
            .iter()
            .rev()
            .take_while(|b| b.is_ascii_digit())
            .count();
        digits > 0 && (digits == inside.len() || inside[inside.len() - digits - 1] == b' ')
    };
    let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
    if digits > 0 && rest.get(digits) == Some(&b')') {
        return true;
    }
    // Only the first bytes are looked at: a subject's parenthesis further on is no blame's.
    let open = if rest.first() == Some(&b'(') {
        0
    } else {
        let word = rest.iter().take_while(|&&b| b != b' ').count();
        let spaces = rest[word..].iter().take_while(|&&b| b == b' ').count();
        if spaces == 0 || rest.get(word + spaces) != Some(&b'(') {
            return false;
        }
        word + spaces
    };
    let group = &rest[open + 1..];
    memchr::memchr(b')', group).is_some_and(|close| {
        let inside = &group[..close];
        number_closes(inside)
            && inside.windows(10).any(|w| {
                w.iter().enumerate().all(|(i, b)| match i {
                    4 | 7 => *b == b'-',
                    _ => b.is_ascii_digit(),
                })
            })
    })
}

/// Whether `text` may be a line of a commit log after its first line: a commit's name, a
/// header field (`Author: `, `Date: `, `Merge: `), its indented message or `--stat` lines, a
/// blank line.
fn in_commit_log(text: &str) -> bool {
    // Most lines of a log are its indented messages: they are looked at first.
    if text.is_empty() || text.starts_with([' ', '\t']) || names_commit(text) {
        return true;
    }
    let name = text
        .bytes()
        .take_while(|&b| b.is_ascii_alphanumeric() || b == b'-')
        .count();
    name > 0
        && text.as_bytes()[0].is_ascii_uppercase()
        && text.as_bytes().get(name) == Some(&b':')
        && matches!(text.as_bytes().get(name + 1), None | Some(b' '))
}

/// The old and new line counts of a hunk header, `@@ -a[,b] +c[,d] @@ ...`.
pub(crate) fn hunk_counts(line: &str) -> Option<(u64, u64)> {
    let rest = line.strip_prefix("@@ -")?;
    let (old, rest) = rest.split_once(" +")?;
    let (new, _) = rest.split_once(" @@")?;
    let count = |range: &str| -> Option<u64> {
        match range.split_once(',') {
            Some((start, count)) => {
                start.parse::<u64>().ok()?;
                count.parse().ok()
            }
            None => range.parse::<u64>().ok().map(|_| 1),
        }
    };
    Some((count(old)?, count(new)?))
}

impl WholeLines for DiffPlanner {
    fn declined(&self) -> bool {
        self.declined
    }

    fn decline(&mut self) {
        self.declined = true;
    }

    fn line(&mut self, no: u64, text: &str) {
        if no == 1 {
            self.log = if one_line_commit(text) {
                LogForm::OneLine { letters: false }
            } else if names_commit(text) {
                LogForm::Full
            } else {
                LogForm::No
            };
        }
        if no == gapped::JUDGE_AFTER
            && !self.commit_log()
            && (self.hunks == 0 || self.body_lines * 2 < no)
        {
            self.declined = true;
            return;
        }
        if let Some((old, new)) = self.open {
            let left = match text.as_bytes().first() {
                Some(b' ') | None => Some((old.checked_sub(1), new.checked_sub(1))),
                Some(b'-') => Some((old.checked_sub(1), Some(new))),
                Some(b'+') => Some((Some(old), new.checked_sub(1))),
                Some(b'\\') => Some((Some(old), Some(new))),
                _ => None,
            };
            if let Some((Some(old), Some(new))) = left {
                self.body_line(no, text);
                self.open = (old + new > 0).then_some((old, new));
                return;
            }
            // A hunk cut short: the line is read afresh.
            self.open = None;
        }
        let (kind, counts) = if let Some(lines) = hunk_counts(text) {
            self.hunks += 1;
            self.open = (lines.0 + lines.1 > 0).then_some(lines);
            self.reader.hunk();
            let hunk = Counts {
                hunks: 1,
                ..Counts::default()
            };
            (kind::Kind::Hunk, hunk)
        } else if matches!(self.log, LogForm::OneLine { .. }) && one_line_commit(text) {
            if text
                .bytes()
                .take_while(|b| *b != b' ')
                .any(|b| b.is_ascii_alphabetic())
            {
                self.log = LogForm::OneLine { letters: true };
            }
            let commit = Counts {
                commits: 1,
                ..Counts::default()
            };
            (kind::Kind::Name, commit)
        } else {
            if matches!(self.log, LogForm::OneLine { .. })
                || (self.log == LogForm::Full && !in_commit_log(text))
            {
                self.log = LogForm::No;
            }
            if text.starts_with("diff --git ") || text.starts_with("+++ ") {
                self.file_headers += 1;
            }
            self.reader.header(text)
        };
        // Past the bound only names and subjects may still be kept: no other line's length
        // matters any more (the bound, once passed, stays passed).
        let chars = if self.past_bound() && !kind.kept_at(4) {
            0
        } else {
            char_count(text) + 1
        };
        self.headers += chars;
        if kind == kind::Kind::Name {
            self.names += chars;
        }
        if kind.kept_at(4) {
            self.names_and_subjects += chars;
        }
        let kept = !self.past_bound()
            || match kind {
                kind::Kind::Name => self.names <= self.room,
                kind::Kind::Subject => self.names_and_subjects <= self.room,
                _ => false,
            };
        if kept {
            self.items.push(Item::Header {
                no,
                text: text.to_owned(),
                kind,
                counts,
            });
        } else {
            self.count(no, counts);
        }
    }
}

impl DiffPlanner {
    /// Whether the output is a commit log without patches (`git log`, `git log --stat`).
    fn commit_log(&self) -> bool {
        matches!(self.log, LogForm::Full | LogForm::OneLine { letters: true })
            && self.hunks == 0
            && self.file_headers == 0
    }

    /// Whether the headers read are past what is kept of them (see [`DiffPlanner`]).
    fn past_bound(&self) -> bool {
        self.headers > self.room.saturating_mul(4)
    }

    /// The first step whose every line is kept: 1 within the bound, else 4, 5, or 6 (the
    /// names from the first on, as many as fit) as the names and subjects, the names, or
    /// neither fit in the room.
    fn first_step(&self) -> u8 {
        if !self.past_bound() {
            1
        } else if self.names_and_subjects <= self.room {
            4
        } else if self.names <= self.room {
            5
        } else {
            6
        }
    }

    /// Counts line `no`, which no plan shows, in the gap it falls in.
    fn count(&mut self, no: u64, line: Counts) {
        if let Some(Item::Counted { last, counts, .. }) = self.items.last_mut() {
            if *last + 1 == no {
                *last = no;
                *counts = *counts + line;
                return;
            }
        }
        self.items.push(Item::Counted {
            first: no,
            last: no,
            counts: line,
        });
    }

    fn body_line(&mut self, no: u64, text: &str) {
        self.body_lines += 1;
        let line = Counts {
            body_lines: 1,
            plus: u64::from(text.starts_with('+')),
            minus: u64::from(text.starts_with('-')),
            ..Counts::default()
        };
        if self.past_bound() {
            self.count(no, line);
            return;
        }
        let chars = char_count(text) + 1;
        // `\ No newline at end of file` belongs to the line before it.
        let changes = match text.as_bytes().first() {
            Some(b'+' | b'-') => Some(true),
            Some(b'\\') => None,
            _ => Some(false),
        };
        let run = match self.items.last() {
            Some(Item::Body {
                last,
                changes: run_changes,
                ..
            }) if *last + 1 == no => Some(*run_changes),
            _ => None,
        };
        let joins = run.is_some_and(|r| changes.is_none_or(|c| c == r));
        // Once a run: a removed line and an added one in turn, as a diff made by hand may
        // print them, is one side.
        let adds_after_removals =
            joins && self.last_removed && !self.side_opened && text.starts_with('+');
        self.side_opened = (joins && self.side_opened) || adds_after_removals;
        self.last_removed = text.starts_with('-');
        // A kept run is read in chunks, so that a plan can show the first lines of a run too
        // long to show whole: of its removed lines and of the added lines after them.
        let chunk_full = adds_after_removals
            || matches!(
                self.items.last(),
                Some(Item::Body { first, last, text: Some(_), .. })
                    if *last + 1 - *first >= CHUNK_LINES
            );
        let kind = if joins {
            run.unwrap_or(false)
        } else {
            changes.unwrap_or(false)
        };
        if !joins || adds_after_removals {
            self.side_stored = 0;
        }
        // No side of a run keeps more than the room, which no plan could show more of: the
        // added lines after a long run of removed ones are kept too.
        let stored = &mut self.stored[usize::from(kind)];
        let fits =
            *stored + chars <= self.room.saturating_mul(2) && self.side_stored + chars <= self.room;
        if joins && !chunk_full {
            if let Some(Item::Body {
                last,
                text: body,
                chars: total,
                counts,
                ..
            }) = self.items.last_mut()
            {
                *last = no;
                *total += chars;
                *counts = *counts + line;
                match body {
                    Some(body) if fits => {
                        body.push_str(text);
                        body.push('\n');
                        *stored += chars;
                        self.side_stored += chars;
                    }
                    _ => *body = None,
                }
            }
            return;
        }
        if fits {
            *stored += chars;
            self.side_stored += chars;
        }
        self.items.push(Item::Body {
            first: no,
            last: no,
            text: fits.then(|| format!("{text}\n")),
            chars,
            counts: line,
            changes: kind,
            opens_hunk: run.is_none(),
            continues: joins,
            opens_side: joins && adds_after_removals,
        });
    }
}

impl Sink for DiffPlanner {
    type Lookahead = ();
    fn lookahead(&self) {}

    fn block(&mut self, block: &Block<'_>, (): ()) {
        gapped::feed(self, block);
    }
}

impl Planner for DiffPlanner {
    fn new(room: u64) -> Self {
        DiffPlanner {
            room,
            items: Vec::new(),
            headers: 0,
            names: 0,
            names_and_subjects: 0,
            stored: [0, 0],
            open: None,
            hunks: 0,
            file_headers: 0,
            body_lines: 0,
            last_removed: false,
            side_stored: 0,
            side_opened: false,
            log: LogForm::No,
            reader: Reader::default(),
            declined: false,
        }
    }

    fn plan(self, context: &Context<'_>) -> Option<Plan> {
        let budget = self.room;
        // Mostly hunk lines: a log that quotes a small patch is still a log.
        let patch =
            self.hunks > 0 && self.file_headers > 0 && self.body_lines * 2 >= context.totals.lines;
        let log = self.commit_log();
        if self.declined || budget < MIN_BUDGET || !(patch || log) {
            return None;
        }
        let frame = Frame::new(context, budget, Shape::Diff);
        choose::plan(&self.items, &frame, self.first_step(), log)
    }
}

#[cfg(test)]
mod tests;
