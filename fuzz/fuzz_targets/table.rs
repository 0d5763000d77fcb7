//! Tables written with the true count of rows of each value: the table planner's every count.
//! The contracts checked are in `rust/fuzzing` of the main crate.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| _core::fuzzing::table(data));
