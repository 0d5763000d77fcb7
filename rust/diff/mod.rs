//! The diff planner: a unified diff (`git diff`, `git show`, `git log -p`, `diff -u`) that does
//! not fit stays a patch an agent can read: every file header and hunk header is kept, and
//! whole hunks in order while they fit.
//!
//! An agent reads a diff to learn which files changed and where, then which lines. A blind cut
//! loses the headers that say where the kept lines belong (`diff --git`, `---`/`+++`, `@@`),
//! and what it keeps is no longer a patch. This planner keeps every line outside a hunk's body
//! (file headers, hunk headers with their exact line ranges and counts, commit headers and
//! messages of `git log -p`, binary and rename notes), then shows hunk bodies whole, first to
//! last, each that fits in what is left; a body it cannot show is one exact gap
//! ([`crate::gapped`]). A hunk's end is found from its header's counts, so a removed line that
//! starts with `--` is never taken for a file header.

use crate::gapped::{self, Frame, WholeLines};
use crate::plan::{LineRange, Plan, Shape};
use crate::planner::{Context, Planner};
use crate::sink::{Block, Sink};
use crate::text::char_count;

/// Below this budget a diff is clipped.
const MIN_BUDGET: u64 = 400;

/// A line outside any hunk body, or a hunk body.
#[derive(Debug)]
enum Item {
    Header(String),
    Body {
        first: u64,
        last: u64,
        /// The body's lines with their newlines; `None` once bodies passed the bound on what
        /// is kept, and then it is never shown.
        text: Option<String>,
        chars: u64,
    },
}

/// Watches an output for a unified diff, keeping its headers (up to four times the room) and
/// its hunk bodies (up to twice the room).
#[derive(Debug)]
pub struct DiffPlanner {
    room: u64,
    items: Vec<Item>,
    /// Characters of the headers kept; past four times the room no plan could show them all.
    headers: u64,
    /// Characters of the hunk bodies kept; none after twice the room.
    stored: u64,
    /// Old and new lines the open hunk still has to show.
    open: Option<(u64, u64)>,
    hunks: u64,
    file_headers: u64,
    body_lines: u64,
    /// Too much outside hunk bodies to keep, or a line too long to be in a patch.
    declined: bool,
}

/// The old and new line counts of a hunk header, `@@ -a[,b] +c[,d] @@ ...`.
fn hunk_counts(line: &str) -> Option<(u64, u64)> {
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
        if let Some(counts) = hunk_counts(text) {
            self.hunks += 1;
            self.open = (counts.0 + counts.1 > 0).then_some(counts);
        } else if text.starts_with("diff --git ") || text.starts_with("+++ ") {
            self.file_headers += 1;
        }
        self.headers += char_count(text) + 1;
        if self.headers > self.room.saturating_mul(4) {
            self.declined = true;
            return;
        }
        self.items.push(Item::Header(text.to_owned()));
    }
}

impl DiffPlanner {
    fn body_line(&mut self, no: u64, text: &str) {
        self.body_lines += 1;
        let chars = char_count(text) + 1;
        let fits = self.stored + chars <= self.room.saturating_mul(2);
        if let Some(Item::Body {
            last,
            text: body,
            chars: total,
            ..
        }) = self.items.last_mut()
        {
            if *last + 1 == no {
                *last = no;
                *total += chars;
                match body {
                    Some(body) if fits => {
                        body.push_str(text);
                        body.push('\n');
                        self.stored += chars;
                    }
                    _ => *body = None,
                }
                return;
            }
        }
        let body = fits.then(|| format!("{text}\n"));
        self.stored += if fits { chars } else { 0 };
        self.items.push(Item::Body {
            first: no,
            last: no,
            text: body,
            chars,
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
            stored: 0,
            open: None,
            hunks: 0,
            file_headers: 0,
            body_lines: 0,
            declined: false,
        }
    }

    fn plan(self, context: &Context<'_>) -> Option<Plan> {
        let budget = context.budget.room(Self::DIGEST);
        // Mostly hunk lines: a log that quotes a small patch is still a log.
        let patch =
            self.hunks > 0 && self.file_headers > 0 && self.body_lines * 2 >= context.totals.lines;
        if self.declined || budget < MIN_BUDGET || !patch {
            return None;
        }
        let frame = Frame::new(context, budget, Shape::Diff);
        let headers: u64 = self
            .items
            .iter()
            .map(|item| match item {
                Item::Header(text) => char_count(text) + 1,
                Item::Body { .. } => frame.gap_len,
            })
            .sum();
        let mut used = headers + frame.closing_len;
        if used > budget {
            return None;
        }
        // Whole bodies, first to last, each that fits in what is left.
        let shown: Vec<bool> = self
            .items
            .iter()
            .map(|item| match item {
                Item::Body {
                    text: Some(_),
                    chars,
                    ..
                } if used - frame.gap_len + chars <= budget => {
                    used = used - frame.gap_len + chars;
                    true
                }
                _ => false,
            })
            .collect();
        let mut omitted = Vec::new();
        let mut segments = vec![String::new()];
        for (item, shown) in self.items.iter().zip(shown) {
            match item {
                Item::Header(text) => {
                    let segment = segments.last_mut()?;
                    segment.push_str(text);
                    segment.push('\n');
                }
                Item::Body {
                    text: Some(text), ..
                } if shown => segments.last_mut()?.push_str(text),
                Item::Body { first, last, .. } => {
                    omitted.push(LineRange {
                        first: *first,
                        last: *last,
                    });
                    segments.push(String::new());
                }
            }
        }
        if !context.window.last_chars().ends_with('\n') {
            let last = segments.last_mut()?;
            if last.ends_with('\n') {
                last.pop();
            }
        }
        frame.plan(omitted, &segments)
    }
}

#[cfg(test)]
mod tests;
