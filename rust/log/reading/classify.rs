//! What kind of line a log line is: error, warning, summary or other.
//!
//! Only the lines that the block-wide scan ([`super::prefilter`]) hits come here, and its
//! contract is that every other line is [`Class::Other`]. Classification is a pure function of a
//! line's first [`CLASSIFY_PREFIX`] bytes, so a line counts the same whether it was met in the
//! scan, in the head, in the tail or in pieces. [`Shown`] is a line as a terminal shows it, read
//! once for the classifier, the trace rules and the kept copy.

use super::class::Class;
use super::dedup::Key;
use super::evidence::Evidence;
use super::frame;
use super::keyword::first_signal_from;
use super::marks::{Marks, first_marked};
use super::patterns::holds_pattern;
use super::summary::is_summary;
use super::trace;
use crate::lanes::Lanes;
use crate::text::ansi::{clean, last_state, without_escapes};
use crate::text::{char_count, trim};
use std::borrow::Cow;

/// Bytes of a line that decide its class; the rest of a very long line is never scanned again.
pub const CLASSIFY_PREFIX: usize = 64 * 1024;

/// The class of one raw line (without its `'\n'`).
#[must_use]
pub fn classify(raw: &str) -> Class {
    let mut end = raw.len().min(CLASSIFY_PREFIX);
    while !raw.is_char_boundary(end) {
        end -= 1;
    }
    let raw = &raw[..end];
    if !escapes_hide_nothing(raw) {
        return Class::Other;
    }
    let line = clean(raw);
    // Rules about how a line starts look at it before escapes are removed, as the prefilter's
    // line-start patterns do.
    classify_clean(&line, frame::prefix_len(&line), last_state(raw), 0)
}

/// Whether the prefilter, which scans raw text, sees a pattern in `raw` wherever `classify`
/// could find one: always, unless `raw` has an escape sequence, whose removal may join one
/// (`err\x1b[0mor`). Such a line counts only if its raw text holds a pattern too, so that the
/// pass, which classifies only what the prefilter hit, counts it as the head and tail do.
/// Looking at every line with an escape instead made coloured logs cost eight times as much.
fn escapes_hide_nothing(raw: &str) -> bool {
    memchr::memchr(0x1b, raw.as_bytes()).is_none() || holds_pattern(raw)
}

/// A raw line (without its `'\n'`) as a terminal shows it: what the planner classifies, traces
/// and keeps, worked out once per line.
#[derive(Debug)]
pub struct Shown<'a> {
    raw: &'a str,
    /// The line's last state, before escapes are removed.
    state: &'a str,
    /// The whole line cleaned: [`clean`] of `raw`.
    pub text: Cow<'a, str>,
    /// `raw` holds an escape character.
    escaped: bool,
    /// Bytes of the CI prefix of `text`.
    pub(super) framed: usize,
    /// Characters of `raw`, when the look-ahead counted them.
    chars: Option<u64>,
    /// What [`super::trace::continues`] says of [`Shown::body`], when the look-ahead worked it out.
    pub continues: Option<bool>,
    /// The [`Key`] of the whole shown line, when the look-ahead worked it out.
    pub key: Option<Key>,
}

impl<'a> Shown<'a> {
    #[must_use]
    pub fn new(raw: &'a str) -> Self {
        // Most lines hold neither an escape nor a carriage return: one search says so, and
        // such a line is its own last state and shows as it is.
        if !redraws(raw) {
            return Shown {
                raw,
                state: raw,
                text: Cow::Borrowed(raw),
                escaped: false,
                framed: frame::prefix_len(raw),
                chars: None,
                continues: None,
                key: None,
            };
        }
        let state = last_state(raw);
        let text = without_escapes(state);
        Shown {
            raw,
            state,
            framed: frame::prefix_len(&text),
            text,
            escaped: memchr::memchr(0x1b, raw.as_bytes()).is_some(),
            chars: None,
            continues: None,
            key: None,
        }
    }

    /// The line `raw`, which the look-ahead read as `cleaned`.
    #[must_use]
    pub fn cleaned(raw: &'a str, cleaned: &'a Cleaned) -> Self {
        let state = &raw[cleaned.state.0..cleaned.state.1];
        Shown {
            raw,
            state,
            text: Cow::Borrowed(cleaned.text.as_deref().unwrap_or(state)),
            escaped: cleaned.escaped,
            framed: cleaned.framed,
            chars: None,
            continues: None,
            key: None,
        }
    }

    /// What the look-ahead read of the line, for the planner: [`Shown::cleaned`] gives it back.
    #[must_use]
    pub(super) fn into_cleaned(self) -> Cleaned {
        // The state is what is left of the raw line before its last '\r's, after its other ones.
        let end = self.raw.trim_end_matches('\r').len();
        let start = end - self.state.len();
        Cleaned {
            state: (start, end),
            text: match self.text {
                Cow::Owned(text) => Some(text),
                Cow::Borrowed(_) => None,
            },
            escaped: self.escaped,
            framed: self.framed,
        }
    }

