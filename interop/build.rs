//! Generates the ThriftTest types from Apache Thrift's own test IDL in the shared corpus.

use std::path::PathBuf;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let corpus = std::env::var_os("THRIFT_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus"));
    println!("cargo:rerun-if-env-changed=THRIFT_CORPUS");
    thrift_codegen::Builder::new()
        .compile([corpus.join("apache__thrift/test/ThriftTest.thrift")])?;
    Ok(())
}
