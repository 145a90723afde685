//! Every option of generation in one value: [`Builder`](crate::builder::Builder) owns an [`Options`]
//! and its setters fill it, the command line and other text reach the setters by name
//! ([`crate::by_name`]), and the model reads the options when it is made
//! (`model::configure`). Every option naming parts of the IDL holds them in a
//! [`PathMap`], which has the one rule of what a path selects. Adding an option is a field
//! here, a setter, a row of `by_name::OPTIONS`, and the code that reads it.

use std::path::PathBuf;

use crate::path_map::PathMap;

/// How `string` and `binary` are represented in the owned types ([`Builder::strings`](crate::builder::Builder::strings),
/// `thrift-codegen generate --strings`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Strings {
    /// `String` and `Vec<u8>` (the default): one allocation and copy per decoded value.
    #[default]
    Std,
    /// `thrift_runtime::ByteString` and `thrift_runtime::Bytes` (from the `bytestring` and
    /// `bytes` crates): decoded with `Foo::decode_bytes::<P>(&bytes)` they are slices of the
    /// input buffer, a reference-count increment instead of an allocation and a copy; decoded
    /// from a `&[u8]` they are copies. Both deref to `str` / `[u8]`.
    Bytes,
    /// `thrift_runtime::CompactString` (from the `compact_str` crate; enable the runtime's
    /// `compact_str` feature) and `thrift_runtime::Bytes`: strings of up to 24 bytes, most of
    /// them, are stored inline (no allocation, no reference count), longer ones on the heap;
    /// binaries as with `Bytes`. `CompactString` derefs to `str` and is mutable like `String`.
    Compact,
}

/// How `set<T>` and `map<K, V>` are represented in the owned types
/// ([`Builder::collections`](crate::builder::Builder::collections), `thrift-codegen generate --collections`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Collections {
    /// `BTreeSet` / `BTreeMap` (the default): deterministic encoding (entries in key order),
    /// and structs holding them can derive `Hash` and `Ord`. Decoding allocates one node per
    /// eleven or so entries.
    #[default]
    BTree,
    /// `HashSet` / `HashMap`: decoding allocates each set or map once (sized from the header),
    /// and lookups are hashed. Entries are encoded in the map's iteration order, which differs
    /// between map instances, and structs holding them derive neither `Hash` nor
    /// `PartialOrd`/`Ord`. Sets and maps inside a set element or a map key (and inside structs
    /// used there) stay `BTree…`, so that those keys can be hashed. The hasher is std's
    /// `RandomState` unless `Builder::hasher` (`--hasher`) names another.
    Hash,
}

impl Strings {
    /// The names options give the choices (`--strings bytes`, `strings_for(path, bytes)` in
    /// text), in the order of the variants.
    pub(crate) const NAMES: &'static [&'static str] = &["std", "bytes", "compact"];

    /// The choice `name` names (any case).
    pub(crate) fn from_name(name: &str) -> Option<Strings> {
        match name.to_ascii_lowercase().as_str() {
            "std" => Some(Strings::Std),
            "bytes" => Some(Strings::Bytes),
            "compact" => Some(Strings::Compact),
            _ => None,
        }
    }
}

impl Collections {
    /// [`Strings::NAMES`] for the collections.
    pub(crate) const NAMES: &'static [&'static str] = &["btree", "hash"];

    /// The choice `name` names (any case).
    pub(crate) fn from_name(name: &str) -> Option<Collections> {
        match name.to_ascii_lowercase().as_str() {
            "btree" => Some(Collections::BTree),
            "hash" => Some(Collections::Hash),
            _ => None,
        }
    }
}

/// Which items an attribute rule (`Builder::type_attribute` and kin) adds its attributes to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum AttributeTarget {
    /// Structs, unions, exceptions and enums, the owned form.
    Type,
    /// The borrowing forms `FooRef<'de>`.
    RefType,
    /// Fields (union variants too) of the owned form.
    Field,
    /// Fields of the borrowing forms.
    RefField,
}

impl AttributeTarget {
    /// The `Builder` call that makes a rule of this target, for messages.
    pub(crate) fn call(self) -> &'static str {
        match self {
            AttributeTarget::Type => "type_attribute",
            AttributeTarget::RefType => "ref_type_attribute",
            AttributeTarget::Field => "field_attribute",
            AttributeTarget::RefField => "ref_field_attribute",
        }
    }

    /// Whether the rule names types (else fields).
    pub(crate) fn is_type(self) -> bool {
        matches!(self, AttributeTarget::Type | AttributeTarget::RefType)
    }
}

/// What a per-path mapping rule (`Builder::strings_for`, `Builder::collections_for`,
/// `rust.type`) chooses for the fields under its path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum MappingChoice {
    Strings(Strings),
    Collections(Collections),
}

