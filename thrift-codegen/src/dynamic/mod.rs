//! Any Thrift struct or RPC message to and from JSON at run time, with no generated code
//! (`thrift-codegen decode` / `encode`; feature `dynamic`, on with `cli`).
//!
//! The bytes are read into the runtime's schema-less value model
//! ([`thrift_runtime::unknown::Value`], the one `keep_unknown_fields` keeps unknown fields
//! in) with the runtime's readers and their limits, then named and typed with the IDL; JSON is
//! turned into that model with the IDL, then written with the runtime's writers. The JSON is
//! the one the generated types' serde support gives (docs/src/reference/mapping.md, "serde"): structs as objects of
//! field names, unions as `{"variant": value}`, enums by name (or number when unnamed),
//! binaries and uuids as arrays of byte values, maps with string, integer, bool or enum keys as
//! objects and others as arrays of `[key, value]` pairs; doubles that JSON has no number for are
//! `"NaN"`, `"Infinity"` and `"-Infinity"`, and another NaN its bits (`"NaN:0xfff8000000000000"`). Decoding is lenient where a reader of bytes
//! wants to see them: a field the IDL does not declare (or with another wire type) is shown
//! as `"#<id>"` with its value read without a schema, and a missing `required` field is not an
//! error; encoding skips `"#…"` keys and requires what the IDL requires.
//!
//! Errors are located: the byte offset where the bytes stop making sense, or the path of the
//! value (`.columns[3].meta_data`) whose type does not fit.

mod convert;
mod error;
mod from_json;
mod json_scalars;
mod message;
mod protocol;
mod schema;
mod to_json;

use serde_json::Value as Json;
use thrift_idl_parser::ast::Definition;
use thrift_idl_parser::{DefId, Program};

use convert::Convert;
use error::error;
use protocol::{read, write};
use schema::Ty;

pub use error::Error;
pub use message::{decode_message, encode_message};
pub use protocol::Protocol;

/// The type `name` names: a struct, union, exception, typedef or enum, as `file.Type` (the
/// file's name without `.thrift`) or `Type` when one file defines it.
pub fn find_type(program: &Program, name: &str) -> Result<DefId, Error> {
    let (file, local) = match name.rsplit_once('.') {
        Some((file, local)) => (Some(file), local),
        None => (None, name),
    };
    let files: Vec<_> = match file {
        Some(file) => program.files_named(file).collect(),
        None => program.files().collect(),
    };
    let mut found = Vec::new();
    for f in files {
        for (index, d) in f.document.definitions.iter().enumerate() {
            let is_type = matches!(
                d,
                Definition::Struct(_)
                    | Definition::Typedef(_)
                    | Definition::Enum(_)
                    | Definition::Senum(_)
            );
            if is_type && d.name().name == local {
                found.push(DefId { file: f.id, index });
            }
        }
    }
    match found.as_slice() {
        [id] => Ok(*id),
        [] => Err(error(format!(
            "`{name}` names no struct, union, exception, typedef or enum (`file.Type`, the file's name without .thrift)"
        ))),
        _ => Err(error(format!(
            "`{name}` is defined in {} files: name it as `file.Type`",
            found.len()
        ))),
    }
}

/// Decodes `bytes`, one value of the type `id` ([`find_type`]) in `protocol`, to JSON. Bytes
/// after the value are an error.
pub fn decode(
    program: &Program,
    id: DefId,
    protocol: Protocol,
    bytes: &[u8],
) -> Result<Json, Error> {
    let convert = Convert::new(program, protocol);
    let ttype = convert.ttype(Ty::Def(id))?;
    let (value, _) = read(protocol, bytes, ttype, false)?;
    convert.value_to_json(Ty::Def(id), &value)
}

/// Encodes JSON as one value of the type `id` ([`find_type`]) in `protocol`.
pub fn encode(
    program: &Program,
    id: DefId,
    protocol: Protocol,
    json: &Json,
) -> Result<Vec<u8>, Error> {
    let value = Convert::new(program, protocol).value_from_json(Ty::Def(id), json)?;
    write(protocol, None, &value)
}
