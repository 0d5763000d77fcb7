//! JSON documents and JSON Lines written from a vocabulary: the JSON planner's forms.
//! The contracts checked are in `rust/fuzzing` of the main crate.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| _core::fuzzing::json(data));
