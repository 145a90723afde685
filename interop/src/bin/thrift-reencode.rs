//! `thrift-reencode [--shared | --keep-unknown | --arena] VECTORS_DIR OUT_DIR`: decodes every vector
//! listed in `VECTORS_DIR/index.json` as the ThriftTest type it names, re-encodes it with the
//! same protocol and writes `OUT_DIR/<file>`. `--shared` uses the types generated with
//! `Strings::Bytes` and `Collections::Hash`, decoded from a `Bytes` with `decode_bytes`
//! (maps and sets are then written in hash order, so only values can be compared).
//! `--keep-unknown` uses the types generated with `keep_unknown_fields(["."])`, which write
//! the fields they do not declare back. `--arena` uses the borrowing forms generated in arena
//! mode (`Builder::arena`), decoded with `decode_in` into an arena (reset between vectors);
//! their sets and maps keep the input's order. A vector that cannot be decoded is reported on stderr
//! and skipped; the exit status is then non-zero.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use thrift_runtime::{Arena, Binary, Bytes, Compact, Json, Protocol, ThriftRead, ThriftWrite};

fn reencode<T, P>(bytes: &[u8]) -> thrift_runtime::Result<Vec<u8>>
where
    T: for<'de> ThriftRead<'de> + ThriftWrite,
    P: Protocol,
{
    T::decode::<P>(bytes)?.encode_to_vec::<P>()
}

/// Decodes from a shared `Bytes` (`decode_bytes`: strings and binaries slice the buffer).
fn reencode_shared<T, P>(bytes: &[u8]) -> thrift_runtime::Result<Vec<u8>>
where
    T: for<'de> ThriftRead<'de> + ThriftWrite,
    P: Protocol,
{
    let buffer = Bytes::copy_from_slice(bytes);
    T::decode_bytes::<P>(&buffer)?.encode_to_vec::<P>()
}

/// Decodes the arena form `T` in `arena` (`decode_in`).
fn reencode_arena<'a, T, P>(bytes: &'a [u8], arena: &'a Arena) -> thrift_runtime::Result<Vec<u8>>
where
    T: ThriftRead<'a> + ThriftWrite,
    P: Protocol,
{
    T::decode_in::<P>(bytes, arena)?.encode_to_vec::<P>()
}

