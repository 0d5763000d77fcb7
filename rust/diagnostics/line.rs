//! One line of a compiler's or linter's output, read for what opens a diagnostic.
//!
//! Two forms open one. gcc, clang, MSVC, Python's warnings and most linters put the place
//! first: `w.c:1:34: warning: unused variable ‘b0’ [-Wunused-variable]`,
//! `src\a.cpp(12,5): warning C4101: ...`, `tool.py:7: DeprecationWarning: ...`. rustc, clippy,
//! ruff and deno put a header at the margin and the place under it, after an arrow:
//! ``warning: unused variable: `a` `` then ` --> src/main.rs:2:9`, or ruff's ``F401 [*] `os`
//! imported but unused`` then `  --> a.py:1:8`. A header of the second form is known only by
//! the line after it, so this reads each line alone and the planner pairs them.

use crate::text::trim_start;

/// Bytes of a line looked at for the path of a place.
const MAX_PATH: usize = 512;

/// How grave a diagnostic is, as its header says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Severity {
    Error,
    Warning,
    /// A header that names no severity (ruff's rule codes): a finding all the same.
    Finding,
}

/// What a gap's marker says of the diagnostics it holds: `": 6 warnings"`, `": 1 diagnostic"`
/// (ruff's findings, which name no severity), or nothing where it holds none. A plan holds
/// no errors: output with one is the log planner's.
#[must_use]
pub fn counted(warnings: u64, findings: u64) -> String {
    let said: Vec<String> = [(warnings, "warning"), (findings, "diagnostic")]
        .into_iter()
        .filter(|&(n, _)| n > 0)
        .map(|(n, noun)| format!("{n} {noun}{}", if n == 1 { "" } else { "s" }))
        .collect();
    if said.is_empty() {
        String::new()
    } else {
        format!(": {}", said.join(", "))
    }
}

/// What one line is to a diagnostic.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Line<'a> {
    /// A diagnostic whose place opens its line; `message` is what follows the place.
    Placed(Severity, &'a str),
    /// The place under a header: ` --> src/main.rs:2:9`.
    Arrow,
    /// A line at the margin that heads a diagnostic if an [`Line::Arrow`] follows it.
    Header(Severity),
    /// A note or help on the diagnostic above, at the margin (`note: ...`, `help: ...`,
    /// `w.c:3:5: note: ...`), or any indented line (a code frame, `= note: ...`): its body.
    Body,
    Blank,
    /// Any other line at the margin: no part of a diagnostic.
    Other,
}

/// Reads `text`, a line as a terminal shows it.
#[must_use]
pub fn read(text: &str) -> Line<'_> {
    let trimmed = trim_start(text);
    if trimmed.is_empty() {
        return Line::Blank;
    }
    if trimmed.len() < text.len() {
        return if trimmed
            .strip_prefix("--> ")
            .is_some_and(|place| place_end(place) == Some(place.trim_end().len()))
        {
            Line::Arrow
        } else {
            Line::Body
        };
    }
    if gutter(text) {
        return Line::Body;
    }
    match placed(text) {
        Some((Some(severity), message)) => Line::Placed(severity, message),
        Some((None, _)) => Line::Body,
        None => header(text),
    }
}

/// Whether `text` is a line of a code frame whose number starts at the margin, as rustc and
/// ruff print one of fewer digits than the frame's widest: `2 |     let a = 1;`, and ruff's
/// suggested fix, `98 +     msg = f"..."`.
fn gutter(text: &str) -> bool {
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    let rest = text[digits..].trim_start_matches(' ');
    digits > 0 && rest.len() < text.len() - digits && rest.starts_with(['|', '+', '-'])
}

/// Whether every error word in `text` follows a count: a tool's tally of what it reported
/// (`Found 19 errors.`, `✖ 5 problems (3 errors, 2 warnings)`, `due to 2 previous errors`),
/// which reports no failure of its own.
#[must_use]
pub fn counts_errors(text: &str) -> bool {
    let words: Vec<&str> = text
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    let number = |i: usize| words[i].bytes().all(|b| b.is_ascii_digit());
    let mut any = false;
    for (i, word) in words.iter().enumerate() {
        if word
            .get(..5)
            .is_some_and(|w| w.eq_ignore_ascii_case("error"))
        {
            any = true;
            let counted = (i >= 1 && number(i - 1))
                || (i >= 2 && words[i - 1] == "previous" && number(i - 2));
            if !counted {
                return false;
            }
        }
    }
    any
}

