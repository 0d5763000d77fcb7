//! What a line says about a test or a build without an error word, or despite one: that a
//! test passed or was skipped, that a logger is only debugging, that an assertion expected
//! one thing and got another, that a command was not found or the process was killed.
//!
//! These rules run on every line the prefilter hits, so the substrings they look for anywhere
//! in a line are found by one scan with an automaton built once, not by a search apiece.

use std::sync::LazyLock;

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, AhoCorasickKind, MatchKind};

use super::starts::Starts;

/// What a substring found anywhere in a line stands for.
#[derive(Clone, Copy)]
enum Kind {
    /// `PASSED`, `skipped`: the line reports a passing or skipped test.
    Pass,
    /// `DEBUG`, `[trace]`: a logger's level, when it is a word early in the line.
    Level,
    /// ` but `, `, got `: the second half of `Expected X, but got Y`.
    Got,
    /// `command not found`, `Permission denied`, `Segmentation fault`, `Killed`, `timed out`,
    /// `rake aborted!`.
    Phrase,
}

/// The substrings, each with what it stands for. Every phrase is in the prefilter's patterns
/// too, so that a line holding one reaches the classifier.
const NEEDLES: &[(&str, Kind)] = &[
    (" PASSED", Kind::Pass),
    ("skipped", Kind::Pass),
    ("SKIPPED", Kind::Pass),
    ("DEBUG", Kind::Level),
    ("TRACE", Kind::Level),
    ("[debug]", Kind::Level),
    ("[trace]", Kind::Level),
    (" but ", Kind::Got),
    (", got ", Kind::Got),
    (" got: ", Kind::Got),
    ("not found", Kind::Phrase),
    ("No such file", Kind::Phrase),
    ("ermission denied", Kind::Phrase),
    ("egmentation fault", Kind::Phrase),
    ("Killed", Kind::Phrase),
    ("imed out", Kind::Phrase),
    ("aborted!", Kind::Phrase),
    ("Aborted (core dumped)", Kind::Phrase),
];

/// How far into a line a logger's level may stand.
const LEVEL_WITHIN: usize = 48;

/// A full DFA without a prefilter: the lines it reads are a few dozen bytes, too short for a
/// vector search to pay for its setup. A plain search passes over a needle that starts inside
/// an earlier match; only needles that begin and end with a space can meet that way, and then
/// only across two spaces in a row, so it finds what an overlapping search, twice as costly,
/// would.
static NEEDLE_SCAN: LazyLock<AhoCorasick> = LazyLock::new(|| {
    AhoCorasickBuilder::new()
        .kind(Some(AhoCorasickKind::DFA))
        .prefilter(false)
        .build(NEEDLES.iter().map(|n| n.0))
        .expect("the needles are fixed and valid")
});

/// Whether a line holds any needle at all, which most lines do not: a leftmost-first search
/// may use a vector searcher (the standard one above may not) and, over a line of a few dozen
/// bytes, costs about a quarter of the byte-by-byte walk. Any search finds a match when a
/// needle occurs, so a line it passes over holds none, and only a line it hits is walked.
static ANY_NEEDLE: LazyLock<AhoCorasick> = LazyLock::new(|| {
    AhoCorasickBuilder::new()
        .kind(Some(AhoCorasickKind::DFA))
        .match_kind(MatchKind::LeftmostFirst)
        .build(NEEDLES.iter().map(|n| n.0))
        .expect("the needles are fixed and valid")
});

/// The kinds of evidence one line holds.
#[derive(Debug, Clone, Copy, Default)]
#[allow(
    clippy::struct_excessive_bools,
    reason = "independent findings of one scan, each read by its own rule"
)]
pub(super) struct Evidence {
    pass: bool,
    level: bool,
    got: bool,
    phrase: bool,
}

impl Evidence {
    /// One scan of `t`, a line trimmed and without its CI prefix.
    pub(super) fn of(t: &str) -> Self {
        let bytes = t.as_bytes();
        let alone = |at: usize, len: usize| {
            let before = at.checked_sub(1).map_or(b' ', |i| bytes[i]);
            let after = bytes.get(at + len).copied().unwrap_or(b' ');
            !before.is_ascii_alphanumeric() && !after.is_ascii_alphanumeric()
        };
        let mut said = Evidence::default();
        if !ANY_NEEDLE.is_match(t) {
            return said;
        }
        for m in NEEDLE_SCAN.find_iter(t) {
            match NEEDLES[m.pattern().as_usize()].1 {
                Kind::Pass => said.pass = true,
                Kind::Level => {
                    said.level |= m.end() <= LEVEL_WITHIN && alone(m.start(), m.len());
                }
                Kind::Got => said.got = true,
                Kind::Phrase => said.phrase = true,
            }
        }
        said
    }

