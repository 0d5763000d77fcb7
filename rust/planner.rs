//! The contract between the engine and a shape: what a planner is told, and what it answers.
//!
//! A planner watches the single pass over the input as a [`Sink`] (its intake, bounded by the
//! budget it was built for), then, once the input has ended, is asked once for a [`Plan`] with
//! one [`Context`]. The engine holds the planners in priority order and takes the first plan
//! that fits; when none answers, the clip ([`crate::clip`]) runs over the engine's [`Window`].
//! Like ripgrep's `grep-searcher` `Sink`, everything but intake and planning has a default, so a
//! new shape states only what differs.
//!
//! This layer knows no planner: the engine's registry (`engine::registry`) names them.

use crate::error::Error;
use crate::plan::Plan;
use crate::profile::{Profile, ToolKind};
use crate::sink::{Sink, Totals};
use crate::window::Window;

/// The one place the budget lives: the characters an output may take, and how many of them a
/// plan with a digest leaves free for it. The engine holds it; each planner is told only its
/// room ([`Budget::room`]), once, when it is built.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    /// The most characters any rendered plan may take.
    pub chars: u64,
    /// Characters kept free for a digest of the omitted part (0: no digest). Below `chars`.
    pub digest_room: u64,
}

impl Budget {
    /// `chars` characters, `digest_room` of them kept free for a digest.
    ///
    /// # Errors
    /// [`Error::Argument`] when `chars` is 0 or the digest's room is not below it.
    pub fn new(chars: u64, digest_room: u64) -> Result<Self, Error> {
        if chars == 0 {
            return Err(Error::Argument(
                "budget must be a positive number of characters".into(),
            ));
        }
        if digest_room >= chars {
            return Err(Error::Argument(
                "digest_room must be smaller than the budget".into(),
            ));
        }
        Ok(Budget { chars, digest_room })
    }

    /// The characters a plan may take: all of the budget, or what the digest's room leaves
    /// when `digest` (the planner's [`Planner::DIGEST`]) says a digest may go in its plans.
    #[must_use]
    pub fn room(self, digest: bool) -> u64 {
        if digest {
            self.chars - self.digest_room
        } else {
            self.chars
        }
    }
}

/// Everything a planner is told at planning time; its room it was told when it was built.
#[derive(Debug, Clone, Copy)]
pub struct Context<'a> {
    /// The first and last characters of the input (see [`Window`]).
    pub window: &'a Window,
    /// Facts about the whole input.
    pub totals: Totals,
    /// The tool's kind and name, head and tail weights, and the way back to a stored copy.
    pub profile: &'a Profile,
}

/// A shape: a sink that reads the input once and may then plan it.
///
/// To add one, implement this trait and register it in `engine::registry`, in priority order.
pub trait Planner: Sink + Sized {
    /// Whether a digest of the omitted part may go inside this planner's plans: they are then
    /// planned into [`Budget::room`]`(true)` and the engine writes the digest into their last
    /// marker. Plans whose counts say it all (search) take none.
    const DIGEST: bool = false;

    /// Whether this planner reads the output of tools of `kind`; the others never see it.
    /// Every kind by default: a shape recognised by content may come from any tool.
    #[must_use]
    fn serves(kind: ToolKind) -> bool {
        let _ = kind;
        true
    }

    /// A planner that will plan into `room` characters ([`Budget::room`] for its
    /// [`Self::DIGEST`]); its intake state is bounded by that and by fixed caps. This is the
    /// one place a planner learns its room: it keeps it for [`Planner::plan`].
    fn new(room: u64) -> Self;

    /// The plan for the input this planner read, or `None` when the input is not its shape or
    /// its plan cannot be made in the room it was built with. Called once, after the input has
    /// ended, and only when the input does not fit the budget whole.
    fn plan(self, context: &Context<'_>) -> Option<Plan>;
}