/// The options of one generation, as the `Builder` was told them (IDL paths unresolved: the
/// model resolves and checks them against the program).
#[derive(Debug, Clone)]
pub(crate) struct Options {
    pub(crate) include_dirs: Vec<PathBuf>,
    /// `None`: `$OUT_DIR`.
    pub(crate) out_dir: Option<PathBuf>,
    pub(crate) runtime_path: String,
    pub(crate) include_file: String,
    pub(crate) emit_rerun_if_changed: bool,
    pub(crate) collections: Collections,
    pub(crate) strings: Strings,
    /// The `BuildHasher` of `Hash…` collections, as written (a Rust type path).
    pub(crate) hasher: Option<String>,
    pub(crate) services: bool,
    pub(crate) borrowed: bool,
    /// The borrowing forms hold containers and optional structs in an arena
    /// (`Builder::arena`).
    pub(crate) arena: bool,
    /// Optional struct fields held inline in arena mode (`Builder::arena_inline`).
    pub(crate) arena_inline: PathMap<()>,
    /// `Some`: borrowing forms only for the types selected and what they hold.
    pub(crate) borrowed_types: Option<PathMap<()>>,
    pub(crate) skip_fields: PathMap<()>,
    /// `Some`: generate only the definitions and service functions selected and what they
    /// reach.
    pub(crate) only: Option<PathMap<()>>,
    /// Attributes as written, by the paths of the items they go on (`Builder::type_attribute`
    /// and kin).
    pub(crate) type_attributes: PathMap<String>,
    pub(crate) ref_type_attributes: PathMap<String>,
    pub(crate) field_attributes: PathMap<String>,
    pub(crate) ref_field_attributes: PathMap<String>,
    /// The Rust path of the module in another crate that holds the files selected.
    pub(crate) extern_paths: PathMap<String>,
    pub(crate) boxed: PathMap<()>,
    pub(crate) keep_unknown_fields: PathMap<()>,
    pub(crate) serde: bool,
    /// Per-path mappings of strings and collections: the last path selecting a field wins.
    pub(crate) strings_for: PathMap<Strings>,
    pub(crate) collections_for: PathMap<Collections>,
}

impl Options {
    /// The attribute paths of the rules of `target`.
    pub(crate) fn attributes(&self, target: AttributeTarget) -> &PathMap<String> {
        match target {
            AttributeTarget::Type => &self.type_attributes,
            AttributeTarget::RefType => &self.ref_type_attributes,
            AttributeTarget::Field => &self.field_attributes,
            AttributeTarget::RefField => &self.ref_field_attributes,
        }
    }

    /// [`Options::attributes`], to add to.
    pub(crate) fn attributes_mut(&mut self, target: AttributeTarget) -> &mut PathMap<String> {
        match target {
            AttributeTarget::Type => &mut self.type_attributes,
            AttributeTarget::RefType => &mut self.ref_type_attributes,
            AttributeTarget::Field => &mut self.field_attributes,
            AttributeTarget::RefField => &mut self.ref_field_attributes,
        }
    }
}

impl Default for Options {
    fn default() -> Options {
        Options {
            include_dirs: Vec::new(),
            out_dir: None,
            runtime_path: "::thrift_runtime".into(),
            include_file: "thrift.rs".into(),
            emit_rerun_if_changed: true,
            collections: Collections::BTree,
            strings: Strings::Std,
            hasher: None,
            services: true,
            borrowed: true,
            arena: false,
            arena_inline: PathMap::new(),
            borrowed_types: None,
            skip_fields: PathMap::new(),
            only: None,
            type_attributes: PathMap::new(),
            ref_type_attributes: PathMap::new(),
            field_attributes: PathMap::new(),
            ref_field_attributes: PathMap::new(),
            extern_paths: PathMap::new(),
            boxed: PathMap::new(),
            keep_unknown_fields: PathMap::new(),
            serde: false,
            strings_for: PathMap::new(),
            collections_for: PathMap::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Collections, Strings};

    /// Every name of a choice names it, and the names are in the order of the variants.
    #[test]
    fn choice_names_name_the_choices() {
        let strings: Vec<Strings> = Strings::NAMES
            .iter()
            .map(|name| Strings::from_name(name).unwrap())
            .collect();
        assert_eq!(strings, [Strings::Std, Strings::Bytes, Strings::Compact]);
        let collections: Vec<Collections> = Collections::NAMES
            .iter()
            .map(|name| Collections::from_name(&name.to_uppercase()).unwrap())
            .collect();
        assert_eq!(collections, [Collections::BTree, Collections::Hash]);
    }
}
