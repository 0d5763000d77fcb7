//! The search planner's look-ahead: where each line's path surely ends, found on the second core.
//!
//! Reading a line as a search row has two parts. Whether it continues the previous row's file
//! needs the rows before it; the choice among its own readings ([`choose`]) needs only its
//! text. In a flood of rows of new files (one match in each of millions of files) the choice was
//! half of the planner's work per row, on the thread that reads the blocks in order; here it
//! runs ahead, on the engine's helper thread, and the planner takes a sure answer as found
//! ([`super::row::sure_choice`]), with the hashes its file table looks the path up by
//! ([`SurePath`]). Rows that go on with the path of the line before them are not judged: the
//! planner reads those by their file, without the choice. Most lines of a flood are judged from
//! masks of their first 32 bytes ([`LineStart`]), which also tell where they end.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use super::hashing::{Hashed, dir_hash, dir_len, path_hash};
use super::row::{FirstPlace, LineStart, choose, readings, sure_first_place};
use crate::sink::Lookahead;

/// Finds, for every line of a block, the length of its path when [`choose`] is sure of it.
#[derive(Debug, Clone, Default)]
pub struct SurePaths {
    /// Set once the planner has declined the output: it reads nothing more, so nothing is
    /// looked for.
    pub declined: Arc<AtomicBool>,
}

/// What the look found of one line: its sure path, with the hashes the file table looks it up
/// by ([`Hashed`]), packed.
#[derive(Debug, Clone, Copy, Default)]
pub struct SurePath {
    hash: u64,
    dir_hash: u32,
    /// The path's length plus one, or 0 where the planner must read the line itself (no sure
    /// path, or not looked at). Paths are at most [`super::row::syntax::MAX_PATH_BYTES`] long, so a
    /// length fits.
    len: u16,
    dir_len: u16,
}

impl SurePath {
    /// The entry of `path`, whose directory is its first `dir_len` bytes.
    fn new(path: &str, dir_len: usize) -> Option<Self> {
        Some(SurePath {
            hash: path_hash(path),
            dir_hash: dir_hash(&path[..dir_len]),
            len: u16::try_from(path.len() + 1).ok()?,
            dir_len: u16::try_from(dir_len).ok()?,
        })
    }
}

/// One entry per line that starts in the block, in order. Empty when nothing was looked for.
pub type Sure = Vec<SurePath>;

impl Lookahead for SurePaths {
    type Found = Sure;

    fn look(&self, text: &str) -> Sure {
        if self.declined.load(Ordering::Relaxed) {
            return Vec::new();
        }
        let bytes = text.as_bytes();
        let mut found = Vec::new();
        let mut previous: &[u8] = &[];
        let mut start = 0;
        loop {
            // The line's first 32 bytes as masks tell where most lines of a flood end and what
            // their path is, for less than a search for the `'\n'` costs.
            let window = bytes
                .get(start..start + 32)
                .and_then(|window| LineStart::of(window.try_into().ok()?));
            let end = match window.and_then(|w| w.line_len()) {
                Some(len) => start + len,
                None => memchr::memchr(b'\n', &bytes[start..]).map_or(bytes.len(), |i| start + i),
            };
            let line = &text[start..end];
            let line_bytes = line.as_bytes();
            let goes_on = line_bytes.len() > previous.len()
                && matches!(line_bytes[previous.len()], b':' | b'-')
                && line_bytes.starts_with(previous);
            if !previous.is_empty() && goes_on {
                found.push(SurePath::default());
            } else {
                let sure = match window.map_or(FirstPlace::Unseen, |w| w.first_place(line)) {
                    FirstPlace::Sure(len, dir_len) => Some((len, dir_len)),
                    // Only the choice among all the places can be sure of a later one.
                    FirstPlace::NotSure => sure_choice_of(line),
                    FirstPlace::Unseen => sure_first_place(line).or_else(|| sure_choice_of(line)),
                };
                debug_assert_eq!(sure, sure_choice_of(line), "{line:?}");
                previous = sure.map_or(&[], |(len, _)| &line_bytes[..len]);
                found.push(
                    sure.and_then(|(len, dir_len)| SurePath::new(&line[..len], dir_len))
                        .unwrap_or_default(),
                );
            }
            if end == bytes.len() {
                return found;
            }
            start = end + 1;
        }
    }
}

/// The length of the path [`choose`] is sure of in `line`, and of its directory.
fn sure_choice_of(line: &str) -> Option<(usize, usize)> {
    let choice = choose(readings(line)).filter(|choice| choice.best.certain)?;
    let len = choice.best.path_len;
    Some((len, dir_len(&line[..len])))
}

/// The sure path's length of line `index` of the block and its hashes, if the look found one.
#[must_use]
pub fn sure_path(found: &[SurePath], index: u64) -> Option<(usize, Hashed)> {
    let at = usize::try_from(index).ok()?;
    let sure = found.get(at).filter(|s| s.len > 0)?;
    let hashed = Hashed {
        hash: sure.hash,
        dir_len: usize::from(sure.dir_len),
        dir_hash: sure.dir_hash,
    };
    Some((usize::from(sure.len) - 1, hashed))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::row::line::sure_choice;

    #[test]
    fn a_sure_path_found_ahead_is_the_choice_itself() {
        let text = "src/a.py:3:x\nsrc/a.py:4:y\nsrc/a-1-b.py-2-z\nMakefile-1-a.py-2-x\n\
                    logs/10:15:30.log:3:x\nprose here\n\nd1/s2/f3.py:1:x";
        let found = SurePaths::default().look(text);
        assert_eq!(found.len(), text.split('\n').count());
        for (i, line) in text.split('\n').enumerate() {
            let choice = choose(readings(line)).filter(|c| c.best.certain);
            let sure = sure_path(&found, i as u64);
            // The second row goes on with the first one's path and is left to the planner.
            if i == 1 {
                assert_eq!(sure, None);
                continue;
            }
            assert_eq!(
                sure.map(|s| s.0),
                choice.map(|c| c.best.path_len),
                "{line:?}"
            );
            if let Some((len, hashed)) = sure {
                assert_eq!(sure_choice(line.as_bytes(), len), choice, "{line:?}");
                let path = &line[..len];
                let dir = dir_len(path);
                assert_eq!(hashed.hash, path_hash(path), "{line:?}");
                assert_eq!(hashed.dir_len, dir, "{line:?}");
                assert_eq!(hashed.dir_hash, dir_hash(&path[..dir]), "{line:?}");
            }
        }
    }

    #[test]
    fn nothing_is_looked_for_once_declined() {
        let look = SurePaths::default();
        look.declined.store(true, Ordering::Relaxed);
        assert!(look.look("src/a.py:3:x\n").is_empty());
    }
}
