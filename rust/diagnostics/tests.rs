use std::fmt::Write;

use super::*;
use crate::engine::Engine;
use crate::planner::Budget;
use crate::profile::Profile;

fn planned(text: &str, budget: u64) -> (String, Shape) {
    let profile = Profile::new("shell", Some("bash"), 3000, 6000).unwrap();
    let mut engine = Engine::new(Budget::new(budget, 0).unwrap(), profile);
    engine.feed_str(text);
    let plan = engine.finish().plan;
    (plan.render(), plan.shape)
}

/// gcc's warnings of `count` functions, two unused variables each, with code frames.
fn gcc_warnings(count: usize) -> String {
    let mut text = String::new();
    for i in 0..count {
        let code = format!("int f{i}(int a) {{ int unused{i}; int b{i} = a; return 0; }}");
        writeln!(text, "w.c: In function \u{2018}f{i}\u{2019}:").unwrap();
        for (name, col) in [(format!("b{i}"), 34), (format!("unused{i}"), 21)] {
            writeln!(
                text,
                "w.c:{}:{col}: warning: unused variable \u{2018}{name}\u{2019} [-Wunused-variable]",
                i + 1
            )
            .unwrap();
            writeln!(text, "{:>5} | {code}", i + 1).unwrap();
            writeln!(text, "      | {}^~", " ".repeat(col - 1)).unwrap();
        }
    }
    text
}

#[test]
fn every_warning_of_gcc_shows_its_header_before_any_code_frame() {
    let text = gcc_warnings(20);
    let (out, shape) = planned(&text, 4000);
    assert_eq!(shape, Shape::Diagnostics, "{out}");
    for i in 0..20 {
        assert!(out.contains(&format!("w.c:{}:34: warning", i + 1)), "{out}");
    }
}

#[test]
fn a_kind_masks_names_and_numbers_however_long_they_are() {
    let long = format!(
        "SIM108 Use ternary operator `{}` instead of `if`-`else`-block",
        "x".repeat(90)
    );
    assert_eq!(
        kind::of(&long),
        kind::of("SIM108 Use ternary operator `y = 1 if z else 2` instead of `if`-`else`-block")
    );
    assert_eq!(
        kind::of("warning: unused variable \u{2018}b0\u{2019} [-Wunused-variable]"),
        "warning: unused variable <> [-Wunused-variable]"
    );
    assert_ne!(
        kind::of("F401 `os` imported but unused"),
        kind::of("F841 Local variable `x` is assigned to but never used")
    );
}

/// `cargo clippy` on a crate whose functions each leave `count` variables unused, as rustc
/// prints its warnings (a one-digit line number at the margin of the code frame), and its
/// closing count.
fn rustc_warnings(count: usize) -> String {
    let mut text = String::from("    Checking toy v0.1.0 (/work/toy)\n");
    for i in 0..count {
        let line = i % 9 + 1;
        writeln!(text, "warning: unused variable: `v{i}`").unwrap();
        writeln!(text, " --> src/main.rs:{line}:9").unwrap();
        writeln!(text, "  |").unwrap();
        writeln!(text, "{line} |     let v{i} = {i};").unwrap();
        writeln!(
            text,
            "  |         ^^ help: if this is intentional, prefix it with an underscore: `_v{i}`"
        )
        .unwrap();
        if i == 0 {
            writeln!(text, "  |").unwrap();
            writeln!(text, "  = note: `#[warn(unused_variables)]` on by default").unwrap();
        }
        text.push('\n');
    }
    writeln!(
        text,
        "warning: `toy` (bin \"toy\") generated {count} warnings"
    )
    .unwrap();
    text.push_str("    Finished `dev` profile [unoptimized + debuginfo] target(s) in 0.41s\n");
    text
}

