//! `thrift_tests::fuzz::decode`: the golden fixtures' decoders, owned and borrowed, both
//! protocols, a decode → encode → decode property, and `skip`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| thrift_tests::fuzz::decode(data));
