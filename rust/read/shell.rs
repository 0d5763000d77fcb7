//! A shell's output that reads as source code, planned as a file read: a command printed a
//! file shapeclip was not told of (`python -c` printing a function, a `cat` inside a script).
//! The log planner, before this one, has passed it over (its errors are lines of code, see
//! `log::reading::code`), and the clip would keep its end more than its start.
//!
//! It reads as source code when it declares things as code does: at least [`MIN_DECLARED`]
//! distinct definitions by a keyword or a modifier (`def`, `class`, `fn`, `public`), one in
//! [`LINES_PER_DECLARED`] lines or more. A command's other output declares nothing in its
//! first [`GIVE_UP_AFTER`] lines, and from there on costs nothing: a log of a gigabyte is not
//! read again for definitions it does not have.
//!
//! A viewer's numbered view of a file (`cat -n`, a windowed viewer's `[File: ...]` and `K:`
//! lines, see [`Numbered`]) is a file read whatever it declares: a window of a hundred lines
//! inside one method may declare nothing. While its lines go on climbing one by one
//! ([`crate::numbered::Climbing`]), it is not given up on.

use super::ReadPlanner;
use crate::numbered::Numbered;
use crate::plan::Plan;
use crate::planner::{Context, Planner};
use crate::profile::ToolKind;
use crate::sink::{Block, Sink};

/// Distinct definitions a shell's output must declare to read as source code ...
const MIN_DECLARED: u64 = 3;
/// ... one in this many lines or more. (A source file declares one in 10 to 25 lines; a log,
/// only in the code its tracebacks quote.)
const LINES_PER_DECLARED: u64 = 40;
/// Lines with no definition after which a shell's output is no source code.
const GIVE_UP_AFTER: u64 = 200;

/// The read planner for a shell's output, which gives up on it once it shows it is no source
/// code.
#[derive(Debug)]
pub struct ShellSourcePlanner {
    read: ReadPlanner,
}

impl Sink for ShellSourcePlanner {
    type Lookahead = ();
    fn lookahead(&self) {}

    fn block(&mut self, block: &Block<'_>, (): ()) {
        self.read.block(block, ());
    }
}

impl Planner for ShellSourcePlanner {
    fn serves(kind: ToolKind) -> bool {
        kind == ToolKind::Shell
    }

    fn new(room: u64) -> Self {
        let mut read = ReadPlanner::new(room);
        read.give_up_after = Some(GIVE_UP_AFTER);
        ShellSourcePlanner { read }
    }

    fn plan(self, context: &Context<'_>) -> Option<Plan> {
        let read = self.read;
        let declared = read.declared.len() as u64;
        let counted_all = read.declared.len() == super::DECLARED_COUNTED;
        let declares_as_code = declared >= MIN_DECLARED
            && (counted_all || declared.saturating_mul(LINES_PER_DECLARED) >= read.looked);
        let source = !read.gave_up()
            && (declares_as_code || Numbered::read(context.window, &context.totals).is_some());
        if !source {
            return None;
        }
        read.plan(context)
    }
}
