//! The search planner's look-ahead: where each line's path surely ends, found on the second core.
//!
//! Reading a line as a search row has two parts. Whether it continues the previous row's file
//! needs the rows before it; the choice among its own readings ([`choose`]) needs only its
//! text. In a flood of rows of new files (one match in each of millions of files) the choice was
//! half of the planner's work per row, on the thread that reads the blocks in order; here it
//! runs ahead, on the engine's helper thread, and the planner takes a sure answer as found
//! ([`super::line::sure_choice`]). Rows that go on with the path of the line before them are not
//! judged: the planner reads those by their file, without the choice.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use super::path::{choose, readings};
use crate::sink::Lookahead;

/// Finds, for every line of a block, the length of its path when [`choose`] is sure of it.
#[derive(Debug, Clone, Default)]
pub struct SurePaths {
    /// Set once the planner has declined the output: it reads nothing more, so nothing is
    /// looked for.
    pub declined: Arc<AtomicBool>,
}

/// One entry per line that starts in the block, in order: the length of the line's sure path
/// plus one, or 0 where the planner must read the line itself (no sure path, or not looked
/// at). Empty when nothing was looked for. Paths are at most
/// [`super::line::MAX_PATH_BYTES`] long, so a length fits.
pub type Sure = Vec<u16>;

impl Lookahead for SurePaths {
    type Found = Sure;

    fn look(&self, text: &str) -> Sure {
        if self.declined.load(Ordering::Relaxed) {
            return Vec::new();
        }
        let mut found = Vec::new();
        let mut previous: &[u8] = &[];
        let mut start = 0;
        // A search per line through `str::split` cost more than judging the line.
        let ends = memchr::memchr_iter(b'\n', text.as_bytes()).chain([text.len()]);
        for end in ends {
            let line = &text[start..end];
            start = end + 1;
            let bytes = line.as_bytes();
            let goes_on = bytes.len() > previous.len()
                && bytes.starts_with(previous)
                && matches!(bytes[previous.len()], b':' | b'-');
            if !previous.is_empty() && goes_on {
                found.push(0);
                continue;
            }
            let sure = choose(readings(line))
                .filter(|choice| choice.best.certain)
                .map(|choice| choice.best.path_len);
            previous = sure.map_or(&[], |len| &bytes[..len]);
            found.push(
                sure.and_then(|len| u16::try_from(len + 1).ok())
                    .unwrap_or(0),
            );
        }
        found
    }
}

/// The sure path's length of line `index` of the block, if the look found one.
#[must_use]
pub fn sure_path(found: &[u16], index: u64) -> Option<usize> {
    let at = usize::try_from(index).ok()?;
    found
        .get(at)
        .filter(|&&n| n > 0)
        .map(|&n| usize::from(n) - 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::line::sure_choice;

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
            assert_eq!(sure, choice.map(|c| c.best.path_len), "{line:?}");
            if let Some(len) = sure {
                assert_eq!(sure_choice(line.as_bytes(), len), choice, "{line:?}");
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
