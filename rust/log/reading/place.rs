//! The places pytest prints for the frames of a failure's traceback in the project's own code,
//! `PATH:N: in NAME` (`xarray/core/merge.py:465: in merge_data_and_coords`): the files and
//! lines an agent opens next.
//!
//! They stand above a failure's `E` lines, among the quoted source of each frame, where no
//! error block's trace reads, and a long failure puts them far from its error. So the look-ahead
//! finds them in every block ([`find`], one substring search), the pass keeps the last few
//! ([`Places`]), and a plan shows them where its budget allows. Frames in installed packages
//! and the standard library are not the project's, and are left out.
//!
//! A second search, for `_ `, finds the title over each failure's report (`_____ test_x
//! _____`, [`failure_title`]): it is no candidate of the prefilter's, since it reports
//! nothing, and the pass keeps the last one as the heading of the `E` lines under it.

use std::collections::VecDeque;
use std::sync::LazyLock;

use aho_corasick::AhoCorasick;
use memchr::memmem::Finder;

use super::frame::prefix_len;
use super::store::Kept;
use super::title::failure_title;
use crate::text::ansi::clean;
use crate::text::count_newlines;

/// Path parts of a Python frame in installed packages or the standard library.
const PYTHON_LIBRARY: &[&str] = &[
    "/site-packages/",
    "/dist-packages/",
    "/lib/python2",
    "/lib/python3",
    "/lib64/python3",
];

/// All of [`PYTHON_LIBRARY`] in one pass: a `str::contains` for each built five searchers
/// per place, on a log of pytest failures more than the search that found the places.
static LIBRARY: LazyLock<AhoCorasick> = LazyLock::new(|| {
    AhoCorasick::new(PYTHON_LIBRARY).expect("the library's path parts are fixed and valid")
});

/// Whether `path` is that of a Python file in installed packages or the standard library.
#[must_use]
pub fn in_python_library(path: &str) -> bool {
    LIBRARY.is_match(path)
}

/// Places kept: the last ones, nearest to the failures a plan shows first.
pub const KEPT: usize = 12;

/// What every place holds between its line number and its name.
const SEPARATOR_TEXT: &str = ": in ";
static SEPARATOR: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(SEPARATOR_TEXT));

/// Whether `line`, whose first [`SEPARATOR_TEXT`] starts at byte `at`, is the place pytest prints
/// for a frame in the project's own code.
fn is_project_place(line: &str, at: usize) -> bool {
    let (place, name) = (&line[..at], line[at + SEPARATOR_TEXT.len()..].trim_end());
    let Some((path, number)) = place.rsplit_once(':') else {
        return false;
    };
    let word = |c: char| c.is_alphanumeric() || matches!(c, '_' | '<' | '>' | '.');
    !path.is_empty()
        && !path.starts_with([' ', '\t'])
        && !path.contains(' ')
        && !number.is_empty()
        && number.bytes().all(|b| b.is_ascii_digit())
        && !name.is_empty()
        && name.chars().all(word)
        && !in_python_library(path)
}

/// A place (or a failure's title) in a block's text: its line's byte offsets, and the lines of
/// the text before it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Place {
    pub start: usize,
    pub end: usize,
    pub line: u64,
    /// The line is a failure's title, not a place.
    pub title: bool,
}

/// What a failure's title holds between its rule and the test's name.
static TITLE: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new("_ "));

/// The places in the project's code and the failures' titles among the lines of `text`, in
/// order.
#[must_use]
pub fn find(text: &str) -> Vec<Place> {
    let places = lines_holding(text, &SEPARATOR, is_project_place);
    // As a terminal shows it: pytest colours its titles (`--color=yes`, as CI logs hold them).
    let titles = lines_holding(text, &TITLE, |line, _| {
        let shown = clean(line);
        failure_title(&shown[prefix_len(&shown)..])
    });
    let mut lines: Vec<(usize, usize, bool)> = (places.into_iter().map(|(s, e)| (s, e, false)))
        .chain(titles.into_iter().map(|(s, e)| (s, e, true)))
        .collect();
    lines.sort_unstable_by_key(|&(start, ..)| start);
    let (mut counted, mut line) = (0, 0);
    lines
        .into_iter()
        .map(|(start, end, title)| {
            line += count_newlines(&text.as_bytes()[counted..start]);
            counted = start;
            Place {
                start,
                end,
                line,
                title,
            }
        })
        .collect()
}

