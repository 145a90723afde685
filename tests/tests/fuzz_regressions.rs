//! The fuzz targets' checks (`thrift_tests::fuzz`) on every input the fuzzer has found a
//! failure with (`fuzz/regressions/<target>/`, kept after the fix) and on the seeds, so that
//! each failure found stays a test of the normal suite, with or without the fuzz toolchain.
//!
//! Found so far:
//! - `decode/nan-in-hash-collections`: a hash-collections value holding a NaN re-encoded in
//!   another order than the first encoding (hash sets iterate in an order of their own); the
//!   check compared the bytes. The decoders were right; the check now compares lengths there.

use std::path::{Path, PathBuf};

fn regressions(target: &str) -> Vec<(PathBuf, Vec<u8>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fuzz/regressions")
        .join(target);
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return Vec::new();
    };
    let mut inputs: Vec<_> = entries
        .map(|entry| {
            let path = entry.unwrap().path();
            let bytes = std::fs::read(&path).unwrap();
            (path, bytes)
        })
        .collect();
    inputs.sort();
    inputs
}

#[test]
fn decode_regressions_and_seeds() {
    let found = regressions("decode");
    assert!(!found.is_empty(), "fuzz/regressions/decode is missing");
    for (_, input) in &found {
        thrift_tests::fuzz::decode(input);
    }
    for seed in thrift_tests::samples::encodings() {
        thrift_tests::fuzz::decode(&seed);
    }
}

#[test]
fn frame_and_server_regressions_and_seeds() {
    for (_, input) in regressions("frame") {
        thrift_tests::fuzz::frame(&input);
    }
    for (_, input) in regressions("server") {
        thrift_tests::fuzz::server(&input);
    }
    let calls = thrift_tests::samples::calls();
    // All calls in one connection's bytes, too.
    let all: Vec<u8> = calls.iter().flatten().copied().collect();
    for call in calls.iter().chain([&all]) {
        thrift_tests::fuzz::frame(call);
        thrift_tests::fuzz::server(call);
    }
}

#[test]
fn dynamic_regressions_and_seeds() {
    for (_, input) in regressions("dynamic") {
        thrift_tests::fuzz::dynamic(&input);
    }
    for seed in thrift_tests::samples::encodings() {
        thrift_tests::fuzz::dynamic(&seed);
    }
    for call in thrift_tests::samples::calls() {
        thrift_tests::fuzz::dynamic(&call);
    }
    use thrift_runtime::ThriftWrite;
    let everything = thrift_tests::samples::serde_everything();
    for bytes in [
        everything
            .encode_to_vec::<thrift_runtime::Binary>()
            .unwrap(),
        everything
            .encode_to_vec::<thrift_runtime::Compact>()
            .unwrap(),
        everything.encode_to_vec::<thrift_runtime::Json>().unwrap(),
    ] {
        thrift_tests::fuzz::dynamic(&bytes);
    }
}
