//! Which lines after an error belong to it: stack traces, exception chains, diagnostic bodies.
//!
//! An error cut off from its trace sends a model off to rerun the build, so the planner keeps
//! the two together: from an error line on, [`Trace::step`] decides for each following line
//! whether it continues the block. It knows Python tracebacks and their chains, JavaScript and
//! Java frames, Rust panics and backtraces, Go goroutine dumps, pytest's `>`/`E` lines, and the
//! bodies of rustc, gcc and clang diagnostics. Blank lines are held back and join the block
//! only when a chain goes on after them (`During handling of the above exception…`).

use std::sync::{Arc, LazyLock};

use memchr::memmem::Finder;

use super::starts::Starts;
use super::store::{Kept, Text};
use crate::text::{has_space, is_ascii_space};

/// What one more line does to an open error block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// The line belongs to the block.
    Absorb,
    /// A blank line: it belongs to the block only if the chain goes on after it.
    Hold,
    /// The block ended before this line.
    End,
}

/// Blank lines a chain may hold before it must go on.
const MAX_HELD: u32 = 2;
/// Lines an error heading such as `Failure:` may carry: what failed and why, not a dump.
const HEADING_LINES: u32 = 8;

#[derive(Debug, Clone, Default)]
#[allow(
    clippy::struct_excessive_bools,
    reason = "independent modes a trace can be in at once, each set by its own line"
)]
pub struct Trace {
    /// Inside a Python traceback: frames until the exception line.
    python: bool,
    /// Inside a Go goroutine dump: its frames, until a blank line or a line that is no frame.
    goroutine: bool,
    /// The line after a Rust `panicked at …:` holds the panic message.
    panic_message: bool,
    /// Inside an expected-versus-actual diff: `-` and `+` lines belong to it.
    diff: bool,
    /// Lines still to come under an error line that ends in a colon (`Failure:`,
    /// `Error: the following files differ:`): it names a heading, the lines under it say
    /// what failed, up to a blank line.
    heading: u32,
    /// Leading whitespace of the error line: a line indented deeper after a blank one is
    /// still its body (a test runner's failure printed under the test's name).
    indent: usize,
    held: u32,
}

impl Trace {
    /// The state after the error line `first` (cleaned) that opens a block.
    #[must_use]
    pub fn open(first: &str) -> Self {
        let mut trace = Trace {
            indent: indent(first),
            ..Trace::default()
        };
        trace.note(first);
        if ends_with_colon(first) && !trace.python && !trace.panic_message {
            trace.heading = HEADING_LINES;
        }
        trace
    }

    /// Whether `line` (cleaned, without its `'\n'`) continues the block; `continues` is
    /// [`continues`] of `line`, when known.
    pub fn step(&mut self, line: &str, continues: Option<bool>) -> Step {
        if blank(line) {
            self.goroutine = false;
            self.heading = 0;
            if self.held < MAX_HELD {
                self.held += 1;
                return Step::Hold;
            }
            return Step::End;
        }
        if self.goroutine && !go_frame(line) {
            // `FAIL pkg`, `exit status 2`: the dump is over.
            self.goroutine = false;
        }
        let step = if self.held > 0 {
            if starts_chain(line) || indent(line) > self.indent {
                Step::Absorb
            } else {
                Step::End
            }
        } else if self.goroutine || self.panic_message || self.python {
            if self.python && !line.starts_with([' ', '\t']) {
                // The exception line closes the frames.
                self.python = false;
            }
            self.panic_message = false;
            Step::Absorb
        } else if self.heading > 0
            || (continues.unwrap_or_else(|| self::continues(line)) && !self.dedents(line))
            || (self.diff && line.starts_with(['-', '+']))
        {
            Step::Absorb
        } else {
            Step::End
        };
        if step == Step::Absorb {
            // Every line after a heading counts against it, whichever rule took the line: a
            // traceback under `Exception in thread X:` is its body.
            self.heading = self.heading.saturating_sub(1);
            self.held = 0;
            self.note(line);
        }
        step
    }

    /// Whether `line` starts with whitespace yet is not indented under an indented error line:
    /// the next entry of the tree the error line stands in (`    man` after `      tables: FAIL`).
    fn dedents(&self, line: &str) -> bool {
        self.indent > 0 && indent(line) > 0 && indent(line) <= self.indent
    }

