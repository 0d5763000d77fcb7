//! The markers of a gapped plan: a short one in each gap between shown lines, and a closing one
//! that counts every omitted line and says how to read them back.
//!
//! With one gap the closing marker says what the clip's says, in the same words; with several
//! it counts the lines in all of them and names the range that holds them all, which is what
//! an agent reads back in one call.

use crate::clip::marker::{Span, hint, short_hint, tool_words};
use crate::markers::{plural, thousands, tokens, widest_len, width};
use crate::plan::LineRange;
use crate::profile::Profile;

/// Closing marker sizes, longest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tier {
    Full,
    /// The numbers and the way back.
    Compact,
    /// The numbers alone, where the way back makes the compact wording too long.
    Counted,
    Terse,
}

pub const TIERS: [Tier; 4] = [Tier::Full, Tier::Compact, Tier::Counted, Tier::Terse];

/// What a read plan omitted: `lines` lines with `chars` characters in `gaps` gaps, all of them
/// in lines `first..=last` of `total_lines`.
#[derive(Debug, Clone, Copy)]
pub struct Facts {
    pub first: u64,
    pub last: u64,
    pub total_lines: u64,
    pub lines: u64,
    pub gaps: u64,
    pub chars: u64,
}

impl Facts {
    /// Facts whose every number prints at least as wide as any real one of an input with
    /// these totals.
    #[must_use]
    pub fn widest(total_lines: u64, total_chars: u64) -> Self {
        Facts {
            first: total_lines,
            last: total_lines.saturating_add(1),
            total_lines,
            lines: total_lines,
            gaps: total_lines,
            chars: total_chars,
        }
    }

    /// The longest closing marker in `tier` of any input with these facts' totals: one gap and
    /// several are worded differently.
    #[must_use]
    pub fn closing_len(&self, tier: Tier, profile: &Profile) -> u64 {
        let one = Facts { gaps: 1, ..*self };
        // A hint names the first line and how many follow (`offset A limit N`), each at most
        // the total: a last line this far on prints both as wide as the total at once.
        let wide_limit = |f: Facts| Facts {
            last: f.first.saturating_mul(2),
            ..f
        };
        widest_len([*self, one, wide_limit(*self), wide_limit(one)], |facts| {
            facts.closing(tier, profile)
        })
    }

    /// The longest gap marker of any input with these facts' totals.
    #[must_use]
    pub fn gap_len(&self) -> u64 {
        "[lines - omitted]".len() as u64 + width(self.first) + width(self.last)
    }

    /// The closing marker, on one line without its `'\n'`. The shorter tiers count the lines
    /// of all the gaps, whose own markers say where each is, and name the range that holds them.
    #[must_use]
    pub fn closing(&self, tier: Tier, profile: &Profile) -> String {
        let printed = profile.printed_lines(self.first, self.last);
        let (a, b) = printed.unwrap_or((self.first, self.last));
        let total = thousands(self.total_lines);
        // A numbered read's numbers are its viewer's, which count no lines of the output.
        let of_total = if printed.is_some() {
            String::new()
        } else {
            format!(" of {total}")
        };
        let (a, b) = (thousands(a), thousands(b));
        let (n, gaps) = (thousands(self.lines), plural(self.gaps, "gap", "gaps"));
        let one = self.gaps == 1;
        match tier {
            Tier::Full => {
                let tool = tool_words(profile);
                let place = if one {
                    format!("lines {a}-{b}{of_total}")
                } else {
                    format!("{n} of {total} lines in {gaps} between lines {a} and {b}")
                };
                format!(
                    "[shapeclip: {place} omitted from this {tool}output ({}, {}, ~{}). {}]",
                    plural(self.lines, "line", "lines"),
                    plural(self.chars, "char", "chars"),
                    tokens(self.chars),
                    hint(&self.span(), profile),
                )
            }
            Tier::Compact | Tier::Counted => {
                let back = if tier == Tier::Compact {
                    short_hint(self.first, self.last, profile)
                } else {
                    String::new()
                };
                if one {
                    format!(
                        "[shapeclip: lines {a}-{b}{of_total} omitted, ~{}{back}]",
                        tokens(self.chars)
                    )
                } else {
                    format!(
                        "[shapeclip: {n} of {total} lines omitted, ~{}{back}]",
                        tokens(self.chars)
                    )
                }
            }
            Tier::Terse if one => labelled_gap(self.said(profile), ""),
            Tier::Terse => format!("[{n} lines in {gaps} omitted]"),
        }
    }

    /// The range that holds every gap, numbered as a marker names it ([`said`]).
    fn said(&self, profile: &Profile) -> LineRange {
        said(
            LineRange {
                first: self.first,
                last: self.last,
            },
            profile,
        )
    }

    /// The range that holds every gap, as the clip's hints take it.
    fn span(&self) -> Span {
        Span::lines(self.first, self.last, self.total_lines, self.chars)
    }
}

/// The marker in a gap between shown lines, on one line without its `'\n'`, saying what its
/// lines hold: `label` is empty or `": ..."` (a diff's gap counts the files, hunks and added
/// and removed lines it hides).
#[must_use]
pub fn labelled_gap(range: LineRange, label: &str) -> String {
    if range.first == range.last {
        format!("[line {} omitted{label}]", range.first)
    } else {
        format!("[lines {}-{} omitted{label}]", range.first, range.last)
    }
}

/// `range` of output lines numbered as a marker names it: a numbered read's lines as its viewer
/// numbered them ([`Profile::printed_lines`]), any other as they are.
#[must_use]
pub fn said(range: LineRange, profile: &Profile) -> LineRange {
    profile
        .printed_lines(range.first, range.last)
        .map_or(range, |(first, last)| LineRange { first, last })
}
