//! Runner and build-tool closing lines: `3 failed, 12 passed in 1.2s`, `Ran 40 tests`,
//! `test result: ok.`, `make: *** …`, `exit status 2`.
//!
//! Most lines that reach these checks are not summaries, so each rule starts with a cheap
//! test that rejects them (a first byte, a branch-free byte scan) before it reads words.

use std::sync::LazyLock;

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, MatchKind};

use super::class::Class;
use super::keyword::first_signal;
use crate::lanes::Lanes;
use crate::text::is_ascii_space;

/// Runner and build-tool closing lines. `line` is the line before escapes are removed.
pub(super) fn is_summary(line: &str, t: &str) -> bool {
    let first = |s: &str| s.as_bytes().first().copied().unwrap_or(0);
    let may_start_one =
        SUMMARY_FIRST_BYTES.contains(&first(t)) || SUMMARY_FIRST_BYTES.contains(&first(line));
    if may_start_one && summary_by_start(line, t) || tap_fail_count(t) {
        return true;
    }
    let prechecks = Prechecks::of(t.as_bytes());
    (prechecks.xit && exit_status(t).is_some()) || (prechecks.separated_digit && runner_counts(t))
}

/// The first bytes of every prefix `summary_by_start` looks for: a line that starts with none
/// of them skips some twenty prefix comparisons.
const SUMMARY_FIRST_BYTES: &[u8] = b"BFOPRSTmnot=";

/// Summary lines known by how they start.
fn summary_by_start(line: &str, t: &str) -> bool {
    let starts = |p: &str| t.starts_with(p);
    let at_start = |p: &str| line.starts_with(p);
    if t == "OK" && at_start("OK") || at_start("OK (") || starts("FAILED (") {
        return true;
    }
    if t == "PASS" && at_start("PASS") || t == "FAIL" {
        return true;
    }
    if at_start("Ran ") && line[4..].starts_with(|c: char| c.is_ascii_digit()) {
        return true;
    }
    if line.starts_with("ok  ") || line.starts_with("ok\t") || line.starts_with("FAIL\t") {
        return true;
    }
    if starts("test result: ")
        || starts("Tests:")
        || starts("Test Suites:")
        || starts("Tests run:")
        || starts("Success: no issues found")
        || starts("Results (")
        || starts("BUILD SUCCESS")
        || starts("BUILD FAILURE")
        || starts("BUILD FAILED")
        || at_start("ninja: build stopped")
        || (at_start("make: ") || at_start("make[")) && !t.contains(" directory '")
    {
        return true;
    }
    if starts("Found ") && t.contains(" error") && t.contains(" in ") {
        return true;
    }
    t.starts_with('=') && t.contains("short test summary info")
}

/// Whether `t` is a TAP producer's closing count of failures, `# fail 2` (tape pads it,
/// `# fail  2`), or node's spec reporter's `ℹ fail 2`. Its word alone would make it an error,
/// and the last one at that, which a plan shows before every real failure above it.
fn tap_fail_count(t: &str) -> bool {
    let Some(rest) = t.strip_prefix('#').or_else(|| t.strip_prefix('\u{2139}')) else {
        return false;
    };
    rest.trim_start()
        .strip_prefix("fail")
        .filter(|count| count.starts_with(|c: char| c.is_ascii_whitespace()))
        .map(str::trim)
        .is_some_and(|count| !count.is_empty() && count.bytes().all(|b| b.is_ascii_digit()))
}

/// The status in an exit-status phrase of `t`, if it has one.
fn exit_status(t: &str) -> Option<u64> {
    [
        "exit status",
        "exit code",
        "exited with",
        "Exit status",
        "Exit code",
        "Exited with",
        "EXIT STATUS",
        "EXIT CODE",
    ]
    .iter()
    .find_map(|k| {
        let at = t.find(k)?;
        let rest = t[at + k.len()..]
            .trim_start_matches(|c: char| !c.is_ascii_alphanumeric())
            .trim_start_matches("code")
            .trim_start_matches("CODE")
            .trim_start();
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        // A status too long for a number is not zero.
        (digits > 0).then(|| rest[..digits].parse().unwrap_or(u64::MAX))
    })
}

/// Whether a summary line (as shown) reports a failure: a failure word that is not negated
/// (`1 failed`, `FAILED`, `FAIL pkg`, `##[error]`), or an exit status other than 0.
pub(crate) fn failing(text: &str) -> bool {
    let t = text.trim();
    first_signal(t) == Class::Error || exit_status(t).is_some_and(|status| status != 0)
}

/// Bytes whose windows [`Prechecks::of`] reads in one vector step.
const LANES: usize = 16;

