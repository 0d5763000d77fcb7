//! Real panics on demand, to test the fallbacks: in the crate's tests, and through the Python
//! binding in a module built with the `fault-injection` feature (never a released one).
//!
//! An input that holds one of the triggers below makes that part of the engine panic: a
//! planner registered first ([`Fault`], in its look-ahead, intake or plan), the engine's
//! window, the clip, or the engine's reading itself, which no guard inside Rust covers.

use crate::plan::Plan;
use crate::planner::{Context, Planner};
use crate::sink::{Block, Lookahead, Sink};

pub const LOOK: &str = "shapeclip-fault: look";
pub const INTAKE: &str = "shapeclip-fault: intake";
pub const PLAN: &str = "shapeclip-fault: plan";
pub const WINDOW: &str = "shapeclip-fault: window";
pub const CLIP: &str = "shapeclip-fault: clip";
pub const ENGINE: &str = "shapeclip-fault: engine";

/// Panics when `text` holds `trigger`.
pub fn at(trigger: &str, text: &[u8]) {
    assert!(
        memchr::memmem::find(text, trigger.as_bytes()).is_none(),
        "injected fault: {trigger}"
    );
}

/// A planner that plans nothing, and panics where its input tells it to.
#[derive(Debug, Default)]
pub struct Fault {
    panic_in_plan: bool,
}

#[derive(Debug)]
pub struct FaultLook;

impl Lookahead for FaultLook {
    type Found = ();
    fn look(&self, text: &str) {
        at(LOOK, text.as_bytes());
    }
}

impl Sink for Fault {
    type Lookahead = FaultLook;
    fn lookahead(&self) -> FaultLook {
        FaultLook
    }
    fn block(&mut self, block: &Block<'_>, (): ()) {
        at(INTAKE, block.text.as_bytes());
        self.panic_in_plan |= block.text.contains(PLAN);
    }
}

impl Planner for Fault {
    fn new(_room: u64) -> Self {
        Fault::default()
    }
    fn plan(self, _context: &Context<'_>) -> Option<Plan> {
        assert!(!self.panic_in_plan, "injected fault: {PLAN}");
        None
    }
}
