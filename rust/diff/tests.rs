use std::fmt::Write;

use super::*;
use crate::engine::Engine;
use crate::planner::Budget;
use crate::profile::Profile;

fn diff(text: &str, budget: u64) -> (String, Shape) {
    let profile = Profile::new("shell", Some("bash"), 3000, 6000).unwrap();
    let mut engine = Engine::new(Budget::new(budget, 0).unwrap(), profile);
    engine.feed_str(text);
    let plan = engine.finish().plan;
    (plan.render(), plan.shape)
}

/// A `git diff` of `files` files, each with a small hunk and a large one whose removed lines
/// start with `--`, as SQL comments would.
fn git_diff(files: usize) -> String {
    let mut text = String::new();
    for f in 0..files {
        writeln!(text, "diff --git a/src/file_{f}.sql b/src/file_{f}.sql").unwrap();
        writeln!(text, "index 3b18e51..a9c2f1d 100644").unwrap();
        writeln!(text, "--- a/src/file_{f}.sql").unwrap();
        writeln!(text, "+++ b/src/file_{f}.sql").unwrap();
        writeln!(text, "@@ -1,3 +1,3 @@ create table t{f}").unwrap();
        writeln!(text, " keep").unwrap();
        writeln!(text, "-old value {f}").unwrap();
        writeln!(text, "+new value {f}").unwrap();
        writeln!(text, "@@ -40,60 +40,60 @@ select").unwrap();
        for i in 0..60 {
            writeln!(text, "--- comment line {i} of file {f}").unwrap();
            writeln!(text, "+-- comment line {i} of file {f}, reworded").unwrap();
        }
    }
    text
}

#[test]
fn every_header_is_kept_and_whole_hunks_while_they_fit() {
    let text = git_diff(12);
    let (out, shape) = diff(&text, 6000);
    assert_eq!(shape, Shape::Diff);
    assert!(out.chars().count() <= 6000, "{out}");
    for f in 0..12 {
        let header = format!("+++ b/src/file_{f}.sql\n@@ -1,3 +1,3 @@ create table t{f}\n");
        let at = out.find(&header).expect(&out) + header.len();
        // A body is shown whole or not at all, and then a marker stands in its place.
        let body = format!(" keep\n-old value {f}\n+new value {f}\n");
        assert!(
            out[at..].starts_with(&body) || out[at..].starts_with("[lines "),
            "{out}"
        );
    }
    assert_eq!(out.matches("@@ -40,60 +40,60 @@ select\n").count(), 12);
    // Hunks are tried in order: the first file's small one fits.
    assert!(
        out.contains("create table t0\n keep\n-old value 0\n+new value 0\n"),
        "{out}"
    );
    assert!(out.contains(" omitted"), "{out}");
}

#[test]
fn text_that_is_not_a_diff_is_left_to_the_others() {
    let text = "+ added\n- removed\n".repeat(500);
    assert_ne!(diff(&text, 2000).1, Shape::Diff);
}

#[test]
fn hunk_counts_read_every_form() {
    assert_eq!(hunk_counts("@@ -1,3 +1,4 @@ fn main"), Some((3, 4)));
    assert_eq!(hunk_counts("@@ -7 +7 @@"), Some((1, 1)));
    assert_eq!(hunk_counts("@@ -0,0 +1,2 @@"), Some((0, 2)));
    assert_eq!(hunk_counts("@@ broken @@"), None);
}
