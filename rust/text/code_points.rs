//! Code points, as Python hands out a `str`'s characters (`PyUnicode_AsUCS4`), written as UTF-8.
//!
//! Python's own encoder takes a branch per character and has no fast way over ASCII: on a log
//! that is ASCII but for a few characters it cost more than all of the engine's reading, and
//! on one with a `✓` or a `│` every few characters, more than twice as much. Here a run of
//! [`LANES`] characters is narrowed in one go when it is ASCII. Otherwise, where the processor
//! has AVX2 (checked once a call), eight characters below the surrogates, as nearly all text
//! is, are encoded at once and packed together by one shuffle (see [`avx2`]); the rest are
//! encoded without a branch and stored as 4-byte words of which only each character's own
//! bytes are kept.
//! Without AVX2 that is no faster than Python's encoder on text dense in characters outside
//! ASCII (up to 45% slower on two such logs), so the binding asks [`vectorised`] first.

/// Characters looked at together: four 128-bit vectors of them.
const LANES: usize = 16;

/// What a lone surrogate becomes: one character for one, so every count stays the same, as
/// the Python facade replaces them (`api._valid_str`).
const REPLACEMENT: u32 = 0xFFFD;

/// Appends `points` to `out` as UTF-8 and returns whether one of them was a lone surrogate,
/// which cannot be encoded and was written as U+FFFD. Every value is a code point (at most
/// U+10FFFF), as Python's `str` holds.
pub fn push_code_points(out: &mut String, points: &[u32]) -> bool {
    push_with(out, points, vectorised())
}

/// Whether this processor writes characters outside ASCII eight at a time (it has AVX2).
#[must_use]
pub fn vectorised() -> bool {
    #[cfg(target_arch = "x86_64")]
    return std::arch::is_x86_feature_detected!("avx2");
    #[cfg(not(target_arch = "x86_64"))]
    return false;
}

/// [`push_code_points`], with AVX2 only when `avx2` (which the processor must then have).
fn push_with(out: &mut String, points: &[u32], avx2: bool) -> bool {
    debug_assert!(points.iter().all(|&p| p <= 0x10_FFFF));
    // Room for 4 bytes per character: each store below writes a whole 4-byte word.
    out.reserve(4 * points.len());
    // SAFETY: the bytes written below are whole UTF-8 sequences (see `utf8_word`), so `out`
    // stays valid UTF-8; `Writer` writes only into the room reserved above.
    let bytes = unsafe { out.as_mut_vec() };
    let mut writer = Writer {
        at: bytes.len(),
        base: bytes.as_mut_ptr(),
    };
    #[cfg(target_arch = "x86_64")]
    let surrogates = if avx2 {
        // SAFETY: the caller says the processor has AVX2.
        unsafe { avx2::write(&mut writer, points) }
    } else {
        write(&mut writer, points)
    };
    #[cfg(not(target_arch = "x86_64"))]
    let surrogates = {
        debug_assert!(!avx2);
        write(&mut writer, points)
    };
    // SAFETY: `writer.at` bytes are initialised: the old content and the sequences written.
    unsafe { bytes.set_len(writer.at) };
    surrogates
}

/// Writes `points` with no instructions past the target's baseline; returns whether one was a
/// lone surrogate.
fn write(writer: &mut Writer, points: &[u32]) -> bool {
    // SAFETY: no AVX2 is asked for.
    unsafe { write_runs::<false>(writer, points) }
}

