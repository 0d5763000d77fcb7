//! The diagnostics planner: a compiler's or linter's output that reports no failure the log
//! planner plans (warnings of `gcc`, `cargo build` or `cargo clippy`; ruff's findings, which
//! name no severity) keeps every diagnostic's header and place before any code frame.
//!
//! An agent runs a linter or a build to fix what it reports, so what it needs first is where
//! each diagnostic is and what it says; the code frame under it quotes a line the agent can
//! open. A blind cut of sixty warnings at 2,000 characters shows eleven and nothing of the rest.
//! This planner reads each diagnostic as its header (with the place line under it, where the
//! place is not in the header, see [`line`]) and its body (the code frame, notes and help,
//! up to a blank line or the next header), and shows, while they fit: the lines after the
//! last diagnostic (the tool's count and verdict); the header of the first diagnostic of each
//! kind (its message with names and numbers masked, [`kind`]); every other header, first to
//! last; then whole bodies, first to last; then the output's last and first lines. Every gap
//! is exact and its marker counts the diagnostics it holds (`[lines 20-50 omitted: 6
//! warnings]`), and the closing marker counts every line left out ([`crate::gapped`]).

mod kind;
pub mod line;
mod showing;

use std::collections::HashSet;

use crate::gapped::{self, Frame, WholeLines};
use crate::log::reading::class::Class;
use crate::log::reading::classify::classify;
use crate::plan::{Plan, Shape};
use crate::planner::{Context, Planner};
use crate::profile::ToolKind;
use crate::sink::{Block, Sink};
use crate::text::ansi::clean;
use crate::text::char_count;
use line::{Line, Severity};
use showing::Showing;

/// Below this budget the output is clipped.
const MIN_BUDGET: u64 = 400;
/// The lines after the last diagnostic take at most this part (1/n) of the room.
const TAIL_PART: u64 = 8;
/// Lines of a body kept: a longer body (a template error's candidates) shows its first ones.
const BODY_LINES: usize = 24;
/// Header line numbers kept for the gap markers' counts: past them, a gap that reaches beyond
/// the last one kept says no count.
const MAX_NUMBERS: usize = 1 << 16;

/// One diagnostic as stored: its lines from its header on, the header and place first.
#[derive(Debug)]
struct Diagnostic {
    no: u64,
    lines: Vec<String>,
    /// Lines of `lines` that are the header and its place.
    head: usize,
    /// Whether `lines` holds the whole body.
    whole: bool,
    /// The blank line after the body, as the output has it (spaces, a `'\r'`), when `whole`.
    blank_after: Option<String>,
    /// The first diagnostic of its kind.
    first_of_kind: bool,
}

impl Diagnostic {
    /// Its lines with their numbers.
    fn numbered(&self) -> impl Iterator<Item = (u64, &str)> {
        (self.no..).zip(self.lines.iter().map(String::as_str))
    }
}

/// Watches a shell's output for diagnostics, storing their headers up to twice the room and
/// their bodies up to the room; past that, only the first diagnostic of each new kind (at most
/// one per sixteen characters of the room) and every header's line number.
///
/// It plans twice in the registry's order: before the log planner (`FEW` false) an output
/// whose lines are half diagnostics or more; after it (`FEW` true), one of fewer, which no
/// planner before took (a build that succeeded with a few warnings among its commands), where
/// a clip would have shown the build's ends and not one warning.
#[derive(Debug)]
pub struct DiagnosticsPlanner<const FEW: bool> {
    room: u64,
    diagnostics: Vec<Diagnostic>,
    /// Characters of headers and of bodies stored.
    heads_stored: u64,
    bodies_stored: u64,
    kinds: HashSet<String>,
    /// The headers stored, each with its place.
    heads: HashSet<String>,
    /// Every header's line number and severity, up to [`MAX_NUMBERS`].
    numbers: Vec<(u64, Severity)>,
    /// Diagnostics read.
    count: u64,
    /// Lines that belong to a diagnostic: its header, place, body and the blank line after.
    lines_in: u64,
    /// A margin line that heads a diagnostic if the next line is its place.
    pending: Option<(u64, String, Severity)>,
    /// Whether the last diagnostic's body is still being read, and whether it is stored.
    open: bool,
    storing: bool,
    /// The last line of the last diagnostic read so far.
    last_end: u64,
    declined: bool,
}

