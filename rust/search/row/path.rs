//! Where the path of a search row can end: every `:NN:` or `-NN-` of a line that follows a
//! prefix believable as a file path, each with what ranks it against the others.
//!
//! A line like `a-1-b-2-c:3:x` has several such places, and hostile text (`p-1-a-1-a-…`) has
//! thousands. Judging every prefix afresh would cost the square of the line's length, so the
//! facts a judgement needs (separators, spaces, letters, control bytes, the last dot) are
//! gathered once, left to right, and each place is judged from them in constant time.

use super::prefix::Prefix;
use super::syntax::{MAX_PATH_BYTES, RowParse, inside_time, row_after};

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

/// The path of `line` and its directory's length ([`crate::search::hashing::dir_len`]) when its first
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
    use crate::search::row::masks::{FirstPlace, LineStart};

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
                .map(|_| (first, crate::search::hashing::dir_len(&line[..first])));
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
