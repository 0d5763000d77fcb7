use std::fmt::Write;

use super::*;
use crate::engine::Engine;
use crate::profile::Profile;

fn listing(text: &str, budget: u64) -> (String, Shape) {
    let profile = Profile::new("shell", Some("bash"), 3000, 6000).unwrap();
    let mut engine = Engine::new(budget, profile).unwrap();
    engine.feed_str(text);
    let plan = engine.finish().plan;
    (plan.render(), plan.shape)
}

/// An `ls -R` of a source tree: a few source directories, and a big test directory.
fn ls_r() -> String {
    let mut text = String::from(".:\nREADME.md\nsrc\n\n");
    for dir in ["core", "io", "util"] {
        writeln!(text, "./src/{dir}:").unwrap();
        for i in 0..40 {
            writeln!(text, "{dir}_module_{i:02}.py").unwrap();
        }
        text.push('\n');
    }
    text.push_str("./src/tests:\n");
    for i in 0..400 {
        writeln!(text, "test_case_{i:03}.py").unwrap();
    }
    text
}

#[test]
fn every_directory_keeps_its_heading_and_a_share_of_its_entries() {
    let text = ls_r();
    let (out, shape) = listing(&text, 2000);
    assert_eq!(shape, Shape::Listing);
    assert!(out.chars().count() <= 2000, "{out}");
    for heading in [
        ".:",
        "./src/core:",
        "./src/io:",
        "./src/util:",
        "./src/tests:",
    ] {
        assert!(out.contains(&format!("{heading}\n")), "{heading} in {out}");
    }
    for first in [
        "core_module_00.py\n",
        "io_module_00.py\n",
        "util_module_00.py\n",
        "test_case_000.py\n",
    ] {
        assert!(out.contains(first), "{first} in {out}");
    }
    // The test directory gets a quarter of a source directory's share.
    let shown = |prefix: &str| out.lines().filter(|l| l.starts_with(prefix)).count();
    assert!(shown("test_case_") * 3 <= shown("core_module_"), "{out}");
}

#[test]
fn find_output_is_grouped_by_directory() {
    let mut text = String::new();
    for dir in ["src/a", "src/b", "src/c", "tests/unit"] {
        for i in 0..200 {
            writeln!(text, "{dir}/file_{i:03}.rs").unwrap();
        }
    }
    let (out, shape) = listing(&text, 3000);
    assert_eq!(shape, Shape::Listing);
    for dir in ["src/a", "src/b", "src/c", "tests/unit"] {
        assert!(
            out.contains(&format!("{dir}/file_000.rs\n")),
            "{dir} in {out}"
        );
    }
    assert!(out.contains(" omitted"), "{out}");
}

#[test]
fn a_log_is_not_a_listing() {
    let text = "compiling a\nerror: failed\n".repeat(500);
    assert_ne!(listing(&text, 2000).1, Shape::Listing);
}
