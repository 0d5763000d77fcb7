//! Where the path of a search row can end: every `:NN:` or `-NN-` of a line that follows a
//! prefix believable as a file path, each with what ranks it against the others.
//!
//! A line like `a-1-b-2-c:3:x` has several such places, and hostile text (`p-1-a-1-a-…`) has
//! thousands. Judging every prefix afresh would cost the square of the line's length, so the
//! facts a judgement needs (separators, spaces, letters, control bytes, the last dot) are
//! gathered once, left to right, and each place is judged from them in constant time.

use super::line::{MAX_PATH_BYTES, RowParse, row_after};
use super::masks::Masks;

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
struct Prefix {
    end: usize,
    /// A control byte or a URL's `://` was seen: no longer prefix is a path either.
    refused: bool,
    /// The byte after the last `/` or `\`, once one was seen.
    name_start: Option<usize>,
    last_dot: Option<usize>,
    space: bool,
    alphabetic: bool,
    lowercase: bool,
}

impl Prefix {
    /// Takes in the next byte, `bytes[self.end]`.
    fn push(&mut self, bytes: &[u8]) {
        self.push_to(bytes, self.end + 1);
    }

    /// Takes in the bytes up to `to`: sixteen at a time, each fact a mask of the sixteen
    /// ([`Masks`]), and the rest (or all of a short span, where setting up a chunk costs more
    /// than it saves) in a walk, which takes eight instructions a byte.
    #[inline(never)]
    fn push_to(&mut self, bytes: &[u8], to: usize) {
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
    fn has_extension(&self, bytes: &[u8]) -> bool {
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
    fn is_path(&self, bytes: &[u8], extension: bool) -> bool {
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

/// One way to read a line as `path`, a separator, a line number and text.
#[derive(Debug, Clone, Copy)]
pub struct Reading {
    /// Not `certain` yet: that depends on the readings before it.
    pub row: RowParse,
    /// How believable the path's end is, 0 (a file name with an extension) to 5.
    rank: u8,
    /// The separator and line number are the middle of a time (see [`inside_time`]).
    pub in_time: bool,
}

/// Every reading of `line` whose path looks like a path, shortest path first.
pub fn readings(line: &str) -> Readings<'_> {
    let bytes = line.as_bytes();
    Readings {
        bytes,
        head: bytes.len().min(MAX_PATH_BYTES),
        prefix: Prefix::default(),
        previous: None,
    }
}

pub struct Readings<'a> {
    bytes: &'a [u8],
    /// Places from here on are not looked at: a longer path is not believed.
    head: usize,
    /// Facts about the bytes before the next place looked at.
    prefix: Prefix,
    /// The last place where a row could start, plausible path or not.
    previous: Option<usize>,
}

impl Iterator for Readings<'_> {
    type Item = Reading;

    fn next(&mut self) -> Option<Reading> {
        let bytes = self.bytes;
        while self.prefix.end < self.head {
            // Only a `:` or `-` after the first byte may end a path: the bytes before the next
            // one are taken in at once.
            let from = self.prefix.end.max(1);
            let Some(at) = memchr::memchr2(b':', b'-', &bytes[from..self.head]).map(|i| from + i)
            else {
                // No place is left to judge, so the facts of the rest are never read.
                self.prefix.end = self.head;
                return None;
            };
            self.prefix.push_to(bytes, at);
            let reading = row_after(bytes, at).and_then(|row| self.judge(row));
            self.prefix.push(bytes);
            if reading.is_some() {
                return reading;
            }
        }
        None
    }
}

impl Readings<'_> {
    /// Moves to the next `:` or `.`, past places that can only be read as context rows
    /// (`-NN-`) without an extension: from the last dot before one of them on, the bytes hold
    /// the `-` or `:` of the reading before. Of those places only the last that reads as a row
    /// matters, as the `previous` of the readings after them. False when no `:` or `.` is
    /// left, so that no reading is left that matters.
    fn skip_plain_context(&mut self) -> bool {
        let (bytes, from) = (self.bytes, self.prefix.end);
        let Some(to) = memchr::memchr2(b':', b'.', &bytes[from..self.head]).map(|i| from + i)
        else {
            return false;
        };
        // Places start after the first byte (see `next`).
        let start = from.max(1).min(to);
        let mut end = to;
        while let Some(i) = memchr::memrchr(b'-', &bytes[start..end]) {
            if let Some(row) = row_after(bytes, start + i) {
                self.previous = Some(row.path_len);
                break;
            }
            end = start + i;
        }
        self.prefix.push_to(bytes, to);
        true
    }

