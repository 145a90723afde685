//! What the generator knows about a checked program before emitting anything: the Rust module
//! of every file, the Rust name of every definition, which fields must be boxed, and which
//! traits every type can derive.

pub mod annotations;
pub mod attributes;
mod configure;
mod derives;
mod keys;
pub mod mappings;
mod only;
mod recursion;
mod select;
mod services;

use std::collections::{BTreeSet, HashMap};

use proc_macro2::TokenStream;
use quote::quote;
use thrift_idl_parser::ast::{BaseType, Definition, Struct, Type, TypeKind};
use thrift_idl_parser::{DefId, FileId, Program};

use crate::ident;
use crate::options::{AttributeTarget, Options};

#[cfg(feature = "cli")]
pub(crate) use configure::annotation_diagnostics;
pub(crate) use configure::configure;
pub use derives::Derives;
pub use select::Item;
pub use services::ServiceNames;

/// A type with typedefs followed to the end.
#[derive(Clone, Copy)]
pub enum Resolved<'p> {
    Base(BaseType),
    Enum(DefId),
    /// Legacy `senum`: a string.
    Senum,
    Struct(DefId, &'p Struct),
    List(FileId, &'p Type),
    Set(FileId, &'p Type),
    Map(FileId, &'p Type, &'p Type),
}

pub struct Model<'p> {
    pub program: &'p Program,
    /// How generated code names the runtime: `__rt`, which every module imports (as
    /// `use ::thrift_runtime::__codegen as __rt;`, see [`Model::runtime_path`]): the runtime
    /// is named on almost every line, and the short name keeps the output a third smaller than
    /// the full path would. `__codegen` is the one module of the runtime generated code names.
    pub runtime: TokenStream,
    /// The runtime's path: `::thrift_runtime` unless configured otherwise.
    pub runtime_path: TokenStream,
    /// The user's options (the global mappings, services, serde…), as the `Builder` holds them.
    pub options: &'p Options,
    /// Fields that decoding skips (`Builder::skip_fields`): (struct, field index).
    pub skipped: BTreeSet<(DefId, usize)>,
    /// Structs and exceptions that keep the fields they do not know
    /// (`Builder::keep_unknown_fields`).
    pub keep_unknown: BTreeSet<DefId>,
    /// The attributes of each item and form: the IDL's (`rust.attr`), then the
    /// `Builder`'s (`type_attribute` and kin) in the order given. Types are
    /// [`Item::Definition`]s, fields [`Item::Field`]s.
    pub attributes: HashMap<(AttributeTarget, Item), TokenStream>,
    /// Files whose definitions come from another crate (`Builder::extern_path`): the Rust
    /// path of the module that holds them there. Nothing is generated for these files.
    pub externs: HashMap<FileId, TokenStream>,
    /// What `Builder::only` keeps; `None`: everything.
    pub kept: Option<only::Kept>,
    /// The `BuildHasher` of `Hash…` sets and maps, when not std's `RandomState`.
    hasher: Option<TokenStream>,
    modules: HashMap<FileId, Vec<String>>,
    /// Every file's name without `.thrift`, as IDL paths name it (`Model::stem`).
    stems: HashMap<FileId, String>,
    names: HashMap<DefId, String>,
    boxed: BTreeSet<(DefId, usize)>,
    /// Optional struct fields held inline in arena mode (`Builder::arena_inline`).
    inline: BTreeSet<(DefId, usize)>,
    derives: HashMap<DefId, Derives>,
    key_structs: BTreeSet<DefId>,
    /// Structs that hold strings or binaries (transitively): they get a borrowing `…Ref<'de>`.
    borrowing: BTreeSet<DefId>,
    /// The Rust names of the borrowing forms.
    ref_names: HashMap<DefId, String>,
    /// The names of the items generated for each service.
    service_names: HashMap<DefId, ServiceNames>,
    /// The args and result struct of every service function, as Apache's generators define
    /// them (see [`Model::message`]).
    messages: HashMap<DefId, Struct>,
    /// Fields whose strings or collections are mapped otherwise than the rest
    /// (`Builder::strings_for`, `Builder::collections_for`, `rust.type`).
    pub field_mappings: HashMap<(DefId, usize), Mapping>,
}

/// How one field maps strings, binaries, sets and maps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mapping {
    pub strings: crate::options::Strings,
    pub collections: crate::options::Collections,
}

