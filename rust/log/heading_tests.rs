//! An error or warning whose line gives only a line number under its file's heading (eslint's
//! default output) is shown with that heading, however the input was cut into blocks.

use std::collections::HashMap;
use std::fmt::Write as _;

use crate::engine::Engine;
use crate::plan::Shape;
use crate::planner::Budget;
use crate::profile::Profile;

fn compress(input: &str, budget: u64, chunk: usize) -> (String, Shape) {
    let profile = Profile::new("shell", Some("bash"), 3000, 6000).unwrap();
    let mut engine = Engine::new(Budget::new(budget, 0).unwrap(), profile);
    let mut rest = input;
    while !rest.is_empty() {
        let mut cut = chunk.min(rest.len());
        while !rest.is_char_boundary(cut) {
            cut += 1;
        }
        engine.feed_str(&rest[..cut]);
        rest = &rest[cut..];
    }
    let out = engine.finish();
    (out.plan.render(), out.plan.shape)
}

const RULES: [(&str, &str); 5] = [
    ("error", "'props' is defined but never used  no-unused-vars"),
    ("warning", "Unexpected console statement  no-console"),
    ("error", "'value' is not defined  no-undef"),
    (
        "warning",
        "Missing return type on function  explicit-function-return-type",
    ),
    ("error", "Expected '===' and instead saw '=='  eqeqeq"),
];

/// eslint's default output over `files` files, the f-th with `problems(f)` problems, with
/// `severity` in place of every error's when it is given; and the heading each line is under.
fn eslint(
    files: usize,
    problems: impl Fn(usize) -> usize,
    severity: Option<&str>,
) -> (String, Vec<Option<String>>) {
    let mut text = String::new();
    let mut under = Vec::new();
    let (mut errors, mut warnings) = (0, 0);
    for f in 0..files {
        let path = format!("/home/runner/work/app/app/src/components/widget_{f}/index.tsx");
        writeln!(text, "{path}").unwrap();
        under.push(None);
        for p in 0..problems(f) {
            let (rule, message) = RULES[(f * 7 + p * 3) % RULES.len()];
            let rule = severity.unwrap_or(rule);
            // Each line its own, so that a line shown says where it was.
            let place = format!("{}:{}", 1 + f * 50 + p, 1 + p % 40);
            writeln!(text, "  {place:<7} {rule:<7} {message}").unwrap();
            under.push(Some(path.clone()));
            if rule == "error" {
                errors += 1;
            } else {
                warnings += 1;
            }
        }
        text.push('\n');
        under.push(None);
    }
    under.push(None);
    let total = errors + warnings;
    writeln!(
        text,
        "\u{2716} {total} problems ({errors} errors, {warnings} warnings)"
    )
    .unwrap();
    (text, under)
}

/// Checks that every problem line `out` shows stands under its own file's heading: the
/// nearest line above it that is neither another problem nor a marker.
fn assert_headed(out: &str, text: &str, under: &[Option<String>]) {
    let numbers: HashMap<&str, usize> = text.lines().enumerate().map(|(i, l)| (l, i)).collect();
    let mut heading: Option<&str> = None;
    let mut shown = 0;
    for line in out.lines() {
        let plain = line.split(" [shapeclip:").next().unwrap_or(line);
        if line.starts_with("[line") || line.starts_with("[shapeclip:") {
            continue;
        }
        if let Some(&no) = numbers.get(plain) {
            if let Some(path) = &under[no] {
                assert_eq!(heading, Some(path.as_str()), "{plain}\n{out}");
                shown += 1;
                continue;
            }
        }
        heading = Some(plain);
    }
    assert!(shown >= 3, "{out}");
}

#[test]
fn errors_under_a_heading_are_shown_with_it() {
    let (text, under) = eslint(60, |f| 1 + f % 6, None);
    for budget in [1000, 2000, 4000] {
        let (out, shape) = compress(&text, budget, 1 << 30);
        assert_eq!(shape, Shape::Log, "{out}");
        assert!(out.chars().count() as u64 <= budget, "{out}");
        assert_headed(&out, &text, &under);
    }
}

#[test]
fn warnings_under_a_heading_are_shown_with_it() {
    let (text, under) = eslint(60, |f| 1 + f % 6, Some("warning"));
    for budget in [1000, 2000, 4000] {
        let (out, _) = compress(&text, budget, 1 << 30);
        assert!(out.chars().count() as u64 <= budget, "{out}");
        assert_headed(&out, &text, &under);
    }
}

#[test]
fn headings_do_not_depend_on_where_blocks_are_cut() {
    // Megabytes of it, so that the input is read in many blocks and chunks that cut them at
    // other places: a file's problems often start in a block after its heading's.
    let (text, under) = eslint(12_000, |f| 1 + (f * 13) % 45, None);
    assert!(text.len() > 9 << 20, "{}", text.len());
    for budget in [2000, 16_000] {
        let whole = compress(&text, budget, 1 << 30);
        assert_headed(&whole.0, &text, &under);
        for chunk in [65_536, (4 << 20) + 12_345, (5 << 20) + 1] {
            assert_eq!(compress(&text, budget, chunk), whole, "chunk {chunk}");
        }
    }
}