impl<const FEW: bool> WholeLines for DiagnosticsPlanner<FEW> {
    fn declined(&self) -> bool {
        self.declined
    }

    fn decline(&mut self) {
        self.declined = true;
    }

    fn line(&mut self, no: u64, raw: &str) {
        // Diagnostics are most of a linter's output from its start: a large output of which
        // they are not a quarter is read no further; nor, after the log planner, one of which
        // they are half, which is no build with a few warnings (and the planner before it
        // reads the same lines).
        if no == gapped::JUDGE_AFTER && (self.lines_in * 4 < no || (FEW && self.lines_in * 2 >= no))
        {
            self.declined = true;
            return;
        }
        let text = clean(raw);
        let read = line::read(&text);
        if let Some((at, header, severity)) = self.pending.take() {
            if read == Line::Arrow && at + 1 == no {
                self.opens(at, &[&header, raw], severity, &clean(&header));
                return;
            }
            self.outside(&header);
        }
        match read {
            Line::Placed(severity, message) => {
                self.opens(no, &[raw], severity, message);
            }
            Line::Header(severity) => {
                self.close();
                self.pending = Some((no, raw.to_owned(), severity));
            }
            Line::Arrow | Line::Body => self.body(no, raw),
            Line::Blank => {
                if self.open {
                    self.lines_in += 1;
                    if let Some(last) = self.diagnostics.last_mut().filter(|_| self.storing) {
                        last.blank_after = last.whole.then(|| raw.to_owned());
                    }
                }
                self.close();
            }
            Line::Other => {
                self.close();
                self.outside(raw);
            }
        }
    }
}

impl<const FEW: bool> DiagnosticsPlanner<FEW> {
    /// Opens the diagnostic whose header is line `no`, of `head` (the header, and the place
    /// under it), saying `message` (the kind is read from it).
    fn opens(&mut self, no: u64, head: &[&str], severity: Severity, message: &str) {
        // A failing build is the log planner's: nothing more is read. Nor, after it, is a
        // program's output with a few of Python's warnings in it, most often from a library it
        // imports: what the program printed is what its caller reads.
        if severity == Severity::Error || (FEW && line::runtime_warning(message)) {
            self.declined = true;
            return;
        }
        self.count += 1;
        self.lines_in += head.len() as u64;
        if self.numbers.len() < MAX_NUMBERS {
            self.numbers.push((no, severity));
        }
        self.last_end = no + head.len() as u64 - 1;
        self.open = true;
        self.storing = false;
        let chars: u64 = head.iter().map(|l| char_count(l) + 1).sum();
        let fits = self.heads_stored + chars <= 2 * self.room;
        let kinds_room = (self.kinds.len() as u64) < self.room / 16;
        if !fits && !kinds_room {
            return;
        }
        let key = kind::of(message);
        let new_kind = !self.kinds.contains(&key);
        // The same diagnostic at the same place again (a warning printed on every call) is
        // stored once: the gap markers count the rest.
        let joined = head.join("\n");
        let within = fits && !self.heads.contains(&joined);
        if new_kind && kinds_room {
            self.kinds.insert(key);
        }
        // Past the room for every header, the first of each kind is still stored, alone.
        self.storing = within || (new_kind && kinds_room);
        if self.storing {
            self.heads.insert(joined);
            self.heads_stored += chars;
            self.diagnostics.push(Diagnostic {
                no,
                lines: head.iter().map(|&l| l.to_owned()).collect(),
                head: head.len(),
                whole: within,
                blank_after: None,
                first_of_kind: new_kind,
            });
        }
    }

    /// Ends the open diagnostic's body.
    fn close(&mut self) {
        self.open = false;
        self.storing = false;
    }

