//! Generates the ThriftTest types from Apache Thrift's own test IDL in the shared corpus.

use std::path::PathBuf;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let corpus = std::env::var_os("THRIFT_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus"));
    println!("cargo:rerun-if-env-changed=THRIFT_CORPUS");
    let idl = corpus.join("apache__thrift/test/ThriftTest.thrift");
    thrift_codegen::Builder::new().compile([&idl])?;
    // The same types with the non-default mapping options, for `thrift-reencode --shared`.
    let out = PathBuf::from(std::env::var_os("OUT_DIR").ok_or("OUT_DIR not set")?).join("shared");
    std::fs::create_dir_all(&out)?;
    thrift_codegen::Builder::new()
        .out_dir(&out)
        .strings(thrift_codegen::Strings::Bytes)
        .collections(thrift_codegen::Collections::Hash)
        .compile([&idl])?;
    // The same types in arena mode (borrowing forms in an arena), for `thrift-reencode --arena`.
    let out = PathBuf::from(std::env::var_os("OUT_DIR").ok_or("OUT_DIR not set")?).join("arena");
    std::fs::create_dir_all(&out)?;
    thrift_codegen::Builder::new()
        .out_dir(&out)
        .services(false)
        .arena(true)
        .compile([&idl])?;
    // The same types keeping unknown fields, for `thrift-reencode --keep-unknown`.
    let out = PathBuf::from(std::env::var_os("OUT_DIR").ok_or("OUT_DIR not set")?).join("unknown");
    std::fs::create_dir_all(&out)?;
    thrift_codegen::Builder::new()
        .out_dir(&out)
        .services(false)
        .borrowed(false)
        .keep_unknown_fields(["."])
        .compile([&idl])?;
    Ok(())
}
