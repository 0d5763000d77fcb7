//! The bytes of a line where a rule has something to look at, found sixteen at a time.
//!
//! Several rules walk a line byte by byte only to stop at a few kinds of byte: the keyword walk
//! at a letter that may start a keyword, the note test at a colon. On a log whose every line
//! reaches them, the walk over the bytes in between was most of their cost. [`first_marked`]
//! finds the bytes to stop at sixteen at a time with vector compares (see [`Lanes`]) and visits
//! only those, in order.

use crate::lanes::Lanes;

/// Bytes tested at once.
const LANES: usize = 16;

/// Which bytes a rule stops at: the same set asked of sixteen bytes at once, and of one.
pub(super) trait Marks {
    /// Bit `i` set for each byte `i` of `lanes` in the set.
    fn lanes(&self, lanes: Lanes) -> u32;
    /// Whether `b` is in the set.
    fn byte(&self, b: u8) -> bool;
}

/// The first `Some` that `visit` returns for the offsets of `bytes`, from `from` on, whose
/// byte `marks` holds, visited in order; `None` when none gives one. `marks` must not hold a
/// NUL byte: a line shorter than sixteen bytes is tested padded with them.
pub(super) fn first_marked<T>(
    bytes: &[u8],
    from: usize,
    marks: &impl Marks,
    mut visit: impl FnMut(usize) -> Option<T>,
) -> Option<T> {
    let mut at = from;
    while at < bytes.len() {
        let mut padded = [0u8; LANES];
        // The last bytes of a line of at least LANES are tested as the line's last LANES,
        // those before `at` shifted out of the mask: a copy into the padding cost as much as
        // the compares, on every line the keyword walk reads.
        let (chunk, shift): (&[u8; LANES], usize) = if let Some(chunk) = bytes.get(at..at + LANES) {
            (chunk.try_into().expect("LANES bytes"), 0)
        } else if let Some(last) = bytes.len().checked_sub(LANES) {
            let chunk = bytes[last..].try_into().expect("LANES bytes");
            (chunk, at - last)
        } else {
            padded[..bytes.len() - at].copy_from_slice(&bytes[at..]);
            (&padded, 0)
        };
        let mut mask = match Lanes::load(chunk) {
            Some(lanes) => marks.lanes(lanes),
            None => chunk
                .iter()
                .enumerate()
                .fold(0, |mask, (i, &b)| mask | (u32::from(marks.byte(b)) << i)),
        } >> shift;
        while mask != 0 {
            if let Some(found) = visit(at + mask.trailing_zeros() as usize) {
                return Some(found);
            }
            mask &= mask - 1;
        }
        at += LANES;
    }
    None
}

/// Asserts that `marks` asked of sixteen bytes at once says what it says of each byte, for
/// every byte.
#[cfg(test)]
pub(super) fn assert_lanes_agree(marks: &impl Marks) {
    for first in (0..=255u8).step_by(LANES) {
        let chunk: [u8; LANES] = std::array::from_fn(|i| first + u8::try_from(i).expect("a lane"));
        if let Some(lanes) = Lanes::load(&chunk) {
            let one_by_one = (0..LANES).fold(0, |m, i| m | (u32::from(marks.byte(chunk[i])) << i));
            assert_eq!(marks.lanes(lanes), one_by_one, "bytes from {first}");
        }
        assert!(!marks.byte(0), "the padding is marked");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Colons;

    impl Marks for Colons {
        fn lanes(&self, lanes: Lanes) -> u32 {
            lanes.is(b':')
        }
        fn byte(&self, b: u8) -> bool {
            b == b':'
        }
    }

    #[test]
    fn visits_the_marked_bytes_in_order_from_the_start_given() {
        let text = b"a:b::c:dddddddddddddddddddd:ee:";
        for from in 0..=text.len() {
            let mut seen = Vec::new();
            let none: Option<()> = first_marked(text, from, &Colons, |at| {
                seen.push(at);
                None
            });
            assert_eq!(none, None);
            let want: Vec<usize> = (from..text.len()).filter(|&i| text[i] == b':').collect();
            assert_eq!(seen, want, "from {from}");
        }
        let third = first_marked(text, 0, &Colons, |at| (at > 3).then_some(at));
        assert_eq!(third, Some(4));
        assert_lanes_agree(&Colons);
    }
}
