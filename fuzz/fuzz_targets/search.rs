//! Grep floods with known per-file counts: the search planner's table and every count it prints.
//! The contracts checked are in `rust/fuzzing` of the main crate.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| _core::fuzzing::search(data));