    /// Reads `raw`, a margin line in no diagnostic: a failure the log planner reports (a
    /// traceback, a failing test, `make: *** [all] Error 2`), and not a tool's count of what it
    /// reported, leaves the whole output to it.
    fn outside(&mut self, raw: &str) {
        if classify(raw) == Class::Error && !line::counts_errors(&clean(raw)) {
            self.declined = true;
        }
    }

    /// Line `no` of the open diagnostic's body, if one is open.
    fn body(&mut self, no: u64, raw: &str) {
        if !self.open {
            return;
        }
        self.lines_in += 1;
        self.last_end = no;
        let Some(last) = self.diagnostics.last_mut().filter(|_| self.storing) else {
            return;
        };
        let chars = char_count(raw) + 1;
        if last.whole
            && last.lines.len() - last.head < BODY_LINES
            && self.bodies_stored + chars <= self.room
        {
            self.bodies_stored += chars;
            last.lines.push(raw.to_owned());
        } else {
            last.whole = false;
            self.storing = false;
        }
    }
}

impl<const FEW: bool> Sink for DiagnosticsPlanner<FEW> {
    type Lookahead = ();
    fn lookahead(&self) {}

    fn block(&mut self, block: &Block<'_>, (): ()) {
        gapped::feed(self, block);
    }
}

impl<const FEW: bool> Planner for DiagnosticsPlanner<FEW> {
    fn serves(kind: ToolKind) -> bool {
        matches!(
            kind,
            ToolKind::Shell | ToolKind::ShellSearch | ToolKind::Other
        )
    }

    fn new(room: u64) -> Self {
        DiagnosticsPlanner {
            room,
            diagnostics: Vec::new(),
            heads_stored: 0,
            bodies_stored: 0,
            kinds: HashSet::new(),
            heads: HashSet::new(),
            numbers: Vec::new(),
            count: 0,
            lines_in: 0,
            pending: None,
            open: false,
            storing: false,
            last_end: 0,
            declined: false,
        }
    }

    fn plan(self, context: &Context<'_>) -> Option<Plan> {
        let total = context.totals.lines;
        // Output with a few warnings in it is the log planner's, if it is a log.
        if self.declined
            || self.room < MIN_BUDGET
            || self.diagnostics.is_empty()
            || (!FEW && self.lines_in * 2 < total)
        {
            return None;
        }
        let frame = Frame::new(context, self.room, Shape::Diagnostics);
        let complete = self.count == self.numbers.len() as u64;
        let mut showing = Showing::new(&frame, &self.numbers, complete);
        let tail: Vec<&str> = gapped::tail_lines(context.window.last_chars(), self.room)
            .split_terminator('\n')
            .collect();
        let first_tail = total + 1 - tail.len() as u64;
        // The tool's own count and verdict after the last diagnostic.
        let mut after = Vec::new();
        let mut chars = 0;
        for (i, &text) in tail.iter().enumerate().rev() {
            let no = first_tail + i as u64;
            chars += char_count(text) + 1;
            if no <= self.last_end || chars > self.room / TAIL_PART {
                break;
            }
            after.push((no, text));
        }
        showing.try_add(after);
        for d in self.diagnostics.iter().filter(|d| d.first_of_kind) {
            showing.try_add(d.numbered().take(d.head));
        }
        for d in &self.diagnostics {
            if !showing.shows(d.no) && !showing.try_add(d.numbered().take(d.head)) {
                break;
            }
        }
        // A body cut short would show a code frame's first lines, which say nothing alone.
        for d in &self.diagnostics {
            if d.whole && showing.shows(d.no) {
                let after = d.no + d.lines.len() as u64;
                let blank = d.blank_after.as_deref().map(|text| (after, text));
                showing.try_add(d.numbered().skip(d.head).chain(blank));
            }
        }
        showing.fill(&context.window.head, &tail, first_tail);
        showing.plan()
    }
}

#[cfg(test)]
mod tests;
