//! What kind of line a log line is: error, warning, summary or other.
//!
//! Most lines of a build log are none of these, so the planner never looks at them one by one:
//! [`Prefilter`] runs one multi-pattern scan over a whole block and only the lines it hits reach
//! [`classify`]. That split is safe because of one contract, checked by a test over many lines:
//! **`classify` returns [`Class::Other`] for every line that holds none of the prefilter's
//! patterns** (keywords are recognised only in lower, Capitalised or UPPER case, the casings the
//! patterns list). Classification is a pure function of a line's first [`CLASSIFY_PREFIX`]
//! bytes, so a line counts the same whether it was met in the scan, in the head, in the tail or
//! in pieces.

use std::sync::LazyLock;

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, AhoCorasickKind, MatchKind};

use super::noise::{clean, last_state};

/// Bytes of a line that decide its class; the rest of a very long line is never scanned again.
pub const CLASSIFY_PREFIX: usize = 64 * 1024;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    Error,
    Warning,
    Summary,
    Other,
}

/// Running totals of classified lines, through some line.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    pub errors: u64,
    pub warnings: u64,
    pub summaries: u64,
}

impl Counts {
    pub fn add(&mut self, class: Class) {
        match class {
            Class::Error => self.errors += 1,
            Class::Warning => self.warnings += 1,
            Class::Summary => self.summaries += 1,
            Class::Other => {}
        }
    }

    /// Counts through the line before one of class `class` whose counts these are.
    #[must_use]
    pub fn before(mut self, class: Class) -> Self {
        match class {
            Class::Error => self.errors -= 1,
            Class::Warning => self.warnings -= 1,
            Class::Summary => self.summaries -= 1,
            Class::Other => {}
        }
        self
    }

    #[must_use]
    pub fn minus(self, earlier: Counts) -> Counts {
        Counts {
            errors: self.errors - earlier.errors,
            warnings: self.warnings - earlier.warnings,
            summaries: self.summaries - earlier.summaries,
        }
    }
}

/// Literals at least one of which every non-`Other` line contains (with a `'\n'` before the
/// line). Keywords come in the three casings `classify` accepts.
const PATTERNS: &[&str] = &[
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

/// The block-wide scan that finds candidate lines.
#[derive(Debug, Clone)]
pub struct Prefilter {
    automaton: AhoCorasick,
}

/// Built once per process: a full DFA takes milliseconds to build, longer than a small
/// input takes to scan.
static PREFILTER: LazyLock<AhoCorasick> = LazyLock::new(|| {
    AhoCorasickBuilder::new()
        .match_kind(MatchKind::LeftmostFirst)
        // A full DFA: one table look-up per byte, for a scan over every byte of the input.
        .kind(Some(AhoCorasickKind::DFA))
        .build(PATTERNS)
        .expect("the prefilter's patterns are fixed and valid")
});

impl Default for Prefilter {
    fn default() -> Self {
        // A clone shares the automaton.
        Prefilter {
            automaton: PREFILTER.clone(),
        }
    }
}

impl Prefilter {
    /// Byte offset of the first candidate hit in `hay[from..]`, if any.
    #[must_use]
    pub fn next_hit(&self, hay: &str, from: usize) -> Option<usize> {
        let input = aho_corasick::Input::new(hay).span(from..hay.len());
        self.automaton.find(input).map(|m| m.start())
    }
}

/// The class of one raw line (without its `'\n'`).
#[must_use]
pub fn classify(raw: &str) -> Class {
    let mut end = raw.len().min(CLASSIFY_PREFIX);
    while !raw.is_char_boundary(end) {
        end -= 1;
    }
    let line = clean(&raw[..end]);
    // Rules about how a line starts look at it before escapes are removed, as the prefilter's
    // line-start patterns do.
    let start = last_state(&raw[..end]);
    classify_clean(&line, start)
}

fn classify_clean(line: &str, start: &str) -> Class {
    let t = line.trim();
    if start.starts_with("make") && t.contains(": ***") {
        return Class::Error;
    }
    if is_summary(start, t) {
        return Class::Summary;
    }
    if start.starts_with("E  ") {
        return Class::Error;
    }
    first_signal(line)
}

/// Runner and build-tool closing lines. `line` is the line before escapes are removed.
fn is_summary(line: &str, t: &str) -> bool {
    let first = |s: &str| s.as_bytes().first().copied().unwrap_or(0);
    let may_start_one =
        SUMMARY_FIRST_BYTES.contains(&first(t)) || SUMMARY_FIRST_BYTES.contains(&first(line));
    if may_start_one && summary_by_start(line, t) {
        return true;
    }
    if has_exit_status(t) {
        return true;
    }
    runner_counts(t)
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

/// `exit status 2`, `exit code 1`, `exited with code 3`, `Exit code: 0`.
fn has_exit_status(t: &str) -> bool {
    // Every form has "xit" in it; most lines do not, and a byte scan is cheaper than eight
    // substring searches.
    if !has_xit(t.as_bytes()) {
        return false;
    }
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
    .any(|k| {
        t.find(k).is_some_and(|at| {
            t[at + k.len()..]
                .trim_start_matches(|c: char| !c.is_ascii_alphanumeric())
                .trim_start_matches("code")
                .trim_start_matches("CODE")
                .trim_start()
                .starts_with(|c: char| c.is_ascii_digit())
        })
    })
}

/// Whether `bytes` holds "xit" in any casing. Every byte is looked at, without an early exit,
/// so that the loop compiles to vector code: hit lines are short, and this runs on each.
#[allow(
    clippy::needless_bitwise_bool,
    reason = "no short circuit: the loop must stay branch-free to be vectorised"
)]
fn has_xit(bytes: &[u8]) -> bool {
    let lower = |b: u8| b | 0x20;
    bytes
        .iter()
        .zip(&bytes[1.min(bytes.len())..])
        .zip(&bytes[2.min(bytes.len())..])
        .fold(false, |any, ((&x, &i), &t)| {
            any | ((lower(x) == b'x') & (lower(i) == b'i') & (lower(t) == b't'))
        })
}