/// Writes `points` run by run: a run of ASCII narrowed, any other by [`Writer::mixed`], or
/// eight characters at a time with AVX2 when `AVX2`; returns whether one was a lone surrogate.
/// Inlined, so that the narrowing is compiled for the caller's instructions.
///
/// # Safety
/// With `AVX2`, the processor must have AVX2.
#[inline]
unsafe fn write_runs<const AVX2: bool>(writer: &mut Writer, points: &[u32]) -> bool {
    let mut surrogates = false;
    let mut runs = points.chunks_exact(LANES);
    for run in &mut runs {
        let run: &[u32; LANES] = run.try_into().expect("chunks_exact gives LANES");
        if is_ascii(run) {
            writer.ascii(run);
            continue;
        }
        #[cfg(target_arch = "x86_64")]
        if AVX2 {
            for half in run.chunks_exact(LANES / 2) {
                // SAFETY: eight code points, room for 4 bytes each (see `push_code_points`),
                // and the caller says the processor has AVX2.
                if !unsafe { writer.below_surrogates(half) } {
                    surrogates |= writer.mixed(half);
                }
            }
            continue;
        }
        surrogates |= writer.mixed(run);
    }
    surrogates | writer.mixed(runs.remainder())
}

fn is_ascii(run: &[u32; LANES]) -> bool {
    run.iter().fold(0, |all, &p| all | p) < 0x80
}

/// Writes UTF-8 into a buffer with room for 4 bytes per character still to come.
struct Writer {
    base: *mut u8,
    at: usize,
}

impl Writer {
    /// Writes a run of ASCII characters, a byte each.
    fn ascii(&mut self, run: &[u32; LANES]) {
        #[allow(clippy::cast_possible_truncation, reason = "ASCII: each is below 0x80")]
        let narrowed: [u8; LANES] = run.map(|p| p as u8);
        // SAFETY: the room for 4 bytes a character covers 1 each (see `push_code_points`).
        unsafe {
            self.base
                .add(self.at)
                .cast::<[u8; LANES]>()
                .write_unaligned(narrowed);
        }
        self.at += LANES;
    }

    /// Writes up to [`LANES`] characters of any kind; returns whether one was a lone surrogate.
    fn mixed(&mut self, run: &[u32]) -> bool {
        let mut words = [0u32; LANES];
        let mut lengths = [0u32; LANES];
        let mut surrogates = false;
        // No branch in here, so the lanes are computed side by side.
        for ((&point, word), length) in run.iter().zip(&mut words).zip(&mut lengths) {
            let surrogate = point & 0xFFFF_F800 == 0xD800;
            surrogates |= surrogate;
            (*word, *length) = utf8_word(if surrogate { REPLACEMENT } else { point });
        }
        for (&word, &length) in words.iter().zip(&lengths).take(run.len()) {
            // SAFETY: room for 4 bytes a character (see `push_code_points`); the bytes past
            // the character's own are overwritten by the next one or left past the end.
            unsafe {
                self.base
                    .add(self.at)
                    .cast::<u32>()
                    .write_unaligned(word.to_le());
            }
            self.at += length as usize;
        }
        surrogates
    }
}

/// The UTF-8 bytes of the scalar value `point`, first byte lowest, and how many they are.
fn utf8_word(point: u32) -> (u32, u32) {
    let length =
        1 + u32::from(point >= 0x80) + u32::from(point >= 0x800) + u32::from(point >= 0x1_0000);
    let low = 0x80 | (point & 0x3F);
    let mid = 0x80 | ((point >> 6) & 0x3F);
    let high = 0x80 | ((point >> 12) & 0x3F);
    let word = match length {
        1 => point,
        2 => (0xC0 | (point >> 6)) | low << 8,
        3 => (0xE0 | (point >> 12)) | mid << 8 | low << 16,
        _ => (0xF0 | (point >> 18)) | high << 8 | mid << 16 | low << 24,
    };
    (word, length)
}

/// Eight characters at a time with AVX2: each character's UTF-8 computed in its 32-bit lane,
/// then each 128-bit half's lanes packed together by a shuffle chosen by their lengths.
#[cfg(target_arch = "x86_64")]
mod avx2 {
    use std::arch::x86_64::{
        __m256i, _mm_loadu_si128, _mm_storeu_si128, _mm256_and_si256, _mm256_blendv_epi8,
        _mm256_castsi256_ps, _mm256_castsi256_si128, _mm256_cmpgt_epi32, _mm256_extracti128_si256,
        _mm256_loadu_si256, _mm256_movemask_epi8, _mm256_movemask_ps, _mm256_or_si256,
        _mm256_set_m128i, _mm256_set1_epi32, _mm256_shuffle_epi8, _mm256_slli_epi32,
        _mm256_srli_epi32,
    };

