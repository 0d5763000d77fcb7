//! The planners, in priority order, and how the engine holds planners of different types.
//!
//! [`planners`] is the registry: a new shape is one line there. Each planner's look-ahead finds
//! something of its own type; the engine keeps them in one list by boxing what each look finds
//! (a planner that looks for nothing finds `()`, which boxes without allocating), and hands it
//! back, unboxed, to the planner that asked for it.

use std::any::Any;
use std::fmt::Debug;
use std::panic::{AssertUnwindSafe, catch_unwind};

use crate::diagnostics::DiagnosticsPlanner;
use crate::diff::DiffPlanner;
use crate::frames::{FramesClipPlanner, FramesPlanner};
use crate::json::JsonPlanner;
use crate::listing::ListingPlanner;
use crate::log::LogPlanner;
use crate::matches::MatchesPlanner;
use crate::plan::Plan;
use crate::planner::{Budget, Context, Planner};
use crate::profile::ToolKind;
use crate::read::{ReadPlanner, ShellSourcePlanner};
use crate::search::SearchPlanner;
use crate::sink::{Block, Found, Lookahead, Sink};
use crate::table::TablePlanner;

/// The planners that read output of tools of `kind`, highest priority first, each built for
/// the room its plans may take; each in a slot the engine empties if the planner panics.
pub(super) fn planners(budget: Budget, kind: ToolKind) -> Vec<Option<Box<dyn Held>>> {
    let mut list = Vec::new();
    #[cfg(feature = "fault-injection")]
    register::<crate::fault::Fault>(&mut list, budget, kind);
    // A shell's output that fits as a terminal leaves it is shown so, whatever its shape.
    register::<FramesPlanner>(&mut list, budget, kind);
    // Search output is recognised by content, whatever the tool, and goes first among shapes.
    register::<SearchPlanner>(&mut list, budget, kind);
    // JSON is recognised by scanning whole, whatever the tool.
    register::<JsonPlanner>(&mut list, budget, kind);
    // A diff is recognised by its file and hunk headers, whatever the tool.
    register::<DiffPlanner>(&mut list, budget, kind);
    // Listings are recognised by content too, and go before the log planner, which would take
    // a path list with an error in a file name for a build log.
    register::<ListingPlanner>(&mut list, budget, kind);
    // Tables (`ls -l`, `ps aux`, `kubectl get`) are recognised by a header or a row format
    // that no listing or log has; before the log planner, which would read them as prose.
    register::<TablePlanner>(&mut list, budget, kind);
    // A linter's or compiler's warnings, most of the output: before the log planner, which
    // would take a warning's message that names an error for a failure.
    register::<DiagnosticsPlanner<false>>(&mut list, budget, kind);
    // Only shell-like tools: a file that mentions "error" is not a build log.
    register::<LogPlanner>(&mut list, budget, kind);
    // A shell's output that is no log but reads as source code: as a file read.
    register::<ShellSourcePlanner>(&mut list, budget, kind);
    // A few warnings in output no planner above took (a build that succeeded): its
    // diagnostics first, where a clip would show the build's ends.
    register::<DiagnosticsPlanner<true>>(&mut list, budget, kind);
    // Only file reads: their head, definitions and tail.
    register::<ReadPlanner>(&mut list, budget, kind);
    // Only searches: what the search planner could not map keeps its definitions first.
    register::<MatchesPlanner>(&mut list, budget, kind);
    // A shell's redrawn progress that no planner above planned: the ends as a terminal leaves them.
    register::<FramesClipPlanner>(&mut list, budget, kind);
    list.into_iter().map(Some).collect()
}

fn register<P>(list: &mut Vec<Box<dyn Held>>, budget: Budget, kind: ToolKind)
where
    P: Planner + Debug + Send + Sync + 'static,
    P::Lookahead: 'static,
    Found<P>: 'static,
{
    if P::serves(kind) {
        list.push(Box::new(P::new(budget.room(P::DIGEST))));
    }
}

/// What one planner's look found in a block, boxed.
pub(super) type AnyFound = Box<dyn Any + Send>;

/// A planner's look-ahead, finding a boxed value.
pub(super) trait AnyLook: Send + Sync {
    fn look(&self, text: &str) -> AnyFound;
}

impl<L: Lookahead> AnyLook for L
where
    L::Found: 'static,
{
    fn look(&self, text: &str) -> AnyFound {
        Box::new(Lookahead::look(self, text))
    }
}

/// A planner as the engine holds it, whatever its type.
pub(super) trait Held: Debug + Send + Sync {
    fn lookahead(&self) -> Box<dyn AnyLook>;
    /// `found` is what this planner's [`Held::lookahead`] found in `block`.
    fn block(&mut self, block: &Block<'_>, found: AnyFound);
    fn digest(&self) -> bool;
    fn plan(self: Box<Self>, context: &Context<'_>) -> Option<Plan>;
}

impl<P> Held for P
where
    P: Planner + Debug + Send + Sync + 'static,
    P::Lookahead: 'static,
    Found<P>: 'static,
{
    fn lookahead(&self) -> Box<dyn AnyLook> {
        Box::new(Sink::lookahead(self))
    }

    fn block(&mut self, block: &Block<'_>, found: AnyFound) {
        let found = found
            .downcast::<Found<P>>()
            .expect("each planner gets what its own look-ahead found");
        Sink::block(self, block, *found);
    }

    fn digest(&self) -> bool {
        P::DIGEST
    }

    fn plan(self: Box<Self>, context: &Context<'_>) -> Option<Plan> {
        Planner::plan(*self, context)
    }
}

/// Every registered planner's look-ahead, in the registry's order; `None` for a planner that
/// was dropped after a panic.
pub(super) struct Looks(pub(super) Vec<Option<Box<dyn AnyLook>>>);

impl Lookahead for Looks {
    /// `None` where a planner was dropped or its look panicked (see [`guarded`]).
    type Found = Vec<Option<AnyFound>>;
    fn look(&self, text: &str) -> Vec<Option<AnyFound>> {
        self.0
            .iter()
            .map(|look| look.as_ref().and_then(|look| guarded(|| look.look(text))))
            .collect()
    }
}

/// Runs one planner's work, turning a panic into `None`. A planner's panic is a bug, but it
/// must cost only that planner: the window the clip plans from is fed apart from every
/// planner, so the engine drops the one that panicked and the stream goes on. What the
/// planner held is never read again, which is why asserting unwind safety is sound here.
pub(super) fn guarded<T>(work: impl FnOnce() -> T) -> Option<T> {
    catch_unwind(AssertUnwindSafe(work)).ok()
}
