//! The engine: one pass over the input, fed in chunks, then a plan and its rendering.
//!
//! [`Engine::feed_str`] and [`Engine::feed_bytes`] push each chunk (small ones gathered first,
//! see [`GATHER_BYTES`]) through the line reader to every planner at once (see
//! [`crate::planner`] and the registry); [`Engine::finish`] asks them
//! for plans in priority order and takes the first that fits, or the clip. A one-shot
//! compression is a single feed and a finish, so streamed and one-shot results cannot differ.
//! A planner that panics, in its intake or its plan, is dropped and the others go on: the
//! window the clip plans from is fed apart from every planner, so nothing given is lost. Should
//! the window or the clip itself panic, the plan is [`last_resort`]'s marker, with the reader's
//! exact totals; only a panic in the reader escapes, to the binding.
//! State between chunks is bounded by the budget and fixed caps, never by the input's size.

mod ahead;
mod digest;
mod last_resort;
mod prepare;
pub mod reader;
mod registry;

use crate::clip;
use crate::numbered::Numbered;
use crate::plan::{Piece, Plan, Shape};
use crate::planner::{Budget, Context};
use crate::profile::{Profile, ToolKind};
use crate::sink::{Block, Sink, Totals};
use crate::text::char_count;
use crate::way_back::WayBack;
use crate::window::Window;
use digest::Sampler;
use reader::LineReader;
use registry::{AnyFound, Held, Looks, guarded};

/// The result of a compression: the plan that was chosen and the input's totals.
#[derive(Debug)]
pub struct Outcome {
    /// The chosen plan; [`Plan::render`] is the output, at most the budget's characters.
    pub plan: Plan,
    /// Facts about the whole input, counted by the reader.
    pub totals: Totals,
    /// Where a digest of the omitted part may be written, when one was asked for and is due.
    pub digest: Option<DigestSlot>,
}

/// A place in the rendered plan for a digest, and what the digest model should read.
#[derive(Debug, PartialEq, Eq)]
pub struct DigestSlot {
    /// Character offset in the rendered plan, just inside the closing `]` of a marker.
    pub at: u64,
    /// A sample of the omitted lines (see `engine/digest.rs`).
    pub input: String,
    /// Characters the budget leaves for the digest: the budget less the rendered plan, at
    /// least the digest's room the engine was built with.
    pub room: u64,
}

/// Omitted parts smaller than this are not worth a digest.
pub const DIGEST_MIN_OMITTED_CHARS: u64 = 4_000;

/// What the engine feeds: its window, the registered planners in priority order, and the
/// digest's sampler. The window is fed apart from the planners, so that whatever a planner
/// does, the clip can still plan over everything the caller gave.
#[derive(Debug)]
struct Intake {
    /// `None` once it panicked: then nothing of the input can be shown (see [`last_resort`]).
    window: Option<Window>,
    /// `None` for a planner that panicked: it is dropped and never asked for a plan.
    planners: Vec<Option<Box<dyn Held>>>,
    /// Only when a digest was asked for; dropped if it panics, and then no digest is asked.
    sampler: Option<Sampler>,
}

impl Sink for Intake {
    type Lookahead = Looks;

    fn lookahead(&self) -> Looks {
        Looks(
            self.planners
                .iter()
                // No look, when making it panicked: the block then drops the planner.
                .map(|slot| slot.as_ref().and_then(|p| guarded(|| p.lookahead())))
                .collect(),
        )
    }

    fn block(&mut self, block: &Block<'_>, found: Vec<Option<AnyFound>>) {
        if let Some(window) = &mut self.window {
            let fed = guarded(|| {
                #[cfg(any(test, feature = "fault-injection"))]
                crate::fault::at(crate::fault::WINDOW, block.text.as_bytes());
                window.block(block, ());
            });
            if fed.is_none() {
                self.window = None;
            }
        }
        for (slot, found) in self.planners.iter_mut().zip(found) {
            let Some(planner) = slot else { continue };
            // A planner whose look or intake panicked is dropped (see `registry::guarded`).
            let fed = found.and_then(|found| guarded(|| planner.block(block, found)));
            if fed.is_none() {
                *slot = None;
            }
        }
        if let Some(sampler) = &mut self.sampler {
            if guarded(|| sampler.block(block, ())).is_none() {
                self.sampler = None;
            }
        }
    }
}

