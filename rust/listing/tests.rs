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

/// An `ls -R` whose first directory holds a few long generated names, then source directories
/// of short names, then a big test directory.
fn ls_r() -> String {
    let mut text = String::from(".:\nREADME.md\nsrc\n\n./generated:\n");
    for i in 0..30 {
        writeln!(
            text,
            "protocol_buffers_message_definitions_for_service_{i:02}_{}.pb.py",
            "v".repeat(40)
        )
        .unwrap();
    }
    text.push('\n');
    for dir in ["core", "io", "util"] {
        writeln!(text, "./src/{dir}:").unwrap();
        for i in 0..40 {
            writeln!(text, "{dir}_{i:02}.py").unwrap();
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
        "./generated:",
        "./src/core:",
        "./src/io:",
        "./src/util:",
        "./src/tests:",
    ] {
        assert!(out.contains(&format!("{heading}\n")), "{heading} in {out}");
    }
    for first in [
        "core_00.py\n",
        "io_00.py\n",
        "util_00.py\n",
        "test_case_000.py\n",
    ] {
        assert!(out.contains(first), "{first} in {out}");
    }
    // The test directory gets a quarter of a source directory's share.
    let shown = |prefix: &str| out.lines().filter(|l| l.starts_with(prefix)).count();
    assert!(shown("test_case_") * 3 <= shown("core_"), "{out}");
}

#[test]
fn a_map_naming_fewer_paths_than_the_first_lines_is_not_made() {
    // Short names throughout: the first lines name more paths than a map of every directory.
    let mut text = String::new();
    for dir in [
        "src/a", "src/b", "src/c", "src/d", "src/e", "src/f", "src/g", "src/h",
    ] {
        for i in 0..200 {
            writeln!(text, "{dir}/f{i:03}").unwrap();
        }
    }
    let (out, shape) = listing(&text, 2000);
    assert_eq!(shape, Shape::Listing);
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        text.starts_with(&lines[..lines.len() - 1].join("\n")),
        "{out}"
    );
    assert!(
        lines[lines.len() - 1].starts_with("[shapeclip: lines "),
        "{out}"
    );
}

#[test]
fn find_output_is_grouped_by_directory() {
    let mut text = String::new();
    for dir in ["src/a", "src/b", "src/c", "tests/unit"] {
        for i in 0..200 {
            writeln!(
                text,
                "{dir}/{}_{i:03}.rs",
                "long_module_name".repeat(i % 4 + 1)
            )
            .unwrap();
        }
    }
    let (out, shape) = listing(&text, 3000);
    assert_eq!(shape, Shape::Listing);
    for dir in ["src/a", "src/b", "src/c", "tests/unit"] {
        assert!(
            out.contains(&format!("{dir}/long_module_name_000.rs\n")),
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
