//! Inputs expanded to megabytes and fed in chunks up to megabytes: pieces of long lines, blocks on two cores.
//! The contracts checked are in `rust/fuzzing` of the main crate.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| _core::fuzzing::stream(data));