    /// The reading of `row`, whose path ends where the facts gathered so far end; `None` when
    /// that is not believable as a path.
    fn judge(&mut self, row: RowParse) -> Option<Reading> {
        let bytes = self.bytes;
        let earlier = self.previous.replace(row.path_len);
        let extension = self.prefix.has_extension(bytes);
        if !self.prefix.is_path(bytes, extension) {
            return None;
        }
        // `Makefile-1-12:34:56` is a context row whose text holds a time, not a file name
        // holding `-1-`: an earlier place inside the last component demotes this one.
        let split_name = earlier.is_some_and(|e| e >= self.prefix.name_start.unwrap_or(0));
        let in_time = inside_time(bytes, &row);
        let rank = if in_time {
            5
        } else {
            match (extension, self.prefix.space, row.is_match) {
                (true, false, _) => 0,
                (false, false, true) if !split_name => 1,
                (true, true, _) => 2,
                (false, false, false) => 3,
                (false, true, _) => 4,
                (false, false, true) => 5,
            }
        };
        let row = RowParse {
            certain: false,
            ..row
        };
        Some(Reading { row, rank, in_time })
    }
}

/// Whether a match's `:NN:` is the middle of a time `H:MM:SS` (`logs/10:15:30.log:3:x` is not
/// line 15 of `logs/10`): a digit before it, minutes, and two digits of seconds after it. A
/// path can end in a digit and a row's text start with two, but a file name holding a time
/// always looks like this.
pub fn inside_time(bytes: &[u8], row: &RowParse) -> bool {
    let seconds = &bytes[row.text_start.min(bytes.len())..];
    row.is_match
        && (10..60).contains(&row.line_no)
        && bytes[row.row_start - 2].is_ascii_digit()
        && seconds.len() >= 2
        && seconds[..2].iter().all(u8::is_ascii_digit)
        && seconds.get(2).is_none_or(|b| !b.is_ascii_digit())
}

/// The path of `line` and its directory's length ([`super::table::dir_len`]) when its first
/// place is a file name with an extension (rank 0), which makes [`choose`] sure of it at once:
/// the row of nearly every line of a flood of files, judged without gathering the readings.
/// `None` says nothing: [`choose`] may still be sure of a later place.
#[must_use]
pub fn sure_first_place(line: &str) -> Option<(usize, usize)> {
    let bytes = line.as_bytes();
    let head = bytes.len().min(MAX_PATH_BYTES);
    // The place [`Readings::next`] looks at first.
    let at = 1 + memchr::memchr2(b':', b'-', bytes.get(1..head)?)?;
    let mut prefix = Prefix::default();
    prefix.push_to(bytes, at);
    if !prefix.has_extension(bytes) || prefix.space || !prefix.is_path(bytes, true) {
        return None;
    }
    let row = row_after(bytes, at)?;
    // A path that is not refused starts its name after its last separator.
    (!inside_time(bytes, &row)).then(|| (at, prefix.name_start.unwrap_or(0)))
}

/// How a line reads as a path row: the choice among its readings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Choice {
    /// The best reading, `certain` when it is sure.
    pub best: RowParse,
    /// For a best reading that is not sure, the leftmost match reading, one inside a time only
    /// when there is no other (see [`Choice::alone`]).
    pub first_match: Option<RowParse>,
}

