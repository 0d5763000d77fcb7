//! The log planner's planning room: what a plan shows of what the single pass found, under the
//! budget, and how it renders.
//!
//! [`select`] takes candidates in priority order ([`plan`]), each only if the whole rendering
//! still fits (a trace too long to show whole losing its [`library`] frames first);
//! [`selection`] holds what is taken, with the line lengths it may still cut ([`lengths`]);
//! [`render`] lays the shown lines out with their gap markers and the closing marker;
//! [`repeats`] writes the count after a shown example of a repeated diagnostic, and takes it
//! back where every line it counts is shown. It reads
//! the reading room's types (kept lines, counts, the tables of repeats) and never the other
//! way round.

mod lengths;
mod library;
mod render;
mod repeats;
mod select;
mod selection;

pub use select::plan;