    /// The line `raw`, which the look-ahead read as `plain`.
    #[must_use]
    pub fn read(raw: &'a str, plain: Plain) -> Self {
        Shown {
            raw,
            state: raw,
            text: Cow::Borrowed(raw),
            escaped: false,
            framed: plain.framed as usize,
            chars: Some(u64::from(plain.chars)),
            continues: plain.continues,
            key: plain.key,
        }
    }

    /// Whether the line shows as it is: its shown text is its raw text.
    #[must_use]
    pub fn shows_raw(&self) -> bool {
        !self.escaped && self.state.len() == self.raw.len()
    }

    /// Characters of the raw line.
    #[must_use]
    pub fn chars(&self) -> u64 {
        self.chars.unwrap_or_else(|| char_count(self.raw))
    }

    /// The cleaned line after any CI prefix: what trace rules read.
    #[must_use]
    pub fn body(&self) -> &str {
        &self.text[self.framed..]
    }

    /// [`classify`] of the raw line.
    #[must_use]
    pub fn class(&self) -> Class {
        self.class_after(0, false)
    }

    /// [`Shown::class`] of a raw line in which no keyword starts before byte `quiet`; `hit`
    /// says that the prefilter's scan found a pattern in it, which spares a line with escapes
    /// the search for one (see `escapes_hide_nothing`).
    pub(super) fn class_after(&self, quiet: usize, hit: bool) -> Class {
        if self.raw.len() <= CLASSIFY_PREFIX {
            if self.escaped && !hit && !holds_pattern(self.raw) {
                return Class::Other;
            }
            // The raw line's offsets are the shown line's only when it shows as it is.
            let quiet = if self.shows_raw() { quiet } else { 0 };
            classify_clean(&self.text, self.framed, self.state, quiet)
        } else {
            classify(self.raw)
        }
    }
}

/// Whether `raw` holds an escape character or a carriage return. Most lines the look reads
/// are a few dozen bytes, over which a vector search cost more in its set-up than in the
/// bytes it read: those are tested sixteen bytes at a time in place.
fn redraws(raw: &str) -> bool {
    /// Lines up to this long are tested in place.
    const SHORT: usize = 128;
    if raw.len() > SHORT {
        return memchr::memchr2(0x1b, b'\r', raw.as_bytes()).is_some();
    }
    first_marked(raw.as_bytes(), 0, &Redraws, |_| Some(())).is_some()
}

/// The bytes that make a line show otherwise than it is: an escape, a carriage return.
struct Redraws;

impl Marks for Redraws {
    fn lanes(&self, lanes: Lanes) -> u32 {
        lanes.is(0x1b) | lanes.is(b'\r')
    }

    fn byte(&self, b: u8) -> bool {
        matches!(b, 0x1b | b'\r')
    }
}

/// What the look-ahead read of a line that does not show as it is (escapes, carriage returns),
/// so that the planner need not clean it again: on a coloured CI log nearly every line the
/// look finds is one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cleaned {
    /// Where its last state starts and ends in the raw line.
    state: (usize, usize),
    /// The state without its escapes, if it had any.
    text: Option<String>,
    escaped: bool,
    framed: usize,
}

/// What the look-ahead read of a line that shows as it is (no escape, no carriage return),
/// so that the planner, whose core is the busier one, need not read it again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Plain {
    /// Bytes of its CI prefix.
    pub(super) framed: u32,
    /// Its characters.
    pub(super) chars: u32,
    /// Whether it goes on with an error block ([`trace::continues`]), worked out for a line
    /// right after an error line: the first line a block's trace reads.
    pub(super) continues: Option<bool>,
    /// Its key in the table of errors, if it is an error line.
    pub(super) key: Option<Key>,
}

impl Plain {
    /// What `line`, of class `class`, says of its raw line, if it shows as it is (and its
    /// numbers fit); whether it continues a trace is read when it comes `after_error`.
    pub(super) fn of(line: &Shown, class: Class, after_error: bool) -> Option<Plain> {
        if !line.shows_raw() {
            return None;
        }
        Some(Plain {
            framed: u32::try_from(line.framed).ok()?,
            chars: u32::try_from(line.chars()).ok()?,
            continues: after_error.then(|| trace::continues(line.body())),
            key: (class == Class::Error).then(|| Key::of(&line.text)),
        })
    }

    /// What the look read of `line`, equal to the line it read as `self`, which comes right
    /// before it and is of class `class`.
    pub(super) fn repeated(self, line: &str, class: Class) -> Plain {
        let continues = (class == Class::Error).then(|| {
            self.continues
                .unwrap_or_else(|| trace::continues(&line[self.framed as usize..]))
        });
        Plain { continues, ..self }
    }
}

