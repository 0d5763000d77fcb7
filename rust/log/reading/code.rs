//! Whether an error line is a line of source code: `raise ValueError(...)`, `} catch (IOException
//! e) {`, `log.error("...")`, `class ParseError(Exception):`.
//!
//! A shell prints source code as often as it prints logs (`python -c` printing a function, a
//! file through a command shapeclip was not told of), and code names errors on every few
//! lines. An error a log reports is an event: it starts its line (after a prefix, a path or a
//! marker such as `E`), or it is a name followed by what happened. A line of code is a
//! statement: it opens with a keyword of a language, a closing bracket or a comment, or, indented,
//! with a name that is called, indexed or assigned to. A log whose every error is such a line is
//! no build or test log (a traceback's code lines come with its `Traceback` line and the error
//! that ends it, which are events).

use super::starts::Starts;
use crate::text::past_line_number;

/// Words that open a statement or a declaration, each with the byte that ends it as a word.
static STATEMENTS: Starts = Starts::new(&[
    "raise ",
    "raise(",
    "except ",
    "except:",
    "except(",
    "throw ",
    "throws ",
    "catch ",
    "catch(",
    "try ",
    "try:",
    "try {",
    "assert ",
    "assert(",
    "return ",
    "return;",
    "yield ",
    "if ",
    "if(",
    "elif ",
    "else ",
    "else:",
    "for ",
    "while ",
    "def ",
    "class ",
    "fn ",
    "func ",
    "function ",
    "import ",
    "from ",
    "use ",
    "pub ",
    "pub(",
    "public ",
    "private ",
    "protected ",
    "static ",
    "const ",
    "let ",
    "var ",
    "val ",
    "new ",
    "case ",
    "struct ",
    "enum ",
    "interface ",
    "impl ",
    "impl<",
    "type ",
    "async ",
    "await ",
    "with ",
    "#include",
    "#define",
    "#[",
    "//",
    "/*",
    "* @",
    "@",
    "}",
    ")",
    "]",
    "\"\"\"",
]);

/// Whether `line` (without a CI prefix) is a line of source code, as the module says, after
/// the line number a viewer may print before it (`  614\t`, `614:`).
pub(super) fn is_code(line: &str) -> bool {
    // What is left after an ASCII prefix: a char boundary.
    let line = &line[line.len() - past_line_number(line.as_bytes()).len()..];
    let code = line.trim_start_matches([' ', '\t']);
    if STATEMENTS.starts(code) {
        return true;
    }
    let indented = code.len() < line.len();
    // A comment, or a name (`log.error`, `self.errors`, `panic!`) called, indexed or assigned
    // to, is code only indented: at a line's start, `# Failed test` is a TAP report and
    // `name(...)` may be a log's own words.
    indented && (code.starts_with("# ") || is_used_name(code))
}

/// Whether `code` opens with a dotted name called or indexed (`(`, `!(` or `[` right after
/// it) or assigned to (`=`, `+=`, not `==`, after any spaces).
fn is_used_name(code: &str) -> bool {
    let bytes = code.as_bytes();
    if !bytes
        .first()
        .is_some_and(|b| b.is_ascii_alphabetic() || *b == b'_')
    {
        return false;
    }
    let name = bytes
        .iter()
        .position(|b| !(b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.')))
        .unwrap_or(bytes.len());
    match &bytes[name..] {
        [b'(' | b'[', ..] | [b'!', b'(', ..] => return true,
        _ => {}
    }
    match code[name..].trim_start_matches(' ').as_bytes() {
        [b'=', next, ..] => *next != b'=',
        [b'+' | b'-' | b'*' | b'/' | b'|' | b'&', b'=', ..] => true,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statements_and_calls_naming_errors_are_code() {
        for line in [
            "        raise ValueError(\"negative\")",
            "class ParseError(Exception):",
            "    except KeyError:",
            "        } catch (IOException e) {",
            "            throw new IllegalStateException(\"closed\");",
            "        return Err(Error::Parse(line));",
            "    log.error(\"cannot open %s\", path)",
            "        self.errors = []",
            "        errors += 1",
            "    panic!(\"unreachable\")",
            "    // fail fast",
            "pub enum Error {",
            "#[derive(Debug, Error)]",
            "@pytest.mark.xfail(raises=ValueError)",
            "def test_errors_are_raised():",
            "from .errors import ParseError",
            "    if err != nil {",
            "   614\t        raise NotImplementedError(",
            "1810:                raise ValueError(msg)",
            "        # fails when units mix numbers and strings (a numpy error?)",
        ] {
            assert!(is_code(line), "{line}");
        }
    }

    #[test]
    fn the_errors_logs_report_are_not() {
        for line in [
            "Traceback (most recent call last):",
            "ValueError: invalid literal for int() with base 10: 'x'",
            "E       AssertionError: assert 1 == 2",
            "src/parse.c:41:7: error: expected ';' before 'return'",
            "error[E0308]: mismatched types",
            "    TypeError: Cannot read properties of undefined (reading 'x')",
            "    main_test.go:12: unexpected error: EOF",
            "FAILED tests/test_a.py::test_b - AssertionError: boom",
            "npm ERR! code ELIFECYCLE",
            "make: *** [Makefile:3: all] Error 1",
            "thread 'main' panicked at src/main.rs:2:5:",
            "Exception in thread \"main\" java.lang.IllegalStateException: closed",
            "Caused by: java.io.IOException: Broken pipe",
            "error: could not compile `x` (lib) due to 2 previous errors",
            "fatal(\"x\") failed at line 3",
            "    Errors (3):",
            "#   Failed test 'parses' at t/parse.t line 12.",
            "* What went wrong: an exception",
        ] {
            assert!(!is_code(line), "{line}");
        }
    }
}
