//! Generates Parquet's IDL (from the shared corpus) twice for `tests/skip_fields.rs`: as is,
//! and with `Builder::skip_fields` naming the fields a reader of schemas and row-group sizes
//! does not want (column statistics, size statistics, encoding stats, a required list too).
//! And Apache's `RecursionDepthTest.thrift` (65 nested structs and a service) for
//! `tests/deep_services.rs`.

use std::path::PathBuf;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").ok_or("no manifest dir")?);
    let out = PathBuf::from(std::env::var_os("OUT_DIR").ok_or("no OUT_DIR")?);
    let parquet =
        manifest.join("../../shared/corpus/apache__parquet-format/src/main/thrift/parquet.thrift");
    thrift_codegen::Builder::new()
        .services(false)
        .out_dir(out.join("parquet"))
        .compile([&parquet])?;
    thrift_codegen::Builder::new()
        .services(false)
        .skip_fields([
            "parquet.ColumnMetaData.statistics",
            "parquet.ColumnMetaData.size_statistics",
            "parquet.ColumnMetaData.encoding_stats",
            "parquet.ColumnMetaData.encodings",
            "parquet.FileMetaData.key_value_metadata",
        ])
        .out_dir(out.join("parquet_skip"))
        .compile([&parquet])?;
    thrift_codegen::Builder::new()
        .out_dir(out.join("deep"))
        .compile([manifest
            .join("../../shared/corpus/apache__thrift/lib/st/test/RecursionDepthTest.thrift")])?;
    Ok(())
}
