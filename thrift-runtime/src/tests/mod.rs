//! Crate tests: spec-derived byte vectors, hostile input, round trips.

#[cfg(feature = "arena")]
mod arena;
mod binary;
mod codec;
mod collect;
mod compact;
mod elements;
mod fields;
mod hostile;
mod io;
mod json;
mod roundtrip;

use crate::{BinaryReader, BinaryWriter, CompactReader, CompactWriter, Result, SliceInput};

/// Asserts that `$e` is an `Err` of kind `$kind` (a pattern).
macro_rules! assert_kind {
    ($e:expr, $kind:pat) => {{
        match $e {
            Ok(v) => panic!("expected error {}, got Ok({:?})", stringify!($kind), v),
            Err(err) => assert!(
                matches!(err.kind(), $kind),
                "expected {}, got {err:?}",
                stringify!($kind)
            ),
        }
    }};
}
pub(crate) use assert_kind;

/// Bytes written by `f` with the binary protocol.
pub(crate) fn bin(f: impl FnOnce(&mut BinaryWriter<Vec<u8>>) -> Result<()>) -> Vec<u8> {
    let mut w = BinaryWriter::new(Vec::new());
    f(&mut w).unwrap();
    w.into_output()
}

/// Bytes written by `f` with the compact protocol.
pub(crate) fn cpt(f: impl FnOnce(&mut CompactWriter<Vec<u8>>) -> Result<()>) -> Vec<u8> {
    let mut w = CompactWriter::new(Vec::new());
    f(&mut w).unwrap();
    w.into_output()
}

pub(crate) fn bin_reader(bytes: &[u8]) -> BinaryReader<SliceInput<'_>> {
    BinaryReader::new(SliceInput::new(bytes))
}

pub(crate) fn cpt_reader(bytes: &[u8]) -> CompactReader<SliceInput<'_>> {
    CompactReader::new(SliceInput::new(bytes))
}

#[cfg(feature = "blocking")]
mod rpc;
