//! Reading one line of search output: is it a match row, a context row, a heading, or neither?
//!
//! grep and ripgrep print `path:NN:text` for a match and `path-NN-text` for a context line
//! (`-C`); `--column` and vimgrep add `CC:` after the line number, which this parser leaves in
//! the row's text. ripgrep's `--heading` prints the path once on a line of its own and then bare
//! `NN:text` / `NN-text` rows. A path may itself hold `-`, `:` and digits (`step-1-deploy`,
//! `10:15:30.log`), so one line can have several readings ([`super::path`]), and the rows
//! around it decide: tools print a file's rows together and in increasing line order, so a row
//! that continues the previous row's file is that file's ([`Previous`]), and a row whose path
//! is not sure is read by the line after it ([`continued_reading`]). The path must look like a
//! path: a time (`12:34:56`), a log prefix (`ERROR:42:`) or a URL must not make prose look like
//! search output.

use super::path::{Choice, choose, readings};
use super::prefix::looks_like_path;
use super::syntax::{MAX_PATH_BYTES, RowParse, row_after};

/// The row before a line: its file's path and line number, and whether a `--` came between.
#[derive(Debug, Clone, Copy)]
pub struct Previous<'a> {
    pub path: &'a str,
    pub line_no: u64,
    pub separated: bool,
}

impl Previous<'_> {
    /// Whether a row of the same file can come next. grep and ripgrep print a file's rows
    /// together and in increasing line order; a context line is printed only next to the rows
    /// of its group, so it is the line after the previous row, and a `--` stands where the line
    /// numbers jump, so the row after one skips at least a line.
    #[must_use]
    pub fn continues(&self, row: &RowParse) -> bool {
        if self.separated {
            row.line_no > self.line_no + 1
        } else if row.is_match {
            row.line_no > self.line_no
        } else {
            row.line_no == self.line_no + 1
        }
    }

    /// The row of `line` after this path, if it continues this file.
    #[must_use]
    pub fn row_of(&self, line: &[u8]) -> Option<RowParse> {
        if self.path.is_empty() || !line.starts_with(self.path.as_bytes()) {
            return None;
        }
        row_after(line, self.path.len()).filter(|row| self.continues(row))
    }
}

/// A `path:NN:text` or `path-NN-text` row. A row that continues the `previous` one's file is
/// that file's (that is how a path holding `-12-` is told from a context line); otherwise the
/// choice among its readings ([`choose`]), not `certain` unless it is sure. `sure` is the
/// length of the path [`choose`] is sure of, when the look-ahead found it already
/// ([`crate::search::ahead`]).
#[must_use]
pub fn parse_path_row(
    line: &str,
    previous: Option<Previous<'_>>,
    sure: Option<usize>,
) -> Option<Choice> {
    if let Some(row) = previous.and_then(|p| p.row_of(line.as_bytes())) {
        let best = RowParse {
            is_current: true,
            ..row
        };
        return Some(Choice {
            best,
            first_match: None,
        });
    }
    match sure {
        Some(path_len) => sure_choice(line.as_bytes(), path_len),
        None => choose(readings(line)),
    }
}

/// What [`choose`] answers for a line whose path it is sure ends after `path_len` bytes: the
/// row right there, `certain`, and no other reading.
#[must_use]
pub fn sure_choice(line: &[u8], path_len: usize) -> Option<Choice> {
    row_after(line, path_len).map(|best| Choice {
        best,
        first_match: None,
    })
}

/// How the line after a held line continues one of the held line's readings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Continued {
    /// The held line's reading, `certain`.
    pub row: RowParse,
    /// Both rows are context rows. A context row is printed only next to a match of its file,
    /// so a run of them proves its path only once a match of that file ends it: `docs/a-1-x.md`
    /// then `docs/a-2-y.md` (one match each) read as lines 1 and 2 of a file `docs/a` too.
    pub awaits_match: bool,
}