/// Whether a digit in `bytes` is followed by a separator (ASCII whitespace, ',', or the first
/// byte of a non-ASCII character). Branch-free, like `has_xit`.
#[allow(
    clippy::needless_bitwise_bool,
    reason = "no short circuit: the loop must stay branch-free to be vectorised"
)]
fn has_separated_digit(bytes: &[u8]) -> bool {
    let digit = |b: u8| b.wrapping_sub(b'0') < 10;
    let separated = |b: u8| {
        (b == b' ')
            | (b == b'\t')
            | (b == b'\n')
            | (b == 0x0c)
            | (b == b'\r')
            | (b == b',')
            | (b >= 0x80)
    };
    bytes
        .iter()
        .zip(&bytes[1.min(bytes.len())..])
        .fold(false, |any, (&d, &s)| any | (digit(d) & separated(s)))
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

fn runner_counts(t: &str) -> bool {
    // A count is a word of digits that ends where a separator (whitespace, ',') starts; most
    // lines have no digit before one, and need no split into words.
    if !has_separated_digit(t.as_bytes()) {
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

/// Keywords and the class they signal. Longer forms are listed so that a match can demand a
/// word boundary after it.
const KEYWORDS: &[(&str, Class)] = &[
    ("error", Class::Error),
    ("errors", Class::Error),
    ("err!", Class::Error),
    ("fail", Class::Error),
    ("fails", Class::Error),
    ("failed", Class::Error),
    ("failure", Class::Error),
    ("failures", Class::Error),
    ("failing", Class::Error),
    ("fatal", Class::Error),
    ("exception", Class::Error),
    ("panic", Class::Error),
    ("panicked", Class::Error),
    ("traceback", Class::Error),
    ("warn", Class::Warning),
    ("warning", Class::Warning),
    ("warnings", Class::Warning),
];

/// Suffixes of CamelCase names that signal: `ValueError`, `DeprecationWarning`.
const CAMEL: &[(&str, Class)] = &[
    ("Error", Class::Error),
    ("Exception", Class::Error),
    ("Failure", Class::Error),
    ("Warning", Class::Warning),
];

/// Every occurrence of a keyword, in any casing (`standalone` checks the casing).
static KEYWORD_FINDER: LazyLock<AhoCorasick> = LazyLock::new(|| {
    AhoCorasickBuilder::new()
        .ascii_case_insensitive(true)
        .kind(Some(AhoCorasickKind::DFA))
        .build(KEYWORDS.iter().map(|k| k.0))
        .expect("the keywords are fixed and valid")
});

/// The class of the earliest keyword that stands as a word of its own, or that ends a
/// CamelCase name (`ValueError`, `DeprecationWarning`).
fn first_signal(line: &str) -> Class {
    let bytes = line.as_bytes();
    let mut best: Option<(usize, Class)> = None;
    // Overlapping matches come in order of their end, so every one is looked at. Each CamelCase
    // suffix is also a keyword, so one scan finds both.
    for m in KEYWORD_FINDER.find_overlapping_iter(line) {
        let (word, class) = KEYWORDS[m.pattern().as_usize()];
        let (at, end) = (m.start(), m.end());
        if best.is_some_and(|(b, _)| b <= at) {
            continue;
        }
        if standalone(line, at, word) {
            best = Some((at, class));
            continue;
        }
        let Some(&(_, camel_class)) = CAMEL.iter().find(|(suffix, _)| *suffix == &line[at..end])
        else {
            continue;
        };
        let camel = at > 0 && bytes[at - 1].is_ascii_alphanumeric();
        let closed = end == bytes.len() || matches!(bytes[end], b':' | b' ' | b'(' | b'\r');
        if camel && closed {
            best = Some((at, camel_class));
        }
    }
    best.map_or(Class::Other, |(_, c)| c)
}

/// Whether the keyword at `at` is a word of its own, in an accepted casing, and not negated.
fn standalone(line: &str, at: usize, word: &str) -> bool {
    let bytes = line.as_bytes();
    let end = at + word.len();
    let original = &line[at..end];
    let casing_ok = original == word
        || original.eq_ignore_ascii_case(word)
            && (original.bytes().all(|b| !b.is_ascii_lowercase())
                || original[1..].bytes().all(|b| !b.is_ascii_uppercase()));
    if !casing_ok {
        return false;
    }
    // Part of an identifier, a path, a flag or a dotted name: `error_handler`, `-Werror`.
    let joined_before =
        at > 0 && (bytes[at - 1].is_ascii_alphanumeric() || b"_-/.\\".contains(&bytes[at - 1]));
    if joined_before {
        return false;
    }
    if let Some(&next) = bytes.get(end) {
        let after = bytes.get(end + 1).copied().unwrap_or(b' ');
        if next.is_ascii_alphanumeric()
            || next == b'_'
            || (b"./-".contains(&next) && after.is_ascii_alphanumeric())
        {
            return false;
        }
    }
    // `traceback` alone is a module name; the real thing says `Traceback (` or `traceback:`.
    if word == "traceback" && !matches!(bytes.get(end), Some(b' ' | b':')) {
        return false;
    }
    if word == "traceback" && bytes.get(end) == Some(&b' ') && bytes.get(end + 1) != Some(&b'(') {
        return false;
    }
    !negated(line, at, end)
}

/// `0 errors`, `no failures`, `failed: 0`, `errors=0`, in any casing. Works on `line` as it
/// is: lowering ASCII letters moves no word boundary, so no lowered copy is needed.
fn negated(line: &str, at: usize, end: usize) -> bool {
    let before = line[..at].trim_end();
    let prev_word = before
        .rsplit(|c: char| c.is_whitespace() || c == '(' || c == ',')
        .next()
        .unwrap_or("");
    if ["0", "no", "zero", "without"]
        .iter()
        .any(|w| prev_word.eq_ignore_ascii_case(w))
    {
        return true;
    }
    let after = line[end..].trim_start_matches([':', '=', ' ']);
    after.starts_with('0') && !after[1..].starts_with(|c: char| c.is_ascii_digit() || c == '.')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(line: &str) -> Class {
        classify(line)
    }

    #[test]
    fn byte_prechecks_same_as_naive() {
        let alphabet = b"0x9XiItT ,\t\r\n\x0ca\xc3";
        let mut seed = 7u32;
        for len in 0..40 {
            for _ in 0..200 {
                let bytes: Vec<u8> = (0..len)
                    .map(|_| {
                        seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                        alphabet[(seed >> 16) as usize % alphabet.len()]
                    })
                    .collect();
                let xit = bytes.windows(3).any(|w| w.eq_ignore_ascii_case(b"xit"));
                assert_eq!(has_xit(&bytes), xit, "{bytes:?}");
                let sep = |b: u8| b.is_ascii_whitespace() || b == b',' || b >= 0x80;
                let digit = bytes.windows(2).any(|w| w[0].is_ascii_digit() && sep(w[1]));
                assert_eq!(has_separated_digit(&bytes), digit, "{bytes:?}");
            }
        }
    }

    #[test]
    fn errors_in_their_usual_forms() {
        for line in [
            "error[E0308]: mismatched types",
            "src/inlines.c:893:12: error: 'resultt' undeclared",
            "E       AssertionError: assert 1 == 2",
            "npm ERR! code ELIFECYCLE",
            "FAILED tests/test_a.py::test_b - AssertionError: boom",
            "[ERROR] BUILD FAILURE",
            "make: *** [Makefile:33: build/x.o] Error 1",
            "make[2]: *** [all] Error 2",
            "Traceback (most recent call last):",
            "ValueError: invalid literal for int()",
            "thread 'main' panicked at src/main.rs:2:5:",
            "panic: runtime error: index out of range",
            "fatal: not a git repository",
            "Exception in thread \"main\" java.lang.IllegalStateException: x",
            "--- FAIL: TestParse (0.00s)",
            "tests/test_x.py::test_y FAILED                  [ 42%]",
        ] {
            assert_eq!(c(line), Class::Error, "{line}");
        }
    }

    #[test]
    fn classic_false_positives_are_not_errors() {
        for line in [
            "Compiling error_handler.py",
            "gcc -Wall -Werror -c x.c",
            "0 errors, 0 warnings",
            "no failures found",
            "failures=0",
            "import time:       812 |       2416 | traceback",
            "import time:       461 |        461 |     email.errors",
            "tests/test_errors.py::test_raise PASSED           [ 10%]",
            "Compiling error-chain v0.12.4",
            "reading src/error.rs",
            "log.warn(\"%s\", x)",
            "everything is fine here",
            "TERROR and FAILSAFE are other words",
        ] {
            assert_eq!(c(line), Class::Other, "{line}");
        }
    }

    #[test]
    fn warnings_and_the_earliest_keyword_wins() {
        assert_eq!(
            c("x.c:3:1: warning: unused variable 'error'"),
            Class::Warning
        );
        assert_eq!(
            c("a.py:21: DeprecationWarning: The 'warn' method is deprecated"),
            Class::Warning
        );
        assert_eq!(c("WARNING:linecheck:x.py: 3 lines over"), Class::Warning);
        assert_eq!(
            c("x.c:3:1: error: format [-Werror=format-security]"),
            Class::Error
        );
        assert_eq!(c("FAILED test_warnings.py::test_a"), Class::Error);
    }

    #[test]
    fn runner_summaries() {
        for line in [
            "==== 1 failed, 1985 passed in 12.31s ====",
            "=========================== short test summary info ============================",
            "Ran 1261 tests in 2.104s",
            "FAILED (failures=1)",
            "OK",
            "OK (skipped=3)",
            "test result: FAILED. 3 passed; 1 failed; 0 ignored",
            "ok  \tgithub.com/x/y\t0.012s",
            "FAIL\tgithub.com/x/y\t0.012s",
            "Tests:       1 failed, 41 passed, 42 total",
            "Found 1757 errors in 29 files (checked 30 source files)",
            "Success: no issues found in 3 source files",
            "make: Target 'all' not remade because of errors.",
            "ninja: build stopped: subcommand failed.",
            "       536 passed",
            "         1 failed",
            "3 warnings and 1 error generated.",
            "Process finished with exit code 1",
            "exit status 2",
        ] {
            assert_eq!(c(line), Class::Summary, "{line}");
        }
        assert_eq!(
            c("make[1]: Entering directory '/x'"),
            Class::Other,
            "directory lines"
        );
    }

    #[test]
    fn ansi_and_progress_redraws_are_seen_through() {
        assert_eq!(c("\x1b[31mE       AssertionError: x\x1b[0m"), Class::Error);
        assert_eq!(c("error: old state\rall good now\r"), Class::Other);
    }

    /// The prefilter's contract: a line it does not hit is `Other`.
    #[test]
    fn prefilter_never_misses_a_classified_line() {
        let pre = Prefilter::default();
        let words = [
            "error",
            "Error",
            "ERROR",
            "eRRor",
            "errors",
            "0",
            "no",
            "failed",
            "Failure",
            "FAIL",
            "warning",
            "Warn",
            "WARN",
            "ValueError:",
            "Warning:",
            "passed",
            "in",
            "1.2s",
            "OK",
            "ok",
            "Ran",
            "3",
            "tests",
            "E",
            " ",
            "   ",
            "=",
            "==",
            "test",
            "result:",
            "Tests:",
            "make:",
            "***",
            "exit",
            "status",
            "code",
            "Found",
            "panic",
            "Traceback",
            "(",
            "x",
            "Success:",
            "generated.",
            "\t",
            "Results",
            "summary",
            "BUILD",
            "SUCCESS",
            "fatal",
            "ninja:",
            "build",
            "stopped",
            "info",
            "PASS",
            "\r",
            "\x1b[1m",
        ];
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        for _ in 0..200_000 {
            let mut line = String::new();
            for _ in 0..(state % 7) {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                let w = words[usize::try_from(state % words.len() as u64).unwrap()];
                if state % 3 == 0 {
                    line.push(' ');
                }
                line.push_str(w);
            }
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let hay = format!("\n{line}");
            if pre.next_hit(&hay, 0).is_none() {
                assert_eq!(c(&line), Class::Other, "{line:?}");
            }
        }
    }
}
