//! The build and test log planner: every error with its trace, the runner's summaries, the head
//! and the tail, warnings once per kind, in their original order with labelled gaps.
//!
//! It is two rooms, and the second only ever uses the first:
//!
//! - [`reading`]: the single pass. What kind of line each line is (the look-ahead's block-wide
//!   scan, then the classifier), which lines after an error belong to it, and what a plan may
//!   show, kept in bounded stores. [`reading::pass::Pass`] is the planner's sink, and hands
//!   over what it found at the end ([`reading::pass::Found`]).
//! - [`planning`]: what a plan shows of what was found, in priority order under the budget,
//!   and how it renders, with the head and the tail taken from the clip's window.
//!
//! [`LogPlanner`] joins them. It declines, and the next planner runs, when the output has
//! fewer than two summary lines and no error, or errors of which fewer than one in four reports
//! one rather than being a line of source code ([`reading::pass::Found::is_log`]), or when it
//! is a viewer's numbered view of a file ([`Numbered`]), whose comments may name errors.

pub mod planning;
pub mod reading;

use reading::pass::Pass;
use reading::prefilter::{Looked, Prefilter};

use crate::numbered::Numbered;
use crate::plan::Plan;
use crate::planner::{Context, Planner};
use crate::profile::ToolKind;
use crate::sink::{Block, Sink};

/// Budgets below this get the clip: a log plan needs room for a head, a tail and one block.
pub const MIN_BUDGET: u64 = 400;

/// The log planner: the reading room's pass, planned by the planning room at the end.
#[derive(Debug)]
pub struct LogPlanner {
    /// The characters its plan may take.
    room: u64,
    pass: Pass,
}

impl Planner for LogPlanner {
    const DIGEST: bool = true;

    /// Shell tools (a command that searched too: `grep ERROR app.log`), and tools of no known
    /// kind (an MCP or function tool that returns a build log): the latter only with a stored
    /// copy, since the words for getting lines back from a shell, running the command again,
    /// are no way back for them.
    fn serves(kind: ToolKind) -> bool {
        matches!(
            kind,
            ToolKind::Shell | ToolKind::ShellSearch | ToolKind::Other
        )
    }

    fn new(room: u64) -> Self {
        LogPlanner {
            room,
            pass: Pass::new(room),
        }
    }

    /// The plan for this log, or `None` when it does not look like one (or the budget is too
    /// small for a log plan). The plan renders to at most the room it was built for.
    fn plan(self, context: &Context<'_>) -> Option<Plan> {
        let room = self.room;
        if room < MIN_BUDGET {
            return None;
        }
        let found = self.pass.finish();
        if !found.is_log() {
            return None;
        }
        if !context.profile.kind.reruns() && context.profile.way_back.is_none() {
            return None;
        }
        if Numbered::read(context.window, &context.totals).is_some() {
            return None;
        }
        planning::plan(
            found,
            context.window,
            &context.totals,
            room,
            context.profile,
        )
    }
}

impl Sink for LogPlanner {
    type Lookahead = Prefilter;

    fn lookahead(&self) -> Prefilter {
        self.pass.lookahead()
    }

    fn block(&mut self, block: &Block<'_>, found: Looked) {
        self.pass.block(block, found);
    }
}

#[cfg(test)]
mod heading_tests;
#[cfg(test)]
mod tests;
