//! What is known of a line's first bytes, and whether such a prefix is believable as a file path.
//!
//! The facts (separators, spaces, letters, control bytes, the last dot) are gathered once, left
//! to right, so that every place a path could end is judged from them in constant time instead
//! of the prefix being read again.

use super::masks::Masks;
use super::syntax::MAX_PATH_BYTES;

/// What a byte is to [`Prefix`], as bits of [`FACTS`].
const SLASH: u8 = 1;
const DOT: u8 = 2;
const SPACE: u8 = 4;
const ALPHABETIC: u8 = 8;
const LOWERCASE: u8 = 16;
const CONTROL: u8 = 32;

/// The facts of every byte, so that taking one in is a look-up and an or.
static FACTS: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        #[allow(clippy::cast_possible_truncation, reason = "b < 256")]
        let c = b as u8;
        if c == b'/' || c == b'\\' {
            table[b] |= SLASH;
        }
        if c == b'.' {
            table[b] |= DOT;
        }
        if c == b' ' {
            table[b] |= SPACE;
        }
        if c.is_ascii_alphabetic() {
            table[b] |= ALPHABETIC;
        }
        if c.is_ascii_lowercase() {
            table[b] |= LOWERCASE;
        }
        if c < 0x20 || c == 0x7f {
            table[b] |= CONTROL;
        }
        b += 1;
    }
    table
};

/// What is known of a line's first `end` bytes.
#[derive(Debug, Default, PartialEq, Eq)]
#[allow(
    clippy::struct_excessive_bools,
    reason = "each is one fact about the bytes read so far, set once and never cleared"
)]
pub(super) struct Prefix {
    pub(super) end: usize,
    /// A control byte or a URL's `://` was seen: no longer prefix is a path either.
    refused: bool,
    /// The byte after the last `/` or `\`, once one was seen.
    pub(super) name_start: Option<usize>,
    last_dot: Option<usize>,
    pub(super) space: bool,
    alphabetic: bool,
    lowercase: bool,
}

impl Prefix {
    /// Takes in the next byte, `bytes[self.end]`.
    pub(super) fn push(&mut self, bytes: &[u8]) {
        self.push_to(bytes, self.end + 1);
    }

    /// Takes in the bytes up to `to`: sixteen at a time, each fact a mask of the sixteen
    /// ([`Masks`]), and the rest (or all of a short span, where setting up a chunk costs more
    /// than it saves) in a walk, which takes eight instructions a byte.
    #[inline(never)]
    pub(super) fn push_to(&mut self, bytes: &[u8], to: usize) {
        let mut from = self.end;
        // A `/` after `:/` is a URL's (see `walk`): with a `:` in a chunk or just before it, the
        // walk tells.
        while to - from >= 16 && !bytes[from.saturating_sub(2)..from].contains(&b':') {
            let Some(masks) = <&[u8; 16]>::try_from(&bytes[from..from + 16])
                .ok()
                .and_then(Masks::of)
                .filter(|m| m.colon == 0)
            else {
                break;
            };
            let last = |m: u32| from + m.ilog2() as usize;
            if masks.slash != 0 {
                self.name_start = Some(last(masks.slash) + 1);
            }
            if masks.dot != 0 {
                self.last_dot = Some(last(masks.dot));
            }
            self.space |= masks.space != 0;
            self.alphabetic |= masks.alphabetic != 0;
            self.lowercase |= masks.lowercase != 0;
            self.refused |= masks.control != 0;
            from += 16;
        }
        if from < to {
            self.walk(bytes, from, to);
        }
        self.end = to;
    }

    /// Takes in the bytes from `from` up to `to` one at a time: a look-up per byte, and a
    /// branch only at a separator or a dot.
    fn walk(&mut self, bytes: &[u8], from: usize, to: usize) {
        let mut any = 0u8;
        for (i, &b) in bytes[from..to].iter().enumerate() {
            let at = from + i;
            let facts = FACTS[usize::from(b)];
            any |= facts;
            if facts & (SLASH | DOT) != 0 {
                if facts & DOT != 0 {
                    self.last_dot = Some(at);
                } else if b == b'/' && at >= 2 && bytes[at - 2..at] == *b":/" {
                    // A URL's: no longer prefix is a path, and its place as a name's start is
                    // never read.
                    self.refused = true;
                } else {
                    self.name_start = Some(at + 1);
                }
            }
        }
        self.space |= any & SPACE != 0;
        self.alphabetic |= any & ALPHABETIC != 0;
        self.lowercase |= any & LOWERCASE != 0;
        self.refused |= any & CONTROL != 0;
    }

    /// The last component of the prefix ends in `.ext`, a short run of letters and digits with
    /// at least one letter: digits alone after a dot are more often a row's text (`-2-.12:34`,
    /// a context row of a file without an extension) or a version than a file type.
    pub(super) fn has_extension(&self, bytes: &[u8]) -> bool {
        let name_start = self.name_start.unwrap_or(0);
        match self.last_dot {
            Some(dot) if dot >= name_start && (dot > name_start || self.end - name_start > 1) => {
                let ext = &bytes[dot + 1..self.end];
                (1..=10).contains(&ext.len())
                    && ext.iter().all(u8::is_ascii_alphanumeric)
                    && ext.iter().any(u8::is_ascii_alphabetic)
            }
            _ => false,
        }
    }