    use super::Writer;

    /// How to pack four lanes, by which of them take more than one byte (bits 0 to 3) and
    /// which more than two (bits 4 to 7): the shuffle that moves each lane's bytes next to
    /// the last lane's, and how many bytes that makes.
    struct Packing {
        shuffles: [[u8; 16]; 256],
        lengths: [u8; 256],
    }

    static PACKING: Packing = packing();

    #[allow(
        clippy::cast_possible_truncation,
        reason = "byte places and lengths are at most 16"
    )]
    const fn packing() -> Packing {
        // 0x80 in a shuffle clears the byte: what follows the packed bytes is overwritten.
        let mut shuffles = [[0x80u8; 16]; 256];
        let mut lengths = [0u8; 256];
        let mut index = 0;
        while index < 256 {
            let mut at = 0;
            let mut lane = 0;
            while lane < 4 {
                let length = 1 + ((index >> lane) & 1) + ((index >> (lane + 4)) & 1);
                let mut byte = 0;
                while byte < length {
                    shuffles[index][at] = (4 * lane + byte) as u8;
                    at += 1;
                    byte += 1;
                }
                lane += 1;
            }
            lengths[index] = at as u8;
            index += 1;
        }
        Packing { shuffles, lengths }
    }

    /// [`super::write`] with eight characters below U+D800 encoded at a time.
    ///
    /// # Safety
    /// The processor must have AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn write(writer: &mut Writer, points: &[u32]) -> bool {
        // SAFETY: the caller says the processor has AVX2.
        unsafe { super::write_runs::<true>(writer, points) }
    }

    impl Writer {
        /// Writes eight characters when all are below U+D800 (one to three bytes each, no
        /// surrogate among them) and returns true; else writes nothing and returns false.
        ///
        /// # Safety
        /// `eight` holds eight code points and there is room for 4 bytes each.
        #[target_feature(enable = "avx2")]
        pub(super) unsafe fn below_surrogates(&mut self, eight: &[u32]) -> bool {
            debug_assert_eq!(eight.len(), 8);
            let lanes = |value: i32| _mm256_set1_epi32(value);
            // SAFETY: `eight` holds 32 bytes.
            #[allow(clippy::cast_ptr_alignment, reason = "an unaligned load")]
            let points = unsafe { _mm256_loadu_si256(eight.as_ptr().cast::<__m256i>()) };
            // Code points are at most U+10FFFF, so signed comparisons order them.
            let rare = _mm256_cmpgt_epi32(points, lanes(0xD7FF));
            if _mm256_movemask_epi8(rare) != 0 {
                return false;
            }
            let two = _mm256_cmpgt_epi32(points, lanes(0x7F));
            let three = _mm256_cmpgt_epi32(points, lanes(0x7FF));
            let low6 = |v: __m256i| _mm256_and_si256(v, lanes(0x3F));
            // Three bytes, first lowest: 1110xxxx 10xxxxxx 10xxxxxx.
            let three_bytes = _mm256_or_si256(
                _mm256_or_si256(
                    _mm256_srli_epi32::<12>(points),
                    _mm256_slli_epi32::<8>(low6(_mm256_srli_epi32::<6>(points))),
                ),
                _mm256_or_si256(_mm256_slli_epi32::<16>(low6(points)), lanes(0x0080_80E0)),
            );
            // Below U+0800 the last two of those bytes, the first marked 110xxxxx.
            let two_bytes = _mm256_or_si256(_mm256_srli_epi32::<8>(three_bytes), lanes(0x40));
            let words = _mm256_blendv_epi8(
                _mm256_blendv_epi8(points, two_bytes, two),
                three_bytes,
                three,
            );
            #[allow(clippy::cast_sign_loss, reason = "eight bits of a mask")]
            let mask = |v: __m256i| _mm256_movemask_ps(_mm256_castsi256_ps(v)) as usize;
            let (two, three) = (mask(two), mask(three));
            let low = (two & 0xF) | (three & 0xF) << 4;
            let high = (two >> 4) | (three >> 4) << 4;
            let shuffle = |index: usize| {
                // SAFETY: a shuffle is 16 bytes.
                unsafe { _mm_loadu_si128(PACKING.shuffles[index].as_ptr().cast()) }
            };
            let packed = _mm256_shuffle_epi8(words, _mm256_set_m128i(shuffle(high), shuffle(low)));
            let low_length = usize::from(PACKING.lengths[low]);
            // SAFETY: the two 16-byte stores end at most 12 + 16 bytes on, within the 32 bytes
            // of room for eight characters.
            unsafe {
                let out = self.base.add(self.at);
                _mm_storeu_si128(out.cast(), _mm256_castsi256_si128(packed));
                _mm_storeu_si128(
                    out.add(low_length).cast(),
                    _mm256_extracti128_si256::<1>(packed),
                );
            }
            self.at += low_length + usize::from(PACKING.lengths[high]);
            true
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `points` after some text, by every writer this processor can run: they must agree.
    fn encoded(points: &[u32]) -> (String, bool) {
        let by = |avx2| {
            let mut out = String::from("before:");
            let surrogates = push_with(&mut out, points, avx2);
            (out, surrogates)
        };
        let plain = by(false);
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            assert_eq!(
                by(true),
                plain,
                "AVX2 and plain writers differ on {points:x?}"
            );
        }
        plain
    }

    /// Code points of every width, and a lone surrogate of each half.
    const SAMPLES: [u32; 10] = [
        0x41, 0x0A, 0x7F, 0x80, 0xE9, 0x7FF, 0x800, 0x2502, 0xD800, 0x1_F600,
    ];

    fn expected(points: &[u32]) -> String {
        let text: String = points
            .iter()
            .map(|&p| char::from_u32(p).unwrap_or('\u{FFFD}'))
            .collect();
        format!("before:{text}")
    }

    #[test]
    fn every_width_at_every_place_of_a_run() {
        for len in 0..=3 * LANES + 1 {
            for at in 0..len {
                for &sample in &SAMPLES {
                    let mut points: Vec<u32> = (0x61..0x7B).cycle().take(len).collect();
                    points[at] = sample;
                    let (out, surrogates) = encoded(&points);
                    assert_eq!(out, expected(&points), "{sample:#x} at {at} of {len}");
                    assert_eq!(surrogates, sample == 0xD800);
                }
            }
        }
    }

    #[test]
    fn every_mix_of_widths_in_eight_characters() {
        let widths = [0x61, 0xE9, 0x2502];
        for mix in 0..3usize.pow(8) {
            let points: Vec<u32> = (0..16)
                .map(|i| widths[mix / 3usize.pow(i % 8) % 3])
                .collect();
            assert_eq!(encoded(&points), (expected(&points), false), "mix {mix}");
        }
    }

    #[test]
    fn mixed_runs_and_the_edges_of_each_width() {
        let edges = [
            0x0, 0x7F, 0x80, 0x7FF, 0x800, 0xD7FF, 0xDBFF, 0xDC00, 0xDFFF, 0xE000, 0xFFFD, 0xFFFF,
            0x1_0000, 0x10_FFFF,
        ];
        let points: Vec<u32> = edges
            .iter()
            .cycle()
            .take(edges.len() * 7)
            .copied()
            .collect();
        let (out, surrogates) = encoded(&points);
        assert_eq!(out, expected(&points));
        assert!(surrogates);
        let ascii: Vec<u32> = (0..1000).map(|i| i % 128).collect();
        assert_eq!(encoded(&ascii), (expected(&ascii), false));
    }
}