/// The reading of `held` (a line whose path was not sure) that the line after it, `next`,
/// continues, if any. In `a-1-b:2:x` then `a-1-b:3:y`, the second line continues the match of
/// `a-1-b` (line 2, then 3) but not the context row of `a` (line 1, then 1 again). Two
/// readings cannot both be continued: the shorter path's line number is in the longer one, so
/// `next` repeats it.
#[must_use]
pub fn continued_reading(held: &str, next: &str) -> Option<Continued> {
    let common = held
        .bytes()
        .zip(next.bytes())
        .take(MAX_PATH_BYTES)
        .take_while(|(a, b)| a == b)
        .count();
    readings(held)
        .map(|r| r.row)
        .take_while(|row| row.path_len <= common)
        .find_map(|row| {
            let previous = Previous {
                path: &held[..row.path_len],
                line_no: row.line_no,
                separated: false,
            };
            let next_row = previous.row_of(next.as_bytes())?;
            Some(Continued {
                row: RowParse {
                    certain: true,
                    ..row
                },
                awaits_match: !row.is_match && !next_row.is_match,
            })
        })
}

/// Severities that open a compiler's or linter's message (GNU's `file:line: severity: text`).
const SEVERITIES: [&[u8]; 5] = [b"error", b"warning", b"note", b"info", b"fatal error"];

/// Whether a match row's text after its `NN:` (`text` or `CC:text`) is a compiler or linter
/// diagnostic: after an optional column, at most one space, then a severity (any case) and a
/// colon, as in `12: error: ...` (mypy) or `12:5: warning: ...` (gcc, clang). Matched source
/// lines are indented or start with code, so a real search result rarely reads like this; a
/// whole output of them is a build log.
#[must_use]
pub fn is_diagnostic_after_number(mut rest: &[u8]) -> bool {
    // Most matched lines start with indentation or code: one byte rules them out, before a
    // column or a space and after.
    let severity_start = |b: &u8| matches!(b | 0x20, b'e' | b'w' | b'n' | b'i' | b'f');
    if !rest
        .first()
        .is_some_and(|b| b.is_ascii_digit() || *b == b' ' || severity_start(b))
    {
        return false;
    }
    if let Some(after_column) = after_number(rest) {
        rest = after_column;
    }
    let rest = rest.strip_prefix(b" ").unwrap_or(rest);
    if !rest.first().is_some_and(severity_start) {
        return false;
    }
    SEVERITIES.iter().any(|severity| {
        rest.len() > severity.len()
            && rest[..severity.len()].eq_ignore_ascii_case(severity)
            && rest[severity.len()] == b':'
    })
}

/// What follows `NN:` at the start of `s`.
fn after_number(s: &[u8]) -> Option<&[u8]> {
    let digits = s.iter().take_while(|b| b.is_ascii_digit()).count();
    (digits > 0 && s.get(digits) == Some(&b':')).then(|| &s[digits + 1..])
}

