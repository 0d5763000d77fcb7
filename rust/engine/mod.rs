//! The engine: one pass over the input, fed in chunks, then a plan and its rendering.
//!
//! [`Engine::feed_str`] and [`Engine::feed_bytes`] push each chunk through the line reader to
//! every planner at once; [`Engine::finish`] asks them for plans and picks one. A one-shot
//! compression is a single feed and a finish, so streamed and one-shot results cannot differ.
//! State between chunks is bounded by the budget and fixed caps, never by the input's size.

mod ahead;
mod prepare;
pub mod reader;

use crate::clip;
use crate::digest::Sampler;
use crate::error::Error;
use crate::log::LogPlanner;
use crate::plan::{Piece, Plan, Shape};
use crate::profile::{Profile, ToolKind};
use crate::search::{self, SearchPlanner};
use crate::sink::{Block, Found, Sink, Totals};
use crate::text::char_count;
use crate::way_back::WayBack;
use crate::window::Window;
use reader::LineReader;

/// The result of a compression: the plan that was chosen and the input's totals.
#[derive(Debug)]
pub struct Outcome {
    pub plan: Plan,
    pub totals: Totals,
    /// Where a digest of the omitted part may be written, when one was asked for and is due.
    pub digest: Option<DigestSlot>,
}

/// A place in the rendered plan for a digest, and what the digest model should read.
#[derive(Debug, PartialEq, Eq)]
pub struct DigestSlot {
    /// Character offset in the rendered plan, just inside the closing `]` of a marker.
    pub at: u64,
    /// A sample of the omitted lines (see [`crate::digest::Sampler`]).
    pub input: String,
}

/// Omitted parts smaller than this are not worth a digest.
pub const DIGEST_MIN_OMITTED_CHARS: u64 = 4_000;

/// Every planner, fed the same blocks.
#[derive(Debug)]
struct Planners {
    window: Window,
    search: SearchPlanner,
    /// Only when a digest was asked for.
    sampler: Option<Sampler>,
    /// Only for shell-like tools: a file that mentions "error" is not a build log.
    log: Option<LogPlanner>,
}

impl Sink for Planners {
    type Lookahead = Option<<LogPlanner as Sink>::Lookahead>;

    fn lookahead(&self) -> Self::Lookahead {
        self.log.as_ref().map(Sink::lookahead)
    }

    fn block(&mut self, block: &Block<'_>, found: Found<Self>) {
        self.window.block(block, ());
        self.search.block(block, ());
        if let Some(sampler) = &mut self.sampler {
            sampler.block(block, ());
        }
        if let Some(log) = &mut self.log {
            log.block(block, found.expect("the look-ahead is the log planner's"));
        }
    }
}

#[derive(Debug)]
pub struct Engine {
    budget: u64,
    /// Characters kept free in clip and log plans for a digest (0: no digest).
    digest_room: u64,
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
            digest_room: 0,
            reader: LineReader::default(),
            planners: Planners {
                window: Window::new(budget),
                search: SearchPlanner::new(budget),
                log: (profile.kind == ToolKind::Shell).then(|| LogPlanner::new(budget)),
                sampler: None,
            },
            profile,
        })
    }

    /// Leaves `room` characters of clip and log plans free for a digest of the omitted part,
    /// and samples the input for it. Search plans get no digest: their counts say it all.
    ///
    /// # Errors
    /// [`Error::Argument`] when `room` is not below the budget.
    pub fn with_digest_room(mut self, room: u64) -> Result<Self, Error> {
        if room >= self.budget {
            return Err(Error::Argument(
                "digest_room must be smaller than the budget".into(),
            ));
        }
        self.digest_room = room;
        if let Some(log) = &mut self.planners.log {
            *log = LogPlanner::new(self.budget - room);
        }
        self.planners.sampler = (room > 0).then(Sampler::default);
        Ok(self)
    }

    pub fn feed_str(&mut self, chunk: &str) {
        self.reader.feed_str(chunk, &mut self.planners);
    }

    pub fn feed_bytes(&mut self, chunk: &[u8]) {
        self.reader.feed_bytes(chunk, &mut self.planners);
    }

    /// Makes the markers point into a stored copy of the whole output. Only planning reads
    /// it, so it may come last, once the stream has ended and its copy is stored.
    pub fn set_way_back(&mut self, way_back: WayBack) {
        self.profile.way_back = Some(way_back);
    }

    /// Plans and renders. The rendered plan is at most `budget` characters; an input that fits
    /// comes back whole.
    #[must_use]
    pub fn finish(mut self) -> Outcome {
        let totals = self.reader.finish(&mut self.planners);
        self.planners.search.end();
        let Planners {
            window,
            search,
            log,
            sampler,
        } = self.planners;
        let room = self.budget - self.digest_room;
        // Search shape is recognised by content, whatever the tool, and goes first; the
        // log planner only ever watched shell output.
        let plan = if totals.chars <= self.budget {
            Plan {
                shape: Shape::Passthrough,
                pieces: vec![Piece::Kept(window.head)],
                omitted: vec![],
                omitted_chars: 0,
            }
        } else {
            search::plan::plan(
                &search,
                &totals,
                self.budget,
                self.profile.way_back.as_ref(),
            )
            .or_else(|| log.and_then(|l| l.plan(&window, &totals, &self.profile)))
            // A planner's bound is by construction; this keeps it even if that has a bug.
            .filter(|plan| char_count(&plan.render()) <= self.budget)
            .unwrap_or_else(|| clip::plan(&window, &totals, room, &self.profile))
        };
        let digest = sampler.and_then(|sampler| digest_slot(&plan, &sampler));
        Outcome {
            plan,
            totals,
            digest,
        }
    }
}

/// Where the digest goes: inside the last marker of a clip or log plan that omitted enough.
fn digest_slot(plan: &Plan, sampler: &Sampler) -> Option<DigestSlot> {
    if !matches!(plan.shape, Shape::Clip | Shape::Log)
        || plan.omitted_chars < DIGEST_MIN_OMITTED_CHARS
    {
        return None;
    }
    let marker = plan
        .pieces
        .iter()
        .rposition(|p| matches!(p, Piece::Marker(_)))?;
    let Piece::Marker(text) = &plan.pieces[marker] else {
        return None;
    };
    let close = text.rfind(']')?;
    let before: u64 = plan.pieces[..marker]
        .iter()
        .map(|p| char_count(p.text()))
        .sum();
    Some(DigestSlot {
        at: before + char_count(&text[..close]),
        input: sampler.sample(&plan.omitted),
    })
}

#[cfg(test)]
mod tests;
