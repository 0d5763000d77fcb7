//! The log planner's reading room: the single pass over a log, and what it keeps.
//!
//! A block's lines meet, in order: the look-ahead's block-wide scan ([`prefilter`], over the
//! literals of [`patterns`]), which lists the lines worth classifying; the classifier
//! ([`classify`], on [`frame`], [`keyword`], [`summary`] and [`evidence`]), which says what kind
//! ([`class`]) each is, as a terminal shows it ([`crate::text::ansi`]); the trace rules ([`trace`]), which say
//! which lines after an error belong to it; whether an error line is a line of source code
//! ([`code`]); the places pytest prints for the project's frames ([`place`]) and the titles of
//! its failures' reports ([`title`]); and the stores: error blocks and summaries
//! ([`store`]), repeated diagnostics once per template ([`dedup`]), every line kept the same way
//! ([`keep`]). [`pass::Pass`] runs them as the planner's sink and hands over what it found.
//!
//! Nothing here knows how a plan is chosen or rendered (the planning room, which reads this one).

pub mod class;
pub mod classify;
mod code;
pub mod dedup;
mod evidence;
pub mod frame;
pub mod heading;
pub mod keep;
mod keyword;
mod marks;
pub mod pass;
mod patterns;
pub mod place;
pub mod prefilter;
mod starts;
pub mod store;
pub mod summary;
pub mod title;
pub mod trace;