/// What one pass over a line's bytes says it may hold: "xit" in any casing (every exit-status
/// phrase does), and a digit followed by a separator (ASCII whitespace as `char::is_whitespace`
/// has it, vertical tab included, ',', or the first byte of a non-ASCII character), as a
/// count that a runner prints is. Most lines hold neither; a pass for each, with a search set
/// up for each, was a sixth of a look at a line of compiler errors.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Prechecks {
    xit: bool,
    separated_digit: bool,
}

impl Prechecks {
    fn of(bytes: &[u8]) -> Self {
        let (mut xit, mut separated_digit) = (0u8, 0u8);
        let mut at = 0;
        while let Some(window) = bytes.get(at..at + LANES + 2) {
            let found = Self::step(window.try_into().expect("LANES + 2 bytes"));
            (xit, separated_digit) = (xit | found.0, separated_digit | found.1);
            at += LANES;
        }
        if at < bytes.len() && bytes.len() >= LANES + 2 {
            // The rest, in the line's last window: places looked at twice change no answer.
            // Only the last place but one starts a pair that this window does not hold.
            let last = bytes.len() - (LANES + 2);
            let found = Self::step(bytes[last..].try_into().expect("LANES + 2 bytes"));
            let end = &bytes[bytes.len() - 2..];
            let pair = u8::from(end[0].is_ascii_digit() && separates(end[1]));
            return Prechecks {
                xit: (xit | found.0) != 0,
                separated_digit: (separated_digit | found.1 | pair) != 0,
            };
        }
        // The rest of a short line, padded with zero bytes, which neither start nor go on
        // with anything looked for.
        let mut rest = [0u8; 2 * LANES + 2];
        rest[..bytes.len() - at].copy_from_slice(&bytes[at..]);
        for window in [&rest[..LANES + 2], &rest[LANES..]] {
            let found = Self::step(window.try_into().expect("LANES + 2 bytes"));
            (xit, separated_digit) = (xit | found.0, separated_digit | found.1);
        }
        Prechecks {
            xit: xit != 0,
            separated_digit: separated_digit != 0,
        }
    }

    /// Looks at the windows that start in the first [`LANES`] bytes of `window`: whether one
    /// is "xit", whether one is a separated digit. The sixteen places are looked at at once
    /// with vector compares of the window from its first three bytes on (see [`Lanes`]): the
    /// compiler made the loop below take some five instructions a place, and every line the
    /// look classifies comes here.
    fn step(window: &[u8; LANES + 2]) -> (u8, u8) {
        let from = |i: usize| Lanes::load(window[i..i + LANES].try_into().expect("LANES bytes"));
        if let (Some(first), Some(second), Some(third)) = (from(0), from(1), from(2)) {
            let xit = first.folded().is(b'x') & second.folded().is(b'i') & third.folded().is(b't');
            // ASCII white space, ',' and any byte past ASCII.
            let separated = second.within(b'\t', b'\r' - b'\t')
                | second.is(b' ')
                | second.is(b',')
                | second.within(0x80, 0x7f);
            let digit = first.within(b'0', 9) & separated;
            return (u8::from(xit != 0), u8::from(digit != 0));
        }
        let lower = |i: usize, want: u8| u8::from((window[i] | 0x20) == want);
        let digit = |b: u8| u8::from(b.wrapping_sub(b'0') < 10);
        let separated = |b: u8| u8::from(separates(b));
        let (mut xit, mut separated_digit) = (0u8, 0u8);
        for i in 0..LANES {
            xit |= lower(i, b'x') & lower(i + 1, b'i') & lower(i + 2, b't');
            separated_digit |= digit(window[i]) & separated(window[i + 1]);
        }
        (xit, separated_digit)
    }
}

/// Whether `b` may end a count: ASCII white space as `char::is_whitespace` has it, ',', or
/// the first byte of a non-ASCII character (which may be white space).
fn separates(b: u8) -> bool {
    is_ascii_space(b) || b == b',' || b >= 0x80
}

/// Words that runners print after a count: `3 failed, 12 passed in 1.2s`, or `536 passed` alone.
const COUNT_WORDS: &[&str] = &[
    "passed",
    "failed",
    "error",
    "errors",
    "skipped",
    "xfailed",
    "xpassed",
    "deselected",
    "warning",
    "warnings",
];

/// Finds any of [`COUNT_WORDS`] anywhere in a line: a line without one counts nothing.
static ANY_COUNT_WORD: LazyLock<AhoCorasick> = LazyLock::new(|| {
    AhoCorasickBuilder::new()
        // Leftmost-first, so that a vector searcher may run (see `evidence::ANY_NEEDLE`).
        .match_kind(MatchKind::LeftmostFirst)
        .build(COUNT_WORDS)
        .expect("the count words are fixed and valid")
});