    fn note(&mut self, line: &str) {
        // Each error line and each line a block takes comes here: the first byte spares most
        // of them a compare with either start.
        match line.as_bytes().first() {
            Some(b'T') if line.starts_with("Traceback (most recent call last)") => {
                self.python = true;
            }
            Some(b'g') if line.starts_with("goroutine ") => self.goroutine = true,
            _ => {}
        }
        // The cheap test first: few lines end in a colon.
        if ends_with_colon(line) && holds(line, "panicked at ") {
            self.panic_message = true;
        }
        if DIFF_STARTS.starts(line) {
            self.diff = true;
        }
    }
}

/// The lines an open block absorbed and has not yet taken in: their texts one after the other
/// in one buffer, so that taking them in costs one allocation, not one a line (on
/// thousand-frame tracebacks, an allocation and a free a line were a third of the planner's
/// work).
#[derive(Debug, Default)]
pub struct Absorbed {
    texts: String,
    /// The lines, their texts left empty.
    lines: Vec<Kept>,
    /// Where each line's text ends in `texts`.
    ends: Vec<usize>,
}

impl Absorbed {
    /// Absorbs `line`, its text left empty, whose text is `text`.
    pub fn push(&mut self, line: Kept, text: &str) {
        self.texts.push_str(text);
        self.lines.push(line);
        self.ends.push(self.texts.len());
    }

    /// How many lines are absorbed and not yet taken in.
    #[must_use]
    pub fn count(&self) -> usize {
        self.lines.len()
    }

    /// Moves the lines, each with its text, to the end of `into`: their texts share one
    /// allocation.
    pub fn take_into(&mut self, into: &mut Vec<Kept>) {
        if self.lines.is_empty() {
            return;
        }
        let texts: Arc<str> = Arc::from(self.texts.as_str());
        let mut start = 0;
        for (line, &end) in self.lines.iter_mut().zip(&self.ends) {
            line.text = Text::part(&texts, start, end);
            start = end;
        }
        if into.is_empty() {
            // A block split off a long trace takes the list whole, not a copy, and the next
            // block of the trace gets a list as long: most likely what it needs.
            let next = Vec::with_capacity(self.lines.len());
            *into = std::mem::replace(&mut self.lines, next);
            if into.len() * 2 < into.capacity() {
                // Memory is counted by lines, not by the room a list keeps for more.
                into.shrink_to_fit();
            }
        } else {
            into.append(&mut self.lines);
        }
        self.ends.clear();
        self.texts.clear();
    }
}

/// A line of a Go goroutine dump: a call (`pkg.(*T).Run(0xc0, ...)`, `panic({...})`), its
/// place (tab-indented), `created by`, or the header of the next goroutine.
fn go_frame(line: &str) -> bool {
    if line.starts_with(['\t', ' '])
        || line.starts_with("created by ")
        || line.starts_with("goroutine ")
    {
        return true;
    }
    line.split_once('(').is_some_and(|(name, _)| {
        !name.is_empty() && !has_space(name) && line.trim_end().ends_with(')')
    })
}

/// `line.trim().is_empty()`, by bytes up to the first that is not ASCII white space: `trim`
/// decodes every character it looks at, on every line of a trace.
fn blank(line: &str) -> bool {
    match line.bytes().find(|&b| !is_ascii_space(b)) {
        None => true,
        Some(b) if b.is_ascii() => false,
        Some(_) => line.trim().is_empty(),
    }
}

/// `line.trim_end().ends_with(':')`, by bytes as [`blank`].
fn ends_with_colon(line: &str) -> bool {
    match line.bytes().rev().find(|&b| !is_ascii_space(b)) {
        None => false,
        Some(b) if b.is_ascii() => b == b':',
        Some(_) => line.trim_end().ends_with(':'),
    }
}

/// Columns of leading whitespace, a tab taking a terminal's eight.
fn indent(line: &str) -> usize {
    line.bytes()
        .take_while(|b| matches!(b, b' ' | b'\t'))
        .map(|b| if b == b'\t' { 8 } else { 1 })
        .sum()
}

/// Whether `hay` holds `needle` (not empty): a compare at each place its first byte occurs.
/// On a line of a few dozen bytes a plain walk costs less than setting up a substring search,
/// or than a vector search per occurrence of the first byte.
fn holds(hay: &str, needle: &str) -> bool {
    let (hay, needle) = (hay.as_bytes(), needle.as_bytes());
    let first = needle[0];
    (0..hay.len()).any(|at| hay[at] == first && hay[at..].starts_with(needle))
}

/// A gcc note in the middle of a line, `a.c:3:5: note: declared here`: a vector search built
/// once. Every line of a compiler's error run reaches this test, and [`holds`] stops at each
/// of its several colons.
static NOTE: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(": note: "));

