//! Generates every contender's code from the same IDL into `OUT_DIR`:
//! - ours: `thrift_codegen::Builder` (bench.thrift and parquet.thrift) -> `OUT_DIR/ours/thrift.rs`,
//!   and with feature `mappings` (the type-mapping options; off in `compare.sh`, so that it can
//!   build revisions that predate them): both again with `Strings::Bytes` -> `OUT_DIR/ours_bytes/thrift.rs`, and bench.thrift with
//!   `Collections::Hash` -> `OUT_DIR/ours_hash/thrift.rs`, parquet.thrift with three rarely set
//!   optional structs boxed -> `OUT_DIR/ours_boxed/thrift.rs`, and with `Strings::Bytes`,
//!   `Collections::Hash` and foldhash -> `OUT_DIR/ours_bytes_hash/thrift.rs`, and both with
//!   `Strings::Compact`, `Collections::Hash` and foldhash -> `OUT_DIR/ours_compact_hash/thrift.rs`
//!   (feature `compact`);
//! - Apache (feature `apache`): `thrift --gen rs` (Debian's thrift-compiler 0.17; `THRIFT`
//!   overrides the binary) -> `OUT_DIR/apache/*.rs`, post-processed so it can be `include!`d:
//!   the inner attributes at the top of Apache's files (`#![allow(...)]`,
//!   `#![cfg_attr(rustfmt, ...)]`) are not allowed in an `include!`d file, so they are removed
//!   (the crate allows those lints on the module instead);
//! - pilota (feature `pilota`): `pilota_build::Builder::thrift()` -> `OUT_DIR/pilota_*.rs`.
//!
//! parquet.thrift comes from the shared corpus,
//! `../../shared/corpus/apache__parquet-format/src/main/thrift/parquet.thrift` relative to this
//! directory; `THRIFT_CORPUS` overrides the corpus directory.

#[cfg(any(feature = "apache", feature = "pilota", feature = "mappings"))]
use std::path::Path;
use std::path::PathBuf;
#[cfg(feature = "apache")]
use std::process::Command;

fn main() {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap());
    let out = PathBuf::from(std::env::var_os("OUT_DIR").unwrap());
    println!("cargo:rerun-if-env-changed=THRIFT_CORPUS");
    println!("cargo:rerun-if-env-changed=THRIFT");
    let corpus = std::env::var_os("THRIFT_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| manifest.join("../../shared/corpus"));
    let bench = manifest.join("idl/bench.thrift");
    let parquet = corpus.join("apache__parquet-format/src/main/thrift/parquet.thrift");
    if !parquet.exists() {
        panic!(
            "{} not found: set THRIFT_CORPUS to the corpus directory",
            parquet.display()
        );
    }

    // Ours.
    let ours = out.join("ours");
    std::fs::create_dir_all(&ours).unwrap();
    if let Err(e) = thrift_codegen::Builder::new()
        .out_dir(&ours)
        .compile([&bench, &parquet])
    {
        panic!("thrift-codegen: {e}");
    }
    #[cfg(feature = "mappings")]
    mappings(&out, &bench, &parquet);

    // Ours in arena mode (feature `arena`): lists, sets, maps and optional structs of the
    // borrowing forms in an arena.
    #[cfg(feature = "arena")]
    {
        let ours_arena = out.join("ours_arena");
        std::fs::create_dir_all(&ours_arena).unwrap();
        if let Err(e) = thrift_codegen::Builder::new()
            .out_dir(&ours_arena)
            .services(false)
            .arena(true)
            .compile([&bench, &parquet])
        {
            panic!("thrift-codegen: {e}");
        }
        // With the two optional structs every footer writer sets held inline
        // (`Builder::arena_inline`), for the `ours-arena-inline` decoder.
        let ours_arena_inline = out.join("ours_arena_inline");
        std::fs::create_dir_all(&ours_arena_inline).unwrap();
        if let Err(e) = thrift_codegen::Builder::new()
            .out_dir(&ours_arena_inline)
            .services(false)
            .arena(true)
            .arena_inline([
                "parquet.ColumnChunk.meta_data",
                "parquet.ColumnMetaData.statistics",
            ])
            .compile([&parquet])
        {
            panic!("thrift-codegen: {e}");
        }
    }
    // Ours skipping what the parquet crate's `ParquetMetaDataOptions` can skip (feature `skip`).
    #[cfg(feature = "skip")]
    {
        let ours_skip = out.join("ours_skip");
        std::fs::create_dir_all(&ours_skip).unwrap();
        if let Err(e) = thrift_codegen::Builder::new()
            .out_dir(&ours_skip)
            .services(false)
            .skip_fields([
                "parquet.ColumnMetaData.statistics",
                "parquet.ColumnMetaData.size_statistics",
                "parquet.ColumnMetaData.encoding_stats",
            ])
            .compile([&parquet])
        {
            panic!("thrift-codegen: {e}");
        }
    }

    #[cfg(feature = "apache")]
    apache(&out, &[&bench, &parquet]);

    #[cfg(feature = "pilota")]
    pilota(&out, &bench, &parquet);
}

