//! What the reader hands to the planners.
//!
//! Every planner (clip, search, log) watches the same single pass over the input through the
//! [`Sink`] trait. The reader delivers [`Block`]s of whole lines, so a planner can run one
//! multi-pattern scan over a block instead of a call per line; only a line longer than the
//! reader's cap arrives in several pieces, flagged by `continues_line` and `line_open`. A sink
//! reads a block's lines through [`crate::lines`] (`block.lines()`, `block.split()`), which
//! numbers them and handles those pieces, never by splitting the text itself.
//! Work that needs only a block's text (a sink's [`Lookahead`]) is split from the work that
//! needs the blocks before it, so that the reader can do the first on a second core.

/// A run of decoded input text, as delivered by the reader.
#[derive(Debug, Clone, Copy)]
pub struct Block<'a> {
    /// Valid UTF-8. Ends in `'\n'` unless `line_open` is set or this is the end of the input.
    pub text: &'a str,
    /// 1-based number of the line that `text` starts in.
    pub first_line: u64,
    /// Characters (code points) in `text`.
    pub chars: u64,
    /// `'\n'` bytes in `text`.
    pub newlines: u64,
    /// `text` starts inside a line whose earlier part came in the previous block.
    pub continues_line: bool,
    /// `text` stops inside a line that goes on in the next block (a line longer than the cap).
    pub line_open: bool,
}

/// Facts about the whole input, known once it has all been read.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Totals {
    /// Characters (code points), as Python's `len` counts them.
    pub chars: u64,
    /// Lines: the `'\n'` count, plus one when the input ends in an unterminated line.
    pub lines: u64,
    /// `'\n'` bytes in the input.
    pub newlines: u64,
}

/// Work a sink does on a block's text alone, needing nothing it saw before: the reader may run
/// it ahead, on another core, while the sink still reads earlier blocks.
pub trait Lookahead: Send + Sync {
    /// What the look finds in one block.
    type Found: Send;
    /// Looks at the lines that start in a block: its text past the rest of a line begun in an
    /// earlier block, exactly the `Lines::text` of [`Block::split`], so that
    /// offsets and line counts found are relative to that.
    fn look(&self, text: &str) -> Self::Found;
}

/// Nothing to look for.
impl Lookahead for () {
    type Found = ();
    fn look(&self, _text: &str) {}
}

/// A look that only some configurations need.
impl<L: Lookahead> Lookahead for Option<L> {
    type Found = Option<L::Found>;
    fn look(&self, text: &str) -> Self::Found {
        self.as_ref().map(|l| l.look(text))
    }
}

/// What a sink's look-ahead found in a block.
pub type Found<S> = <<S as Sink>::Lookahead as Lookahead>::Found;

/// A planner's view of the single pass: it observes every block once, in order, and keeps only
/// state bounded by its budget and fixed caps.
pub trait Sink {
    /// The work on a block's text alone that the reader may do ahead, on another core.
    type Lookahead: Lookahead;
    /// The look-ahead for this sink's blocks.
    fn lookahead(&self) -> Self::Lookahead;
    /// Observes the next block, with what the look-ahead found in its text.
    fn block(&mut self, block: &Block<'_>, found: Found<Self>);
}