/// Whether `t` is a compiler's note on a place, `a.c:3:5: note: ...` (gcc, clang) or
/// `a.h(12): note: ...` (MSVC). A note says more of the diagnostic above it, whatever words it
/// uses (gcc's `note:   template argument deduction/substitution failed:`), so it is never an
/// error of its own; a note named after an error (`error: x: note: ...`) has no place first.
pub(super) fn located_note(t: &str) -> bool {
    // A place holds no `": "`, so the note's is the line's first: memchr finds it in a few
    // steps, where a search for `": note: "` cost more on a log of errors than the rest of
    // this test (every error line comes here).
    let bytes = t.as_bytes();
    memchr::memchr_iter(b':', bytes)
        .find(|&at| bytes.get(at + 1) == Some(&b' '))
        .is_some_and(|at| {
            t[at..].starts_with(": note: ")
                && t[..at].ends_with(|c: char| c.is_ascii_digit() || c == ')')
        })
}

/// Lines that open an expected-versus-actual diff.
const DIFF_STARTS: Starts = Starts::new(&[
    "@@",
    "--- Expected",
    "+++ Actual",
    "- Expected",
    "+ Received",
]);

/// Lines that carry a chain on after a blank line.
const CHAIN_STARTS: Starts = Starts::new(&[
    "During handling of the above exception",
    "The above exception was the direct cause",
    "Traceback (most recent call last)",
    "goroutine ",
    "Caused by:",
    "stack backtrace:",
]);

/// Lines that go on with a block by how they start (besides [`CHAIN_STARTS`]).
const BODY_STARTS: Starts = Starts::new(&[
    " ",
    "\t",
    ">",
    "|",
    "E ",
    "note:",
    "help:",
    "= ",
    "-->",
    "In file included from",
    "... ",
    // What a test expected and what it got, as assertion libraries print it.
    "Expected",
    "expected:",
    "Actual",
    "actual:",
    "But was",
    "but was",
    "Received",
    "Diff:",
    "--- Expected",
    "+++ Actual",
    "@@ ",
    // Frames that start their line: Pester's `at f, file:3`, Ruby's `from file:3:in`.
    "at ",
    "from /",
    "Call Stack",
]);

/// Lines that carry a chain on after a blank line.
fn starts_chain(line: &str) -> bool {
    CHAIN_STARTS.starts(line)
}

/// Lines that go on with a block without a blank line before them.
pub(super) fn continues(line: &str) -> bool {
    if BODY_STARTS.starts(line) || starts_chain(line) {
        return true;
    }
    if NOTE.find(line.as_bytes()).is_some() {
        return true;
    }
    // A rustc gutter with a wide line number: `12 |     let x = 1;`.
    let digits = line.bytes().take_while(u8::is_ascii_digit).count();
    if digits > 0 && line[digits..].starts_with(" |") {
        return true;
    }
    // A rule under a heading, as unittest prints between a failure and its traceback.
    (line.len() >= 3 && line.bytes().all(|b| b"-=_~^*".contains(&b))) || is_location(line)
}