    /// See [`looks_like_path`]; `extension` is [`Prefix::has_extension`].
    pub(super) fn is_path(&self, bytes: &[u8], extension: bool) -> bool {
        let (Some(&first), Some(&last)) = (bytes.first(), bytes[..self.end].last()) else {
            return false;
        };
        if self.end > MAX_PATH_BYTES
            || self.refused
            || first.is_ascii_whitespace()
            || last.is_ascii_whitespace()
            || matches!(
                first,
                b'[' | b'(' | b'<' | b'{' | b'"' | b'\'' | b'#' | b'*'
            )
        {
            return false;
        }
        if self.name_start.is_some() {
            return true;
        }
        if self.space {
            return false;
        }
        if extension && self.alphabetic {
            return true;
        }
        // A bare name: it needs a lowercase letter (not a number, a time or an upper-case code).
        self.lowercase
    }
}

/// Whether `s` is believable as a file path printed by a search tool.
///
/// A path with a separator (`/` or `\`) may hold spaces; a bare name may not, and must not be a
/// number or time (`12`, `12:34`), nor an all-capitals word such as a log level (`ERROR`,
/// `WARN`) or an error code. Leading or trailing whitespace, control characters, brackets and
/// quotes that open log prefixes, and URLs are refused.
#[must_use]
pub fn looks_like_path(s: &str) -> bool {
    let mut prefix = Prefix::default();
    prefix.push_to(s.as_bytes(), s.len());
    prefix.is_path(s.as_bytes(), prefix.has_extension(s.as_bytes()))
}

/// Whether the last component of `path` ends in an extension (see [`Prefix::has_extension`]).
pub fn has_extension(path: &str) -> bool {
    let mut prefix = Prefix::default();
    prefix.push_to(path.as_bytes(), path.len());
    prefix.has_extension(path.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The judgement of one whole string, the slow and obvious way.
    fn naive_is_path(s: &str) -> bool {
        let bytes = s.as_bytes();
        let (Some(&first), Some(&last)) = (bytes.first(), bytes.last()) else {
            return false;
        };
        if bytes.len() > MAX_PATH_BYTES
            || first.is_ascii_whitespace()
            || last.is_ascii_whitespace()
            || b"[(<{\"'#*".contains(&first)
            || bytes.iter().any(|&b| b < 0x20 || b == 0x7f)
            || s.contains("://")
        {
            return false;
        }
        if s.contains(['/', '\\']) {
            return true;
        }
        if s.contains(' ') {
            return false;
        }
        let name = s.rsplit(['/', '\\']).next().unwrap_or(s);
        let extension = name.rfind('.').is_some_and(|dot| {
            let ext = &name[dot + 1..];
            (dot > 0 || name.len() > 1)
                && (1..=10).contains(&ext.len())
                && ext.bytes().all(|b| b.is_ascii_alphanumeric())
        });
        if extension && s.bytes().any(|b| b.is_ascii_alphabetic()) {
            return true;
        }
        s.bytes().any(|b| b.is_ascii_lowercase())
    }

    #[test]
    fn every_prefix_is_judged_as_if_alone() {
        for line in [
            "src/a-1-b.py:12:x",
            "see http://x.org/a:1:2",
            "a:/b",
            "My Docs/v2:1/notes.txt:4:hi",
            ".x:1:y",
            "x.:1:y",
            "ERROR:42: failed",
            "C:\\work\\x.c:9:int",
            "a b:1:c d/e.tx:2:\tf",
            "#x/y:1:z",
            "12:34:56 a.b.c1234567890x:3:",
        ] {
            let bytes = line.as_bytes();
            let mut prefix = Prefix::default();
            for end in 1..=line.len() {
                prefix.push(bytes);
                let judged = prefix.is_path(bytes, prefix.has_extension(bytes));
                assert_eq!(judged, naive_is_path(&line[..end]), "{line:?}[..{end}]");
                // Taken in as spans split anywhere, the same facts.
                for mid in 0..=end {
                    let mut spans = Prefix::default();
                    spans.push_to(bytes, mid);
                    spans.push_to(bytes, end);
                    let judged = spans.is_path(bytes, spans.has_extension(bytes));
                    assert_eq!(
                        judged,
                        naive_is_path(&line[..end]),
                        "{line:?}[..{mid}][..{end}]"
                    );
                }
            }
        }
    }

    #[test]
    fn sixteen_bytes_at_a_time_gather_the_facts_of_the_walk() {
        // Bytes that some fact or the URL rule is about, and plain ones.
        let alphabet = b"/\\.: \t\x7fAZaz09-_\xc3\xa9\x80";
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        for _ in 0..300 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let len = usize::try_from(state % 70).unwrap();
            let bytes: Vec<u8> = (0..len)
                .map(|i| {
                    let pick = (state >> (i % 48)) ^ (i as u64).wrapping_mul(0x9e37);
                    alphabet[usize::try_from(pick).unwrap() % alphabet.len()]
                })
                .collect();
            for end in 0..=len {
                let mut walked = Prefix::default();
                walked.walk(&bytes, 0, end);
                walked.end = end;
                for mid in 0..=end {
                    let mut spans = Prefix::default();
                    spans.push_to(&bytes, mid);
                    spans.push_to(&bytes, end);
                    assert_eq!(spans, walked, "{bytes:?}[..{mid}][..{end}]");
                }
            }
        }
        // A URL's `://` at every place of a chunk, and taken in from before, in and after it.
        for at in 0..20 {
            let line = format!("{}http://x.org/a/b/c/d/e.py:1:x", "a".repeat(at));
            let (bytes, end) = (line.as_bytes(), line.len() - 4);
            for mid in 0..=end {
                let mut spans = Prefix::default();
                spans.push_to(bytes, mid);
                spans.push_to(bytes, end);
                assert!(spans.refused, "{line:?}[..{mid}]");
            }
        }
    }
}