/// The class of the cleaned line `line`, whose CI prefix takes `framed` bytes and whose last
/// state before escapes are removed is `start`; no keyword of `line` starts before byte
/// `quiet`.
fn classify_clean(line: &str, framed: usize, start: &str, quiet: usize) -> Class {
    // A CI system's prefix says nothing of the line; rules about how a line starts apply
    // after it only where the prefilter can see that start (see `frame::starts_after`).
    let (prefix, body) = line.split_at(framed);
    let cut = frame::prefix_len(start);
    let framed_start = if frame::starts_after(start, cut) {
        &start[cut..]
    } else {
        start
    };
    let t = trim(body);
    if start.starts_with("make") && t.contains(": ***") {
        return Class::Error;
    }
    if is_summary(start, t) {
        return Class::Summary;
    }
    if prefix.contains("##[error]") {
        return Class::Error;
    }
    let said = Evidence::of(t);
    // A passing test may be named after the failure it checks: `--- PASS: TestReadFailure`.
    if said.passing(t) {
        return Class::Other;
    }
    if framed_start.starts_with("E  ") || said.failure_form(t) {
        return Class::Error;
    }
    if quotes_code(t) || under_gutter(body) || raises(t) {
        return Class::Other;
    }
    match first_signal_from(body, quiet.saturating_sub(framed)) {
        Class::Other if said.failure_phrase() => Class::Error,
        Class::Error if trace::located_note(t) => Class::Other,
        class => class,
    }
}

/// Whether `t` (trimmed) is a statement that raises or throws, as a traceback quotes the
/// source of each frame (`raise URLError(err)`, `throw new Error(msg)`): the error it names is
/// the code's, and whether it was raised is for the lines after it to say. pytest lists whole
/// functions of the libraries a failure passed through, and each such line was an error of a
/// kind of its own, the rarest there is, shown before the failure's own lines.
fn raises(t: &str) -> bool {
    ["raise ", "throw new ", "throw "].iter().any(|s| {
        t.strip_prefix(s)
            .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_'))
    })
}

/// Whether `body` is a line of a code frame under its gutter with no number: the pointers under
/// the quoted code and what they say (``    |     ^^^^^ help: try: `Class::Error` ``), a span's
/// bars (`   | |_____^`), or a line that ruff's suggested fix takes out, whose number it does
/// not print (`     -         raise ValueError(…)`: the code keeps its indent after the `- `;
/// a list item's `  - error: x` has none). rustc and ruff indent the gutter by the width of the
/// line numbers.
fn under_gutter(body: &str) -> bool {
    if !body.starts_with(' ') {
        return false;
    }
    let rest = body.trim_start_matches(' ');
    rest == "|" || rest.starts_with("| ") || rest.starts_with("-  ")
}

