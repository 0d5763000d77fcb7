//! Replays every input the fuzzers kept (`fuzz/corpus/<target>`, the seeds that reach new
//! code, and `fuzz/regressions/<target>`, the inputs that once broke a contract), so that
//! `cargo test` holds the engine to them without libFuzzer.

use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::path::Path;

fn replay(target: &str, check: fn(&[u8])) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    let mut replayed = 0;
    for kept in ["corpus", "regressions"] {
        let Ok(entries) = std::fs::read_dir(root.join(kept).join(target)) else {
            continue;
        };
        let mut paths: Vec<_> = entries
            .map(|e| e.expect("a readable directory").path())
            .collect();
        paths.sort();
        for path in paths {
            let data = std::fs::read(&path).expect("a readable input");
            if let Err(panic) = catch_unwind(AssertUnwindSafe(|| check(&data))) {
                eprintln!("fuzz input {} broke a contract", path.display());
                resume_unwind(panic);
            }
            replayed += 1;
        }
    }
    assert!(replayed > 0, "no kept inputs for {target}");
}

#[test]
fn every_target_keeps_every_contract_on_its_kept_inputs() {
    for target in super::TARGETS {
        replay(target.name, target.check);
    }
}

/// The names of the folders in `dir`, sorted.
fn folders(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("a readable directory")
        .map(|e| e.expect("a readable entry"))
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn the_fuzz_crate_and_the_kept_inputs_follow_the_list_of_targets() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    let mut listed: Vec<String> = super::TARGETS.iter().map(|t| t.name.to_owned()).collect();
    listed.sort();
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).expect("fuzz/Cargo.toml");
    let mut bins = Vec::new();
    for section in manifest.split("[[bin]]").skip(1) {
        let value = |key: &str| {
            section
                .lines()
                .find_map(|l| {
                    l.strip_prefix(key)?
                        .trim()
                        .strip_prefix("= \"")?
                        .strip_suffix('"')
                })
                .unwrap_or_else(|| panic!("a [[bin]] without {key}: {section}"))
                .to_owned()
        };
        let name = value("name");
        let path = value("path");
        assert_eq!(path, format!("fuzz_targets/{name}.rs"), "the binary {name}");
        let source = std::fs::read_to_string(root.join(&path)).expect("the binary's source");
        assert!(
            source.contains(&format!("_core::fuzzing::{name}(data)")),
            "{path} calls the target it is named after"
        );
        bins.push(name);
    }
    bins.sort();
    assert_eq!(bins, listed, "the binaries in fuzz/Cargo.toml");
    assert_eq!(
        folders(&root.join("corpus")),
        listed,
        "the folders of fuzz/corpus"
    );
    let regressions = folders(&root.join("regressions"));
    assert!(
        regressions.iter().all(|r| listed.contains(r)),
        "{regressions:?}"
    );
}

/// The settings byte reaches every tool kind, and every head and tail weight with each: the
/// settings drew five kinds of six once, so `other` was fuzzed only where a target set it.
#[test]
fn the_settings_reach_every_kind_and_weight() {
    use super::program::{Choices, Settings};
    use crate::profile::ToolKind;
    use std::collections::HashSet;

    let mut drawn = HashSet::new();
    for shape in 0..=u8::MAX {
        let data = [shape, 0, 0, 0, 0, 0];
        let settings = Settings::read(&mut Choices::new(&data));
        drawn.insert((settings.kind, settings.weights));
    }
    let kinds: HashSet<&str> = drawn.iter().map(|d| d.0).collect();
    assert_eq!(kinds, ToolKind::NAMES.into_iter().collect());
    assert_eq!(drawn.len(), ToolKind::NAMES.len() * 6);
}

/// Progress lines longer than the reader's piece, in a shell's output too long to show whole
/// as a terminal leaves it: the first piece of a line has no carriage return and a later one
/// redraws it, past the point where the frames planner keeps only the last lines of a block.
#[test]
fn the_frames_contracts_hold_for_lines_longer_than_a_piece() {
    use super::check::all_ways;
    use super::program::Settings;
    use crate::engine::reader::LINE_PIECE_CAP;
    use crate::plan::Shape;
    use std::fmt::Write;

    let long = "x".repeat(LINE_PIECE_CAP + 100);
    let mut bar = String::new();
    for p in 0..=100 {
        write!(bar, "\r{p:3}%|").unwrap();
    }
    let mut text = String::new();
    for i in 0..400 {
        writeln!(text, "step {i}: ok").unwrap();
    }
    writeln!(text, "{long}{bar}\nafter the long bar").unwrap();
    writeln!(text, "{bar}{long}").unwrap();
    for i in 0..50 {
        writeln!(text, "epoch {i}{bar}").unwrap();
    }
    write!(text, "{long}\rdone: 100%").unwrap();
    for (budget, max_chunk) in [(300, 4096), (2000, 3 << 20), (5000, 64 << 10)] {
        let settings = Settings {
            kind: "shell",
            tool: "bash",
            weights: (1, 2),
            budget,
            digest_room: 0,
            split_seed: 0x5eed | 1 << 32,
            max_chunk,
        };
        let out = all_ways(&settings, text.as_bytes());
        assert_eq!(out.plan.shape, Shape::Frames, "{budget}");
    }
}
