//! Code points, as Python hands out a `str`'s characters (`PyUnicode_AsUCS4`), written as UTF-8.
//!
//! Python's own encoder takes a branch per character and has no fast way over ASCII: on a log
//! that is ASCII but for a few characters it cost more than all of the engine's reading, and
//! on one with a `✓` or a `│` every few characters, more than twice as much. Here a run of
//! [`LANES`] characters is narrowed in one go when it is ASCII. Otherwise, where the processor
//! has AVX2 (checked once a call), a run with no lone surrogate and nothing past U+FFFF, as
//! nearly all text is, is encoded at once: its characters narrowed to 16 bits, each one's
//! UTF-8 computed in its lane, and each four packed together by a shuffle chosen by their
//! lengths (see [`avx2`]); a run with a character past U+FFFF (an emoji) is encoded eight
//! characters at a time, each in a 32-bit lane. The rest (a lone surrogate near) are encoded
//! without a branch and stored as 4-byte words of which only each character's own bytes are
//! kept.
//! Without AVX2 that is no faster than Python's encoder on text dense in characters outside
//! ASCII (up to 45% slower on two such logs), so the binding asks [`vectorised`] first.

/// Characters looked at together: two 256-bit vectors of them.
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

/// Writes `points` run by run: with AVX2 when `AVX2`, sixteen characters at a time unless
/// one is a lone surrogate or past U+FFFF, and then each eight with no lone surrogate at a
/// time; else a run of ASCII narrowed, any other by [`Writer::mixed`]. Returns whether one was a lone surrogate. Inlined, so that the narrowing
/// is compiled for the caller's instructions.
///
/// # Safety
/// With `AVX2`, the processor must have AVX2.
#[inline]
unsafe fn write_runs<const AVX2: bool>(writer: &mut Writer, points: &[u32]) -> bool {
    let mut surrogates = false;
    let mut runs = points.chunks_exact(LANES);
    for run in &mut runs {
        let run: &[u32; LANES] = run.try_into().expect("chunks_exact gives LANES");
        #[cfg(target_arch = "x86_64")]
        if AVX2 {
            // SAFETY: room for 4 bytes a character (see `push_code_points`), and the caller
            // says the processor has AVX2.
            if unsafe { writer.basic_plane(run) } {
                continue;
            }
            // Text with characters past U+FFFF (emoji) has them a few in a run: eight at a
            // time they are written too.
            for half in run.chunks_exact(LANES / 2) {
                // SAFETY: as above.
                if !unsafe { writer.eight(half) } {
                    surrogates |= writer.mixed(half);
                }
            }
            continue;
        }
        if is_ascii(run) {
            writer.ascii(run);
        } else {
            surrogates |= writer.mixed(run);
        }
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

/// Sixteen characters at a time with AVX2: narrowed to 16-bit lanes, each character's UTF-8
/// computed in its lane and widened to a 32-bit word, then each four words packed together by
/// a shuffle chosen by their lengths.
#[cfg(target_arch = "x86_64")]
mod avx2 {
    use std::arch::x86_64::{
        __m256i, _mm_loadu_si128, _mm_storeu_si128, _mm256_and_si256, _mm256_andnot_si256,
        _mm256_blendv_epi8, _mm256_castsi256_ps, _mm256_castsi256_si128, _mm256_cmpeq_epi16,
        _mm256_cmpeq_epi32, _mm256_cmpgt_epi32, _mm256_extracti128_si256, _mm256_loadu_si256,
        _mm256_movemask_epi8, _mm256_movemask_ps, _mm256_or_si256, _mm256_packus_epi16,
        _mm256_packus_epi32, _mm256_permutevar8x32_epi32, _mm256_set_m128i, _mm256_set1_epi16,
        _mm256_set1_epi32, _mm256_setr_epi32, _mm256_setzero_si256, _mm256_shuffle_epi8,
        _mm256_slli_epi16, _mm256_slli_epi32, _mm256_srli_epi16, _mm256_srli_epi32,
        _mm256_testz_si256, _mm256_unpackhi_epi16, _mm256_unpacklo_epi16, _mm256_xor_si256,
    };

    use super::{LANES, Writer};

    /// How to pack four 32-bit words, each a character's UTF-8 first byte lowest, by their
    /// lengths: word `i` takes one byte, plus one if bit `2 * i` of the index is set, plus two
    /// if bit `2 * i + 1` is. The shuffle moves each word's bytes next to the last word's, and
    /// the length is how many bytes that makes.
    struct Packing {
        shuffles: [[u8; 16]; 256],
        lengths: [u8; 256],
    }

    static PACKING: Packing = packing();

    /// Four bits moved to the even places of a byte.
    #[allow(
        clippy::cast_possible_truncation,
        reason = "four bits spread over eight"
    )]
    const SPREAD: [u8; 16] = {
        let mut spread = [0u8; 16];
        let mut bits = 0;
        while bits < 16 {
            let mut bit = 0;
            while bit < 4 {
                spread[bits] |= (((bits >> bit) & 1) << (2 * bit)) as u8;
                bit += 1;
            }
            bits += 1;
        }
        spread
    };

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
            let mut word = 0;
            while word < 4 {
                let length = 1 + ((index >> (2 * word)) & 1) + 2 * ((index >> (2 * word + 1)) & 1);
                let mut byte = 0;
                while byte < length {
                    shuffles[index][at] = (4 * word + byte) as u8;
                    at += 1;
                    byte += 1;
                }
                word += 1;
            }
            lengths[index] = at as u8;
            index += 1;
        }
        Packing { shuffles, lengths }
    }

    /// [`super::write`] with sixteen characters encoded at a time.
    ///
    /// # Safety
    /// The processor must have AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn write(writer: &mut Writer, points: &[u32]) -> bool {
        // SAFETY: the caller says the processor has AVX2.
        unsafe { super::write_runs::<true>(writer, points) }
    }

    impl Writer {
        /// Writes sixteen characters when none is a lone surrogate or past U+FFFF (one to three
        /// bytes each) and returns true; else writes nothing and returns false.
        ///
        /// # Safety
        /// There must be room for 4 bytes a character, and the processor must have AVX2.
        #[target_feature(enable = "avx2")]
        #[allow(clippy::cast_possible_wrap, reason = "bit patterns for 16-bit lanes")]
        pub(super) unsafe fn basic_plane(&mut self, run: &[u32; LANES]) -> bool {
            let lanes = |value: u16| _mm256_set1_epi16(value as i16);
            // SAFETY: `run` holds 64 bytes.
            #[allow(clippy::cast_ptr_alignment, reason = "unaligned loads")]
            let (first, second) = unsafe {
                let at = run.as_ptr().cast::<__m256i>();
                (_mm256_loadu_si256(at), _mm256_loadu_si256(at.add(1)))
            };
            let any = _mm256_or_si256(first, second);
            if _mm256_testz_si256(any, _mm256_set1_epi32(0xFFFF_0000_u32 as i32)) == 0 {
                return false;
            }
            // 16-bit lanes: characters 0 to 3 and 8 to 11, then 4 to 7 and 12 to 15.
            let points = _mm256_packus_epi32(first, second);
            if _mm256_testz_si256(any, _mm256_set1_epi32(!0x7F)) != 0 {
                self.ascii_lanes(points);
                return true;
            }
            let surrogate =
                _mm256_cmpeq_epi16(_mm256_and_si256(points, lanes(0xF800)), lanes(0xD800));
            if _mm256_testz_si256(surrogate, surrogate) == 0 {
                return false;
            }
            let zero = _mm256_setzero_si256();
            let one_byte = _mm256_cmpeq_epi16(_mm256_and_si256(points, lanes(0xFF80)), zero);
            let two_at_most = _mm256_cmpeq_epi16(_mm256_and_si256(points, lanes(0xF800)), zero);
            let low6 = |v: __m256i| _mm256_and_si256(v, lanes(0x3F));
            // The last byte of two or three, 10xxxxxx, and the one before it of three.
            let last = _mm256_or_si256(low6(points), lanes(0x80));
            let middle = _mm256_or_si256(low6(_mm256_srli_epi16::<6>(points)), lanes(0x80));
            // Each lane's first two bytes, first lowest: 1110xxxx 10xxxxxx of three; below
            // U+0800 the middle byte is the first of two, 110xxxxx, followed by the last.
            let three = _mm256_or_si256(
                _mm256_or_si256(_mm256_srli_epi16::<12>(points), lanes(0xE0)),
                _mm256_slli_epi16::<8>(middle),
            );
            let two = _mm256_or_si256(
                _mm256_or_si256(middle, lanes(0x40)),
                _mm256_slli_epi16::<8>(last),
            );
            let leading = _mm256_blendv_epi8(
                _mm256_blendv_epi8(three, two, two_at_most),
                points,
                one_byte,
            );
            // Lengths, two bits a lane (two bytes: the low one; three: the high one), so that
            // each byte of the mask is the index of four characters' packing: characters 0 to
            // 3, 8 to 11, 4 to 7, 12 to 15.
            let lengths = _mm256_or_si256(
                _mm256_and_si256(_mm256_xor_si256(one_byte, two_at_most), lanes(0x00FF)),
                _mm256_andnot_si256(two_at_most, lanes(0xFF00)),
            );
            #[allow(clippy::cast_sign_loss, reason = "32 bits of a mask")]
            let mask = _mm256_movemask_epi8(lengths) as u32;
            let index = |quarter: u32| ((mask >> (8 * quarter)) & 0xFF) as usize;
            // SAFETY: room for 4 bytes a character, and `put` writes at most 12 bytes past
            // the last, 16 at a time: 3 * 12 + 16 bytes at most of the room for sixteen.
            unsafe {
                self.put(_mm256_unpacklo_epi16(leading, last), index(0), index(2));
                self.put(_mm256_unpackhi_epi16(leading, last), index(1), index(3));
            }
            true
        }

        /// Writes eight characters when none is a lone surrogate and returns true; else writes
        /// nothing and returns false.
        ///
        /// # Safety
        /// `eight` holds eight code points, there must be room for 4 bytes each, and the
        /// processor must have AVX2.
        #[target_feature(enable = "avx2")]
        #[allow(clippy::cast_possible_wrap, reason = "bit patterns for 32-bit lanes")]
        pub(super) unsafe fn eight(&mut self, eight: &[u32]) -> bool {
            debug_assert_eq!(eight.len(), 8);
            let lanes = |value: u32| _mm256_set1_epi32(value as i32);
            // SAFETY: `eight` holds 32 bytes.
            #[allow(clippy::cast_ptr_alignment, reason = "an unaligned load")]
            let points = unsafe { _mm256_loadu_si256(eight.as_ptr().cast::<__m256i>()) };
            let surrogate =
                _mm256_cmpeq_epi32(_mm256_and_si256(points, lanes(0xFFFF_F800)), lanes(0xD800));
            if _mm256_testz_si256(surrogate, surrogate) == 0 {
                return false;
            }
            // Code points are at most U+10FFFF, so signed comparisons order them.
            let two = _mm256_cmpgt_epi32(points, lanes(0x7F));
            let three = _mm256_cmpgt_epi32(points, lanes(0x7FF));
            let four = _mm256_cmpgt_epi32(points, lanes(0xFFFF));
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
            // Four bytes: 11110xxx 10xxxxxx 10xxxxxx 10xxxxxx.
            let four_bytes = _mm256_or_si256(
                _mm256_or_si256(
                    _mm256_srli_epi32::<18>(points),
                    _mm256_slli_epi32::<8>(low6(_mm256_srli_epi32::<12>(points))),
                ),
                _mm256_or_si256(
                    _mm256_or_si256(
                        _mm256_slli_epi32::<16>(low6(_mm256_srli_epi32::<6>(points))),
                        _mm256_slli_epi32::<24>(low6(points)),
                    ),
                    lanes(0x8080_80F0),
                ),
            );
            let words = _mm256_blendv_epi8(
                _mm256_blendv_epi8(
                    _mm256_blendv_epi8(points, two_bytes, two),
                    three_bytes,
                    three,
                ),
                four_bytes,
                four,
            );
            #[allow(clippy::cast_sign_loss, reason = "eight bits of a mask")]
            let mask = |v: __m256i| _mm256_movemask_ps(_mm256_castsi256_ps(v)) as usize;
            // Each lane's length less one, in two bits (see `Packing`): the low one is set for
            // two bytes and for four, the high one for three and for four.
            let (odd, high) = (mask(two) ^ mask(three) ^ mask(four), mask(three));
            // The packing's index has a lane's two bits side by side.
            let index = |shift: usize| {
                usize::from(SPREAD[(odd >> shift) & 0xF] | SPREAD[(high >> shift) & 0xF] << 1)
            };
            // SAFETY: room for 4 bytes a character, and `put` writes 16 bytes past the first
            // four's, 16 at a time: at most 16 + 16 bytes, the room for eight.
            unsafe { self.put(words, index(0), index(4)) };
            true
        }

        /// Writes eight characters whose words are `words`, packed by `low` (of the first
        /// four) and `high` (of the last four).
        ///
        /// # Safety
        /// There must be room for 16 bytes past the first four's packed bytes and 16 past all
        /// eight's, and the processor must have AVX2.
        #[target_feature(enable = "avx2")]
        unsafe fn put(&mut self, words: __m256i, low: usize, high: usize) {
            let shuffle = |index: usize| {
                // SAFETY: a shuffle is 16 bytes.
                unsafe { _mm_loadu_si128(PACKING.shuffles[index].as_ptr().cast()) }
            };
            let packed = _mm256_shuffle_epi8(words, _mm256_set_m128i(shuffle(high), shuffle(low)));
            let low_length = usize::from(PACKING.lengths[low]);
            // SAFETY: the caller says there is room.
            unsafe {
                let out = self.base.add(self.at);
                _mm_storeu_si128(out.cast(), _mm256_castsi256_si128(packed));
                _mm_storeu_si128(
                    out.add(low_length).cast(),
                    _mm256_extracti128_si256::<1>(packed),
                );
            }
            self.at += low_length + usize::from(PACKING.lengths[high]);
        }

        /// Writes sixteen ASCII characters in the 16-bit lanes `points` (in the order of
        /// [`Self::basic_plane`]), a byte each.
        #[target_feature(enable = "avx2")]
        fn ascii_lanes(&mut self, points: __m256i) {
            // Bytes in 32-bit groups: characters 0 to 3 and 8 to 11 (twice), then 4 to 7 and
            // 12 to 15; put in order.
            let bytes = _mm256_packus_epi16(points, points);
            let ordered =
                _mm256_permutevar8x32_epi32(bytes, _mm256_setr_epi32(0, 4, 1, 5, 0, 0, 0, 0));
            // SAFETY: the room for 4 bytes a character covers 1 each.
            unsafe {
                _mm_storeu_si128(
                    self.base.add(self.at).cast(),
                    _mm256_castsi256_si128(ordered),
                );
            }
            self.at += LANES;
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

    /// Code points of every width, both sides of the surrogates, and a lone surrogate of each
    /// half.
    const SAMPLES: [u32; 13] = [
        0x41, 0x0A, 0x7F, 0x80, 0xE9, 0x7FF, 0x800, 0x2502, 0xD800, 0xDFFF, 0xFFFD, 0xFFFF,
        0x1_F600,
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
                    assert_eq!(surrogates, (0xD800..0xE000).contains(&sample));
                }
            }
        }
    }

    /// Every mix of one, two, three and four bytes in eight characters, as the first and as
    /// the second half of a run of sixteen beside another mix, so that each four of a run
    /// takes every packing.
    #[test]
    fn every_mix_of_widths_in_eight_characters() {
        let widths = [0x61, 0xE9, 0x2502, 0x1_F600];
        let mixes = 4usize.pow(8);
        let mix = |n: usize| (0..8u32).map(move |i| widths[n / 4usize.pow(i) % 4]);
        for n in 0..mixes {
            let other = (n * 7 + 1) % mixes;
            for points in [
                mix(n).chain(mix(other)).collect::<Vec<u32>>(),
                mix(other).chain(mix(n)).collect(),
            ] {
                assert_eq!(encoded(&points), (expected(&points), false), "mix {n}");
            }
        }
    }

    /// Runs of sixteen drawn from characters at the edges of each width, of the surrogates and
    /// of the basic plane, mostly ASCII or mostly not, at every offset into a run.
    #[test]
    fn random_runs_of_every_kind_agree() {
        let edges = [
            0x0, 0x20, 0x7F, 0x80, 0xFF, 0x100, 0x7FF, 0x800, 0xFFF, 0x1000, 0x2713, 0xD7FF,
            0xD800, 0xDBFF, 0xDC00, 0xDFFF, 0xE000, 0xFFFD, 0xFFFF, 0x1_0000, 0x1_F600, 0x10_FFFF,
        ];
        let mut state = 0x2545_F491_4F6C_DD1D_u64;
        let mut next = move |below: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            usize::try_from(state % below as u64).expect("below a usize")
        };
        for _ in 0..20_000 {
            let ascii_share = next(100);
            let len = LANES + next(3 * LANES);
            let points: Vec<u32> = (0..len)
                .map(|_| {
                    if next(100) < ascii_share {
                        0x61
                    } else {
                        edges[next(edges.len())]
                    }
                })
                .collect();
            let (out, surrogates) = encoded(&points);
            assert_eq!(out, expected(&points), "{points:x?}");
            assert_eq!(
                surrogates,
                points.iter().any(|p| (0xD800..0xE000).contains(p))
            );
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