/// Chunks smaller than this are gathered, copied, until this much has come, and read as one:
/// the reader prepares a chunk of several blocks on two cores (see [`ahead`]), which a stream
/// fed in a pipe's 64 KiB pieces never gave it (its 100 MB took twice as long as one call).
/// Each chunk read so starts a helper and waits for it at its end: gathered to 1 MiB (four
/// blocks), 64 KiB pieces still took 1.5 to 1.95 times one call; to 4 MiB, 1.0 to 1.15.
pub(crate) const GATHER_BYTES: usize = 4 << 20;

/// Chunks held back until there are enough to read at once, as one stream of bytes: reading
/// the same bytes in other pieces gives the same result (the reader's contract).
#[derive(Debug, Default)]
struct Gathered {
    bytes: Vec<u8>,
    /// Every chunk gathered is known to be UTF-8 (a `str`). Bytes are decoded as Python
    /// decodes them, which leaves valid UTF-8 as it is, so mixed chunks read as bytes.
    valid: bool,
}

/// One compression: fed the input in chunks, then asked once for the [`Outcome`].
#[derive(Debug)]
pub struct Engine {
    budget: Budget,
    profile: Profile,
    reader: LineReader,
    gathered: Gathered,
    intake: Intake,
}

impl Engine {
    /// An engine for `budget`: its characters, and the room its plans leave for a digest of
    /// the omitted part (planners that take one, see [`crate::planner::Planner::DIGEST`], plan
    /// into less; the input is then sampled for the digest), and for outputs of tools as
    /// `profile` says. Both are given here, once: the planners are built for this budget.
    #[must_use]
    pub fn new(budget: Budget, profile: Profile) -> Self {
        Engine {
            budget,
            reader: LineReader::default(),
            gathered: Gathered::default(),
            intake: Intake {
                window: Some(Window::new(budget.chars)),
                planners: registry::planners(budget, profile.kind),
                sampler: (budget.digest_room > 0).then(Sampler::default),
            },
            profile,
        }
    }

    /// Reads the next chunk of the input, however it splits lines or characters.
    pub fn feed_str(&mut self, chunk: &str) {
        #[cfg(any(test, feature = "fault-injection"))]
        crate::fault::at(crate::fault::ENGINE, chunk.as_bytes());
        self.feed(chunk.as_bytes(), true);
    }

    /// Reads the next chunk of the input as bytes, decoded as UTF-8 with invalid sequences
    /// replaced (as Python's `"replace"` does), however it splits lines or characters.
    pub fn feed_bytes(&mut self, chunk: &[u8]) {
        #[cfg(any(test, feature = "fault-injection"))]
        crate::fault::at(crate::fault::ENGINE, chunk);
        self.feed(chunk, false);
    }

    /// Reads a large chunk where it lies; gathers small ones (see [`GATHER_BYTES`]).
    fn feed(&mut self, chunk: &[u8], valid: bool) {
        if chunk.len() >= GATHER_BYTES {
            self.read_gathered();
            self.reader.feed(chunk, valid, &mut self.intake);
            return;
        }
        let gathered = &mut self.gathered;
        gathered.valid = valid && (gathered.valid || gathered.bytes.is_empty());
        gathered.bytes.extend_from_slice(chunk);
        if gathered.bytes.len() >= GATHER_BYTES {
            self.read_gathered();
        }
    }

    fn read_gathered(&mut self) {
        if !self.gathered.bytes.is_empty() {
            let Gathered { bytes, valid } = &mut self.gathered;
            // `valid` only when every chunk gathered was a `str`: `str`s end to end are UTF-8.
            self.reader.feed(bytes, *valid, &mut self.intake);
            bytes.clear();
        }
    }

