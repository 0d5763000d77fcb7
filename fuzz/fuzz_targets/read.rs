//! Source files written from fragments of many languages, read by a file tool: the read planner.
//! The contracts checked are in `rust/fuzzing` of the main crate.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| _core::fuzzing::read(data));