/// Whether `t` counts what a runner ran: `3 failed, 12 passed in 1.2s`, or `536 passed` alone.
/// A count is a word of digits that ends where a separator starts (what
/// [`Prechecks::separated_digit`] looks for first).
fn runner_counts(t: &str) -> bool {
    // Most lines that pass the prechecks are messages with a number in them (`expected 0 got
    // 1`), and splitting them into words cost more than the rest of their classification.
    if !ANY_COUNT_WORD.is_match(t) {
        return false;
    }
    let words = t
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|w| !w.is_empty());
    let (mut n, mut counted, mut timed) = (0, false, false);
    let mut prev = "";
    for w in words {
        n += 1;
        if n > 1 {
            counted |= prev.bytes().all(|b| b.is_ascii_digit()) && COUNT_WORDS.contains(&w);
            timed |= prev == "in" && w.starts_with(|c: char| c.is_ascii_digit());
        }
        prev = w;
    }
    // A count alone on its line, or a closing line in pytest's or clang's way.
    counted && (n == 2 || t.starts_with('=') || t.ends_with("generated.") || timed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failing_summaries() {
        for line in [
            "==== 1 failed, 1985 passed in 12.31s ====",
            "FAILED (failures=1)",
            "test result: FAILED. 3 passed; 1 failed; 0 ignored",
            "FAIL\tgithub.com/x/y\t0.012s",
            "Tests:       1 failed, 41 passed, 42 total",
            "Process finished with exit code 1",
            "2026-11-23T10:15:30Z ##[error]Process completed with exit code 2.",
            "# fail 2",
            "# fail  1",
            "\u{2139} fail 3",
            "2026-11-23T10:15:42.0993569Z # fail 1",
        ] {
            assert!(failing(line), "{line}");
        }
        for line in [
            "ok  \tgithub.com/x/y\t0.012s",
            "Ran 1261 tests in 2.104s",
            "Tests run: 12, Failures: 0, Errors: 0, Skipped: 0",
            "test result: ok. 3 passed; 0 failed",
            "exit status 0",
            "OK (skipped=3)",
            "# fail 0",
            "\u{2139} fail 0",
            "2026-11-23T10:15:42.0993569Z # fail 0",
        ] {
            assert!(!failing(line), "{line}");
        }
    }

    /// TAP's closing counts are summaries, and only theirs: a comment or a test named for a
    /// failure is not one.
    #[test]
    fn tap_fail_counts_are_summaries() {
        for line in ["# fail 2", "# fail  1", "# fail 0", "\u{2139} fail 3"] {
            assert!(is_summary(line, line), "{line}");
        }
        for line in [
            "# failures below",
            "# fail",
            "# fail 2 tests",
            "# failed 2",
            "not ok 2 - fail 2",
        ] {
            assert!(!tap_fail_count(line), "{line}");
        }
    }

    #[test]
    fn every_count_word_is_found() {
        for word in COUNT_WORDS {
            assert!(ANY_COUNT_WORD.is_match(word), "{word}");
        }
    }

    /// A count that a vertical tab follows is still a count: the prechecks let it through to
    /// the rule that reads it (they took only `u8::is_ascii_whitespace`, which leaves that
    /// one out, for a separator).
    #[test]
    fn a_count_before_a_vertical_tab_is_a_summary() {
        assert!(runner_counts("3\x0bpassed"));
        assert!(is_summary("3\x0bpassed", "3\x0bpassed"));
    }

    #[test]
    fn byte_prechecks_same_as_naive() {
        let alphabet = b"0x9XiItT ,\t\r\n\x0b\x0ca\xc3";
        let mut seed = 7u32;
        for len in 0..60 {
            for _ in 0..200 {
                let bytes: Vec<u8> = (0..len)
                    .map(|_| {
                        seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                        alphabet[(seed >> 16) as usize % alphabet.len()]
                    })
                    .collect();
                let xit = bytes.windows(3).any(|w| w.eq_ignore_ascii_case(b"xit"));
                let sep = |b: u8| matches!(b, b'\t'..=b'\r' | b' ' | b',') || b >= 0x80;
                let digit = bytes.windows(2).any(|w| w[0].is_ascii_digit() && sep(w[1]));
                let want = Prechecks {
                    xit,
                    separated_digit: digit,
                };
                assert_eq!(Prechecks::of(&bytes), want, "{bytes:?}");
            }
        }
    }
}
