//! The table planner: whitespace-aligned columns (`ls -l`, `ps aux`, `docker ps`, `kubectl
//! get`, `df`, `pip list`, `git status --porcelain`) keep their header, a count of their rows
//! by the column that groups them best, and whole rows chosen for what they show.
//!
//! An agent lists processes, pods or files to learn how many there are of each kind and which
//! ones stand out. A head and tail cut keeps the first and last rows and says nothing of the
//! rest. This planner judges from the first lines whether the output is a table
//! ([`layout`]), then counts every row by each leading column that has few values
//! ([`column`]): the column it groups by is one named for a state (`STATUS`, `STATE`,
//! `PHASE`), else the leftmost that groups well. The plan shows the head (title, header,
//! rule) always, then one marker with the exact count of rows of each value, then whole rows
//! in their order: the first row of each value, the outliers (every row of a rare value of any
//! column, the row with the largest number of each column of quantities, the lines that are
//! not rows), and as many first and last rows as fit ([`choose`]). A row is always the input's
//! line, so the columns stay aligned; what is not shown is exact gaps, and the closing marker
//! says how to read them back ([`crate::gapped`]).

mod choose;
mod column;
mod layout;
mod store;

use crate::gapped::{self, WholeLines};
use crate::plan::Plan;
use crate::planner::{Context, Planner};
use crate::profile::ToolKind;
use crate::sink::{Block, Sink};
use crate::text::char_count;
use column::Tally;
use layout::Layout;
use store::Picked;

#[cfg(any(test, feature = "fuzzing"))]
pub(crate) use choose::count_marker;

/// Lines the layout is judged from.
const SAMPLE_LINES: usize = 100;
/// Characters of the lines the layout is judged from, at most: the judgement comes earlier
/// when the lines are long.
const SAMPLE_CHARS: u64 = 128 << 10;

/// Watches an output for a table: judges its first lines, then counts its rows and keeps some
/// within the bounds of [`Picked`] and the tallies' caps; the first and last lines a plan shows
/// are the engine's window's.
#[derive(Debug)]
pub struct TablePlanner {
    room: u64,
    state: State,
}

#[derive(Debug)]
enum State {
    /// The first lines, read before the layout is judged.
    Sampling {
        lines: Vec<String>,
        chars: u64,
    },
    Reading(Box<Table>),
    /// Not a table, or lines no plan could show whole: the planner has stopped.
    Declined,
}

/// A table being read.
#[derive(Debug)]
struct Table {
    layout: Layout,
    /// The head's lines: lines `1..=head.len()`.
    head: Vec<String>,
    rows: u64,
    /// Lines after the head that are not rows, blank or not.
    others: u64,
    /// Of those, the ones that are not blank.
    filled_others: u64,
    /// One tally for each column rows may be grouped by.
    tallies: Vec<Tally>,
    picked: Picked,
    /// The picked lines that are not rows and not blank, in order.
    misfits: Vec<u64>,
}

impl Table {
    fn new(layout: Layout, room: u64) -> Self {
        let tallies = layout.names.iter().map(|_| Tally::new()).collect();
        Table {
            layout,
            head: Vec::new(),
            rows: 0,
            others: 0,
            filled_others: 0,
            tallies,
            picked: Picked::new(room),
            misfits: Vec::new(),
        }
    }

    /// Reads line `no`, after the head.
    fn line(&mut self, no: u64, text: &str) {
        if self.layout.is_row(text) {
            self.rows += 1;
            let mut first = false;
            let tallies = &mut self.tallies;
            self.layout.values(text, |i, value| {
                first |= tallies[i].add(no, value, text);
            });
            if first {
                self.picked.pick(no, text);
            }
        } else {
            self.others += 1;
            if !text.trim().is_empty() {
                self.filled_others += 1;
                if self.picked.pick(no, text) {
                    self.misfits.push(no);
                }
            }
        }
    }

    /// Whether the lines read are mostly rows, as a table's are.
    fn mostly_rows(&self) -> bool {
        self.filled_others * 3 <= self.rows
    }
}

impl TablePlanner {
    /// Judges the lines read so far, and reads them as the table's if they are one.
    fn judge(&mut self) {
        let State::Sampling { lines, .. } = &mut self.state else {
            return;
        };
        let lines = std::mem::take(lines);
        let Some(layout) = layout::judge(&lines) else {
            self.state = State::Declined;
            return;
        };
        let mut table = Table::new(layout, self.room);
        for (no, text) in (1..).zip(lines) {
            if no <= table.layout.head as u64 {
                table.head.push(text);
            } else {
                table.line(no, &text);
            }
        }
        self.state = State::Reading(Box::new(table));
    }
}

impl WholeLines for TablePlanner {
    fn declined(&self) -> bool {
        matches!(self.state, State::Declined)
    }

    fn decline(&mut self) {
        self.state = State::Declined;
    }

    fn line(&mut self, no: u64, text: &str) {
        match &mut self.state {
            State::Sampling { lines, chars } => {
                *chars += char_count(text) + 1;
                lines.push(text.to_owned());
                if lines.len() >= SAMPLE_LINES || *chars > SAMPLE_CHARS {
                    self.judge();
                }
            }
            State::Reading(table) => {
                if no == gapped::JUDGE_AFTER && !table.mostly_rows() {
                    self.state = State::Declined;
                    return;
                }
                table.line(no, text);
            }
            State::Declined => {}
        }
    }
}

impl Sink for TablePlanner {
    type Lookahead = ();
    fn lookahead(&self) {}

    fn block(&mut self, block: &Block<'_>, (): ()) {
        gapped::feed(self, block);
    }
}

impl Planner for TablePlanner {
    /// A file read keeps its lines' numbers and its definitions (the read planner); a table
    /// comes from a command.
    fn serves(kind: ToolKind) -> bool {
        !kind.reads_file()
    }

    fn new(room: u64) -> Self {
        TablePlanner {
            room,
            state: State::Sampling {
                lines: Vec::new(),
                chars: 0,
            },
        }
    }

    fn plan(mut self, context: &Context<'_>) -> Option<Plan> {
        self.judge();
        let State::Reading(table) = self.state else {
            return None;
        };
        if !table.mostly_rows() {
            return None;
        }
        choose::plan(&table, context, self.room)
    }
}

#[cfg(test)]
mod tests;
