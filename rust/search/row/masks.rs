//! The facts of a run of bytes as bit masks, one bit per byte, found with a few vector
//! instructions: where a walk over a path or a short line costs several instructions a byte,
//! sixteen bytes cost a handful of compares.
//!
//! Used where the bytes are judged most often: a path's prefix ([`super::path`]) and the start
//! of every line the look-ahead judges ([`LineStart`]). Only x86-64 has them here (its SSE2 is
//! on every processor); elsewhere no masks are found and the callers walk.

use super::syntax::{inside_time, row_after};
use crate::lanes::Lanes;

/// The facts of sixteen bytes of a path's prefix that [`super::path`] gathers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Masks {
    pub colon: u32,
    /// `/` or `\`.
    pub slash: u32,
    pub dot: u32,
    pub space: u32,
    /// Below `0x20`, or `0x7f`.
    pub control: u32,
    pub alphabetic: u32,
    pub lowercase: u32,
}

impl Masks {
    /// The facts of `chunk`; `None` where no vector instructions find them.
    #[must_use]
    pub fn of(chunk: &[u8; 16]) -> Option<Masks> {
        let v = Lanes::load(chunk)?;
        Some(Masks {
            colon: v.is(b':'),
            slash: v.is(b'/') | v.is(b'\\'),
            dot: v.is(b'.'),
            space: v.is(b' '),
            control: v.within(0, 0x1f) | v.is(0x7f),
            alphabetic: v.folded().within(b'a', 25),
            lowercase: v.within(b'a', 25),
        })
    }
}

/// The first 32 bytes from a line's start, as masks: enough to find the end of most lines of a
/// flood and to judge their first place, without a search for each and a walk.
#[derive(Debug, Clone, Copy)]
pub struct LineStart {
    newline: u32,
    /// `:` or `-`: where a path may end.
    place: u32,
    slash: u32,
    dot: u32,
    /// A space or a control byte: no path of the first rank holds one.
    blank: u32,
}

impl LineStart {
    /// The masks of `window`; `None` where no vector instructions find them.
    #[must_use]
    pub fn of(window: &[u8; 32]) -> Option<LineStart> {
        let (low, high) = window.split_at(16);
        let low = Lanes::load(low.try_into().ok()?)?;
        let high = Lanes::load(high.try_into().ok()?)?;
        let both = |fact: &dyn Fn(Lanes) -> u32| fact(low) | (fact(high) << 16);
        Some(LineStart {
            newline: both(&|v| v.is(b'\n')),
            place: both(&|v| v.is(b':') | v.is(b'-')),
            slash: both(&|v| v.is(b'/') | v.is(b'\\')),
            dot: both(&|v| v.is(b'.')),
            blank: both(&|v| v.within(0, 0x20) | v.is(0x7f)),
        })
    }

    /// Bytes of the line, when it ends in the window.
    #[must_use]
    pub fn line_len(&self) -> Option<usize> {
        (self.newline != 0).then(|| self.newline.trailing_zeros() as usize)
    }

    /// What [`super::path::sure_first_place`] says of `line`, the line the window starts, when
    /// the masks can tell. The masks stand for the walk over the path: no blank, no `:` before
    /// the place (so no URL), the last separator, and an extension after the last dot.
    #[must_use]
    pub fn first_place(&self, line: &str) -> FirstPlace {
        let bytes = line.as_bytes();
        let in_line = u32::MAX
            .checked_shr(32 - u32::try_from(line.len().min(32)).unwrap_or(32))
            .unwrap_or(0);
        // The first place after the first byte, as `Readings::next` looks.
        let places = self.place & in_line & !1;
        let Some(&first) = bytes.first() else {
            return FirstPlace::Unseen;
        };
        if places == 0 || first == b':' || first == b'-' {
            return FirstPlace::Unseen;
        }
        let at = places.trailing_zeros() as usize;
        let before = (1u32 << at) - 1;
        // A path that starts so is no path (see `Prefix::is_path`).
        if matches!(
            first,
            b'[' | b'(' | b'<' | b'{' | b'"' | b'\'' | b'#' | b'*'
        ) || self.blank & before != 0
        {
            return FirstPlace::NotSure;
        }
        let name_start = match self.slash & before {
            0 => 0,
            slashes => 32 - slashes.leading_zeros() as usize,
        };
        let dots = self.dot & before & !((1u32 << name_start) - 1);
        if dots == 0 {
            return FirstPlace::NotSure;
        }
        let dot = 31 - dots.leading_zeros() as usize;
        // The extension: one to ten letters and digits, one a letter at least.
        let extension = &bytes[dot + 1..at];
        let sure = (1..=10).contains(&extension.len())
            && extension.iter().all(u8::is_ascii_alphanumeric)
            && extension.iter().any(u8::is_ascii_alphabetic)
            && (dot > name_start || at - name_start > 1);
        match row_after(bytes, at) {
            Some(row) if sure && !inside_time(bytes, &row) => FirstPlace::Sure(at, name_start),
            _ => FirstPlace::NotSure,
        }
    }
}

/// What the masks of a line's start tell of its first place ([`LineStart::first_place`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FirstPlace {
    /// Sure: the path's length, and its directory's.
    Sure(usize, usize),
    /// In the window and not sure: only a later place may be.
    NotSure,
    /// Past the window, or after a first byte that may begin a URL's `://`: the masks cannot
    /// tell.
    Unseen,
}
