//! Every option of generation in one value: [`Builder`](crate::builder::Builder) owns an [`Options`]
//! and its setters fill it, the CLI fills a `Builder` in one function (`cli::builder`), and
//! the model reads the options when it is made (`model::configure`). Adding an option is a
//! field here, a setter, a flag, and the code that reads it.

use std::path::PathBuf;

/// How `string` and `binary` are represented in the owned types ([`Builder::strings`](crate::builder::Builder::strings),
/// `thrift-codegen generate --strings`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
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
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Collections {
    /// `BTreeSet` / `BTreeMap` (the default): deterministic encoding (entries in key order),
    /// and structs holding them can derive `Hash` and `Ord`. Decoding allocates one node per
    /// eleven or so entries.
    #[default]
    #[cfg_attr(feature = "cli", value(name = "btree"))]
    BTree,
    /// `HashSet` / `HashMap`: decoding allocates each set or map once (sized from the header),
    /// and lookups are hashed. Entries are encoded in the map's iteration order, which differs
    /// between map instances, and structs holding them derive neither `Hash` nor
    /// `PartialOrd`/`Ord`. Sets and maps inside a set element or a map key (and inside structs
    /// used there) stay `BTree…`, so that those keys can be hashed. The hasher is std's
    /// `RandomState` unless `Builder::hasher` (`--hasher`) names another.
    Hash,
}

/// Which items an attribute rule (`Builder::type_attribute` and kin) adds its attributes to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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
    /// `Some`: borrowing forms only for these types (IDL paths) and what they hold.
    pub(crate) borrowed_types: Option<Vec<String>>,
    pub(crate) skip_fields: Vec<String>,
    /// `Some`: generate only these definitions and service functions (IDL paths) and what
    /// they reach.
    pub(crate) only: Option<Vec<String>>,
    /// (target, IDL path, attributes as written), in the order given.
    pub(crate) attributes: Vec<(AttributeTarget, String, String)>,
    /// (IDL file name without `.thrift`, Rust path of its module in another crate).
    pub(crate) extern_paths: Vec<(String, String)>,
    pub(crate) boxed: Vec<String>,
    /// Optional struct fields held inline in arena mode (`Builder::arena_inline`).
    pub(crate) arena_inline: Vec<String>,
    pub(crate) keep_unknown: Vec<String>,
    pub(crate) serde: bool,
    /// (IDL path, choice), in the order given: later rules win.
    pub(crate) mapping_rules: Vec<(String, MappingChoice)>,
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
            borrowed_types: None,
            skip_fields: Vec::new(),
            only: None,
            attributes: Vec::new(),
            extern_paths: Vec::new(),
            boxed: Vec::new(),
            arena_inline: Vec::new(),
            keep_unknown: Vec::new(),
            serde: false,
            mapping_rules: Vec::new(),
        }
    }
}
