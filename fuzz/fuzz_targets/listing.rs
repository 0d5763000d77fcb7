//! Listings as find, ls -R, tree and git ls-files print them: the listing planner.
//! The contracts checked are in `rust/fuzzing` of the main crate.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| _core::fuzzing::listing(data));
