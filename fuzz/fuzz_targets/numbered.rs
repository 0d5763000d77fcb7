//! Source files as a viewer prints them, numbered with the file's own line numbers, read by a
//! file tool or printed by a shell. The contracts checked are in `rust/fuzzing` of the main crate.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| _core::fuzzing::numbered(data));
