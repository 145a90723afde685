//! What the generator knows about a checked program before emitting anything: the Rust module
//! of every file, the Rust name of every definition, which fields must be boxed, and which
//! traits every type can derive.

pub mod annotations;
pub mod attributes;
mod configure;
mod derives;
mod keys;
pub mod mappings;
mod recursion;
mod services;

use std::cell::Cell;
use std::collections::{BTreeSet, HashMap};

use proc_macro2::TokenStream;
use quote::quote;
use thrift_idl_parser::ast::{BaseType, Definition, Struct, Type, TypeKind};
use thrift_idl_parser::{DefId, FileId, Program};

use crate::ident;
use crate::options::Options;

#[cfg(feature = "cli")]
pub(crate) use configure::annotation_diagnostics;
pub(crate) use configure::configure;
pub use derives::Derives;
pub use services::{ServiceNames, parent_service};

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
    /// The user's attributes (`Builder::type_attribute` and kin), in the order given.
    pub attributes: Vec<attributes::Rule>,
    /// Files whose definitions come from another crate (`Builder::extern_path`): the Rust
    /// path of the module that holds them there. Nothing is generated for these files.
    pub externs: HashMap<FileId, TokenStream>,
    /// The `BuildHasher` of `Hash…` sets and maps, when not std's `RandomState`.
    hasher: Option<TokenStream>,
    modules: HashMap<FileId, Vec<String>>,
    /// Every file's name without `.thrift`, as IDL paths name it (`Model::stem`).
    stems: HashMap<FileId, String>,
    names: HashMap<DefId, String>,
    boxed: BTreeSet<(DefId, usize)>,
    derives: HashMap<DefId, Derives>,
    key_structs: BTreeSet<DefId>,
    /// Structs that hold strings or binaries (transitively): they get a borrowing `…Ref<'de>`.
    borrowing: BTreeSet<DefId>,
    /// The Rust names of the borrowing forms.
    ref_names: HashMap<DefId, String>,
    /// The names of the items generated for each service.
    service_names: HashMap<DefId, ServiceNames>,
    /// Whether code for the borrowing forms is being generated (see [`Model::set_borrowed`]).
    borrowed: Cell<bool>,
    /// The file whose module code is being generated for: paths are relative to it.
    current: Cell<Option<FileId>>,
    /// Fields whose strings or collections are mapped otherwise than the rest
    /// (`Builder::strings_for`, `Builder::collections_for`, `rust.type`).
    pub field_mappings: HashMap<(DefId, usize), Mapping>,
    /// The mapping of the field whose code is being generated (see [`Model::in_field`]).
    context: Cell<Option<Mapping>>,
}

