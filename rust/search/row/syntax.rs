//! A search row as the tool prints it, read at a place already chosen: the path's length,
//! `:NN:` (a match) or `-NN-` (a context line) right after it, then the row's text; or a bare
//! `NN:`/`NN-` row under a `--heading` path. [`RowParse`] is the row every reading of a line
//! ends in; where the path of a line ends is the other files' question.

/// Bytes of a line searched for the separator after the path; longer paths are not believed.
pub const MAX_PATH_BYTES: usize = 4096;

/// A row of a file: where its text (from the line number on) starts in the line, and what it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RowParse {
    /// Bytes of the path before the separator (0 for a bare row under a heading).
    pub path_len: usize,
    /// Byte where the row's own text (`NN:text`) starts: after the path and its separator.
    pub row_start: usize,
    /// Byte where the text after the line number and its separator starts.
    pub text_start: usize,
    /// `:` after the line number (a match), not `-` (a context line).
    pub is_match: bool,
    /// The line number the tool printed.
    pub line_no: u64,
    /// The path's end is sure: it continues the previous row's file, or it is a file name with
    /// an extension and nothing plausible came before it. Otherwise the rows around it decide.
    pub certain: bool,
    /// The path is the one of the [`Previous`](super::line::Previous) row given to
    /// [`parse_path_row`](super::line::parse_path_row), so no lookup is needed.
    pub is_current: bool,
}

/// Parses `NN:` or `NN-` (the separator `sep`, when given) at the start of `s`: the number, the
/// bytes it took with its separator, and whether the separator was `:`. grep and ripgrep number
/// lines from 1 and print no leading zeros, so `00:` or `05:` (the minutes of a time in a file
/// name) is no line number.
#[allow(
    clippy::inline_always,
    reason = "it runs once per row of a flood; called out of line it took 7% of the planner's time"
)]
#[inline(always)]
fn number_then(s: &[u8], sep: Option<u8>) -> Option<(u64, usize, bool)> {
    if s.first() == Some(&b'0') {
        return None;
    }
    let (mut n, mut digits) = (0u64, 0);
    while let Some(d) = s.get(digits).filter(|d| d.is_ascii_digit()) {
        // More than 19 digits would overflow and is no line number anyway.
        if digits == 19 {
            return None;
        }
        n = n * 10 + u64::from(d - b'0');
        digits += 1;
    }
    let next = *s.get(digits)?;
    let ok = match sep {
        Some(want) => next == want,
        None => next == b':' || next == b'-',
    };
    (digits > 0 && ok).then_some((n, digits + 1, next == b':'))
}

/// A bare row under a `--heading` path: `NN:text` (match) or `NN-text` (context).
#[must_use]
pub fn parse_bare_row(line: &[u8]) -> Option<RowParse> {
    let (line_no, len, is_match) = number_then(line, None)?;
    Some(RowParse {
        path_len: 0,
        row_start: 0,
        text_start: len,
        is_match,
        line_no,
        certain: true,
        is_current: false,
    })
}

/// The row after `path_len` bytes of path: `:NN:` or `-NN-` right there.
#[must_use]
pub fn row_after(line: &[u8], path_len: usize) -> Option<RowParse> {
    let sep = *line.get(path_len)?;
    if sep != b':' && sep != b'-' {
        return None;
    }
    let (line_no, len, is_match) = number_then(&line[path_len + 1..], Some(sep))?;
    Some(RowParse {
        path_len,
        row_start: path_len + 1,
        text_start: path_len + 1 + len,
        is_match,
        line_no,
        certain: true,
        is_current: false,
    })
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
