use std::fmt::Write;

use super::*;
use crate::engine::Engine;
use crate::plan::Piece;
use crate::profile::Profile;

fn read(text: &str, budget: u64) -> (String, Shape) {
    let profile = Profile::new("file_read", Some("read_file"), 8000, 1000).unwrap();
    let mut engine = Engine::new(budget, profile).unwrap();
    engine.feed_str(text);
    let outcome = engine.finish();
    (outcome.plan.render(), outcome.plan.shape)
}

fn source(functions: usize) -> String {
    let mut text = String::from("import os\nimport sys\n\n");
    for i in 0..functions {
        writeln!(text, "def function_{i:03}(argument):").unwrap();
        for j in 0..8 {
            writeln!(
                text,
                "    value_{j} = argument * {j}  # step {j} of function {i}"
            )
            .unwrap();
        }
        text.push('\n');
    }
    text
}

#[test]
fn keeps_the_head_the_definitions_of_the_middle_and_the_tail() {
    let text = source(60);
    let (out, shape) = read(&text, 2000);
    assert_eq!(shape, Shape::Read);
    assert!(char_count(&out) <= 2000, "{out}");
    assert!(out.starts_with("import os\nimport sys\n\ndef function_000(argument):\n"));
    // Definitions from the middle, each whole, with the gaps before them numbered exactly.
    let lines: Vec<&str> = text.lines().collect();
    let no = lines
        .iter()
        .position(|l| *l == "def function_004(argument):")
        .unwrap()
        + 1;
    let middle = out.find("\ndef function_004(argument):\n").expect(&out) + 1;
    assert!(
        out[..middle].ends_with(&format!("-{} omitted]\n", no - 1)),
        "{out}"
    );
    assert!(out.ends_with(&format!("{}\n", lines[lines.len() - 1])));
    assert!(out.contains(" lines omitted, ~"), "{out}");
}

#[test]
fn the_closing_marker_counts_every_omitted_line_and_char() {
    let text = source(60);
    let profile = Profile::new("file_read", Some("read_file"), 8000, 1000).unwrap();
    let mut engine = Engine::new(4000, profile).unwrap();
    engine.feed_str(&text);
    let outcome = engine.finish();
    let plan = outcome.plan;
    let shown: u64 = plan
        .pieces
        .iter()
        .filter_map(|p| match p {
            Piece::Kept(t) => Some(char_count(t)),
            Piece::Marker(_) => None,
        })
        .sum();
    assert_eq!(plan.omitted_chars + shown, char_count(&text));
    let gap_lines: u64 = plan.omitted.iter().map(|r| r.len()).sum();
    let out = plan.render();
    assert!(
        out.contains(&format!(
            "{} of {} lines omitted",
            thousands_of(gap_lines),
            thousands_of(outcome.totals.lines),
        )),
        "{out}"
    );
}

fn thousands_of(n: u64) -> String {
    crate::markers::thousands(n)
}

#[test]
fn small_budgets_get_a_short_closing_marker() {
    let (out, _) = read(&source(60), 2000);
    let closing = out.lines().find(|l| l.starts_with("[shapeclip:")).unwrap();
    assert!(closing.chars().count() <= 2000 / 24, "{closing}");
    assert!(closing.contains("read offset"), "{closing}");
}

#[test]
fn one_huge_line_is_left_to_the_clip() {
    let (_, shape) = read(&"x".repeat(50_000), 2000);
    assert_eq!(shape, Shape::Clip);
}

#[test]
fn other_tools_are_not_read_as_files() {
    let profile = Profile::new("shell", Some("bash"), 3000, 6000).unwrap();
    let mut engine = Engine::new(2000, profile).unwrap();
    engine.feed_str(&source(60));
    assert_ne!(engine.finish().plan.shape, Shape::Read);
}