/// A line that is only a place in a file, `/src/a_test.php:43`, or a Ruby frame
/// `/x/hooks.rb:15:in 'eval'`: where the error above it happened. A place followed by a
/// message is a diagnostic of its own and starts a block of its own.
fn is_location(line: &str) -> bool {
    // Byte searches: both separators are ASCII, and `str::split_once` cost more than the rest
    // of the rules together.
    let (place, rest) = match memchr::memchr(b' ', line.as_bytes()) {
        Some(space) => (&line[..space], &line[space + 1..]),
        None => (line, ""),
    };
    // A place with more after it is a Ruby frame, `:in` its end: most lines that reach this
    // test (every line after an error) are told apart here, without a search for the colon.
    if !rest.is_empty() && !place.ends_with(":in") {
        return false;
    }
    let Some(colon) = memchr::memchr(b':', place.as_bytes()) else {
        return false;
    };
    let (path, number) = (&place[..colon], &place[colon + 1..]);
    let digits = number.bytes().take_while(u8::is_ascii_digit).count();
    let tail = &number[digits..];
    let path_like = path.contains(['/', '.']);
    let whole = (tail.is_empty() && rest.is_empty()) || (tail == ":in" && !rest.is_empty());
    path_like && digits > 0 && whole
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_helpers::word_lines;

    /// `located_note` finds the line's first `": "` alone; it says what a search for the
    /// whole `": note: "` says, on the forms and on lines made of their pieces.
    #[test]
    fn a_located_note_is_found_as_a_search_for_it_finds_it() {
        let searched = |t: &str| {
            t.find(": note: ").is_some_and(|at| {
                let place = &t[..at];
                place.ends_with(|c: char| c.is_ascii_digit() || c == ')') && !place.contains(": ")
            })
        };
        let words = [
            "a.c", ":", "3", ":5", ": ", "note", ": note: ", "error", "(12)", ")", "x", "\u{e9}",
        ];
        let forms = [
            "a.c:3:5: note: declared here",
            "a.h(12): note: see declaration",
            "error: x: note: y",
            "a.c:3: error: b.c:4: note: z",
            ": note: ",
            "",
        ];
        let lines = word_lines(&words, 0x2545_f491_4f6c_dd1d, 7, true).take(20_000);
        for line in forms.iter().map(|f| (*f).to_string()).chain(lines) {
            assert_eq!(located_note(&line), searched(&line), "{line:?}");
        }
    }

    /// How many lines after the first one the block absorbs.
    fn absorbed(text: &str) -> usize {
        let mut lines = text.lines();
        let mut trace = Trace::open(lines.next().unwrap());
        let mut taken = 0;
        let mut held = 0;
        for line in lines {
            match trace.step(line, None) {
                Step::Absorb => {
                    taken += held + 1;
                    held = 0;
                }
                Step::Hold => held += 1,
                Step::End => break,
            }
        }
        taken
    }

    #[test]
    fn python_traceback_with_a_chain() {
        let text = "Traceback (most recent call last):\n  File \"a.py\", line 3, in <module>\n    \
                    f()\nKeyError: 'x'\n\nDuring handling of the above exception, another \
                    exception occurred:\n\nTraceback (most recent call last):\n  File \"a.py\", \
                    line 5\n    g()\nValueError: bad\nnext unrelated line\n";
        assert_eq!(absorbed(text), 10);
    }

    #[test]
    fn java_and_javascript_frames() {
        let java = "Exception in thread \"main\" java.lang.IllegalStateException: x\n\tat a.B.c(B.java:3)\nCaused by: java.io.IOException\n\tat d.E.f(E.java:9)\n\t... 4 more\n[INFO] done\n";
        assert_eq!(absorbed(java), 4);
        let js =
            "TypeError: x is undefined\n    at f (/a.js:1:2)\n    at g (/a.js:3:4)\nDone in 2s\n";
        assert_eq!(absorbed(js), 2);
    }

    #[test]
    fn rust_panic_and_go_goroutines() {
        let rust = "thread 'main' panicked at src/main.rs:2:5:\nattempt to subtract with overflow\nnote: run with `RUST_BACKTRACE=1`\ntest foo ... FAILED\n";
        assert_eq!(absorbed(rust), 2);
        let go = "panic: boom\n\ngoroutine 1 [running]:\nmain.main()\n\t/x/main.go:5 +0x1d\n\nexit status 2\n";
        assert_eq!(absorbed(go), 4);
    }

    #[test]
    fn a_goroutine_dump_ends_at_the_first_line_that_is_no_frame() {
        let go = "panic: index out of range [1] with length 1\n\ngoroutine 19 [running]:\ntesting.tRunner.func1()\n\t/go/src/testing/testing.go:1399 +0x39f\npanic({0x518fe0, 0xc0000ce018})\n\t/go/src/runtime/panic.go:884 +0x212\ncreated by testing.(*T).Run\n\t/go/src/testing/testing.go:1493 +0x35f\nFAIL\texample.com/orders\t0.010s\n=== RUN   TestKey\n";
        assert_eq!(absorbed(go), 8);
    }

    #[test]
    fn compiler_diagnostic_bodies() {
        let rustc = "error[E0308]: mismatched types\n --> src/main.rs:2:18\n  |\n2 |     let x: i32 = \"a\";\n  |            ---   ^^^ expected `i32`\n  |\n  = note: see\n\nerror: aborting\n";
        assert_eq!(absorbed(rustc), 6);
        let gcc = "a.c:893:12: error: 'resultt' undeclared\n  893 |     return resultt;\n      |            ^~~~~~~\na.c:893:12: note: each undeclared identifier\na.c:892:17: warning: unused variable\n";
        assert_eq!(absorbed(gcc), 3);
    }

    #[test]
    fn expected_and_actual_diffs_and_bare_locations() {
        let phpunit = "1) InflectorTest::test_plural\nFailed asserting that two strings are equal.\n--- Expected\n+++ Actual\n@@ @@\n-'tellies'\n+'telly'\n/x/inflector_test.php:43\nFAILURES!\n";
        assert_eq!(absorbed(&phpunit[phpunit.find('\n').unwrap() + 1..]), 6);
        let pester = "[-] runs all files -> values differ!\nExpected: 'a'\nActual  : 'b'\nat Verify-Equal, /x/Verify-Equal.ps1:16\nTests completed\n";
        assert_eq!(absorbed(pester), 3);
        let ruby = "No Rakefile found\n/x/ruby_executable_hooks:15:in `eval'\n/x/ruby_executable_hooks:15:in `<main>'\nDone.\n";
        assert_eq!(absorbed(ruby), 2);
        assert!(!is_location("a.c:3: error: x"));
        assert!(!is_location("10:00:01"));
    }

    /// What a location is, read the plain way: a path-like word, `:` and digits, alone on its
    /// line or followed by `:in` and more.
    fn is_location_naive(line: &str) -> bool {
        let (place, rest) = line.split_once(' ').unwrap_or((line, ""));
        let Some((path, number)) = place.split_once(':') else {
            return false;
        };
        let digits = number.bytes().take_while(u8::is_ascii_digit).count();
        let tail = &number[digits..];
        let whole = (tail.is_empty() && rest.is_empty()) || (tail == ":in" && !rest.is_empty());
        path.contains(['/', '.']) && digits > 0 && whole
    }

    #[test]
    fn locations_same_as_the_plain_statement() {
        let words = ["/x/a.rb", "a.c", ":", "15", ":in", " ", "`eval'", "in", "x"];
        let mut found = 0;
        for line in
            crate::test_helpers::word_lines(&words, 0x2545_f491_4f6c_dd1d, 6, false).take(50_000)
        {
            assert_eq!(is_location(&line), is_location_naive(&line), "{line:?}");
            found += usize::from(is_location(&line));
        }
        assert!(found > 20, "too few locations: {found}");
    }

    #[test]
    fn a_heading_error_carries_the_lines_it_introduces() {
        let minitest = "Failure:\nTestK#test_a [/x/test_k.rb:106]\nMinitest::Assertion: Expected true to not be truthy.\n\nSkipped:\n";
        assert_eq!(absorbed(minitest), 2);
        let long = format!("Error:\n{}\n", "detail\n".repeat(20));
        assert_eq!(absorbed(&long), HEADING_LINES as usize);
    }

    #[test]
    fn a_heading_ends_with_the_traceback_it_introduces() {
        let thread = "Exception in thread T-1 (run):\nTraceback (most recent call last):\n  File \"a.py\", line 3, in run\n    f()\n  File \"a.py\", line 5, in f\n    g()\n  File \"a.py\", line 7, in g\n    h()\n  File \"a.py\", line 9, in h\n    raise E\nE: bad\nxmlrpc: 1 public names\n";
        assert_eq!(absorbed(thread), 10);
    }

    #[test]
    fn a_body_indented_under_its_error_goes_on_after_a_blank_line() {
        let tasty = "      tables:    FAIL (0.06s)\n        \n        ----\n        --- tables.custom\n        +  29 </table>\n        ----\n    man\n";
        assert_eq!(absorbed(tasty), 5);
        let rspec = "  1) Post renders\n     Failure/Error: expect(x).to eq 1\n\n       expected: 1\n            got: 2\n\n  2) Post saves\n";
        assert_eq!(absorbed(rspec), 4);
    }

    #[test]
    fn blank_and_colon_ends_read_white_space_as_trim_does() {
        for line in [
            "",
            " ",
            "\t\x0b\x0c\r",
            "a",
            "  a  ",
            "x:",
            "x: ",
            "x:\t",
            "x :\u{3000}",
            "\u{3000}",
            "\u{a0}x",
            "\u{a0}",
            "x\u{a0}",
            "é:",
            ":é",
            "\x0b:\x0b",
            "::\u{2029}",
        ] {
            assert_eq!(blank(line), line.trim().is_empty(), "{line:?}");
            assert_eq!(
                ends_with_colon(line),
                line.trim_end().ends_with(':'),
                "{line:?}"
            );
        }
    }

    #[test]
    fn a_plain_line_ends_the_block() {
        assert_eq!(absorbed("error: x\ncompiling y\n"), 0);
        assert_eq!(
            absorbed("error: x\n\n\n\nTraceback (most recent call last):\n"),
            0
        );
    }
}