/// Ours with the type-mapping options (feature `mappings`).
#[cfg(feature = "mappings")]
fn mappings(out: &Path, bench: &Path, parquet: &Path) {
    // Ours with `Strings::Bytes` (ByteString/Bytes), for the `ours-bytes` decoder.
    let ours_bytes = out.join("ours_bytes");
    std::fs::create_dir_all(&ours_bytes).unwrap();
    if let Err(e) = thrift_codegen::Builder::new()
        .out_dir(&ours_bytes)
        .strings(thrift_codegen::Strings::Bytes)
        .compile([bench, parquet])
    {
        panic!("thrift-codegen: {e}");
    }
    // Ours with the optional structs a Parquet footer rarely has boxed (`Builder::boxed`), for
    // the `ours-borrowed-boxed` decoder: a smaller `ColumnChunkRef` (528 bytes, not 768).
    let ours_boxed = out.join("ours_boxed");
    std::fs::create_dir_all(&ours_boxed).unwrap();
    if let Err(e) = thrift_codegen::Builder::new()
        .out_dir(&ours_boxed)
        .services(false)
        .boxed([
            "parquet.ColumnMetaData.size_statistics",
            "parquet.ColumnMetaData.geospatial_statistics",
            "parquet.ColumnChunk.crypto_metadata",
        ])
        .compile([parquet])
    {
        panic!("thrift-codegen: {e}");
    }
    // Ours with `Strings::Bytes`, `Collections::Hash` and foldhash (pilota's mapping: shared
    // strings, hash maps with a fast hasher), for the `ours-bytes-hash` decoder.
    let ours_bytes_hash = out.join("ours_bytes_hash");
    std::fs::create_dir_all(&ours_bytes_hash).unwrap();
    if let Err(e) = thrift_codegen::Builder::new()
        .out_dir(&ours_bytes_hash)
        .strings(thrift_codegen::Strings::Bytes)
        .collections(thrift_codegen::Collections::Hash)
        .hasher("::foldhash::fast::RandomState")
        .compile([bench])
    {
        panic!("thrift-codegen: {e}");
    }
    // Ours with `Strings::Compact` (strings inline up to 24 bytes, binaries as `Bytes`),
    // `Collections::Hash` and foldhash, for the `ours-compact-hash` decoder (feature `compact`).
    #[cfg(feature = "compact")]
    let ours_compact_hash = out.join("ours_compact_hash");
    #[cfg(feature = "compact")]
    {
        std::fs::create_dir_all(&ours_compact_hash).unwrap();
        if let Err(e) = thrift_codegen::Builder::new()
            .out_dir(&ours_compact_hash)
            .strings(thrift_codegen::Strings::Compact)
            .collections(thrift_codegen::Collections::Hash)
            .hasher("::foldhash::fast::RandomState")
            .compile([bench, parquet])
        {
            panic!("thrift-codegen: {e}");
        }
    }
    // Ours with `Collections::Hash` (HashSet/HashMap), for the `ours-hash` decoder.
    let ours_hash = out.join("ours_hash");
    std::fs::create_dir_all(&ours_hash).unwrap();
    if let Err(e) = thrift_codegen::Builder::new()
        .out_dir(&ours_hash)
        .collections(thrift_codegen::Collections::Hash)
        .compile([bench])
    {
        panic!("thrift-codegen: {e}");
    }
}

#[cfg(feature = "apache")]
fn apache(out: &Path, files: &[&Path]) {
    let dir = out.join("apache");
    std::fs::create_dir_all(&dir).unwrap();
    let thrift = std::env::var("THRIFT").unwrap_or_else(|_| "thrift".into());
    for file in files {
        let status = Command::new(&thrift)
            .args(["--gen", "rs", "-out"])
            .arg(&dir)
            .arg(file)
            .status()
            .unwrap_or_else(|e| {
                panic!("cannot run `{thrift}` (Apache's compiler; run benchmarks/setup.sh): {e}")
            });
        assert!(
            status.success(),
            "{thrift} --gen rs {} failed",
            file.display()
        );
        let name = file.file_stem().unwrap().to_string_lossy().to_lowercase();
        let path = dir.join(format!("{name}.rs"));
        let text = std::fs::read_to_string(&path).unwrap();
        // Inner attributes cannot appear in an `include!`d file.
        let fixed: String = text
            .lines()
            .filter(|line| !line.trim_start().starts_with("#!["))
            .map(|line| format!("{line}\n"))
            .collect();
        std::fs::write(&path, fixed).unwrap();
    }
}

#[cfg(feature = "pilota")]
fn pilota(out: &Path, bench: &Path, parquet: &Path) {
    for (file, name) in [(bench, "pilota_bench.rs"), (parquet, "pilota_parquet.rs")] {
        pilota_build::Builder::thrift()
            .ignore_unused(false)
            .include_dirs(vec![file.parent().unwrap().to_path_buf()])
            .compile_with_config(
                vec![pilota_build::IdlService::from_path(file.to_path_buf())],
                pilota_build::Output::File(out.join(name)),
            );
    }
}