    /// Lines that say a test passed, was skipped or is merely starting: Go's `--- PASS:` and
    /// `=== RUN`, TAP's `ok 3 - …`, check marks, pytest's `PASSED`, unittest's `... ok`,
    /// `skipped: cvs not found`, and a logger's debug lines (`14:50:00 DEBUG proxied: Got an
    /// error`), which talk about errors a program handled.
    pub(super) fn passing(self, t: &str) -> bool {
        const STARTS: Starts = Starts::new(&[
            "--- PASS",
            "--- SKIP",
            "=== RUN",
            "=== PAUSE",
            "=== CONT",
            "=== NAME",
            "PASS ",
            "\u{2713}",
            "\u{2714}",
            "\u{221a}",
        ]);
        let tap_ok = t
            .strip_prefix("ok ")
            .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_digit()));
        // The endings end in one of three bytes: one look rules most lines out.
        let ends_passed = matches!(t.as_bytes().last(), Some(b'k' | b'K' | b'd'))
            && [" ... ok", " ... OK", " ... passed"]
                .iter()
                .any(|s| t.ends_with(s));
        self.pass || self.level || tap_ok || STARTS.starts(t) || ends_passed || names_a_test(t)
    }

    /// How test runners mark a failure without an error word: TAP's `not ok`, the crosses of
    /// Jest, Mocha and node's runner, Jest's `●` headings, Pester's `[-]`, `RSpec`'s
    /// `Failure/Error:`, Elixir's `** (Error)`, and `Expected X, but got Y`.
    pub(super) fn failure_form(self, t: &str) -> bool {
        const STARTS: Starts = Starts::new(&[
            "not ok ",
            "\u{2715}",
            "\u{2716}",
            // Vitest's cross.
            "\u{d7} ",
            "[-] ",
            "Failure/Error",
            "** (",
        ]);
        if STARTS.starts(t) {
            return true;
        }
        // RSpec's list of failed examples: `rspec ./spec/a_spec.rb:12 # Foo does x`.
        if t.starts_with("rspec ./") && t.contains(" # ") {
            return true;
        }
        // ExUnit's numbered failure: `1) test adds numbers (MathTest)`.
        let digits = t.bytes().take_while(u8::is_ascii_digit).count();
        if digits > 0 && t[digits..].starts_with(") test ") && t.ends_with(')') {
            return true;
        }
        if let Some(heading) = t.strip_prefix("\u{25cf} ") {
            return !heading.starts_with("Console");
        }
        self.got && (t.starts_with("Expected") || t.starts_with("expected"))
    }

    /// A failure phrase that carries no error word.
    pub(super) fn failure_phrase(self) -> bool {
        self.phrase
    }
}

/// Whether `t` only names a test, as a runner lists them: pytest's node id
/// (`tests/test_io.py::test_bad_input[utf-8 error]`, what `--collect-only -q` prints) or
/// libtest's `parse::error_spans: test` (`cargo test -- --list`). Tests are named after the
/// failures they check, and a list of them reports none.
fn names_a_test(t: &str) -> bool {
    let word = |s: &str| !s.is_empty() && !s.contains(char::is_whitespace);
    if let Some(name) = t
        .strip_suffix(": test")
        .or_else(|| t.strip_suffix(": benchmark"))
    {
        return word(name) && name.contains("::");
    }
    // A path holds no colon, so the id's `::` is the line's first colon.
    let Some(at) = memchr::memchr(b':', t.as_bytes()) else {
        return false;
    };
    let Some(id) = t[at + 1..].strip_prefix(':') else {
        return false;
    };
    let path = &t[..at];
    let python = path
        .rsplit_once('.')
        .is_some_and(|(_, ext)| ext.eq_ignore_ascii_case("py"));
    if !word(path) || !python {
        return false;
    }
    // Parameters in brackets may hold spaces; the id ends with them, where `-v` goes on after
    // them with what happened (`[a-1] FAILED [ 72%]`).
    match id.split_once('[') {
        Some((name, params)) => word(name) && params.ends_with(']') && !params.contains("] "),
        None => word(id),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_lines_say() {
        let passing = [
            "--- PASS: TestReadFailure (0.00s)",
            "tests/test_errors.py::test_raise PASSED",
            "t9400.sh ... skipped: cvs not found",
            "14:50:00.240 DEBUG proxied: Got an error",
            "ok 3 - handles a failure",
            "test_error (x.Y) ... ok",
            "tests/test_log.py::test_bad_input[1-100% error lines]",
            "tests/test_io.py::TestRead::test_read_error",
            "parse::tests::reports_an_error: test",
        ];
        for t in passing {
            assert!(Evidence::of(t).passing(t), "{t}");
        }
        let failing = [
            "not ok 3 - handles a failure",
            "Expected 'a', but got 'b'",
            "expected: 2 got: 3",
            "\u{25cf} Suite \u{203a} adds",
            "[-] runs all files -> values differ",
            "\u{d7} adds two numbers 3ms",
            "rspec ./spec/models/post_spec.rb:12 # Post renders its title",
            "1) test adds numbers (MathTest)",
        ];
        for t in failing {
            let said = Evidence::of(t);
            assert!(!said.passing(t) && said.failure_form(t), "{t}");
        }
        // A test's name with what happened to it, or words that end like a listed test's.
        for t in [
            "FAILED tests/test_a.py::test_b - AssertionError: boom",
            "tests/test_x.py::test_y FAILED                  [ 42%]",
            "tests/test_x.py::test_y[command0] FAILED     [ 72%]",
            "tests/test_x.py::test_z[a-1] ERROR [ 73%]",
            "ERROR tests/test_x.py::test_z",
            "error: test",
        ] {
            assert!(!Evidence::of(t).passing(t), "{t}");
        }
        for t in [
            "sh: 1: jest: not found",
            "Segmentation fault (core dumped)",
            "Killed",
            "Tests timed out",
            "rake aborted!",
            "Aborted (core dumped)",
        ] {
            assert!(Evidence::of(t).failure_phrase(), "{t}");
        }
        for t in [
            "DEBUGGER attached",
            &format!("{}DEBUG late", "x ".repeat(30)),
            "\u{25cf} Console",
            "Expected behaviour is documented",
            "2 \u{d7} 3 = 6",
            "rspec ./spec/models/post_spec.rb",
            "1) test plan (draft)x",
        ] {
            let said = Evidence::of(t);
            assert!(!said.passing(t) && !said.failure_form(t), "{t}");
        }
    }
}