/// A margin line read for the header it may be ([`Line::Header`]), or a note or help on the
/// diagnostic above ([`Line::Body`]), or neither.
fn header(text: &str) -> Line<'_> {
    let word = text
        .bytes()
        .take_while(|b| b.is_ascii_alphanumeric() || *b == b'-' || *b == b'_')
        .count();
    let (first, after) = text.split_at(word);
    if word == 0 || !matches!(after.bytes().next(), Some(b':' | b'[' | b' ')) {
        return Line::Other;
    }
    match first {
        "note" | "help" | "hint" | "info" if after.starts_with(':') => Line::Body,
        "error" => Line::Header(Severity::Error),
        "warning" => Line::Header(Severity::Warning),
        _ if rule_code(first) => Line::Header(Severity::Finding),
        _ => Line::Other,
    }
}

/// Whether `word` is a linter's rule code: capitals and then digits (`F401`, `UP031`, `PLR2004`).
fn rule_code(word: &str) -> bool {
    let letters = word.bytes().take_while(u8::is_ascii_uppercase).count();
    let digits = word.len() - letters;
    (1..=4).contains(&letters)
        && (2..=5).contains(&digits)
        && word.bytes().skip(letters).all(|b| b.is_ascii_digit())
}

/// The severity and message of a line that opens with its place: `PATH:N[:M]: SEVERITY...` or
/// MSVC's `PATH(N[,M]): SEVERITY...`; no severity for a note on the diagnostic above.
fn placed(text: &str) -> Option<(Option<Severity>, &str)> {
    let end = place_end(text)?;
    let rest = text[end..].strip_prefix(": ")?;
    let word = rest
        .bytes()
        .take_while(|b| b.is_ascii_alphabetic() || *b == b' ')
        .count();
    let said = &rest[..word];
    let severity = if said.starts_with("warning") || said.starts_with("Warning") {
        Severity::Warning
    } else if said.starts_with("error") || said.starts_with("fatal error") {
        Severity::Error
    } else if python_warning(said) && rest[word..].starts_with(':') {
        Severity::Warning
    } else if said.starts_with("note") {
        return Some((None, rest));
    } else {
        return None;
    };
    Some((Some(severity), rest))
}

/// Whether a placed line's `message` is one of Python's warnings (`DeprecationWarning: ...`):
/// a program's, printed as it runs, not a compiler's or a linter's about the code.
#[must_use]
pub fn runtime_warning(message: &str) -> bool {
    message
        .split_once(':')
        .is_some_and(|(word, _)| python_warning(word))
}

/// Whether `word` names one of Python's warning classes, as its `warnings` module prints them
/// (`DeprecationWarning`, `UserWarning`).
fn python_warning(word: &str) -> bool {
    word.len() > "Warning".len()
        && word.ends_with("Warning")
        && word.starts_with(|c: char| c.is_ascii_uppercase())
}

/// Where the place that opens `text` ends, if it opens with one: a path (no spaces, not only
/// digits) and a line number, `:N` or `:N:M`, or MSVC's `(N)` or `(N,M)`.
fn place_end(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    // The path runs to the first ':' or '(' that a digit follows; a drive letter's ':' is
    // followed by a '\'. Paths are short: a long line is looked at no further.
    let looked = &bytes[..bytes.len().min(MAX_PATH)];
    let mut from = 0;
    let (sep, close) = loop {
        let i = from + memchr::memchr2(b':', b'(', &looked[from..])?;
        if bytes.get(i + 1).is_some_and(u8::is_ascii_digit) {
            break (i, (bytes[i] == b'(').then_some(b')'));
        }
        from = i + 1;
    };
    let path = &text[..sep];
    if path.is_empty()
        || path.contains(' ')
        || path.bytes().all(|b| b.is_ascii_digit())
        || path.starts_with(['-', '|', '='])
    {
        return None;
    }
    let mut i = sep + 1;
    let numbers = |i: &mut usize| {
        let start = *i;
        while bytes.get(*i).is_some_and(u8::is_ascii_digit) {
            *i += 1;
        }
        *i > start
    };
    numbers(&mut i).then_some(())?;
    if let Some(close) = close {
        if bytes.get(i) == Some(&b',') {
            i += 1;
            numbers(&mut i).then_some(())?;
        }
        return (bytes.get(i) == Some(&close)).then_some(i + 1);
    }
    if bytes.get(i) == Some(&b':') && bytes.get(i + 1).is_some_and(u8::is_ascii_digit) {
        i += 1;
        numbers(&mut i);
    }
    Some(i)
}
