//! Compiles the golden files of `thrift-codegen` (`thrift-codegen/tests/golden/*.rs`) as a
//! consuming crate would, so that rustc, clippy and rustdoc check the generated code; the
//! tests in `tests/` round-trip the generated types.

pub mod alloc;
pub mod fuzz;
pub mod samples;

/// `parquet.thrift` of the corpus, generated with the default options (`build.rs`): the type
/// of the Parquet footers in `data/parquet/` ([`samples::parquet_footers`]).
#[allow(clippy::all, missing_docs)]
pub mod parquet_full {
    include!(concat!(env!("OUT_DIR"), "/parquet/thrift.rs"));
}

/// `parquet.thrift` of the corpus in arena mode (`Builder::arena`, `build.rs`): borrowing
/// forms whose lists and optional structs live in a `thrift_runtime::Arena`.
#[allow(clippy::all, missing_docs)]
pub mod parquet_arena {
    include!(concat!(env!("OUT_DIR"), "/parquet_arena/thrift.rs"));
}

/// `parquet.thrift` in arena mode with the two optional structs every writer sets held
/// inline (`Builder::arena_inline`: `ColumnChunk.meta_data`, `ColumnMetaData.statistics`).
#[allow(clippy::all, missing_docs)]
pub mod parquet_arena_inline {
    include!(concat!(env!("OUT_DIR"), "/parquet_arena_inline/thrift.rs"));
}

/// One module per golden file, `fixture_<file stem>`: the list is written by `build.rs` from
/// the folder, so a new golden is compiled here without an edit.
pub mod golden {
    include!(concat!(env!("OUT_DIR"), "/golden.rs"));
}
