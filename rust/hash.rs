//! A fast hasher for the planners' lookup tables (paths to files, names to directories,
//! warning templates).
//!
//! The tables are only looked up, never iterated, so their order cannot reach the output, and
//! their keys come from the tool's output, not from an adversary who would gain anything by
//! colliding them. The default `SipHash` showed up in profiles of floods with many files, and a
//! byte-at-a-time FNV in profiles of logs full of warnings; this is the multiply-rotate hash
//! of rustc's `FxHasher`, a word at a time.

use std::hash::{BuildHasherDefault, Hasher};

/// `HashMap<K, V, FastHash>`: a map with [`FxLikeHasher`].
pub type FastHash = BuildHasherDefault<FxLikeHasher>;

const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

#[derive(Debug, Default, Clone, Copy)]
pub struct FxLikeHasher {
    hash: u64,
}

impl FxLikeHasher {
    fn add(&mut self, word: u64) {
        self.hash = (self.hash.rotate_left(5) ^ word).wrapping_mul(SEED);
    }
}

impl Hasher for FxLikeHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            self.add(u64::from_le_bytes(chunk.try_into().unwrap_or([0; 8])));
        }
        for &b in chunks.remainder() {
            self.add(u64::from(b));
        }
    }

    fn write_u8(&mut self, n: u8) {
        self.add(u64::from(n));
    }

    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }

    fn finish(&self) -> u64 {
        self.hash
    }
}