/// Whether a line (without its `'\n'`, possibly with a `'\r'`) could be a `--heading` path.
#[must_use]
pub fn looks_like_heading(line: &str) -> bool {
    let path = line.strip_suffix('\r').unwrap_or(line);
    path.len() <= MAX_PATH_BYTES && looks_like_path(path) && !path.ends_with(':')
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::row::syntax::parse_bare_row;

    fn path_of(line: &str) -> Option<(&str, bool, u64, &str)> {
        let row = parse_path_row(line, None, None)?.best;
        Some((
            &line[..row.path_len],
            row.is_match,
            row.line_no,
            &line[row.row_start..],
        ))
    }

    #[test]
    fn plain_matches_and_context() {
        assert_eq!(
            path_of("src/a.rs:12:let x = 1;"),
            Some(("src/a.rs", true, 12, "12:let x = 1;"))
        );
        assert_eq!(
            path_of("./b/c.py-7-    pass"),
            Some(("./b/c.py", false, 7, "7-    pass"))
        );
        assert_eq!(
            path_of("/abs/x.c:3:4:col"),
            Some(("/abs/x.c", true, 3, "3:4:col"))
        );
        assert_eq!(
            path_of("C:\\work\\x.c:9:int"),
            Some(("C:\\work\\x.c", true, 9, "9:int"))
        );
        assert_eq!(
            path_of("Makefile:3:all:"),
            Some(("Makefile", true, 3, "3:all:"))
        );
    }

    #[test]
    fn tricky_paths() {
        assert_eq!(
            path_of("src/a-1-b.py:12:x"),
            Some(("src/a-1-b.py", true, 12, "12:x"))
        );
        assert_eq!(
            path_of("logs/2024-01-02.log-3-ctx"),
            Some(("logs/2024-01-02.log", false, 3, "3-ctx"))
        );
        assert_eq!(
            path_of("a.py-5-x = d[1:2:3]"),
            Some(("a.py", false, 5, "5-x = d[1:2:3]"))
        );
        assert_eq!(
            path_of("dir/Makefile-5-x = d[1:2:3]"),
            Some(("dir/Makefile", false, 5, "5-x = d[1:2:3]"))
        );
        assert_eq!(
            path_of("My Docs/v2:1/notes.txt:4:hi"),
            Some(("My Docs/v2:1/notes.txt", true, 4, "4:hi"))
        );
        // The file being read decides where a path with `-12-` in it ends.
        let previous = Previous {
            path: "x-12-y",
            line_no: 2,
            separated: false,
        };
        let row = parse_path_row("x-12-y-3-ctx", Some(previous), None)
            .unwrap()
            .best;
        assert_eq!((row.path_len, row.line_no, row.is_match), (6, 3, false));
    }

    #[test]
    fn a_match_quoting_a_search_result_keeps_its_own_path() {
        assert_eq!(
            path_of("1Makefile:1:49:a-1-b.py-2- let"),
            Some(("1Makefile", true, 1, "1:49:a-1-b.py-2- let"))
        );
        assert_eq!(
            path_of("bin/run:7:see x.py:12:y"),
            Some(("bin/run", true, 7, "7:see x.py:12:y"))
        );
        assert_eq!(
            path_of("docs/LICENSE:3:src/a.c:9:x"),
            Some(("docs/LICENSE", true, 3, "3:src/a.c:9:x"))
        );
    }

    #[test]
    fn prose_and_logs_are_not_rows() {
        for line in [
            "12:34:56 server started",
            "2024-01-02 12:34:56 INFO started",
            "ERROR:42: something broke",
            "WARN-3-x",
            "https://example.com:8080:9/",
            "see http://x.org/a:1:2",
            "[INFO]:3: hello",
            "  indented:3: text",
            "Binary file x.bin matches",
            "no numbers here: at all",
            "E501:3: line too long",
        ] {
            assert_eq!(path_of(line), None, "{line}");
        }
    }

    #[test]
    fn bare_rows_and_headings() {
        assert_eq!(
            parse_bare_row(b"108:\tyield x").map(|r| (r.line_no, r.is_match)),
            Some((108, true))
        );
        assert_eq!(
            parse_bare_row(b"9-ctx").map(|r| (r.line_no, r.is_match)),
            Some((9, false))
        );
        assert_eq!(parse_bare_row(b"x:9:"), None);
        assert!(looks_like_heading("_pytest/_code/code.py"));
        assert!(looks_like_heading("setup.py\r"));
        assert!(!looks_like_heading("12:34"));
        assert!(!looks_like_heading("Summary of results"));
        assert!(!looks_like_heading("ERROR"));
        assert!(!looks_like_heading("note:"));
    }

    /// Whether a match row's text from its line number on is a diagnostic.
    fn is_diagnostic(row_text: &[u8]) -> bool {
        after_number(row_text).is_some_and(is_diagnostic_after_number)
    }

    #[test]
    fn diagnostics_are_told_from_matched_text() {
        for text in [
            "12: error: Function is missing a type annotation  [no-untyped-def]",
            "75: note: Use \"-> None\" if function does not return a value",
            "3:14: warning: unused variable 'x' [-Wunused-variable]",
            "3:14:fatal error: stdio.h: No such file or directory",
            "9: Error: something",
            "1:info: hint",
        ] {
            assert!(is_diagnostic(text.as_bytes()), "{text}");
        }
        for text in [
            "12:    raise error: not a diagnostic",
            "12:  error: indented code",
            "12:errors: plural",
            "12:error",
            "12-error: a context line",
            "12:x = warning: 1",
            "error: no line number",
        ] {
            assert!(!is_diagnostic(text.as_bytes()), "{text}");
        }
    }

    #[test]
    fn line_numbers_have_no_leading_zeros() {
        assert_eq!(
            path_of("logs/10:00:01.log:3:x").map(|r| r.0),
            Some("logs/10:00:01.log")
        );
        assert_eq!(parse_bare_row(b"0:x"), None);
        assert_eq!(parse_bare_row(b"07-x"), None);
        assert_eq!(path_of("a.py:0:x"), None);
    }

    #[test]
    fn the_next_line_decides_an_unsure_path() {
        let continued = |held, next| continued_reading(held, next).map(|c| &held[..c.row.path_len]);
        assert_eq!(continued("a-1-b:2:x", "a-1-b:3:y"), Some("a-1-b"));
        assert_eq!(continued("a-1-b-3-x", "a-1-b:4:y"), Some("a-1-b"));
        assert_eq!(
            continued("Makefile-1-12:34:56", "Makefile:2:x"),
            Some("Makefile")
        );
        assert_eq!(
            continued("logs/10:15:30.log:3:x", "logs/10:15:30.log:4:y"),
            Some("logs/10:15:30.log")
        );
        // A context line is the line after the row before it; a match may skip lines.
        assert_eq!(continued("a-1-b-3-x", "a-1-b-5-y"), None);
        assert_eq!(continued("a-1-b:3:x", "a-1-b:9:y"), Some("a-1-b"));
        assert_eq!(continued("a-1-b:3:x", "c.py:4:y"), None);
        // Context after context proves nothing until a match of the file comes.
        let awaits = |held, next| continued_reading(held, next).map(|c| c.awaits_match);
        assert_eq!(awaits("a-1-b-3-x", "a-1-b-4-y"), Some(true));
        assert_eq!(awaits("a-1-b-3-x", "a-1-b:4:y"), Some(false));
        assert_eq!(awaits("a-1-b:3:x", "a-1-b-4-y"), Some(false));
    }

    #[test]
    fn a_line_alone_is_its_leftmost_match() {
        let alone = |line, heading| {
            let row = parse_path_row(line, None, None)?.alone(heading)?;
            Some(&line[..row.path_len])
        };
        assert_eq!(
            alone("scripts/step-1-deploy:1:echo", false),
            Some("scripts/step-1-deploy")
        );
        assert_eq!(
            alone("s/8step-1-deploy:1:x = d[1:2:3] b:2:x", true),
            Some("s/8step-1-deploy")
        );
        assert_eq!(alone("bin/run:7:see x.py:12:y", false), Some("bin/run"));
        assert_eq!(
            alone("C:\\w\\1step-1-deploy:3:aa.a:7:", false),
            Some("C:\\w\\1step-1-deploy")
        );
        assert_eq!(
            alone("logs/10:15:30.log:3:x", false),
            Some("logs/10:15:30.log")
        );
        // Only context readings: a row unless it may be a `--heading` path.
        assert_eq!(alone("lib/a-1-b/Makefile", false), Some("lib/a"));
        assert_eq!(alone("lib/a-1-b/Makefile", true), None);
    }

    #[test]
    fn a_row_continues_the_previous_file_in_line_order() {
        let previous = |separated| Previous {
            path: "a",
            line_no: 5,
            separated,
        };
        let row = |line: &str, separated| previous(separated).row_of(line.as_bytes());
        assert!(row("a:6:x", false).is_some() && row("a-6-x", false).is_some());
        assert!(row("a:9:x", false).is_some() && row("a-9-x", false).is_none());
        // `a-1-b` is another file: grep prints a file's rows in increasing line order.
        assert!(row("a-1-b:2:x", false).is_none());
        // After a `--` the line numbers jump.
        assert!(row("a-6-x", true).is_none() && row("a-7-x", true).is_some());
    }

    #[test]
    fn huge_line_numbers_do_not_overflow() {
        assert_eq!(path_of("a.py:99999999999999999999999:x"), None);
        assert_eq!(
            path_of("a.py:1234567890123456789:x").map(|r| r.2),
            Some(1_234_567_890_123_456_789)
        );
    }
}
