//! Compiles the golden files of `thrift-codegen` (`thrift-codegen/tests/golden/*.rs`) as a
//! consuming crate would, so that rustc, clippy and rustdoc check the generated code; the
//! tests in `tests/` round-trip the generated types.

pub mod alloc;
pub mod fuzz;
pub mod samples;

/// One module per golden file, `fixture_<file stem>`: the list is written by `build.rs` from
/// the folder, so a new golden is compiled here without an edit.
pub mod golden {
    include!(concat!(env!("OUT_DIR"), "/golden.rs"));
}
