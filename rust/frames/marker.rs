//! The closing marker of a plan of redrawn lines: how many frames were drawn over, in which
//! lines, their characters, and the way back to them.

use crate::clip::marker::{Span, hint, short_hint, tool_words};
use crate::markers::{plural, thousands, tokens};
use crate::profile::Profile;
use crate::text::char_count;

/// What the plan left out: `frames` frames of `chars` characters, drawn over in `lines` lines,
/// the first `first` and the last `last`, of an input of `total_lines`.
#[derive(Debug, Clone, Copy)]
pub struct Facts {
    pub first: u64,
    pub last: u64,
    pub total_lines: u64,
    pub lines: u64,
    pub frames: u64,
    pub chars: u64,
}

impl Facts {
    /// The longest wording of the marker within `room` characters, on one line without its
    /// `'\n'`; `None` when not even the shortest fits.
    pub fn fitting(&self, room: u64, profile: &Profile) -> Option<String> {
        [self.full(profile), self.compact(profile), self.terse()]
            .into_iter()
            .find(|text| char_count(text) <= room)
    }

    fn full(&self, profile: &Profile) -> String {
        let total = thousands(self.total_lines);
        let place = if self.lines == 1 {
            format!("line {} of {total}", thousands(self.first))
        } else if self.lines == self.last - self.first + 1 {
            format!(
                "lines {}-{} of {total}",
                thousands(self.first),
                thousands(self.last)
            )
        } else {
            format!(
                "{} between lines {} and {} of {total}",
                plural(self.lines, "line", "lines"),
                thousands(self.first),
                thousands(self.last)
            )
        };
        format!(
            "[shapeclip: {} drawn over in {place} omitted from this {}output ({}, ~{}); each \
             line shows its last frame. {}]",
            plural(self.frames, "progress frame", "progress frames"),
            tool_words(profile),
            plural(self.chars, "char", "chars"),
            tokens(self.chars),
            hint(&self.span(), profile),
        )
    }

    fn compact(&self, profile: &Profile) -> String {
        format!(
            "[shapeclip: {} of {} in {} omitted, ~{}{}]",
            plural(self.chars, "char", "chars"),
            plural(self.frames, "progress frame", "progress frames"),
            self.range(),
            tokens(self.chars),
            short_hint(self.first, self.last, profile),
        )
    }

    fn terse(&self) -> String {
        format!(
            "[{} in {} omitted]",
            plural(self.frames, "progress frame", "progress frames"),
            self.range()
        )
    }

    fn range(&self) -> String {
        if self.first == self.last {
            format!("line {}", self.first)
        } else {
            format!("lines {}-{}", self.first, self.last)
        }
    }

    /// The lines that hold every frame, as the clip's hints take them.
    fn span(&self) -> Span {
        Span::lines(self.first, self.last, self.total_lines, self.chars)
    }
}
