//! Generates Parquet's IDL (from the shared corpus) as is, in arena mode (`Builder::arena`,
//! for `tests/arena.rs`), and for `tests/skip_fields.rs` with `Builder::skip_fields` naming
//! the fields a reader of schemas and row-group sizes does not want (column statistics, size
//! statistics, encoding stats, a required list too).
//! And Apache's `RecursionDepthTest.thrift` (65 nested structs and a service) for
//! `tests/deep_services.rs`. And the list of golden files of `thrift-codegen`, one module
//! each, for `src/lib.rs`.

use std::path::{Path, PathBuf};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").ok_or("no manifest dir")?);
    let out = PathBuf::from(std::env::var_os("OUT_DIR").ok_or("no OUT_DIR")?);
    golden_modules(
        &manifest.join("../thrift-codegen/tests/golden"),
        &out.join("golden.rs"),
    )?;
    let parquet =
        manifest.join("../../shared/corpus/apache__parquet-format/src/main/thrift/parquet.thrift");
    thrift_codegen::Builder::new()
        .services(false)
        .out_dir(out.join("parquet"))
        .compile([&parquet])?;
    thrift_codegen::Builder::new()
        .services(false)
        .arena(true)
        .out_dir(out.join("parquet_arena"))
        .compile([&parquet])?;
    thrift_codegen::Builder::new()
        .services(false)
        .arena(true)
        .arena_inline([
            "parquet.ColumnChunk.meta_data",
            "parquet.ColumnMetaData.statistics",
        ])
        .out_dir(out.join("parquet_arena_inline"))
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

/// `pub mod fixture_<stem> { include!("<golden>"); }` for every golden file, sorted. Cargo
/// reruns this when the folder gains or loses a file; `include!` tracks each file's contents.
fn golden_modules(dir: &Path, out: &Path) -> Result<(), Box<dyn std::error::Error>> {
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut goldens: Vec<PathBuf> = std::fs::read_dir(dir)?
        .map(|entry| entry.map(|e| e.path()))
        .collect::<Result<_, _>>()?;
    goldens.retain(|path| path.extension().is_some_and(|e| e == "rs"));
    goldens.sort();
    let mut modules = String::new();
    for golden in goldens {
        let stem = golden.file_stem().ok_or("a golden without a name")?;
        let path = golden.canonicalize()?;
        modules.push_str(&format!(
            "pub mod fixture_{} {{ include!({:?}); }}\n",
            stem.to_string_lossy(),
            path.display().to_string()
        ));
    }
    std::fs::write(out, modules)?;
    Ok(())
}
