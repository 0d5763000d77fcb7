//! The facts of a run of bytes as bit masks, one bit per byte, found with a few vector
//! instructions: where a walk over a path or a short line costs several instructions a byte,
//! sixteen bytes cost a handful of compares.
//!
//! Used where the bytes are judged most often: a path's prefix ([`super::path`]) and the start
//! of every line the look-ahead judges ([`LineStart`]). Only x86-64 has them here (its SSE2 is
//! on every processor); elsewhere no masks are found and the callers walk.

use super::line::row_after;
use super::path::inside_time;

/// Sixteen bytes in a vector register, asked one fact at a time: each answer is a mask, bit `i`
/// about byte `i`.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy)]
struct Lanes(std::arch::x86_64::__m128i);

#[cfg(target_arch = "x86_64")]
#[allow(
    clippy::cast_possible_wrap,
    clippy::cast_sign_loss,
    reason = "bytes as the vector lanes' i8, and a 16-bit mask"
)]
impl Lanes {
    #[allow(
        clippy::unnecessary_wraps,
        reason = "None where no vector instructions are used"
    )]
    #[allow(clippy::cast_ptr_alignment, reason = "the load is the unaligned one")]
    fn load(chunk: &[u8; 16]) -> Option<Lanes> {
        use std::arch::x86_64::{__m128i, _mm_loadu_si128};
        // SAFETY: SSE2 is part of every x86-64 processor; the load reads the 16 bytes of
        // `chunk`, unaligned.
        Some(Lanes(unsafe {
            _mm_loadu_si128(chunk.as_ptr().cast::<__m128i>())
        }))
    }

    /// Bytes equal to `b`.
    fn is(self, b: u8) -> u32 {
        use std::arch::x86_64::{_mm_cmpeq_epi8, _mm_movemask_epi8, _mm_set1_epi8};
        // SAFETY: SSE2 is part of every x86-64 processor.
        unsafe { _mm_movemask_epi8(_mm_cmpeq_epi8(self.0, _mm_set1_epi8(b as i8))) as u32 }
    }

    /// Bytes in `from..=from + span`, as unsigned numbers.
    fn within(self, from: u8, span: u8) -> u32 {
        use std::arch::x86_64::{
            _mm_cmpeq_epi8, _mm_min_epu8, _mm_movemask_epi8, _mm_set1_epi8, _mm_sub_epi8,
        };
        // SAFETY: SSE2 is part of every x86-64 processor.
        unsafe {
            // `x <= span`: `min(x, span) == x`.
            let x = _mm_sub_epi8(self.0, _mm_set1_epi8(from as i8));
            let low = _mm_cmpeq_epi8(_mm_min_epu8(x, _mm_set1_epi8(span as i8)), x);
            _mm_movemask_epi8(low) as u32
        }
    }

    /// The bytes with bit `0x20` set: ASCII letters in lower case.
    fn folded(self) -> Lanes {
        use std::arch::x86_64::{_mm_or_si128, _mm_set1_epi8};
        // SAFETY: SSE2 is part of every x86-64 processor.
        Lanes(unsafe { _mm_or_si128(self.0, _mm_set1_epi8(0x20)) })
    }
}

/// Where no vector instructions are used, no masks are found.
#[cfg(not(target_arch = "x86_64"))]
#[derive(Clone, Copy)]
struct Lanes;

#[cfg(not(target_arch = "x86_64"))]
impl Lanes {
    fn load(_chunk: &[u8; 16]) -> Option<Lanes> {
        None
    }
    fn is(self, _b: u8) -> u32 {
        0
    }
    fn within(self, _from: u8, _span: u8) -> u32 {
        0
    }
    fn folded(self) -> Lanes {
        self
    }
}

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
