//! A linter's or compiler's output written by the program in a fuzz input: the diagnostics
//! planner's shape, with what sits beside it in real outputs (notes, counts, a failure now and
//! then, lines of no diagnostic, raw bytes).

use std::fmt::Write;

use super::program::Choices;

/// Inputs stop growing here, as the other written inputs do.
const MAX_BYTES: usize = 64 * 1024;

/// Lines of no diagnostic, some of which a log reads as a count or a failure.
const OTHER: &[&str] = &[
    "    Checking toy v0.1.0 (/work/toy)",
    "w.c: In function \u{2018}parse\u{2019}:",
    "In file included from w.c:3:",
    "Found 19 errors.",
    "[*] 7 fixable with the `--fix` option.",
    "warning: `toy` (bin \"toy\") generated 12 warnings",
    "    Finished `dev` profile [unoptimized + debuginfo] target(s) in 0.41s",
    "make: *** [Makefile:4: w.o] Error 1",
    "Traceback (most recent call last):",
    "error: could not compile `toy` due to 2 previous errors",
    "WARNING:root:disk almost full",
    "12:00:01: warning: clock skew",
];

/// Bodies: code frames, notes and help, as each form prints them.
const BODY: &[&str] = &[
    "  |",
    "2 |     let a = 1;",
    "  |         ^ help: if this is intentional, prefix it with an underscore: `_a`",
    "  = note: `#[warn(unused_variables)]` on by default",
    "   11 |     if (length > limit) return -1;",
    "      |                ^",
    "w.c:3:5: note: declared here",
    "note: required by a bound in `takes`",
    "help: Remove unused import: `os`",
    "   -     msg = \"{} failed\".format(name)",
    "98 +     msg = f\"{name} failed\"",
    "  log.warn(\"%s: over 79 characters\", rel)",
    "\u{1b}[1m\u{1b}[34m  |\u{1b}[0m",
];

/// The output the program in `choices` writes: as each byte says, a diagnostic in one of the
/// forms (gcc's, MSVC's, Python's, rustc's or ruff's, now and then an error or a header whose
/// place is missing), a body line, a blank line, another line, or raw bytes.
pub fn diagnostics(choices: &mut Choices<'_>) -> Vec<u8> {
    let mut out = String::new();
    while !choices.is_empty() && out.len() < MAX_BYTES {
        let op = choices.byte();
        let n = choices.byte();
        let severity = if op & 0x80 == 0 { "warning" } else { "error" };
        let severity = if op & 0x40 == 0 { "warning" } else { severity };
        let _ = match op % 12 {
            0 => writeln!(
                out,
                "w.c:{n}:{}: {severity}: unused variable \u{2018}v{n}\u{2019}",
                n % 7
            ),
            1 => writeln!(
                out,
                "src\\a.cpp({n},5): {severity} C4101: 'v{n}': unreferenced"
            ),
            2 => writeln!(out, "tool.py:{n}: DeprecationWarning: call {}", n % 3),
            3 => writeln!(
                out,
                "{severity}: unused variable: `v{n}`\n --> src/main.rs:{n}:9"
            ),
            4 => writeln!(
                out,
                "F{n:03} [*] `mod{}` imported but unused\n  --> pkg/a.py:{n}:8",
                n % 5
            ),
            5 => writeln!(out, "UP032 Use f-string instead of `format` call"),
            6 | 7 => writeln!(out, "{}", BODY[usize::from(n) % BODY.len()]),
            8 => writeln!(out),
            9 => writeln!(out, "{}", OTHER[usize::from(n) % OTHER.len()]),
            10 => writeln!(
                out,
                "{}",
                String::from_utf8_lossy(choices.take(usize::from(n % 24)))
            ),
            _ => writeln!(out, "   --> pkg/b.py:{n}:1"),
        };
    }
    out.into_bytes()
}