/// How one field maps strings, binaries, sets and maps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mapping {
    pub strings: crate::Strings,
    pub collections: crate::Collections,
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
            attributes: Vec::new(),
            externs: HashMap::new(),
            hasher,
            modules: HashMap::new(),
            stems: program
                .files()
                .map(|file| {
                    let stem = program.sources.path(file.id).file_stem();
                    let stem = stem.map_or_else(String::new, |s| s.to_string_lossy().into_owned());
                    (file.id, stem)
                })
                .collect(),
            names: HashMap::new(),
            boxed: BTreeSet::new(),
            derives: HashMap::new(),
            key_structs: BTreeSet::new(),
            borrowing: BTreeSet::new(),
            ref_names: HashMap::new(),
            service_names: HashMap::new(),
            borrowed: Cell::new(false),
            current: Cell::new(None),
            field_mappings: HashMap::new(),
            context: Cell::new(None),
        };
        model.assign_modules();
        model.assign_names();
        model.boxed = recursion::boxed_fields(&model);
        model.key_structs = keys::key_structs(&model);
        model.borrowing = keys::borrowing_structs(&model, borrow_roots);
        model.assign_ref_names();
        model.service_names = services::assign(&model);
        model.derives = derives::compute(&model);
        model
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

    /// Switches type, read and write generation to the borrowing forms (`&'de str`,
    /// `&'de [u8]`, `…Ref<'de>`, containers as `Vec`s).
    pub fn set_borrowed(&self, borrowed: bool) {
        self.borrowed.set(borrowed);
    }

    pub fn borrowed(&self) -> bool {
        self.borrowed.get()
    }

    /// The path to the borrowing form of struct `id`, with its lifetime: `FooRef<'de>`.
    pub fn ref_path(&self, id: DefId) -> TokenStream {
        let path = self.path_to(id.file, id);
        let mut tokens: Vec<proc_macro2::TokenTree> = path.into_iter().collect();
        // Replace the last segment (the owned name) by the borrowing name.
        tokens.pop();
        let name = ident::ident(self.ref_name(id));
        let prefix: TokenStream = tokens.into_iter().collect();
        quote!(#prefix #name<'de>)
    }

    /// The path to struct `id` from `file` in the form being generated: `FooRef<'de>` in
    /// borrowed mode when it has a borrowing form, `Foo` otherwise.
    pub fn struct_path(&self, file: FileId, id: DefId) -> TokenStream {
        if self.borrowed() && self.is_borrowing(id) {
            self.ref_path(id)
        } else {
            self.path_to(file, id)
        }
    }

    pub fn module_path(&self, file: FileId) -> &[String] {
        &self.modules[&file]
    }

    /// The names of the items generated for service `id`.
    pub fn service_names(&self, id: DefId) -> &ServiceNames {
        &self.service_names[&id]
    }

    /// The Rust name of a definition in its module.
    pub fn name(&self, id: DefId) -> &str {
        &self.names[&id]
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
        derives::type_allows(self, &self.derives, file, ty, in_key).default
    }

    /// Whether field `index` of struct `id` is held as `Option<T>`: `optional` fields, and
    /// fields of default requiredness that are boxed (recursive) or whose type has no default
    /// value to take when the field is absent.
    pub fn holds_as_option(&self, id: DefId, index: usize) -> bool {
        use thrift_idl_parser::ast::{Requiredness, StructKind};
        let Definition::Struct(s) = self.program.definition(id) else {
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

    /// The mapping in effect: the field's whose code is being generated, else the global one.
    pub fn mapping(&self) -> Mapping {
        self.context.get().unwrap_or(Mapping {
            strings: self.options.strings,
            collections: self.options.collections,
        })
    }

    /// Generates code for field `index` of struct `id` in `f`: its own string and collection
    /// mapping is in effect there. Every piece of code about a field's value (its type, read,
    /// write, size, default, conversion, derives) is made inside this.
    pub fn in_field<T>(&self, id: DefId, index: usize, f: impl FnOnce() -> T) -> T {
        let field = self.field_mappings.get(&(id, index)).copied();
        let saved = self.context.replace(field);
        let out = f();
        self.context.set(saved);
        out
    }

    /// Sets the mapping of fields (after which the derives are computed again, since a
    /// `HashMap` forbids some).
    pub fn set_field_mappings(&mut self, mappings: HashMap<(DefId, usize), Mapping>) {
        self.field_mappings = mappings;
        if !self.field_mappings.is_empty() {
            self.derives = derives::compute(self);
        }
    }

    /// Whether a type written as `ty` names (through a typedef) something whose Rust type the
    /// mapping in effect changes, while that mapping is not the global one: then the typedef,
    /// which names the global form, is expanded.
    pub fn differs_here(&self, file: FileId, ty: &'p Type) -> bool {
        let Some(here) = self.context.get() else {
            return false;
        };
        let strings = here.strings != self.options.strings;
        let collections = here.collections != self.options.collections;
        fn walk(m: &Model<'_>, file: FileId, ty: &Type, strings: bool, collections: bool) -> bool {
            match m.resolve(file, ty) {
                Resolved::Base(BaseType::String | BaseType::Slist | BaseType::Binary)
                | Resolved::Senum => strings,
                Resolved::Base(_) | Resolved::Enum(_) | Resolved::Struct(..) => false,
                Resolved::List(f, e) => walk(m, f, e, strings, collections),
                Resolved::Set(f, e) => collections || walk(m, f, e, strings, collections),
                Resolved::Map(f, k, v) => {
                    collections
                        || walk(m, f, k, strings, collections)
                        || walk(m, f, v, strings, collections)
                }
            }
        }
        (strings || collections) && walk(self, file, ty, strings, collections)
    }

    /// The owned type of `string` values.
    pub fn string_type(&self) -> TokenStream {
        let rt = &self.runtime;
        match self.mapping().strings {
            crate::Strings::Std => quote::quote!(::std::string::String),
            crate::Strings::Bytes => quote::quote!(#rt::ByteString),
            crate::Strings::Compact => quote::quote!(#rt::CompactString),
        }
    }

    /// The owned type of `binary` values.
    pub fn binary_type(&self) -> TokenStream {
        let rt = &self.runtime;
        match self.mapping().strings {
            crate::Strings::Std => quote::quote!(::std::vec::Vec<u8>),
            crate::Strings::Bytes | crate::Strings::Compact => quote::quote!(#rt::Bytes),
        }
    }

    /// The reader call for an owned `string`.
    pub fn read_string(&self) -> TokenStream {
        match self.mapping().strings {
            crate::Strings::Std => quote::quote!(r.read_string()?),
            crate::Strings::Bytes => quote::quote!(r.read_byte_string()?),
            crate::Strings::Compact => quote::quote!(r.read_compact_string()?),
        }
    }

    /// The statement reading an owned `string` into the place `slot` (a `&mut` expression),
    /// replacing its contents where it lives (`read_string_into`, `read_byte_string_into`,
    /// `read_compact_string_into`) instead of returned and moved there.
    pub fn read_string_into(&self, slot: TokenStream) -> TokenStream {
        match self.mapping().strings {
            crate::Strings::Std => quote::quote!(r.read_string_into(#slot)?),
            crate::Strings::Bytes => quote::quote!(r.read_byte_string_into(#slot)?),
            crate::Strings::Compact => quote::quote!(r.read_compact_string_into(#slot)?),
        }
    }

    /// The reader call for an owned `binary`.
    pub fn read_binary(&self) -> TokenStream {
        match self.mapping().strings {
            crate::Strings::Std => quote::quote!(r.read_binary()?),
            crate::Strings::Bytes | crate::Strings::Compact => {
                quote::quote!(r.read_shared_bytes()?)
            }
        }
    }

    /// The statement reading an owned `binary` into the place `slot` (a `&mut` expression),
    /// replacing it where it lives (`read_binary_into`: the old buffer kept when large enough;
    /// `read_shared_bytes_into`) instead of returned and moved there.
    pub fn read_binary_into(&self, slot: TokenStream) -> TokenStream {
        match self.mapping().strings {
            crate::Strings::Std => quote::quote!(r.read_binary_into(#slot)?),
            crate::Strings::Bytes | crate::Strings::Compact => {
                quote::quote!(r.read_shared_bytes_into(#slot)?)
            }
        }
    }

    /// An owned string from a `&str` expression (a copy).
    pub fn string_from(&self, s: TokenStream) -> TokenStream {
        let ty = self.string_type();
        quote::quote!(#ty::from(#s))
    }

    /// An owned string from a string literal (`from_static` for `ByteString`, `const_new` for
    /// `CompactString`: no copy).
    pub fn string_literal(&self, lit: &str) -> TokenStream {
        let ty = self.string_type();
        match self.mapping().strings {
            crate::Strings::Std => quote::quote!(#ty::from(#lit)),
            crate::Strings::Bytes => quote::quote!(#ty::from_static(#lit)),
            crate::Strings::Compact => quote::quote!(#ty::const_new(#lit)),
        }
    }

    /// An owned binary from a `&[u8]` expression (a copy).
    pub fn binary_from(&self, b: TokenStream) -> TokenStream {
        let rt = &self.runtime;
        match self.mapping().strings {
            crate::Strings::Std => quote::quote!(#b.to_vec()),
            crate::Strings::Bytes | crate::Strings::Compact => {
                quote::quote!(#rt::Bytes::copy_from_slice(#b))
            }
        }
    }

    /// An owned binary from a string literal (`from_static` for `Bytes`: no copy).
    pub fn binary_literal(&self, lit: &str) -> TokenStream {
        let rt = &self.runtime;
        match self.mapping().strings {
            crate::Strings::Std => quote::quote!(#lit.as_bytes().to_vec()),
            crate::Strings::Bytes | crate::Strings::Compact => {
                quote::quote!(#rt::Bytes::from_static(#lit.as_bytes()))
            }
        }
    }

    /// Whether a set or map outside key positions is a `HashSet`/`HashMap`.
    pub fn hashed(&self, in_key: bool) -> bool {
        self.mapping().collections == crate::Collections::Hash && !in_key
    }

    /// The path of the set or map type (`kind`) in key position `in_key`, without generics.
    fn collection_path(&self, kind: CollectionKind, in_key: bool) -> TokenStream {
        if self.hashed(in_key) {
            kind.path()
        } else {
            kind.btree_path()
        }
    }

    /// `kind`'s type over `elements` (`T`, or `K, V`), given whether it is in a key position:
    /// `BTreeSet<T>`, `HashSet<T>` or `HashSet<T, Hasher>`, and the same for maps.
    fn collection_type(
        &self,
        kind: CollectionKind,
        elements: TokenStream,
        in_key: bool,
    ) -> TokenStream {
        let ty = self.collection_path(kind, in_key);
        match &self.hasher {
            Some(h) if self.hashed(in_key) => quote!(#ty<#elements, #h>),
            _ => quote!(#ty<#elements>),
        }
    }

    /// The set type holding `element`, given whether it is in a key position.
    pub fn set_type(&self, element: &TokenStream, in_key: bool) -> TokenStream {
        self.collection_type(CollectionKind::Set, quote!(#element), in_key)
    }

    /// The map type from `key` to `value`, given whether it is in a key position.
    pub fn map_type(&self, key: &TokenStream, value: &TokenStream, in_key: bool) -> TokenStream {
        self.collection_type(CollectionKind::Map, quote!(#key, #value), in_key)
    }

    /// An empty `HashSet`/`HashMap` (`kind`) with room for `capacity` entries.
    pub fn hash_with_capacity(&self, kind: CollectionKind, capacity: &TokenStream) -> TokenStream {
        let ty = kind.path();
        match &self.hasher {
            Some(_) => quote!(#ty::with_capacity_and_hasher(
                #capacity,
                ::std::default::Default::default()
            )),
            None => quote!(#ty::with_capacity(#capacity)),
        }
    }

    /// A set or map (`kind` in key position `in_key`) holding `items` (elements, or
    /// `(key, value)` tuples), as a constant expression.
    pub fn collection_literal(
        &self,
        kind: CollectionKind,
        in_key: bool,
        items: &[TokenStream],
    ) -> TokenStream {
        let ty = self.collection_path(kind, in_key);
        match &self.hasher {
            Some(h) if self.hashed(in_key) => {
                let generics = kind.inferred(h);
                if items.is_empty() {
                    quote!(<#ty<#generics> as ::std::default::Default>::default())
                } else {
                    quote!(<#ty<#generics> as ::std::iter::FromIterator<_>>::from_iter([#(#items),*]))
                }
            }
            _ if items.is_empty() => quote!(#ty::new()),
            _ => quote!(#ty::from([#(#items),*])),
        }
    }

    pub fn derives(&self, id: DefId) -> Derives {
        self.derives.get(&id).copied().unwrap_or_default()
    }

    /// Sets the module that generated code is being emitted into.
    pub fn set_current(&self, file: FileId) {
        self.current.set(Some(file));
    }

    /// The path to a definition from the module being generated (see [`Model::set_current`]):
    /// `Foo` in the same module, `super::other::Foo` otherwise (relative, so the generated tree
    /// can live anywhere in a crate). The first argument, where the name was written, only
    /// matters for lookups, which are done already.
    pub fn path_to(&self, _written_in: FileId, id: DefId) -> TokenStream {
        self.path_to_named(id, self.name(id))
    }

    /// The path to an item named `name` in the module of definition `id` (for the items
    /// generated per service: `FooClient`, `FooAddArgs`…), as [`Model::path_to`].
    pub fn path_to_named(&self, id: DefId, name: &str) -> TokenStream {
        let from = self.current.get().expect("set_current before generating");
        let name = ident::ident(name);
        if let Some(module) = self.externs.get(&id.file) {
            return quote!(#module::#name);
        }
        if from == id.file {
            return quote!(#name);
        }
        let here = self.module_path(from);
        let there = self.module_path(id.file);
        // Up to the closest common ancestor, then down.
        let common = here.iter().zip(there).take_while(|(a, b)| a == b).count();
        let supers = (common..here.len()).map(|_| quote!(super));
        let segments = there[common..].iter().map(|s| ident::ident(s));
        quote!(#(#supers::)* #(#segments::)* #name)
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

    /// Whether this type is spelled differently inside a set element or map key: it holds an
    /// `f64` (ordered wrapper there), or, with [`crate::Collections::Hash`], a set or map
    /// (`BTree…` there). A typedef of such a type names the other form, so it is expanded.
    pub fn has_key_form(&self, file: FileId, ty: &'p Type) -> bool {
        match self.resolve(file, ty) {
            Resolved::Set(..) | Resolved::Map(..) if self.hashed(false) => true,
            Resolved::Base(BaseType::Double) => true,
            Resolved::Base(_) | Resolved::Enum(_) | Resolved::Senum | Resolved::Struct(..) => false,
            Resolved::List(f, e) | Resolved::Set(f, e) => self.has_key_form(f, e),
            Resolved::Map(f, k, v) => self.has_key_form(f, k) || self.has_key_form(f, v),
        }
    }
}

/// Sets or maps, for the [`Model`] helpers that build either.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CollectionKind {
    Set,
    Map,
}

impl CollectionKind {
    fn path(self) -> TokenStream {
        match self {
            CollectionKind::Set => quote!(::std::collections::HashSet),
            CollectionKind::Map => quote!(::std::collections::HashMap),
        }
    }

    fn btree_path(self) -> TokenStream {
        match self {
            CollectionKind::Set => quote!(::std::collections::BTreeSet),
            CollectionKind::Map => quote!(::std::collections::BTreeMap),
        }
    }

    /// The generic arguments with the element types left to inference: `_, H` or `_, _, H`.
    fn inferred(self, hasher: &TokenStream) -> TokenStream {
        match self {
            CollectionKind::Set => quote!(_, #hasher),
            CollectionKind::Map => quote!(_, _, #hasher),
        }
    }
}