impl Mapping {
    /// Whether a set or map outside key positions is a `HashSet`/`HashMap`.
    pub fn hashed(self, in_key: bool) -> bool {
        self.collections == crate::options::Collections::Hash && !in_key
    }
}

impl<'p> Model<'p> {
    /// The facts of `program` that need no option naming IDL paths (`configure` adds those).
    pub fn new(
        program: &'p Program,
        options: &'p Options,
        runtime: TokenStream,
        hasher: Option<TokenStream>,
        borrow_roots: Option<&[DefId]>,
    ) -> Model<'p> {
        let mut model = Model {
            program,
            runtime: quote!(__rt),
            runtime_path: runtime,
            options,
            skipped: BTreeSet::new(),
            keep_unknown: BTreeSet::new(),
            attributes: HashMap::new(),
            externs: HashMap::new(),
            kept: None,
            hasher,
            modules: HashMap::new(),
            stems: select::file_stems(program),
            names: HashMap::new(),
            boxed: BTreeSet::new(),
            inline: BTreeSet::new(),
            derives: HashMap::new(),
            key_structs: BTreeSet::new(),
            borrowing: BTreeSet::new(),
            ref_names: HashMap::new(),
            service_names: HashMap::new(),
            messages: HashMap::new(),
            field_mappings: HashMap::new(),
        };
        model.assign_modules();
        model.assign_names();
        model.boxed = recursion::boxed_fields(&model);
        model.key_structs = keys::key_structs(&model);
        model.assign_borrowing(borrow_roots);
        model
    }

    /// Which structs have borrowing forms and their names, then what depends on them (the
    /// derives, and the names of the services' items). Again after `Builder::boxed` in arena
    /// mode, where a boxed field makes its struct borrow ([`keys::by_reference`]).
    pub(crate) fn assign_borrowing(&mut self, borrow_roots: Option<&[DefId]>) {
        self.borrowing = keys::borrowing_structs(self, borrow_roots);
        self.ref_names.clear();
        self.assign_ref_names();
        self.derives = derives::compute(self);
        // After the derives: an args field whose type has no `Default` is `required`.
        (self.service_names, self.messages) = services::assign(self);
    }

    /// Whether field `index` of struct `id` is a reference into the arena in arena mode's
    /// borrowing forms (see [`keys::by_reference`]).
    pub fn by_reference(&self, id: DefId, index: usize) -> bool {
        keys::by_reference(self, id, index)
    }

    /// A file's name without `.thrift`: its first segment in IDL paths (`Builder` options,
    /// `rust.*` annotations).
    pub fn stem(&self, file: FileId) -> &str {
        &self.stems[&file]
    }

    /// Every file in load order (deterministic).
    pub fn files(&self) -> impl Iterator<Item = FileId> + '_ {
        self.program.files().map(|f| f.id)
    }

    /// `namespace rs a.b` gives `["a", "b"]`, otherwise the file name in snake case; two files
    /// that would share a module get `_2`, `_3`… in load order.
    fn assign_modules(&mut self) {
        let mut taken = ident::Scope::new();
        for file in self.program.files() {
            let namespace = file.document.headers.iter().find_map(|h| match h {
                thrift_idl_parser::ast::Header::Namespace(ns) if ns.scope.name == "rs" => {
                    Some(ns.name.name.clone())
                }
                _ => None,
            });
            let mut path: Vec<String> = match namespace {
                Some(ns) => ns.split('.').map(ident::field_name).collect(),
                None => {
                    let stem = match self.stem(file.id) {
                        "" => "idl",
                        stem => stem,
                    };
                    vec![ident::field_name(stem)]
                }
            };
            let last = path.pop().expect("a module path has at least one segment");
            let prefix = path.join("::");
            let unique = taken.unique(if prefix.is_empty() {
                last
            } else {
                format!("{prefix}::{last}")
            });
            self.modules
                .insert(file.id, unique.split("::").map(String::from).collect());
        }
    }

    fn assign_names(&mut self) {
        for file in self.program.files() {
            let mut scope = ident::Scope::new();
            for (index, definition) in file.document.definitions.iter().enumerate() {
                let name = &definition.name().name;
                let explicit = match definition {
                    Definition::Struct(s) => ident::explicit_name(&s.annotations),
                    Definition::Enum(e) => ident::explicit_name(&e.annotations),
                    Definition::Typedef(t) => ident::explicit_name(&t.annotations),
                    Definition::Senum(s) => ident::explicit_name(&s.annotations),
                    Definition::Service(s) => ident::explicit_name(&s.annotations),
                    Definition::Const(_) => None,
                };
                let rust = match (explicit, definition) {
                    (Some(explicit), _) => scope.unique_camel(explicit.to_string()),
                    (None, Definition::Const(_)) => scope.unique(ident::const_name(name)),
                    (None, _) => scope.unique_camel(ident::type_name(name)),
                };
                self.names.insert(
                    DefId {
                        file: file.id,
                        index,
                    },
                    rust,
                );
            }
        }
    }

    /// `FooRef` for every borrowing struct `Foo`, unique among the module's names.
    fn assign_ref_names(&mut self) {
        for file in self.program.files() {
            let mut scope = ident::Scope::new();
            let ids: Vec<DefId> = (0..file.document.definitions.len())
                .map(|index| DefId {
                    file: file.id,
                    index,
                })
                .collect();
            for id in &ids {
                if let Some(name) = self.names.get(id) {
                    scope.reserve(name);
                }
            }
            for id in ids {
                if self.borrowing.contains(&id) {
                    let name = scope.unique_camel(format!("{}Ref", self.names[&id]));
                    self.ref_names.insert(id, name);
                }
            }
        }
    }

    /// Whether a struct has a borrowing form `…Ref<'de>` (it holds strings or binaries).
    pub fn is_borrowing(&self, id: DefId) -> bool {
        self.borrowing.contains(&id)
    }

    /// The Rust name of the borrowing form of a struct.
    pub fn ref_name(&self, id: DefId) -> &str {
        &self.ref_names[&id]
    }

    pub fn module_path(&self, file: FileId) -> &[String] {
        &self.modules[&file]
    }

    /// The names of the items generated for service `id`.
    pub fn service_names(&self, id: DefId) -> &ServiceNames {
        &self.service_names[&id]
    }

    /// The args or result struct `id` of a service function ([`ServiceNames`]): a struct the
    /// IDL does not spell, with an id after its file's own definitions. The struct generator
    /// makes its code as any struct's; no user option reaches it (it lives for one call).
    pub fn message(&self, id: DefId) -> &Struct {
        &self.messages[&id]
    }

    /// The struct, union or exception `id`, or the message `id`.
    pub fn struct_def(&self, id: DefId) -> Option<&Struct> {
        if let Some(message) = self.messages.get(&id) {
            return Some(message);
        }
        match self.program.definition(id) {
            Definition::Struct(s) => Some(s),
            _ => None,
        }
    }

    /// The Rust name of a definition in its module.
    pub fn name(&self, id: DefId) -> &str {
        &self.names[&id]
    }

    /// Whether definition `id` is generated (`Builder::only` keeps it, or there is no
    /// `only`).
    pub fn is_kept(&self, id: DefId) -> bool {
        self.kept
            .as_ref()
            .is_none_or(|kept| kept.definitions.contains(&id))
    }

    /// Whether function `index` of service `id` is generated (in the service's items and in
    /// those of the services that extend it).
    pub fn keeps_function(&self, id: DefId, index: usize) -> bool {
        self.kept
            .as_ref()
            .is_none_or(|kept| kept.functions.contains(&(id, index)))
    }

    /// Whether decoding reads past field `field` of struct `id` (`Builder::skip_fields`).
    pub fn is_skipped(&self, id: DefId, field: usize) -> bool {
        self.skipped.contains(&(id, field))
    }

    /// Whether struct `id` keeps the fields it does not know (an `unknown_fields` member).
    pub fn keeps_unknown(&self, id: DefId) -> bool {
        self.keep_unknown.contains(&id)
    }

    /// Holds field `field` of struct `id` as a `Box` (asked for by `Builder::boxed` or
    /// `rust.box`; the caller checked that the field's type is a struct).
    pub fn add_boxed(&mut self, id: DefId, field: usize) {
        self.boxed.insert((id, field));
    }

    /// Holds optional struct field `field` of struct `id` inline in arena mode
    /// (`Builder::arena_inline`; the caller checked that it is one, and not boxed).
    pub fn add_inline(&mut self, id: DefId, field: usize) {
        self.inline.insert((id, field));
    }

    /// Whether field `field` of struct `id` is held inline in arena mode although optional.
    pub fn is_inline(&self, id: DefId, field: usize) -> bool {
        self.inline.contains(&(id, field))
    }

    /// Whether field `field` of struct `id` is boxed (it breaks a recursion cycle, or was
    /// asked for).
    pub fn is_boxed(&self, id: DefId, field: usize) -> bool {
        self.boxed.contains(&(id, field))
    }

    /// Whether values of this struct (or union, or exception) can sit inside a set element or
    /// a map key: then its fields use the key representation (`OrderedF64` for doubles), so
    /// that it is `Ord`.
    pub fn is_key_struct(&self, id: DefId) -> bool {
        self.key_structs.contains(&id)
    }

    /// Whether a value of this type has a `Default` (every type does except structs and unions
    /// that cannot derive one, e.g. a union whose first variant is recursive).
    pub fn has_default(&self, file: FileId, ty: &Type, in_key: bool) -> bool {
        // Whether a type has a `Default` does not depend on the mapping (every set and map has one).
        derives::type_allows(self, self.global_mapping(), &self.derives, file, ty, in_key).default
    }

    /// Whether field `index` of struct `id` is held as `Option<T>`: `optional` fields, and
    /// fields of default requiredness that are boxed (recursive) or whose type has no default
    /// value to take when the field is absent.
    pub fn holds_as_option(&self, id: DefId, index: usize) -> bool {
        use thrift_idl_parser::ast::{Requiredness, StructKind};
        let Some(s) = self.struct_def(id) else {
            return false;
        };
        let field = &s.fields[index];
        if s.kind == StructKind::Union {
            return false;
        }
        match field.requiredness {
            Requiredness::Optional => true,
            Requiredness::Default => {
                self.is_boxed(id, index)
                    || !self.has_default(id.file, &field.ty, self.is_key_struct(id))
            }
            Requiredness::Required => false,
        }
    }

    /// The global mapping of strings and collections (`Builder::strings`,
    /// `Builder::collections`).
    pub fn global_mapping(&self) -> Mapping {
        Mapping {
            strings: self.options.strings,
            collections: self.options.collections,
        }
    }

    /// The mapping of field `index` of struct `id`: its own (`Builder::strings_for`,
    /// `Builder::collections_for`, `rust.type`), or `None` for the global one.
    pub fn field_mapping(&self, id: DefId, index: usize) -> Option<Mapping> {
        self.field_mappings.get(&(id, index)).copied()
    }

    /// The `BuildHasher` of `Hash…` sets and maps, when not std's `RandomState`.
    pub fn hasher(&self) -> Option<&TokenStream> {
        self.hasher.as_ref()
    }

    /// Sets the mapping of fields (after which the derives are computed again, since a
    /// `HashMap` forbids some).
    pub fn set_field_mappings(&mut self, mappings: HashMap<(DefId, usize), Mapping>) {
        self.field_mappings = mappings;
        if !self.field_mappings.is_empty() {
            self.derives = derives::compute(self);
        }
    }

    /// The traits struct `id` derives beside `Debug`, `Clone` and `PartialEq` (none for a
    /// message: it is not read in place, which needs `Default`).
    pub fn derives(&self, id: DefId) -> Derives {
        if self.messages.contains_key(&id) {
            return Derives::NONE;
        }
        self.derives.get(&id).copied().unwrap_or_default()
    }

    /// Follows typedefs.
    pub fn resolve(&self, file: FileId, ty: &'p Type) -> Resolved<'p> {
        let mut current = (file, ty);
        loop {
            match &current.1.kind {
                TypeKind::Base(b) => return Resolved::Base(*b),
                TypeKind::List { element, .. } => return Resolved::List(current.0, element),
                TypeKind::Set { element, .. } => return Resolved::Set(current.0, element),
                TypeKind::Map { key, value, .. } => return Resolved::Map(current.0, key, value),
                TypeKind::Named(name) => {
                    let id = self.lookup(current.0, &name.name);
                    match self.program.definition(id) {
                        Definition::Typedef(t) => current = (id.file, &t.ty),
                        Definition::Enum(_) => return Resolved::Enum(id),
                        Definition::Senum(_) => return Resolved::Senum,
                        Definition::Struct(s) => return Resolved::Struct(id, s),
                        Definition::Const(_) | Definition::Service(_) => {
                            unreachable!("checked programs only name types")
                        }
                    }
                }
            }
        }
    }

    /// Looks a type name up; the program was checked, so it exists.
    pub fn lookup(&self, file: FileId, name: &str) -> DefId {
        self.program
            .lookup_type(file, name)
            .expect("checked programs have no unknown types")
    }
}
