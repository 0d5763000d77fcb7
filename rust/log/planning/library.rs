//! Frames of a stack trace in code the project did not write: the language's own library,
//! installed packages, and the test runner or build tool that ran the code.
//!
//! When an error's trace is too long to show whole, these go first: the frames of the
//! project's own code are the ones an agent opens next (the line of its module that called
//! into pandas, not pandas' internals), and the exception line says what the library
//! objected to. Frames are recognised by the forms the runtimes print: Python's
//! `File "PATH", line N, in F` with the source line under it, Java's (and the JVM languages')
//! `at PACKAGE.Class.method(File.java:N)`, and JavaScript's `at f (PATH:N:M)`.

use crate::log::reading::frame;
use crate::log::reading::place::in_python_library;

/// Package prefixes of JVM frames in the platform, the test frameworks and the build tools.
const JVM_LIBRARY: &[&str] = &[
    "java.",
    "javax.",
    "jdk.",
    "sun.",
    "com.sun.",
    "kotlin.",
    "scala.",
    "org.junit.",
    "junit.",
    "org.testng.",
    "org.apache.maven.",
    "org.gradle.",
    "worker.org.gradle.",
];

/// Path parts of a JavaScript frame in the runtime or installed packages.
const JS_LIBRARY: &[&str] = &["(node:", "(internal/", "/node_modules/", " node:internal/"];

/// What a line of a trace is, as far as library frames go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Frame {
    /// A frame line in library code.
    Library,
    /// A frame line in the project's code (or one not known to be library code).
    Project,
    /// Not a frame line.
    Other,
}

fn frame(line: &str) -> Frame {
    let text = line.trim_start();
    if let Some(rest) = text.strip_prefix("File \"") {
        let path = rest.split('"').next().unwrap_or(rest);
        let library = path.starts_with("<frozen ") || in_python_library(path);
        return if library {
            Frame::Library
        } else {
            Frame::Project
        };
    }
    if let Some(rest) = text.strip_prefix("at ") {
        let jvm = rest.contains(".java:")
            || rest.contains(".kt:")
            || rest.contains(".scala:")
            || rest.contains("(Native Method)")
            || rest.contains("(Unknown Source)");
        if jvm {
            let name = rest.split('/').next_back().unwrap_or(rest);
            return if JVM_LIBRARY.iter().any(|p| name.starts_with(p)) {
                Frame::Library
            } else {
                Frame::Project
            };
        }
        if JS_LIBRARY.iter().any(|p| rest.contains(p)) {
            return Frame::Library;
        }
        if rest.contains(':') {
            return Frame::Project;
        }
    }
    // Node's TAP reporter prints its stack without the `at `s: `Test.run (node:internal/…:796:25)`.
    let library = text.starts_with("node:") || JS_LIBRARY.iter().any(|p| text.contains(p));
    if library && ends_in_line_and_column(text) {
        return Frame::Library;
    }
    Frame::Other
}

/// Whether `line` is a frame of a stack trace in a form this module knows (Python, the JVM,
/// JavaScript, Rust), judged after any CI system's prefix.
#[must_use]
pub fn is_frame(line: &str) -> bool {
    let line = &line[frame::prefix_len(line)..];
    self::frame(line) != Frame::Other || rust_frame(line).is_some()
}

/// Crates of a Rust frame in the standard library or the test harness.
const RUST_LIBRARY: &[&str] = &["std::", "core::", "alloc::", "test::", "__rustc::"];

/// Whether `line` is a frame of a Rust backtrace (`   4: toy::tests::parses_header`), and if
/// so whether it is the standard library's or the test harness's: its path starts in one of
/// their crates, or it is a trait method of one of their types or of a function pointer
/// (`<fn() -> … as core::ops::function::FnOnce<()>>::call_once`; a project's type
/// implementing a standard trait is the project's).
fn rust_frame(line: &str) -> Option<bool> {
    let text = line.trim_start();
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    let name = text[digits..].strip_prefix(": ").filter(|_| digits > 0)?;
    let library = |path: &str| RUST_LIBRARY.iter().any(|p| path.starts_with(p));
    Some(match name.strip_prefix('<') {
        Some(typed) => library(typed) || typed.starts_with("fn("),
        None => library(name) || name == "rust_begin_unwind",
    })
}

