//! The JSON planner: a JSON document, or JSON Lines, from any tool (`curl`, `gh api`,
//! `kubectl -o json`, `cargo metadata`, `pip inspect`) that does not fit keeps its values.
//!
//! A blind cut of a large JSON array keeps its first and last few records and no idea of the
//! rest, and a schema alone loses the values an agent came for. This planner first tries the
//! forms that lose nothing but whitespace ([`lossless`]): the input minified, then, for an
//! array of objects with the same keys (or JSON Lines of them), a table with the keys once and
//! a row of values for each object. When neither fits it writes a summary ([`render`]): the
//! document with the first and last record of each array, the records that stand out (a value
//! or a set of member types few others have: an error, a null, an unusual state) and as many
//! others as fit, every value as written (never rounded or invented), long strings and arrays
//! cut with exact counts, then every key path with its exact count, types, and its values when
//! it has only a few ([`paths`]). A note opens every plan and says which form it is and the
//! way back to the original.
//!
//! An output is JSON only when all of it scans as such ([`scan`]): most outputs that are not
//! fail at their first character, and the planner then does nothing more for the rest of the
//! stream. What it keeps while reading ([`build`], [`sketch`]) is bounded by the room, whatever
//! the input's size.

mod build;
mod lossless;
mod marker;
mod paths;
mod render;
mod scan;
mod sketch;

use crate::plan::{Piece, Plan, Shape};
use crate::planner::{Context, Planner};
use crate::profile::Profile;
use crate::sink::{Block, Sink, Totals};
use crate::text::char_count;
use build::Builder;
use marker::{Form, TIERS};
use render::{Root, Summary};
use scan::Scanner;

/// Below this budget JSON is clipped.
const MIN_BUDGET: u64 = 400;

/// Watches an output for JSON, reading it into a path table, the lossless forms and a sketch
/// of its values, each bounded by the room.
#[derive(Debug)]
pub struct JsonPlanner {
    scanner: Scanner,
    /// `None` once the input is not JSON (or the room too small for any plan).
    builder: Option<Box<Builder>>,
    /// The characters a plan may take.
    room: u64,
}

impl Sink for JsonPlanner {
    type Lookahead = ();
    fn lookahead(&self) {}

    fn block(&mut self, block: &Block<'_>, (): ()) {
        let Some(builder) = &mut self.builder else {
            return;
        };
        self.scanner.feed(block.text, builder.as_mut());
        if self.scanner.failed() {
            self.builder = None;
        }
    }
}

impl Planner for JsonPlanner {
    fn new(room: u64) -> Self {
        JsonPlanner {
            scanner: Scanner::default(),
            builder: (room >= MIN_BUDGET).then(|| Box::new(Builder::new(room))),
            room,
        }
    }

    fn plan(self, context: &Context<'_>) -> Option<Plan> {
        let mut builder = self.builder?;
        if !self.scanner.complete() {
            return None;
        }
        builder.finish();
        let budget = self.room;
        minified(&builder, context, budget)
            .or_else(|| table(&builder, context, budget))
            .or_else(|| {
                let root = match (&builder.stream, &builder.root) {
                    (Some(stream), _) => Root::Stream(stream),
                    (None, Some(root)) => Root::Doc(&root.node),
                    (None, None) => return None,
                };
                Summary {
                    root,
                    paths: &builder.paths,
                    arrays: builder.arrays,
                }
                .plan(context, budget)
            })
    }
}

/// The note for `form` in the longest tier that takes at most its part of `budget`.
fn note(form: Form, budget: u64, totals: &Totals, profile: &Profile) -> Option<String> {
    TIERS.into_iter().find_map(|tier| {
        let text = marker::note(form, tier, totals, profile);
        (char_count(&text) < budget / marker::part(tier)).then_some(text)
    })
}

/// The input minified, when that fits.
fn minified(builder: &Builder, context: &Context<'_>, budget: u64) -> Option<Plan> {
    let mini = &builder.mini;
    let (text, dropped) = (mini.text.as_ref()?, mini.dropped.as_ref()?);
    let totals = context.totals;
    let form = Form::Minified {
        dropped: totals.chars - mini.chars,
    };
    let note = note(form, budget, &totals, context.profile)?;
    let end = if text.ends_with('\n') { "" } else { "\n" };
    let mut pieces = vec![
        Piece::Marker(format!("{note}\n")),
        Piece::Kept(text.clone()),
    ];
    if !end.is_empty() {
        pieces.push(Piece::Marker(end.to_owned()));
    }
    fits(
        Plan {
            shape: Shape::Json,
            pieces,
            omitted: dropped.clone(),
            omitted_chars: totals.chars - mini.chars,
        },
        budget,
    )
}

/// An array of objects with the same keys (or JSON Lines of them) as a table, when that fits.
fn table(builder: &Builder, context: &Context<'_>, budget: u64) -> Option<Plan> {
    let table = &builder.table;
    let rows = table.rows.as_ref()?;
    if table.records < 2 {
        return None;
    }
    let totals = context.totals;
    let form = Form::Table {
        records: table.records,
        lines: builder.streaming(),
    };
    let note = note(form, budget, &totals, context.profile)?;
    let header = crate::lookalike::disarm(&table.header()).into_owned();
    let kept = char_count(rows);
    fits(
        Plan {
            shape: Shape::Json,
            pieces: vec![
                Piece::Marker(format!("{note}\n{header}\n")),
                Piece::Kept(rows.clone()),
                Piece::Marker("\n".to_owned()),
            ],
            omitted: vec![crate::plan::LineRange {
                first: 1,
                last: totals.lines,
            }],
            omitted_chars: totals.chars.saturating_sub(kept),
        },
        budget,
    )
}

/// `plan` if it renders within `budget` characters.
fn fits(plan: Plan, budget: u64) -> Option<Plan> {
    plan.fits(budget).then_some(plan)
}

#[cfg(test)]
mod tests;
