//! Per-path string and collection mappings (`Builder::strings_for`, `Builder::collections_for`,
//! the IDL's `rust.type`): which fields map strings, binaries, sets and maps otherwise than the
//! global options say. Rules apply to the fields under their IDL path (`.`, `file`,
//! `file.Type`, `file.Type.field`), later rules over earlier ones.

use std::collections::HashMap;

use thrift_idl_parser::DefId;
use thrift_idl_parser::ast::Definition;

use super::attributes::is_prefix;
use super::{Mapping, Model};

use crate::options::MappingChoice;

/// One rule: a choice for the fields under a path.
#[derive(Debug, Clone)]
pub struct Rule {
    pub path: Vec<String>,
    pub choice: MappingChoice,
}

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

impl Model<'_> {
    /// Every field of every struct, union and exception, with its path.
    fn all_fields(&self) -> Vec<((DefId, usize), Vec<String>)> {
        let mut out = Vec::new();
        for file in self.program.files() {
            for (index, definition) in file.document.definitions.iter().enumerate() {
                let Definition::Struct(s) = definition else {
                    continue;
                };
                let id = DefId {
                    file: file.id,
                    index,
                };
                let type_path = self.type_path(id);
                for (field_index, field) in s.fields.iter().enumerate() {
                    let mut path = type_path.clone();
                    path.push(field.name.name.clone());
                    out.push(((id, field_index), path));
                }
            }
        }
        out
    }

    /// Whether a path names at least one field.
    pub fn names_fields(&self, path: &[String]) -> bool {
        self.all_fields().iter().any(|(_, field)| {
            let field: Vec<&str> = field.iter().map(String::as_str).collect();
            is_prefix(path, &field)
        })
    }

    /// The fields whose mapping the rules make differ from the global one.
    pub fn field_mappings_of(&self, rules: &[Rule]) -> HashMap<(DefId, usize), Mapping> {
        let global = Mapping {
            strings: self.options.strings,
            collections: self.options.collections,
        };
        let mut out = HashMap::new();
        if rules.is_empty() {
            return out;
        }
        for (key, path) in self.all_fields() {
            let path: Vec<&str> = path.iter().map(String::as_str).collect();
            let mut mapping = global;
            for rule in rules.iter().filter(|r| is_prefix(&r.path, &path)) {
                match rule.choice {
                    MappingChoice::Strings(strings) => mapping.strings = strings,
                    MappingChoice::Collections(collections) => mapping.collections = collections,
                }
            }
            if mapping != global {
                out.insert(key, mapping);
            }
        }
        out
    }
}
