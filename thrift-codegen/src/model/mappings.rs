//! Per-field string and collection mappings (`Builder::strings_for`, `Builder::collections_for`,
//! the IDL's `rust.type`): which fields map strings, binaries, sets and maps otherwise than the
//! global options say. Choices apply in order, later ones over earlier ones.

use std::collections::HashMap;

use thrift_idl_parser::DefId;

use super::{Mapping, Model};

use crate::options::MappingChoice;

/// The accepted values of `rust.type`, for messages.
pub const RUST_TYPES: &str =
    "`HashMap`, `HashSet`, `BTreeMap`, `BTreeSet`, `String`, `ByteString`, `CompactString`";

/// The choice a `rust.type` value names: a set or map type for the collections, a string type
/// for the strings (and binaries) of the field.
pub fn parse_rust_type(value: &str) -> Option<MappingChoice> {
    Some(match value.trim() {
        "HashMap" | "HashSet" => MappingChoice::Collections(crate::options::Collections::Hash),
        "BTreeMap" | "BTreeSet" => MappingChoice::Collections(crate::options::Collections::BTree),
        "String" => MappingChoice::Strings(crate::options::Strings::Std),
        "ByteString" => MappingChoice::Strings(crate::options::Strings::Bytes),
        "CompactString" => MappingChoice::Strings(crate::options::Strings::Compact),
        _ => return None,
    })
}

/// A choice for one field: (struct, field index), and what it maps otherwise.
pub type FieldChoice = ((DefId, usize), MappingChoice);

impl Model<'_> {
    /// The fields whose mapping `choices` (each for one field, in the order they apply) make
    /// differ from the global one.
    pub fn field_mappings_of(&self, choices: &[FieldChoice]) -> HashMap<(DefId, usize), Mapping> {
        let global = self.global_mapping();
        let mut out: HashMap<(DefId, usize), Mapping> = HashMap::new();
        for &(field, choice) in choices {
            let mapping = out.entry(field).or_insert(global);
            match choice {
                MappingChoice::Strings(strings) => mapping.strings = strings,
                MappingChoice::Collections(collections) => mapping.collections = collections,
            }
        }
        out.retain(|_, mapping| *mapping != global);
        out
    }
}
