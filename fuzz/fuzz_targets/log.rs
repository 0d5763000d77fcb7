//! Build logs written from a vocabulary of their fragments: the log planner and its prefilter.
//! The contracts checked are in `rust/fuzzing` of the main crate.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| _core::fuzzing::log(data));