/// Whether `t` (trimmed) is a line of a code frame, a source line quoted under its number in a
/// gutter (`1066 |     raise _InvalidEwError(`, Jest's `> 12 | expect(x)`), as rustc, ruff,
/// clang and Babel print them under a diagnostic, or a note under such a frame: its words are
/// the code's or the diagnostic's, not an event's.
fn quotes_code(t: &str) -> bool {
    // rustc's and ruff's annotations under a frame (``= note: if this value is an `Err`, it will
    // panic``, `= help: ...`) say what the diagnostic above them means, not that more happened.
    if t.starts_with("= note: ") || t.starts_with("= help: ") {
        return true;
    }
    let t = t.strip_prefix("> ").unwrap_or(t);
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    // After the gutter's bar: the code's indent, or the bar of a span across lines (`/`, `|`).
    // A line that ruff's suggested fix puts in has a `+` for its bar (`1049 +     f"{x}")`).
    let gutter = &t[digits..];
    match gutter
        .strip_prefix(" |")
        .or_else(|| gutter.strip_prefix(" +"))
    {
        Some(code) if digits > 0 => code.is_empty() || code.starts_with([' ', '/', '\\', '|']),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(line: &str) -> Class {
        classify(line)
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
            " \u{d7} adds two numbers 3ms",
            "rspec ./spec/models/post_spec.rb:12 # Post renders its title",
            "  1) test adds numbers (MathTest)",
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
    fn a_statement_that_raises_is_code() {
        for line in [
            "            raise URLError('no host given')",
            "    raise ValueError(f\"unsupported catalogue format: {kind}\")",
            "\u{1b}[1m            raise AttributeError(\u{1b}[0m",
            "  throw new IllegalStateException(\"closed\");",
            "    throw TypeError('x')",
        ] {
            assert_eq!(c(line), Class::Other, "{line}");
        }
        // An event that names raising is no statement; pytest's `>` line, over its E lines,
        // is the line that raised.
        for line in [
            ">               raise URLError(err)",
            "Error: failed to raise the file limit",
            "RuntimeError: raise ValueError() in the handler",
        ] {
            assert_eq!(c(line), Class::Error, "{line}");
        }
    }

    #[test]
    fn a_line_of_a_code_frame_quotes_code() {
        for line in [
            "140 | |         panic!(\"Out of memory\");",
            "1066 | /         raise _InvalidEwError(",
            "  12 |     return Err(Error::new(\"bad\"));",
            "> 12 |   throw new Error('x')",
            "\u{1b}[34m140 |\u{1b}[0m panic!(\"x\")",
            "    = note: if this value is an `Err`, it will panic",
            "   = help: consider describing why the failing assert is problematic",
            "    |                 ^ help: try: `Class::Error | Class::Warning`",
            "   | |_____^ expected `Result<(), Error>`",
            "     -             raise ValueError(\"x\")",
            "1049 +             raise ValueError(f\"{x}\")",
        ] {
            assert_eq!(c(line), Class::Other, "{line}");
        }
        // The diagnostic above a frame, and lines that only look like a gutter, still count.
        for line in [
            "error[E0407]: method `oom` is not a member of trait `Alloc`",
            "12 |error: no space",
            "12| error: x",
            "  - error: the list's first item",
            "12 +error: no space",
        ] {
            assert_eq!(c(line), Class::Error, "{line}");
        }
    }

    #[test]
    fn a_compilers_note_is_no_error_whatever_it_says() {
        for note in [
            "/usr/include/c++/12/bits/stl_iterator.h:1246:5: note:   template argument deduction/substitution failed:",
            "a.c:3: note: an error occurred here",
            "C:\\Program Files (x86)\\x\\xutility(1234): note: see the failed instantiation",
        ] {
            assert_eq!(c(note), Class::Other, "{note}");
        }
        for error in [
            "error: build failed: note: see above",
            "a.c:3:5: error: conversion failed: note: x",
            "note: the build failed",
        ] {
            assert_eq!(c(error), Class::Error, "{error}");
        }
    }

    #[test]
    fn a_word_of_code_in_backticks_reports_nothing() {
        // rustc and GHC quote the names of code in backticks: `Error` is a type.
        for line in [
            "note: `Error` was implemented here",
            "monad-logger        >     In the use of type constructor or class `Error'",
        ] {
            assert_eq!(c(line), Class::Other, "{line}");
        }
        for line in [
            "error: cannot find type `Error` in this scope",
            "error[E0599]: no method named `fail` found",
            "test `parse::error` failed",
        ] {
            assert_eq!(c(line), Class::Error, "{line}");
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

    /// The planner reads a line the look-ahead cleaned as it would have read it itself.
    #[test]
    fn a_cleaned_line_reads_as_the_line() {
        for raw in [
            "plain error: x",
            "error: x\r",
            "error: x\r\r",
            "progress 10%\rerror: x\r",
            "\x1b[1m        except MaxRetryError as e:\x1b[0m\r",
            "\x1b[0m[\x1b[33mwarn\x1b[0m] \x1b[0m   * x\x1b[0m\r",
            "old\r\x1b[31mE       assert 1 == 2\x1b[0m",
            "2024-01-01T00:00:00.0000000Z \x1b[31merror\x1b[0m: x\r",
            "\r\r",
            "",
        ] {
            let new = Shown::new(raw);
            let cleaned = Shown::new(raw).into_cleaned();
            let read = Shown::cleaned(raw, &cleaned);
            assert_eq!(
                (read.state, &*read.text, read.escaped, read.framed),
                (new.state, &*new.text, new.escaped, new.framed),
                "{raw:?}"
            );
            assert_eq!(
                (read.shows_raw(), read.chars(), read.class()),
                (new.shows_raw(), new.chars(), new.class()),
                "{raw:?}"
            );
        }
    }

    #[test]
    fn redraws_are_found_as_a_search_finds_them() {
        crate::log::reading::marks::assert_lanes_agree(&Redraws);
        let words = [
            "x",
            " ",
            "\x1b",
            "\r",
            "\u{e9}",
            "error: y",
            "0123456789abcdef",
        ];
        for line in
            crate::test_helpers::word_lines(&words, 0x9e37_79b9_7f4a_7c15, 24, false).take(20_000)
        {
            let want = memchr::memchr2(0x1b, b'\r', line.as_bytes()).is_some();
            assert_eq!(redraws(&line), want, "{line:?}");
        }
    }

    #[test]
    fn ansi_and_progress_redraws_are_seen_through() {
        assert_eq!(c("\x1b[31mE       AssertionError: x\x1b[0m"), Class::Error);
        assert_eq!(c("error: old state\rall good now\r"), Class::Other);
    }
}
