//! Sixteen bytes in a vector register, asked one fact at a time: each answer is a mask, one
//! bit per byte. Where a rule would walk bytes one by one to find a few kinds of byte, sixteen
//! cost a handful of compares. Only x86-64 has them here (its SSE2 is on every processor);
//! elsewhere [`Lanes::load`] gives `None` and the callers walk.

/// Sixteen bytes in a vector register, asked one fact at a time: each answer is a mask, bit `i`
/// about byte `i`.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy)]
pub(crate) struct Lanes(std::arch::x86_64::__m128i);

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
    pub(crate) fn load(chunk: &[u8; 16]) -> Option<Lanes> {
        use std::arch::x86_64::{__m128i, _mm_loadu_si128};
        // SAFETY: SSE2 is part of every x86-64 processor; the load reads the 16 bytes of
        // `chunk`, unaligned.
        Some(Lanes(unsafe {
            _mm_loadu_si128(chunk.as_ptr().cast::<__m128i>())
        }))
    }

    /// Bytes equal to `b`.
    pub(crate) fn is(self, b: u8) -> u32 {
        use std::arch::x86_64::{_mm_cmpeq_epi8, _mm_movemask_epi8, _mm_set1_epi8};
        // SAFETY: SSE2 is part of every x86-64 processor.
        unsafe { _mm_movemask_epi8(_mm_cmpeq_epi8(self.0, _mm_set1_epi8(b as i8))) as u32 }
    }

    /// Bytes in `from..=from + span`, as unsigned numbers.
    pub(crate) fn within(self, from: u8, span: u8) -> u32 {
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
    pub(crate) fn folded(self) -> Lanes {
        use std::arch::x86_64::{_mm_or_si128, _mm_set1_epi8};
        // SAFETY: SSE2 is part of every x86-64 processor.
        Lanes(unsafe { _mm_or_si128(self.0, _mm_set1_epi8(0x20)) })
    }
}

/// Where no vector instructions are used, no masks are found.
#[cfg(not(target_arch = "x86_64"))]
#[derive(Clone, Copy)]
pub(crate) struct Lanes;

#[cfg(not(target_arch = "x86_64"))]
impl Lanes {
    pub(crate) fn load(_chunk: &[u8; 16]) -> Option<Lanes> {
        None
    }
    pub(crate) fn is(self, _b: u8) -> u32 {
        0
    }
    pub(crate) fn within(self, _from: u8, _span: u8) -> u32 {
        0
    }
    pub(crate) fn folded(self) -> Lanes {
        self
    }
}