    /// Makes the markers point into a stored copy of the whole output. Only planning reads
    /// it, so it may come last, once the stream has ended and its copy is stored.
    pub fn set_way_back(&mut self, way_back: WayBack) {
        self.profile.way_back = Some(way_back);
    }

    /// Plans and renders. The rendered plan is at most `budget` characters; an input that fits
    /// comes back whole. Otherwise the first planner, in priority order, whose plan fits wins,
    /// and the clip when none does.
    #[must_use]
    pub fn finish(mut self) -> Outcome {
        self.read_gathered();
        let totals = self.reader.finish(&mut self.intake);
        let Intake {
            window,
            planners,
            sampler,
        } = self.intake;
        let (plan, digest_applies) = window
            .and_then(|window| plan_over(window, planners, totals, self.budget, &self.profile))
            .unwrap_or_else(|| {
                let plan = last_resort::plan(&totals, self.budget.chars, &self.profile);
                (plan, false)
            });
        let digest = sampler
            .filter(|_| digest_applies)
            .and_then(|sampler| digest_slot(&plan, &sampler, self.budget.chars));
        Outcome {
            plan,
            totals,
            digest,
        }
    }
}

/// The plan over what the window kept, and whether a digest may go in it; `None` when the clip
/// panicked (the window having panicked is the caller's to see).
fn plan_over(
    window: Window,
    planners: Vec<Option<Box<dyn Held>>>,
    totals: Totals,
    budget: Budget,
    profile: &Profile,
) -> Option<(Plan, bool)> {
    if totals.chars <= budget.chars {
        let plan = Plan {
            shape: Shape::Passthrough,
            pieces: vec![Piece::Kept(window.head)],
            omitted: vec![],
            omitted_chars: 0,
        };
        return Some((plan, false));
    }
    let numbered;
    let profile = if profile.kind == ToolKind::FileRead && profile.way_back.is_none() {
        numbered = Profile {
            numbered: Numbered::read(&window, &totals),
            ..profile.clone()
        };
        &numbered
    } else {
        profile
    };
    let context = Context {
        window: &window,
        totals,
        profile,
    };
    let planned = planners.into_iter().flatten().find_map(|planner| {
        let digest = planner.digest();
        // A planner that panics while planning answers nothing, like one whose shape this is
        // not; the next one, or the clip, plans instead.
        guarded(|| {
            planner
                .plan(&context)
                // A planner's bound is by construction; this keeps it even if that has a bug,
                // and lets the next planner, or the clip, plan instead.
                .filter(|plan| plan.fits(budget.chars))
        })
        .flatten()
        .map(|plan| (plan, digest))
    });
    planned.or_else(|| {
        guarded(|| {
            #[cfg(any(test, feature = "fault-injection"))]
            crate::fault::at(crate::fault::CLIP, window.head.as_bytes());
            let plan = clip::plan(&window, &totals, budget.room(CLIP_DIGEST), profile);
            (plan, CLIP_DIGEST)
        })
    })
}

/// The clip, every planner's fallback, leaves room for a digest.
const CLIP_DIGEST: bool = true;

/// Where the digest goes: inside the last marker of a plan that takes one and omitted enough,
/// with the room `budget` leaves it.
fn digest_slot(plan: &Plan, sampler: &Sampler, budget: u64) -> Option<DigestSlot> {
    if plan.omitted_chars < DIGEST_MIN_OMITTED_CHARS {
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
    // Rendering disarms look-alike markers one character for one, so the pieces count as shown.
    let rendered: u64 = plan.pieces.iter().map(|p| char_count(p.text())).sum();
    Some(DigestSlot {
        at: before + char_count(&text[..close]),
        input: sampler.sample(&plan.omitted),
        room: budget - rendered,
    })
}

#[cfg(test)]
mod tests;