/// `ruff check` in its full format: `count` findings of three rules, one with the fix ruff
/// suggests under it, and ruff's closing count.
fn ruff_findings(count: usize) -> String {
    let mut text = String::new();
    for i in 0..count {
        let line = 10 * i + 3;
        match i % 3 {
            0 => {
                writeln!(text, "F401 [*] `mod{i}` imported but unused").unwrap();
                writeln!(text, "  --> pkg/a{i}.py:{line}:8").unwrap();
                writeln!(text, "   |").unwrap();
                writeln!(text, "{line} | import mod{i}").unwrap();
                writeln!(text, "   |        ^^^^").unwrap();
                writeln!(text, "   |").unwrap();
                writeln!(text, "help: Remove unused import: `mod{i}`").unwrap();
            }
            1 => {
                writeln!(text, "UP032 [*] Use f-string instead of `format` call").unwrap();
                writeln!(text, "  --> pkg/b{i}.py:{line}:11").unwrap();
                writeln!(text, "   |").unwrap();
                writeln!(text, "{line} |     msg = \"{{}} failed\".format(name)").unwrap();
                writeln!(text, "   |           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^").unwrap();
                writeln!(text, "   |").unwrap();
                writeln!(text, "help: Convert to f-string").unwrap();
                writeln!(text, "   |").unwrap();
                writeln!(text, "   -     msg = \"{{}} failed\".format(name)").unwrap();
                writeln!(text, "{line} +     msg = f\"{{name}} failed\"").unwrap();
                writeln!(text, "   |").unwrap();
            }
            _ => {
                writeln!(
                    text,
                    "B904 Within an `except` clause, raise exceptions with `raise ... from err`"
                )
                .unwrap();
                writeln!(text, "  --> pkg/c{i}.py:{line}:13").unwrap();
                writeln!(text, "   |").unwrap();
                writeln!(text, "{line} |             raise ValueError(msg)").unwrap();
                writeln!(text, "   |             ^^^^^^^^^^^^^^^^^^^^^").unwrap();
                writeln!(text, "   |").unwrap();
            }
        }
        text.push('\n');
    }
    writeln!(text, "Found {count} errors.").unwrap();
    writeln!(
        text,
        "[*] {} fixable with the `--fix` option.",
        count * 2 / 3
    )
    .unwrap();
    text
}

/// The plan of `text`, which must be a diagnostics plan, within `budget`.
fn diagnosed(text: &str, budget: u64) -> String {
    let (out, shape) = planned(text, budget);
    assert_eq!(shape, Shape::Diagnostics, "{out}");
    assert!(out.chars().count() as u64 <= budget, "{out}");
    out
}

#[test]
fn rustc_warnings_show_every_header_and_place_and_the_closing_count() {
    let text = rustc_warnings(20);
    let out = diagnosed(&text, 2000);
    for i in 0..20 {
        let header = format!(
            "warning: unused variable: `v{i}`\n --> src/main.rs:{}:9\n",
            i % 9 + 1
        );
        assert!(out.contains(&header), "{out}");
    }
    assert!(out.contains("generated 20 warnings"), "{out}");
    assert!(out.contains("    Finished `dev` profile"), "{out}");
}

#[test]
fn ruff_findings_show_each_rule_then_every_place_with_ruffs_count() {
    let text = ruff_findings(30);
    let out = diagnosed(&text, 2000);
    for code in ["F401 [*]", "UP032 [*]", "B904 Within"] {
        assert!(out.contains(code), "{out}");
    }
    assert!(out.contains("  --> pkg/a0.py:3:8\n"), "{out}");
    assert!(out.contains("Found 30 errors.\n"), "{out}");
    // Gap markers count the findings they hold.
    assert!(
        out.contains(" diagnostics]") || out.contains(" diagnostic]"),
        "{out}"
    );
    // A finding's fix (its `-` and `+` lines) and `help:` are its body, which the headers
    // of the others go before.
    let at_4000 = diagnosed(&text, 4000);
    for i in 0..30 {
        assert!(
            at_4000.contains(&format!("{i}.py:{}:", 10 * i + 3)),
            "{at_4000}"
        );
    }
}

/// The numbers of `[lines A-B omitted: ...]` markers and what they say, in `out`.
fn labelled_gaps(out: &str) -> Vec<(u64, u64, String)> {
    out.lines()
        .filter_map(|l| {
            let rest = l.strip_prefix("[lines ")?;
            let (range, label) = rest.split_once(" omitted")?;
            let (a, b) = range.split_once('-')?;
            Some((
                a.parse().ok()?,
                b.parse().ok()?,
                label.trim_end_matches(']').to_owned(),
            ))
        })
        .collect()
}