/// The offsets of each line of `text` that holds `needle` and that `keep` accepts, given the
/// line and where its first `needle` starts, in order.
fn lines_holding(
    text: &str,
    needle: &Finder<'_>,
    keep: impl Fn(&str, usize) -> bool,
) -> Vec<(usize, usize)> {
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(hit) = needle.find(&bytes[from..]).map(|i| from + i) {
        let start = memchr::memrchr(b'\n', &bytes[..hit]).map_or(0, |nl| nl + 1);
        let end = memchr::memchr(b'\n', &bytes[hit..]).map_or(bytes.len(), |i| hit + i);
        // The first needle of its line: the search went on from the end of the last.
        if keep(&text[start..end], hit - start) {
            found.push((start, end));
        }
        from = end;
    }
    found
}

/// The last [`KEPT`] places the pass met, as a plan would show them.
#[derive(Debug, Default)]
pub struct Places(VecDeque<Kept>);

impl Places {
    pub fn add(&mut self, kept: Kept) {
        if self.0.len() == KEPT {
            self.0.pop_front();
        }
        self.0.push_back(kept);
    }

    #[must_use]
    pub fn into_lines(self) -> Vec<Kept> {
        self.0.into()
    }
}

#[cfg(test)]
mod tests {
    use super::find;

    fn is_project_place(line: &str) -> bool {
        find(line).len() == 1
    }

    #[test]
    fn places_in_the_projects_code_are_found_with_their_lines() {
        let text = "x\nxarray/core/merge.py:465: in merge_data_and_coords\n    return f(a)\n\
                    /usr/lib/python3.11/site-packages/pandas/core/generic.py:3222: in to_xarray\n\
                    tests/test_a.py:9: in test_b";
        let found: Vec<(&str, u64)> = find(text)
            .iter()
            .map(|p| (&text[p.start..p.end], p.line))
            .collect();
        assert_eq!(
            found,
            [
                ("xarray/core/merge.py:465: in merge_data_and_coords", 1),
                ("tests/test_a.py:9: in test_b", 4)
            ]
        );
    }

    #[test]
    fn failures_titles_are_found_among_the_places_in_order() {
        let text = "x\n______ test_a ______\n    def test_a():\n\
                    pkg/m.py:3: in f\n_ _ _ _ _ _\nE   ValueError: x\n\
                    2024-01-02T03:04:05.1234567Z ____ test_b ____\n\
                    \x1b[1m\x1b[31m____ test_c[1-True] ____\x1b[0m\n";
        let found: Vec<(&str, u64, bool)> = find(text)
            .iter()
            .map(|p| (&text[p.start..p.end], p.line, p.title))
            .collect();
        assert_eq!(
            found,
            [
                ("______ test_a ______", 1, true),
                ("pkg/m.py:3: in f", 3, false),
                ("2024-01-02T03:04:05.1234567Z ____ test_b ____", 6, true),
                ("\x1b[1m\x1b[31m____ test_c[1-True] ____\x1b[0m", 7, true),
            ]
        );
    }

    #[test]
    fn pytest_frame_places_in_the_projects_code() {
        for line in [
            "xarray/core/merge.py:465: in merge_data_and_coords",
            "astropy/table/pprint.py:563: in <genexpr>",
            "tests/test_x.py:12: in test_y  ",
        ] {
            assert!(is_project_place(line), "{line}");
        }
        for line in [
            "/opt/conda/lib/python3.9/site-packages/numpy/core/shape_base.py:456: in stack",
            "    xarray/core/merge.py:465: in merge_data_and_coords",
            "astropy/units/quantity.py:1688: TypeError",
            "E   AssertionError: 2 in [1]: in a list",
            "see merge.py:465: in the docs",
            "merge.py:x: in f",
        ] {
            assert!(!is_project_place(line), "{line}");
        }
    }
}