/// Re-encodes `bytes` as the arena form of the ThriftTest type called `type_name` (the owned
/// type for the structs of scalars, which have no borrowing form). The error says whether
/// the input could not lend what the borrowing form borrows (`BorrowUnsupported`).
fn by_type_arena<P: Protocol>(
    type_name: &str,
    bytes: &[u8],
    arena: &Arena,
) -> Result<Vec<u8>, (bool, String)> {
    use thrift_interop::arena_types as t;
    macro_rules! dispatch {
        ($($name:ident => $ty:ident),*) => {
            match type_name {
                $(stringify!($name) => reencode_arena::<t::$ty<'_>, P>(bytes, arena),)*
                "Bools" => reencode::<t::Bools, P>(bytes),
                "EmptyStruct" => reencode::<t::EmptyStruct, P>(bytes),
                "OneField" => reencode::<t::OneField, P>(bytes),
                other => return Err((false, format!("unknown ThriftTest type `{other}`"))),
            }
        };
    }
    dispatch!(Bonk => BonkRef, Xtruct => XtructRef, Xtruct2 => Xtruct2Ref,
        Xtruct3 => Xtruct3Ref, Insanity => InsanityRef, CrazyNesting => CrazyNestingRef,
        SomeUnion => SomeUnionRef, Xception => XceptionRef, Xception2 => Xception2Ref,
        VersioningTestV1 => VersioningTestV1Ref, VersioningTestV2 => VersioningTestV2Ref,
        ListTypeVersioningV1 => ListTypeVersioningV1Ref,
        ListTypeVersioningV2 => ListTypeVersioningV2Ref,
        GuessProtocolStruct => GuessProtocolStructRef, LargeDeltas => LargeDeltasRef,
        NestedListsI32x2 => NestedListsI32x2Ref, NestedListsI32x3 => NestedListsI32x3Ref,
        NestedMixedx2 => NestedMixedx2Ref, ListBonks => ListBonksRef,
        NestedListsBonk => NestedListsBonkRef, BoolTest => BoolTestRef, StructA => StructARef,
        StructB => StructBRef, OptionalSetDefaultTest => OptionalSetDefaultTestRef,
        OptionalBinary => OptionalBinaryRef)
    .map_err(|e| {
        let unlent = matches!(e.kind(), thrift_runtime::ErrorKind::BorrowUnsupported);
        (unlent, e.to_string())
    })
}

/// `fn $name<P>(type_name, bytes)`: re-encodes `bytes` as the ThriftTest type called
/// `type_name` from `$module`, with `$reencode`.
macro_rules! by_type {
    ($name:ident, $module:ident, $reencode:ident) => {
        fn $name<P: Protocol>(type_name: &str, bytes: &[u8]) -> Result<Vec<u8>, String> {
            use thrift_interop::$module as t;
            by_type!(@dispatch type_name, bytes, t, $reencode, P;
                Bonk, Bools, Xtruct, Xtruct2, Xtruct3, Insanity, CrazyNesting, SomeUnion,
                Xception, Xception2, EmptyStruct, OneField, VersioningTestV1, VersioningTestV2,
                ListTypeVersioningV1, ListTypeVersioningV2, GuessProtocolStruct, LargeDeltas,
                NestedListsI32x2, NestedListsI32x3, NestedMixedx2, ListBonks, NestedListsBonk,
                BoolTest, StructA, StructB, OptionalSetDefaultTest, OptionalBinary)
        }
    };
    (@dispatch $type_name:ident, $bytes:ident, $t:ident, $reencode:ident, $p:ident; $($ty:ident),*) => {
        match $type_name {
            $(stringify!($ty) => $reencode::<$t::$ty, $p>($bytes).map_err(|e| e.to_string()),)*
            other => Err(format!("unknown ThriftTest type `{other}`")),
        }
    };
}

by_type!(by_type_std, types, reencode);
by_type!(by_type_shared, shared_types, reencode_shared);
by_type!(by_type_unknown, unknown_types, reencode);

/// Which generated types re-encode.
#[derive(Clone, Copy, PartialEq)]
enum Types {
    Std,
    Shared,
    KeepUnknown,
    Arena,
}

fn main() -> ExitCode {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let types = match args.first().map(String::as_str) {
        Some("--shared") => Types::Shared,
        Some("--keep-unknown") => Types::KeepUnknown,
        Some("--arena") => Types::Arena,
        _ => Types::Std,
    };
    if types != Types::Std {
        args.remove(0);
    }
    let [vectors, out] = args.as_slice() else {
        eprintln!(
            "usage: thrift-reencode [--shared | --keep-unknown | --arena] VECTORS_DIR OUT_DIR"
        );
        return ExitCode::from(2);
    };
    match run(Path::new(vectors), Path::new(out), types) {
        Ok(0) => ExitCode::SUCCESS,
        Ok(failed) => {
            eprintln!("thrift-reencode: {failed} vector(s) could not be re-encoded");
            ExitCode::FAILURE
        }
        Err(e) => {
            eprintln!("thrift-reencode: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(vectors: &Path, out: &Path, types: Types) -> Result<usize, String> {
    let index_path = vectors.join("index.json");
    let index = std::fs::read_to_string(&index_path)
        .map_err(|e| format!("{}: {e}", index_path.display()))?;
    let index: serde_json::Value =
        serde_json::from_str(&index).map_err(|e| format!("{}: {e}", index_path.display()))?;
    let entries = index["vectors"]
        .as_array()
        .ok_or("index.json has no `vectors` array")?;
    std::fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
    let mut failed = 0;
    let mut arena = Arena::new();
    let mut not_lent = 0;
    for entry in entries {
        arena.reset();
        let (Some(file), Some(type_name), Some(protocol)) = (
            entry["file"].as_str(),
            entry["type"].as_str(),
            entry["protocol"].as_str(),
        ) else {
            eprintln!("skipping malformed entry {entry}");
            failed += 1;
            continue;
        };
        let input: PathBuf = vectors.join(file);
        let result = std::fs::read(&input)
            .map_err(|e| e.to_string())
            .and_then(|bytes| match (protocol, types) {
                ("binary", Types::Shared) => by_type_shared::<Binary>(type_name, &bytes),
                ("compact", Types::Shared) => by_type_shared::<Compact>(type_name, &bytes),
                ("binary", Types::KeepUnknown) => by_type_unknown::<Binary>(type_name, &bytes),
                ("compact", Types::KeepUnknown) => by_type_unknown::<Compact>(type_name, &bytes),
                ("binary", Types::Arena) => {
                    by_type_arena::<Binary>(type_name, &bytes, &arena).map_err(|(_, e)| e)
                }
                ("compact", Types::Arena) => {
                    by_type_arena::<Compact>(type_name, &bytes, &arena).map_err(|(_, e)| e)
                }
                // JSON lends neither binaries (base64) nor strings with escapes: a vector
                // holding one is re-encoded by the owned types (counted, and said below).
                ("json", Types::Arena) => {
                    by_type_arena::<Json>(type_name, &bytes, &arena).or_else(|(unlent, e)| {
                        if unlent {
                            not_lent += 1;
                            by_type_std::<Json>(type_name, &bytes)
                        } else {
                            Err(e)
                        }
                    })
                }
                ("binary", Types::Std) => by_type_std::<Binary>(type_name, &bytes),
                ("compact", Types::Std) => by_type_std::<Compact>(type_name, &bytes),
                ("json", Types::Shared) => by_type_shared::<Json>(type_name, &bytes),
                ("json", Types::KeepUnknown) => by_type_unknown::<Json>(type_name, &bytes),
                ("json", Types::Std) => by_type_std::<Json>(type_name, &bytes),
                (other, _) => Err(format!("unknown protocol `{other}`")),
            });
        match result {
            Ok(bytes) => {
                let path = out.join(file);
                if let Err(e) = std::fs::write(&path, bytes) {
                    return Err(format!("{}: {e}", path.display()));
                }
            }
            Err(e) => {
                eprintln!("{file} ({type_name}, {protocol}): {e}");
                failed += 1;
            }
        }
    }
    if not_lent > 0 {
        eprintln!(
            "thrift-reencode: {not_lent} JSON vector(s) hold binaries or escaped strings, which \
             a borrowing form cannot lend: re-encoded with the owned types"
        );
    }
    Ok(failed)
}