#[test]
fn each_gap_counts_the_diagnostics_it_holds_exactly() {
    for (text, noun) in [
        (gcc_warnings(40), "warning"),
        (rustc_warnings(60), "warning"),
        (ruff_findings(50), "diagnostic"),
    ] {
        for budget in [1000, 2000, 4000] {
            let out = diagnosed(&text, budget);
            let headers: Vec<u64> = (1..)
                .zip(text.lines())
                .filter(|(_, l)| {
                    matches!(line::read(l), Line::Placed(..))
                        || l.starts_with("warning: unused")
                        || l.starts_with(['F', 'U', 'B'])
                })
                .map(|(no, _)| no)
                .collect();
            let gaps = labelled_gaps(&out);
            assert!(!gaps.is_empty(), "{out}");
            for (a, b, label) in gaps {
                let n = headers.iter().filter(|&&no| (a..=b).contains(&no)).count();
                let said = match n {
                    0 => String::new(),
                    1 => format!(": 1 {noun}"),
                    _ => format!(": {n} {noun}s"),
                };
                assert_eq!(label, said, "lines {a}-{b} of\n{out}");
            }
        }
    }
}

#[test]
fn a_warning_printed_again_at_the_same_place_takes_no_more_room() {
    let mut text = String::new();
    for i in 0..200 {
        text.push_str("tool.py:21: DeprecationWarning: The 'warn' method is deprecated\n");
        text.push_str("  log.warn(\"%s: over 79 characters\", rel)\n");
        writeln!(text, "module_{i}.py: 159 lines checked").unwrap();
    }
    // Its repeats are not chosen as diagnostics of their own: the room goes to the output's
    // first and last lines, whole, and the gap counts the repeats it holds.
    let out = diagnosed(&text, 2000);
    assert!(
        out.starts_with(&text[..text.find("module_5.py").unwrap()]),
        "{out}"
    );
    assert!(out.ends_with("module_199.py: 159 lines checked\n"), "{out}");
    assert!(out.contains(" warnings]"), "{out}");
}

#[test]
fn warnings_before_a_failure_leave_the_output_to_the_log_planner() {
    let mut text = gcc_warnings(30);
    text.push_str(
        "Traceback (most recent call last):\n  File \"check.py\", line 24, in <module>\n",
    );
    text.push_str("FileNotFoundError: [Errno 2] No such file or directory: 'reports/out.json'\n");
    assert_eq!(planned(&text, 2000).1, Shape::Log);
    let mut make = gcc_warnings(30);
    make.push_str("make: *** [Makefile:4: w.o] Error 1\n");
    assert_eq!(planned(&make, 2000).1, Shape::Log);
}

#[test]
fn a_failing_build_stays_a_log() {
    let errors = rustc_warnings(20).replace("warning: unused", "error: unused");
    assert_eq!(planned(&errors, 2000).1, Shape::Log);
}

#[test]
fn a_few_warnings_in_a_build_that_no_other_planner_takes_are_shown_first() {
    // Three warnings among three hundred lines of a build that succeeded: no log, and a clip
    // of its ends showed none of them.
    let mut build = String::new();
    for i in 0..150 {
        writeln!(build, "   Compiling dependency_{i} v1.0.{i}").unwrap();
    }
    build.push_str(&rustc_warnings(3));
    for i in 150..300 {
        writeln!(build, "   Compiling dependency_{i} v1.0.{i}").unwrap();
    }
    let (out, shape) = planned(&build, 2000);
    assert_eq!(shape, Shape::Diagnostics, "{out}");
    for i in 0..3 {
        let header = format!(
            "warning: unused variable: `v{i}`\n --> src/main.rs:{}:9\n",
            i + 1
        );
        assert!(out.contains(&header), "{out}");
    }
    // A failure after it leaves it to the log planner.
    assert_eq!(
        planned(
            &format!("{build}FAILED: 1 test\nerror: test failed\n"),
            2000
        )
        .1,
        Shape::Log
    );
}

