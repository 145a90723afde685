//! `thrift_tests::fuzz::server`: any bytes as what a client sends, through `frame::decode` and
//! the server's `blocking::respond` with generated processors; every reply reads back.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| thrift_tests::fuzz::server(data));
