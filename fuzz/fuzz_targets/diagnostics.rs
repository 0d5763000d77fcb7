//! A linter's or compiler's warnings: the diagnostics planner.
//! The contracts checked are in `rust/fuzzing` of the main crate.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| _core::fuzzing::diagnostics(data));
