//! The hashes by which the per-file table knows paths and directories, and the hasher of its
//! directory index. The look-ahead ([`super::ahead`]) computes them off the reading thread for
//! most rows of a flood, and the table computes them itself for the rest: one definition, so the
//! two always agree.

use std::hash::{BuildHasher, Hasher};

use crate::hash::FastHash;

/// The hasher of the table's `dir_index`, whose keys are hashes already: it spreads their 32
/// bits over the 64 the map reads (its slot from the low bits, its tag from the high ones).
#[derive(Debug, Default)]
pub struct Spread(u64);

/// An odd constant of well-mixed bits (the golden ratio's).
const SPREAD: u64 = 0x9e37_79b9_7f4a_7c15;

impl Hasher for Spread {
    fn write(&mut self, bytes: &[u8]) {
        // Only `u32` keys come here; other bytes would be folded in all the same.
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(SPREAD);
        }
    }

    fn write_u32(&mut self, n: u32) {
        self.0 = u64::from(n).wrapping_mul(SPREAD);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// A path's hashes, found on the look-ahead core ([`super::ahead`]) for most rows of a flood,
/// so that a look-up costs the thread that reads the rows in order only its probes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hashed {
    /// [`path_hash`] of the path.
    pub hash: u64,
    /// Bytes of its directory ([`dir_len`]).
    pub dir_len: usize,
    /// [`dir_hash`] of its directory.
    pub dir_hash: u32,
}

/// The hash by which the table knows a path.
#[must_use]
pub fn path_hash(path: &str) -> u64 {
    FastHash::default().hash_one(path)
}

/// The hash by which the table knows a directory: the high half of [`FastHash`]'s, which the
/// multiplying hash mixes best.
#[must_use]
pub fn dir_hash(dir: &str) -> u32 {
    #[allow(clippy::cast_possible_truncation, reason = "the high 32 bits")]
    let high = (FastHash::default().hash_one(dir) >> 32) as u32;
    high
}

/// Bytes of `path`'s directory, with its trailing separator (0 for a path without one): files
/// past the cap are counted by it.
#[must_use]
pub fn dir_len(path: &str) -> usize {
    memchr::memrchr2(b'/', b'\\', path.as_bytes()).map_or(0, |i| i + 1)
}
