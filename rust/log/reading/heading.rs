//! The heading an error line's place is relative to.
//!
//! Some tools print a file's path once, at the margin, and under it one indented line per
//! problem that gives only a line and a column: eslint's and stylelint's default output,
//! yamllint's, phpcs's table (`  12 | ERROR | ...`). Such an error line shown alone does not
//! say which file it is in, so it takes its heading along: the nearest line above it at the
//! margin that names something (a letter or a digit) and reports nothing itself (a rule of
//! dashes or phpcs's `FOUND 5 ERRORS` are no headings).

use super::class::{Class, Counts};
use super::classify::Shown;
use super::frame::prefix_len;
use super::keep::{Scanned, keep_shown};
use super::prefilter::Candidate;
use super::store::Kept;

/// Whether an error line's `body` (after any CI prefix) gives its place as a line number
/// under a heading, then names its severity: indented, then a line and a column and blanks
/// (`  12:5  error  ...`), or a line, blanks and a `|` (phpcs's ` 12 | ERROR | ...`), then a
/// severity word or mark. mocha's `  1 failing` is no such line.
#[must_use]
pub fn under_heading(body: &str) -> bool {
    let bytes = body.as_bytes();
    let blanks = |from: usize| {
        bytes[from.min(bytes.len())..]
            .iter()
            .take_while(|&&b| b == b' ' || b == b'\t')
            .count()
    };
    let digits = |from: usize| {
        bytes[from.min(bytes.len())..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count()
    };
    let indent = blanks(0);
    let line = digits(indent);
    if indent == 0 || line == 0 {
        return false;
    }
    let mut at = indent + line;
    let column = bytes.get(at) == Some(&b':') && digits(at + 1) > 0;
    if column {
        at += 1 + digits(at + 1);
    } else {
        at += blanks(at);
        if bytes.get(at) != Some(&b'|') {
            return false;
        }
        at += 1;
    }
    let gap = blanks(at);
    gap > 0 && severity(&body[at + gap..])
}

/// Whether `text` starts with a severity: a word (`error`, `warning`, `ERROR`) or a mark
/// (`✖`, `⚠`).
fn severity(text: &str) -> bool {
    let word: String = text
        .chars()
        .take_while(char::is_ascii_alphabetic)
        .take(8)
        .collect();
    matches!(
        word.to_ascii_lowercase().as_str(),
        "error" | "warning" | "warn" | "fatal"
    ) || text.starts_with(['\u{2716}', '\u{26a0}', '\u{2717}', '\u{d7}'])
}

/// Lines above an error line that its heading may be in: a file with more problems than this
/// is seldom linted whole, and the look back stays bounded where no heading comes.
const REACH: u64 = 1000;
/// Bytes a heading may have: a path, not a line that came in pieces.
const HEADING_BYTES: usize = 4096;

/// The last heading read, and how far the lines were looked at.
#[derive(Debug, Default)]
pub struct Headings {
    last: Option<Kept>,
    /// Every line through this one was looked at: `last` is the last heading among them.
    through: u64,
}

impl Headings {
    /// The heading within [`REACH`] lines above line `no`, which starts at byte `start` of
    /// `block`; `cum` counts the classified lines before it.
    pub(super) fn above(
        &mut self,
        block: Scanned,
        start: usize,
        no: u64,
        cum: Counts,
        line_keep: u64,
    ) -> Option<Kept> {
        self.look_back(block, start, no, cum, line_keep);
        self.last.clone().filter(|h| h.no + REACH >= no)
    }

    /// Looks at the lines of `block` before line `no`, which starts at byte `end` (one past
    /// the text for the line after the block's last), back to the last line looked at or
    /// [`REACH`] lines, whichever is nearer; `cum` counts the classified lines before `no`.
    /// Called at the end of every block too, so that what is found never depends on where
    /// the blocks were cut: the lines of an earlier block are no longer there to look at.
    pub(super) fn look_back(
        &mut self,
        block: Scanned,
        end: usize,
        no: u64,
        cum: Counts,
        line_keep: u64,
    ) {
        let text = block.text;
        let lowest = (self.through + 1).max(no.saturating_sub(REACH));
        let (mut end, mut at, mut cum) = (end, no, cum);
        // The look-ahead's list is walked back with the lines, not searched for each; a line
        // it classified as no heading's is passed by its offsets: on a log of errors at the
        // margin, that is every line.
        let mut listed = block.found.partition_point(|c| c.start < end);
        while at > lowest && end > 0 {
            let listed_line = listed.checked_sub(1).map(|i| &block.found[i]);
            let passed =
                |c: &&Candidate| c.start > 0 && c.end + 1 == end && c.class != Class::Other;
            if let Some(c) = listed_line.filter(passed) {
                cum = cum.before(c.class);
                (end, at, listed) = (c.start, at - 1, listed - 1);
                continue;
            }
            let from = memchr::memrchr(b'\n', &text.as_bytes()[..end - 1]).map_or(0, |i| i + 1);
            let raw = &text[from..end - 1];
            let class = match listed_line {
                _ if from == 0 => block.class_at(from, end - 1),
                Some(c) if c.start == from => c.class,
                _ => Class::Other,
            };
            if listed_line.is_some_and(|c| c.start >= from) {
                listed -= 1;
            }
            // Most lines under a heading are indented: no need to read them further.
            if class == Class::Other && raw.len() <= HEADING_BYTES && !raw.starts_with([' ', '\t'])
            {
                let line = Shown::new(raw);
                if names(line.body()) {
                    self.last = Some(keep_shown(&line, at - 1, class, true, cum, line_keep));
                    break;
                }
            }
            cum = cum.before(class);
            (end, at) = (from, at - 1);
        }
        self.through = self.through.max(no - 1);
    }

    /// The last heading: the one that the lines after it are under.
    #[must_use]
    pub fn into_last(self) -> Option<Kept> {
        self.last
    }
}

/// Whether `line`, shown without the lines between, is under `heading`, and needs it to say
/// which file it is in.
#[must_use]
pub fn heads(heading: &Kept, line: &Kept) -> bool {
    heading.no < line.no && heading.no + REACH >= line.no && is_under(line)
}

/// Whether a kept line reports a problem whose place it gives under a heading
/// ([`under_heading`]): a code frame's line under its number (`  12 |     int x;`) is no
/// problem of its own.
#[must_use]
pub fn is_under(line: &Kept) -> bool {
    matches!(line.class, Class::Error | Class::Warning)
        && under_heading(&line.text[prefix_len(&line.text)..])
}

/// Whether a kept line is a heading, as [`Headings`] reads one.
#[must_use]
pub fn is_heading(line: &Kept) -> bool {
    line.class == Class::Other
        && usize::try_from(line.chars).is_ok_and(|chars| chars <= HEADING_BYTES)
        && names(&line.text[prefix_len(&line.text)..])
}

/// Whether a line is a heading: it starts at the margin and holds a letter or a digit.
fn names(body: &str) -> bool {
    body.chars().next().is_some_and(|c| !c.is_whitespace())
        && body.chars().any(char::is_alphanumeric)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_under_a_heading_are_read_as_linters_print_them() {
        for line in [
            "  67:24  error  Expected '===' and instead saw '=='  eqeqeq",
            "  3:1       error    wrong indentation: expected 2 but found 0  (indentation)",
            "  12:5  \u{2716}  Unexpected unknown type selector \"foo\"  selector-type-no-unknown",
            "  12 | ERROR | [x] Missing file doc comment",
            "\t7:1\terror\tno newline at end of file",
        ] {
            assert!(under_heading(line), "{line}");
        }
        for line in [
            "67:24  error  at the margin",
            "src/a.js:67:24: error: a place of its own",
            "    at Object.<anonymous> (src/a.test.js:12:5)",
            "  error: something failed",
            "  12abc error",
            "  12: error",
            "  12:x error",
            "  1 failing",
            "  3:2  failing",
            "  12 error",
            "  12 |     int x = error;",
            "   ",
        ] {
            assert!(!under_heading(line), "{line}");
        }
    }

    #[test]
    fn a_heading_names_something_at_the_margin() {
        assert!(names("/home/runner/work/app/src/index.tsx"));
        assert!(names("FILE: src/a.php"));
        assert!(!names("  src/a.php"));
        assert!(!names("----------------"));
        assert!(!names(""));
    }
}
