//! The markers of plans of redrawn lines: how many frames were drawn over, in which lines, the
//! lines a plan of the output's ends left out, their characters, and the way back to them.

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
        range(self.first, self.last)
    }

    /// The lines that hold every frame, as the clip's hints take them.
    fn span(&self) -> Span {
        Span::lines(self.first, self.last, self.total_lines, self.chars)
    }
}

/// What a plan of the ends of an output left out: lines `first..=last` of `total_lines`
/// wholly, and the frames drawn over in the lines it shows, `chars` characters in all.
#[derive(Debug, Clone, Copy)]
pub struct Cut {
    pub first: u64,
    pub last: u64,
    pub total_lines: u64,
    pub chars: u64,
}

impl Cut {
    /// A cut whose every number is at least as long, printed, as any real cut's of an output
    /// of `total_lines` and `total_chars`.
    pub fn widest(total_lines: u64, total_chars: u64) -> Self {
        Cut {
            first: total_lines,
            last: total_lines.saturating_add(1),
            total_lines,
            chars: total_chars,
        }
    }

    /// The marker's wordings, longest first, each on one line without its `'\n'`.
    pub fn wordings(&self, profile: &Profile) -> [String; 3] {
        [self.full(profile), self.compact(profile), self.terse()]
    }

    fn full(&self, profile: &Profile) -> String {
        format!(
            "[shapeclip: {} of {} omitted from this {}output, and the progress frames drawn \
             over in the lines shown, which show their last: {} (~{}) in all. {}]",
            self.range(),
            thousands(self.total_lines),
            tool_words(profile),
            plural(self.chars, "char", "chars"),
            tokens(self.chars),
            hint(
                &Span::lines(self.first, self.last, self.total_lines, self.chars),
                profile
            ),
        )
    }

    fn compact(&self, profile: &Profile) -> String {
        format!(
            "[shapeclip: {} and progress frames omitted, {}, ~{}{}]",
            self.range(),
            plural(self.chars, "char", "chars"),
            tokens(self.chars),
            short_hint(self.first, self.last, profile),
        )
    }

    fn terse(&self) -> String {
        format!("[{} and progress frames omitted]", self.range())
    }

    fn range(&self) -> String {
        range(self.first, self.last)
    }
}

/// `line N` or `lines A-B`.
fn range(first: u64, last: u64) -> String {
    if first == last {
        format!("line {}", thousands(first))
    } else {
        format!("lines {}-{}", thousands(first), thousands(last))
    }
}