impl Choice {
    /// The reading of an unsure line when neither row next to it decides. A context row is
    /// printed only next to a match of its file, which is not there, so a match reading comes
    /// first, and the leftmost: a row's own `:NN:` comes before any its text quotes. Without
    /// one, a line that may be a `--heading` path is not a row; any other keeps its best.
    #[must_use]
    pub fn alone(&self, may_be_heading: bool) -> Option<RowParse> {
        self.first_match
            .or_else(|| (!may_be_heading).then_some(self.best))
    }
}

/// Chooses among `readings`, in one pass. The best: a file name with an extension beats a bare
/// one (`a-1-b.c-7-x` also has a `-1-`), a path without spaces beats one with (the text of
/// `Makefile-7-d[1:2:3]` has a `:2:`), and a match beats a context row; the leftmost of the
/// best rank wins. Only the first rank is sure, and only when no reading came before it but
/// ones inside a time (`logs/10:15:30.log:3:x`): in `Makefile:3:see a.py-2-x` the match's text
/// quotes another search result, and `a-1-b:3:x.c:7:` is line 3 of `a-1-b` quoting `x.c:7:` as
/// much as line 7 of a file `a-1-b:3:x.c`.
pub fn choose(mut readings: Readings<'_>) -> Option<Choice> {
    let mut best: Option<Reading> = None;
    // After a reading of the first rank the best is decided; only the first match is sought.
    let mut decided: Option<RowParse> = None;
    let mut first_match: Option<Reading> = None;
    // A reading not inside a time came before this one.
    let mut plausible_before = false;
    while let Some(reading) = readings.next() {
        if reading.row.is_match && first_match.is_none_or(|m| m.in_time && !reading.in_time) {
            first_match = Some(reading);
        }
        if decided.is_none() && reading.rank == 0 {
            decided = Some(match best {
                Some(Reading { rank: 1, row, .. }) => row,
                // `Makefile-1-a.py-2-x`: the next row tells which path this context has.
                Some(_) if !reading.row.is_match => reading.row,
                // `a-1-b:3:x.c:7:`, or the context row `Makefile-2-x.c:7:`: likewise. Alone,
                // the leftmost match is read ([`Choice::alone`]).
                _ if plausible_before => reading.row,
                _ => {
                    let best = RowParse {
                        certain: true,
                        ..reading.row
                    };
                    return Some(Choice {
                        best,
                        first_match: None,
                    });
                }
            });
        }
        plausible_before |= !reading.in_time;
        if decided.is_none() && best.is_none_or(|b| reading.rank < b.rank) {
            best = Some(reading);
        }
        // A best of rank 1 can only be confirmed by one of rank 0, not beaten.
        let settled = decided.is_some() || best.is_some_and(|b| b.rank == 1);
        if settled && first_match.is_some_and(|m| !m.in_time) {
            break;
        }
        // Readings before the next `:` or `.` are context rows without an extension (rank 3
        // or 4): they beat no best of rank 3 or better and are no match, so they are passed
        // over at once. Lines of nothing else (`p7-1-a-1-a-…`) then cost one search, not a
        // reading at every `-NN-` up to the cap.
        if (decided.is_some() || best.is_some_and(|b| b.rank <= 3))
            && !readings.skip_plain_context()
        {
            break;
        }
    }
    Some(Choice {
        best: decided.or(best.map(|b| b.row))?,
        first_match: first_match.map(|m| m.row),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::masks::{FirstPlace, LineStart};

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

    #[test]
    fn a_line_of_many_places_has_a_reading_at_each() {
        let line = format!("p7{}", "-1-a".repeat(1023));
        assert_eq!(readings(&line).count(), 1023);
        let line = format!("p7{}", ":1:a".repeat(1023));
        assert!(readings(&line).all(|r| r.row.is_match));
    }

    #[test]
    fn a_place_inside_a_time_ranks_last() {
        let rows: Vec<(usize, bool)> = readings("logs/10:15:30.log:3:x")
            .map(|r| (r.row.path_len, r.in_time))
            .collect();
        assert_eq!(rows, [(7, true), (17, false)]);
        let choice = choose(readings("logs/10:15:30.log:3:x")).unwrap();
        assert_eq!((choice.best.path_len, choice.best.certain), (17, true));
        // Not a time: three digits of seconds, or one of minutes.
        assert!(!readings("a/10:15:301/b.c:3:x").next().unwrap().in_time);
        assert!(!readings("a/10:15:3/b.c:3:x").next().unwrap().in_time);
    }

    #[test]
    fn a_sure_first_place_is_what_choose_is_sure_of() {
        let mut masked_sure = 0;
        for line in [
            "src/a.py:3:x",
            "d1/s2/f3.py:1:x",
            "a.py-5-x = d[1:2:3]",
            "src\\x.c:9:y",
            "C:\\w\\x.c:9:y",
            "logs/10:15:30.log:3:x",
            "a/b.c:12:30 x",
            "x.12:3:y",
            "x/y.Z9:12:x",
            "a/b.ext12345678:1:x",
            "a/b.ext123456789:1:x",
            "Makefile:3:x",
            "My Docs/a.txt:4:hi",
            "a\tb.py:1:x",
            "\u{e9}t\u{e9}/a.py:1:x",
            "a/b.p\u{e9}:1:x",
            " a.py:1:x",
            "#a.py:1:x",
            "-a.py:1:x",
            ":/a.py:1:x",
            "a.py:01:x",
            "a.py",
            ".x:1:y",
            ".bashrc:1:y",
            "a/.x:1:y",
            "a/.:1:y",
            "http://a.py:1:x",
            "src/components/widgets/bt.tsx:12:x",
            "src/components/widgets/button.tsx:12:x",
        ] {
            let places = line.bytes().skip(1).position(|b| b == b':' || b == b'-');
            let first = places.map_or(0, |i| i + 1);
            // Sure of the first place exactly when `choose` is; of a later one, never.
            let expected = choose(readings(line))
                .filter(|c| c.best.certain && c.best.path_len == first)
                .map(|_| (first, crate::search::table::dir_len(&line[..first])));
            assert_eq!(sure_first_place(line), expected, "{line:?}");
            // The masks of a window at the line's start say the same, or nothing.
            let mut window = [b'\n'; 32];
            let len = line.len().min(32);
            window[..len].copy_from_slice(&line.as_bytes()[..len]);
            let masked = LineStart::of(&window).map_or(FirstPlace::Unseen, |w| w.first_place(line));
            match masked {
                FirstPlace::Sure(len, dir) => assert_eq!(Some((len, dir)), expected, "{line:?}"),
                FirstPlace::NotSure => assert_eq!(None, expected, "{line:?}"),
                FirstPlace::Unseen => {}
            }
            masked_sure += usize::from(matches!(masked, FirstPlace::Sure(..)));
        }
        assert!(cfg!(not(target_arch = "x86_64")) || masked_sure >= 10);
    }

    #[test]
    fn a_file_name_after_another_reading_is_not_sure() {
        let choice = |line| {
            let c = choose(readings(line)).unwrap();
            let first = c.first_match.map(|m| &line[..m.path_len]);
            (&line[..c.best.path_len], c.best.certain, first)
        };
        // Line 3 of `…1step-1-deploy` quoting `aa.a:7:`, or line 7 of `…:3:aa.a`.
        assert_eq!(
            choice("C:\\w\\1step-1-deploy:3:aa.a:7:"),
            (
                "C:\\w\\1step-1-deploy:3:aa.a",
                false,
                Some("C:\\w\\1step-1-deploy")
            )
        );
        // A context row of `Makefile` quoting `x.c:7:`, or line 7 of `Makefile-2-x.c`.
        assert_eq!(
            choice("Makefile-2-x.c:7:"),
            ("Makefile-2-x.c", false, Some("Makefile-2-x.c"))
        );
        // Nothing before it, or only a place inside a time: sure.
        assert_eq!(choice("src/x.c:3:y.c:7:"), ("src/x.c", true, None));
        assert_eq!(
            choice("logs/10:15:30.log:3:x"),
            ("logs/10:15:30.log", true, None)
        );
    }
}
