//! `thrift-reencode VECTORS_DIR OUT_DIR`: decodes every vector listed in
//! `VECTORS_DIR/index.json` as the ThriftTest type it names, re-encodes it with the same
//! protocol and writes `OUT_DIR/<file>`. A vector that cannot be decoded is reported on stderr
//! and skipped; the exit status is then non-zero.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use thrift_interop::types::*;
use thrift_runtime::{Binary, Compact, Protocol, ThriftRead, ThriftWrite};

fn reencode<T, P>(bytes: &[u8]) -> thrift_runtime::Result<Vec<u8>>
where
    T: for<'de> ThriftRead<'de> + ThriftWrite,
    P: Protocol,
{
    T::decode::<P>(bytes)?.encode_to_vec::<P>()
}

/// Re-encodes `bytes` as the ThriftTest type called `type_name` with protocol `P`.
fn by_type<P: Protocol>(type_name: &str, bytes: &[u8]) -> Result<Vec<u8>, String> {
    macro_rules! dispatch {
        ($($ty:ident),* $(,)?) => {
            match type_name {
                $(stringify!($ty) => reencode::<$ty, P>(bytes).map_err(|e| e.to_string()),)*
                other => Err(format!("unknown ThriftTest type `{other}`")),
            }
        };
    }
    dispatch!(
        Bonk,
        Bools,
        Xtruct,
        Xtruct2,
        Xtruct3,
        Insanity,
        CrazyNesting,
        SomeUnion,
        Xception,
        Xception2,
        EmptyStruct,
        OneField,
        VersioningTestV1,
        VersioningTestV2,
        ListTypeVersioningV1,
        ListTypeVersioningV2,
        GuessProtocolStruct,
        LargeDeltas,
        NestedListsI32x2,
        NestedListsI32x3,
        NestedMixedx2,
        ListBonks,
        NestedListsBonk,
        BoolTest,
        StructA,
        StructB,
        OptionalSetDefaultTest,
        OptionalBinary,
    )
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [vectors, out] = args.as_slice() else {
        eprintln!("usage: thrift-reencode VECTORS_DIR OUT_DIR");
        return ExitCode::from(2);
    };
    match run(Path::new(vectors), Path::new(out)) {
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

fn run(vectors: &Path, out: &Path) -> Result<usize, String> {
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
    for entry in entries {
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
            .and_then(|bytes| match protocol {
                "binary" => by_type::<Binary>(type_name, &bytes),
                "compact" => by_type::<Compact>(type_name, &bytes),
                other => Err(format!("unknown protocol `{other}`")),
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
    Ok(failed)
}
