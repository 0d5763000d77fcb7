//! One line of search output read as a row: `path:NN:text` (a match), `path-NN-text` (a context
//! line), a `--heading` path and its bare `NN:text` rows, or none of these.
//!
//! The room owns the row types and reads a line in one direction, each file using only those
//! above it in this list:
//!
//! 1. [`syntax`]: [`RowParse`], the row every reading ends in, read at a place already chosen;
//! 2. [`masks`]: the facts of sixteen bytes at a time, for the two files below;
//! 3. [`prefix`]: whether a line's first bytes are believable as a path;
//! 4. [`path`]: every place a line's path can end, ranked, and the [`Choice`] among them;
//! 5. [`line`]: a row in its context: the row before it ([`Previous`]) and the line after a
//!    held one ([`continued_reading`]).
//!
//! The planner (`search/mod.rs`, `held.rs`, `run.rs`) and its look-ahead (`ahead.rs`) read
//! lines through what is named here.

pub mod line;
pub mod masks;
pub mod path;
pub mod prefix;
pub mod syntax;

pub use line::{
    Continued, Previous, continued_reading, is_diagnostic_after_number, looks_like_heading,
    parse_path_row,
};
pub use masks::{FirstPlace, LineStart};
pub use path::{Choice, choose, readings, sure_first_place};
pub use prefix::has_extension;
pub use syntax::{RowParse, inside_time, parse_bare_row, row_after};
