//! The literals the log look-ahead scans each block for, and the automata built from them once.
//!
//! Every line that is not [`Class::Other`](super::class::Class) holds one of them (the
//! prefilter's contract, see [`super::prefilter`]), so both the block-wide scan and the
//! classifier, which must not count a line whose keyword only removing escapes forms, read
//! them from here.

use std::sync::LazyLock;

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, AhoCorasickKind, MatchKind};

/// Literals at least one of which every non-`Other` line contains (with a `'\n'` before the
/// line). Keywords come in the three casings `classify` accepts.
pub(super) const PATTERNS: &[&str] = &[
    "error",
    "Error",
    "ERROR",
    "ERR!",
    "err!",
    "Err!",
    "fail",
    "Fail",
    "FAIL",
    "fatal",
    "Fatal",
    "FATAL",
    "xception",
    "XCEPTION",
    "panic",
    "Panic",
    "PANIC",
    "raceback",
    "RACEBACK",
    "warn",
    "Warn",
    "WARN",
    "passed",
    "skipped",
    "deselected",
    "\nE  ",
    "\nOK",
    "\nok",
    "\nRan ",
    "\nPASS",
    "test result",
    "Tests",
    "Test Suites:",
    "Found ",
    "Success:",
    "exit",
    "Exit",
    "EXIT",
    "\nmake",
    "\nninja",
    "BUILD ",
    "Results (",
    "summary",
    "\rE  ",
    "\rOK",
    "\rok",
    "\rRan ",
    "\rPASS",
    "\rmake",
    "\rninja",
];

/// More literals of non-`Other` lines, scanned for by an automaton of their own. The SIMD
/// searcher packs patterns into a few buckets by their first bytes; one list of all of them
/// filled some buckets with patterns whose mixed fingerprints match common text, and the
/// scan then cost three to six times as many instructions, by which patterns shared a bucket.
/// Two short lists each keep a searcher that rarely stops for nothing.
pub(super) const FORM_PATTERNS: &[&str] = &[
    // pytest's `E` lines after the CI prefixes that `frame::starts_after` accepts.
    "Z E  ",
    "] E  ",
    // Failure forms without a keyword (see `Evidence::failure_form`) and failure phrases.
    "not ok",
    "\u{2715}",
    "\u{2716}",
    "\u{25cf}",
    "[-] ",
    "** (",
    "\u{d7} ",
    ") test ",
    "rspec ./",
    "xpected",
    "not found",
    "No such file",
    "ermission denied",
    "egmentation fault",
    "Killed",
    "imed out",
    "aborted!",
    "Aborted (core dumped)",
];

/// The keyword and the form automata, built once per process: a full DFA takes milliseconds to build, longer than a small
/// input takes to scan.
pub(super) static AUTOMATA: LazyLock<(AhoCorasick, AhoCorasick)> =
    LazyLock::new(|| (scanner(PATTERNS), scanner(FORM_PATTERNS)));

fn scanner(patterns: &[&str]) -> AhoCorasick {
    AhoCorasickBuilder::new()
        .match_kind(MatchKind::LeftmostFirst)
        // A full DFA: one table look-up per byte, for a scan over every byte of the input.
        .kind(Some(AhoCorasickKind::DFA))
        .build(patterns)
        .expect("the prefilter's patterns are fixed and valid")
}

/// Whether the prefilter sees a pattern in the raw line `raw` (without its `'\n'`): what a line
/// with escape sequences must hold to count (see `classify::escapes_hide_nothing`).
///
/// The scan sees the line after its `'\n'`, but no copy of it is made: only a pattern led by
/// `'\n'` could match there, and only at the line's start. On coloured CI logs, where nearly
/// every line the scan hits holds an escape, copying each one cost more than its search.
pub(super) fn holds_pattern(raw: &str) -> bool {
    AUTOMATA.0.is_match(raw)
        || AUTOMATA.1.is_match(raw)
        || PATTERNS
            .iter()
            .filter_map(|p| p.strip_prefix('\n'))
            .any(|start| raw.starts_with(start))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_helpers::word_lines;

    /// [`holds_pattern`] says what a scan of the line after a `'\n'` says.
    #[test]
    fn holds_pattern_is_the_scan_after_a_newline() {
        let words = [
            "E",
            "  ",
            "OK",
            "ok",
            "Ran",
            "PASS",
            "make",
            "ninja",
            "error",
            "err\x1b[0mor",
            "\r",
            "\x1b[1m",
            "x",
            "not",
            "found",
            "Z",
            "]",
        ];
        let mut held = 0;
        for line in word_lines(&words, 0x9e37_79b9_7f4a_7c15, 5, true).take(50_000) {
            let hay = format!("\n{line}");
            let want = AUTOMATA.0.is_match(hay.as_str()) || AUTOMATA.1.is_match(hay.as_str());
            assert_eq!(holds_pattern(&line), want, "{line:?}");
            held += usize::from(want);
        }
        assert!(held > 1000, "too few lines hold a pattern: {held}");
    }
}