#[test]
fn lines_read_as_their_tools_print_them() {
    use Severity::{Error, Finding, Warning};
    let placed = |l| match line::read(l) {
        Line::Placed(severity, _) => Some(severity),
        _ => None,
    };
    assert_eq!(
        placed("w.c:1:34: warning: unused variable \u{2018}b0\u{2019}"),
        Some(Warning)
    );
    assert_eq!(
        placed("src\\a.cpp(12,5): warning C4101: 'x': unreferenced"),
        Some(Warning)
    );
    assert_eq!(
        placed("C:\\src\\a.cpp(12): error C2065: 'y': undeclared"),
        Some(Error)
    );
    assert_eq!(
        placed("tool.py:7: DeprecationWarning: use warning"),
        Some(Warning)
    );
    assert_eq!(
        placed("a.c:3:1: fatal error: x.h: No such file"),
        Some(Error)
    );
    for body in [
        "a.c:3:5: note: declared here",
        "note: required by a bound",
        "help: remove it",
        "2 |     let a = 1;",
        "98 +     x = 1",
        "   |  ^^^",
    ] {
        assert_eq!(line::read(body), Line::Body, "{body}");
    }
    for other in [
        "12:00:01: warning: clock skew",
        "w.c: In function \u{2018}f0\u{2019}:",
        "Found 19 errors.",
        "WARNING:root:disk almost full",
        "see https://example.org:8080/x: warning: none",
        "info about the build",
    ] {
        assert!(matches!(line::read(other), Line::Other), "{other}");
    }
    assert_eq!(
        line::read("UP031 Use format specifiers"),
        Line::Header(Finding)
    );
    assert_eq!(
        line::read("warning[E0599]: no method"),
        Line::Header(Warning)
    );
    assert_eq!(line::read("error: aborting"), Line::Header(Error));
    assert_eq!(line::read("  --> src/main.rs:2:9"), Line::Arrow);
    assert_eq!(line::read("   --> C:\\x\\a.py:114:17"), Line::Arrow);
    assert_eq!(line::read("  --> not a place"), Line::Body);
}

#[test]
fn a_tally_of_errors_is_told_from_a_failure() {
    for tally in [
        "Found 19 errors.",
        "\u{2716} 5 problems (3 errors, 2 warnings)",
        "aborting due to 2 previous errors",
    ] {
        assert!(line::counts_errors(tally), "{tally}");
    }
    for failure in [
        "FileNotFoundError: [Errno 2] No such file",
        "make: *** [all] Error 2",
        "Traceback (most recent call last):",
        "Error: 3 tests failed",
        "error: could not compile `x` due to 2 previous errors",
    ] {
        assert!(!line::counts_errors(failure), "{failure}");
    }
}

#[test]
fn coloured_warnings_with_crlf_line_ends_read_as_plain_ones() {
    let coloured = rustc_warnings(20)
        .replace("warning:", "\u{1b}[1m\u{1b}[33mwarning\u{1b}[0m\u{1b}[1m:")
        .replace(" --> ", " \u{1b}[1m\u{1b}[94m--> \u{1b}[0m")
        .replace('\n', "\r\n");
    let out = diagnosed(&coloured, 3000);
    for i in 0..20 {
        assert!(
            out.contains(&format!("unused variable: `v{i}`\r\n")),
            "{out}"
        );
    }
}

#[test]
fn a_blank_line_after_a_body_is_shown_as_the_output_has_it() {
    let text = rustc_warnings(12).replace("\n\n", "\n   \n");
    let lines: std::collections::HashSet<&str> = text.lines().collect();
    let out = diagnosed(&text, 1200);
    assert!(out.contains("\n   \n"), "{out}");
    for line in out.lines().filter(|l| !l.starts_with('[')) {
        assert!(lines.contains(line), "{line:?} in\n{out}");
    }
}

#[test]
fn a_few_of_pythons_warnings_in_a_programs_output_are_no_diagnostics() {
    // Warnings a library prints when a program imports it: what the program printed is what
    // its caller reads.
    let mut text = String::new();
    for (i, module) in ["core/basic", "core/containers", "plotting/plot"]
        .iter()
        .enumerate()
    {
        writeln!(
            text,
            "/testbed/sympy/{module}.py:{}: DeprecationWarning: Using or importing the ABCs from 'collections' is deprecated",
            3 + i
        )
        .unwrap();
        writeln!(text, "  from collections import Mapping").unwrap();
    }
    for i in 0..120 {
        writeln!(text, "Testing distribution {i}...\nResult: {}", i * 7).unwrap();
    }
    assert_ne!(planned(&text, 2000).1, Shape::Diagnostics);
}
