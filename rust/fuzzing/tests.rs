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
fn clip_inputs_keep_every_contract() {
    replay("clip", super::clip);
}

#[test]
fn log_inputs_keep_every_contract() {
    replay("log", super::log);
}

#[test]
fn search_inputs_keep_every_contract() {
    replay("search", super::search);
}

#[test]
fn stream_inputs_keep_every_contract() {
    replay("stream", super::stream);
}
