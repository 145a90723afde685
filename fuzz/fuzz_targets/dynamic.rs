//! `thrift_tests::fuzz::dynamic`: any bytes through `thrift-codegen decode`'s library
//! (`thrift_codegen::dynamic`) as structs and RPC messages of the golden fixtures, in every
//! protocol; what decodes and encodes again decodes to the same JSON.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| thrift_tests::fuzz::dynamic(data));