/// Whether `text` ends as a JavaScript frame does: `:LINE:COLUMN`, or that in parentheses.
fn ends_in_line_and_column(text: &str) -> bool {
    let text = text.strip_suffix(')').unwrap_or(text);
    let mut numbers = text.rsplitn(3, ':');
    let mut number = || {
        numbers
            .next()
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    };
    number() && number() && numbers.next().is_some()
}

/// Which of `lines` (a trace, cleaned, in order) belong to library frames: the frame line,
/// and under a Python frame the lines indented deeper than it (its source line and carets).
/// The innermost frame, where the error was raised, is not counted whatever code it is in:
/// Python prints it last, just above the exception; the JVM and JavaScript first, just under it.
#[must_use]
pub fn library_lines<'a>(lines: impl IntoIterator<Item = &'a str>) -> Vec<bool> {
    // Judged by what the program printed, after any CI system's prefix.
    let lines: Vec<&str> = lines
        .into_iter()
        .map(|line| &line[frame::prefix_len(line)..])
        .collect();
    let mut out = frames(&lines);
    // Python: the last frame before the exception's lines, with its body.
    if let Some(end) = out.iter().rposition(|&library| library) {
        let after_is_exception = lines[end + 1..]
            .iter()
            .all(|l| frame(l) == Frame::Other && !l.starts_with(' '));
        let start = (0..=end)
            .rev()
            .find(|&i| lines[i].trim_start().starts_with("File \""));
        if let (Some(start), true) = (start, after_is_exception && end + 1 < lines.len()) {
            if out[start..=end].iter().all(|&library| library) {
                out[start..=end].iter_mut().for_each(|l| *l = false);
            }
        }
    }
    // The JVM and JavaScript: the first frame under the exception's line.
    if let Some(first) = lines.iter().position(|l| frame(l) != Frame::Other) {
        // A Rust frame's place (`at /rustc/…`) is no JVM or JavaScript frame.
        let rust = lines[..first].iter().any(|l| rust_frame(l).is_some());
        if lines[first].trim_start().starts_with("at ") && first > 0 && !rust {
            out[first] = false;
        }
    }
    out
}

