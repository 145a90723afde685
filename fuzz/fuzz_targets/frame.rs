//! `thrift_tests::fuzz::frame`: any bytes as what a server receives, through `frame::decode`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| thrift_tests::fuzz::frame(data));
