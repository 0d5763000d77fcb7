//! The engine: one pass over the input, fed in chunks, then a plan and its rendering.
//!
//! [`Engine::feed_str`] and [`Engine::feed_bytes`] push each chunk through the line reader to
//! every planner at once; [`Engine::finish`] asks them for plans and picks one. A one-shot
//! compression is a single feed and a finish, so streamed and one-shot results cannot differ.
//! State between chunks is bounded by the budget and fixed caps, never by the input's size.

pub mod reader;
pub mod sink;

use crate::clip;
use crate::clip::window::Window;
use crate::error::Error;
use crate::log::LogPlanner;
use crate::plan::{Piece, Plan, Shape};
use crate::profile::{Profile, ToolKind};
use reader::LineReader;
use sink::{Block, Sink, Totals};

/// The result of a compression: the plan that was chosen and the input's totals.
#[derive(Debug)]
pub struct Outcome {
    pub plan: Plan,
    pub totals: Totals,
}

/// Every planner, fed the same blocks.
#[derive(Debug)]
struct Planners {
    window: Window,
    /// Only for shell-like tools: a file that mentions "error" is not a build log.
    log: Option<LogPlanner>,
}

impl Sink for Planners {
    fn block(&mut self, block: &Block<'_>) {
        self.window.block(block);
        if let Some(log) = &mut self.log {
            log.block(block);
        }
    }
}

#[derive(Debug)]
pub struct Engine {
    budget: u64,
    profile: Profile,
    reader: LineReader,
    planners: Planners,
}

impl Engine {
    /// # Errors
    /// [`Error::Argument`] when `budget` is 0.
    pub fn new(budget: u64, profile: Profile) -> Result<Self, Error> {
        if budget == 0 {
            return Err(Error::Argument(
                "budget must be a positive number of characters".into(),
            ));
        }
        Ok(Engine {
            budget,
            reader: LineReader::default(),
            planners: Planners {
                window: Window::new(budget),
                log: (profile.kind == ToolKind::Shell).then(|| LogPlanner::new(budget)),
            },
            profile,
        })
    }

    pub fn feed_str(&mut self, chunk: &str) {
        self.reader.feed_str(chunk, &mut self.planners);
    }

    pub fn feed_bytes(&mut self, chunk: &[u8]) {
        self.reader.feed_bytes(chunk, &mut self.planners);
    }

    /// Plans and renders. The rendered plan is at most `budget` characters; an input that fits
    /// comes back whole.
    #[must_use]
    pub fn finish(mut self) -> Outcome {
        let totals = self.reader.finish(&mut self.planners);
        let window = self.planners.window;
        let log = self.planners.log;
        let plan = if totals.chars <= self.budget {
            Plan {
                shape: Shape::Passthrough,
                pieces: vec![Piece::Kept(window.head)],
                omitted: vec![],
                omitted_chars: 0,
            }
        } else if let Some(plan) = log.and_then(|l| l.plan(&window, &totals, &self.profile)) {
            plan
        } else {
            clip::plan(&window, &totals, self.budget, &self.profile)
        };
        Outcome { plan, totals }
    }
}

#[cfg(test)]
mod tests;