fn frames(lines: &[&str]) -> Vec<bool> {
    let mut out = Vec::with_capacity(lines.len());
    // The indentation of the Python library frame whose body is being read.
    let mut under: Option<usize> = None;
    // The indentation of the last Rust frame, and whether it is a library's: its place is on
    // the next line, deeper (`at /rustc/…/panicking.rs:80:14`).
    let mut rust: Option<(usize, bool)> = None;
    for &line in lines {
        let indent = line.len() - line.trim_start().len();
        if let Some((at, library)) = rust.take() {
            if indent > at && line.trim_start().starts_with("at ") {
                out.push(library);
                continue;
            }
        }
        if let Some(library) = rust_frame(line) {
            rust = Some((indent, library));
            under = None;
            out.push(library);
            continue;
        }
        let kind = frame(line);
        if kind == Frame::Other {
            let body = under.is_some_and(|i| indent > i && !line.trim().is_empty());
            if !body {
                under = None;
            }
            out.push(body);
            continue;
        }
        let python = line.trim_start().starts_with("File \"");
        under = (kind == Frame::Library && python).then_some(indent);
        out.push(kind == Frame::Library);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::library_lines;

    #[test]
    fn python_frames_in_packages_go_with_their_source_lines() {
        let trace = [
            "Traceback (most recent call last):",
            "  File \"/testbed/xarray/core/indexing.py\", line 191, in convert_label_indexer",
            "    indexer = index.get_loc(label_value, method=method)",
            "  File \"/opt/conda/lib/python3.10/site-packages/pandas/core/indexes/base.py\", line 3827, in get_loc",
            "    indexer = self.get_indexer([key], method=method)",
            "              ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
            "  File \"<frozen importlib._bootstrap>\", line 1006, in _find_and_load",
            "  File \"/usr/lib/python3.11/tomllib/_parser.py\", line 649, in parse_value",
            "    raise suffixed_err(src, pos, \"Invalid value\")",
            "ValueError: Invalid fill method.",
        ];
        // The innermost frame, where it was raised, stays.
        assert_eq!(
            library_lines(trace),
            [
                false, false, false, true, true, true, true, false, false, false
            ]
        );
    }

    #[test]
    fn jvm_frames_of_the_platform_and_test_runner_are_library() {
        let trace = [
            "java.lang.IllegalStateException: boom",
            "\tat java.base/java.util.Objects.requireNonNull(Objects.java:233)",
            "\tat com.fasterxml.jackson.databind.ObjectMapper.readValue(ObjectMapper.java:3598)",
            "\tat java.base/jdk.internal.reflect.NativeMethodAccessorImpl.invoke0(Native Method)",
            "\tat org.junit.runners.ParentRunner.run(ParentRunner.java:413)",
            "\tat kotlin.collections.CollectionsKt.first(Collections.kt:12)",
            "Caused by: java.io.IOException: closed",
            "\t... 23 more",
        ];
        assert_eq!(
            library_lines(trace),
            [false, false, false, true, true, true, false, false]
        );
    }

    #[test]
    fn javascript_frames_in_node_and_packages_are_library() {
        let trace = [
            "TypeError: x is not a function",
            "    at render (/app/src/view.js:10:5)",
            "    at Array.map (<anonymous>)",
            "    at Module._compile (node:internal/modules/cjs/loader:1105:14)",
            "    at run (/app/node_modules/mocha/lib/runner.js:12:3)",
        ];
        assert_eq!(library_lines(trace), [false, false, false, true, true]);
    }

    /// A Rust backtrace's frames in the standard library and the test harness go with the
    /// places under them; the project's stay, a trait method of its own types among them.
    #[test]
    fn rust_frames_of_the_standard_library_go_with_their_places() {
        let trace = [
            "thread 'tests::compares' (14681) panicked at src/lib.rs:9:93:",
            "assertion `left == right` failed",
            "stack backtrace:",
            "   0: __rustc::rust_begin_unwind",
            "             at /rustc/5980/library/std/src/panicking.rs:689:5",
            "   1: core::panicking::panic_fmt",
            "             at /rustc/5980/library/core/src/panicking.rs:80:14",
            "   2: toy::tests::compares",
            "             at ./src/lib.rs:9:93",
            "   3: <toy::Point as core::fmt::Display>::fmt",
            "             at ./src/lib.rs:20:5",
            "   4: <fn() -> core::result::Result<(), alloc::string::String> as core::ops::function::FnOnce<()>>::call_once",
            "             at /rustc/5980/library/core/src/ops/function.rs:250:5",
            "   5: <alloc::boxed::Box<F,A> as core::ops::function::FnOnce<Args>>::call_once",
            "note: Some details are omitted, run with `RUST_BACKTRACE=full` for a verbose backtrace.",
        ];
        assert_eq!(
            library_lines(trace),
            [
                false, false, false, true, true, true, true, false, false, false, false, true,
                true, true, false
            ]
        );
    }

    /// Node's TAP reporter drops the `at `s of a stack; its runtime's frames are still the
    /// runtime's.
    #[test]
    fn javascript_frames_without_at_in_node_are_library() {
        let trace = [
            "  error: 'boom'",
            "  stack: |-",
            "    TestContext.<anonymous> (file:///app/test/a.test.mjs:12:12)",
            "    Test.runInAsyncScope (node:async_hooks:206:9)",
            "    node:internal/test_runner/test:1133:71",
            "    new Promise (<anonymous>)",
            "    run (/app/node_modules/tape/lib/test.js:77:32)",
            "    a note: with (parentheses:1)",
        ];
        assert_eq!(
            library_lines(trace),
            [false, false, false, true, true, false, true, false]
        );
    }

    /// A CI system's prefix on every line (GitHub Actions' time) hides no frame.
    #[test]
    fn frames_behind_a_ci_prefix_are_judged_by_what_follows_it() {
        let trace = [
            "2026-11-23T10:15:41.9660883Z Traceback (most recent call last):",
            "2026-11-23T10:15:41.9660883Z   File \"/app/src/main.py\", line 3, in <module>",
            "2026-11-23T10:15:41.9660883Z     run()",
            "2026-11-23T10:15:41.9660883Z   File \"/usr/lib/python3.11/json/decoder.py\", line 337, in decode",
            "2026-11-23T10:15:41.9660883Z     obj, end = self.raw_decode(s, idx=_w(s, 0).end())",
            "2026-11-23T10:15:41.9660883Z   File \"/usr/lib/python3.11/json/decoder.py\", line 355, in raw_decode",
            "2026-11-23T10:15:41.9660883Z     raise JSONDecodeError(\"Expecting value\", s, err.value)",
            "2026-11-23T10:15:41.9660883Z json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)",
        ];
        assert_eq!(
            library_lines(trace),
            [false, false, false, true, true, false, false, false]
        );
    }
}
