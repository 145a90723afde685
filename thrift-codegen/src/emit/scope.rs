//! Where code is being emitted: the module being generated, whether for the borrowing forms,
//! and the string and collection mapping of the field at hand. The [`Model`] holds the facts
//! of the program and does not change while code is emitted; a [`Scope`] is that place, made
//! anew (and cheaply: it is `Copy`) where it changes, and builds the tokens that depend on it
//! (paths relative to the module, string and collection types).

use std::ops::Deref;

use proc_macro2::TokenStream;
use quote::quote;
use thrift_idl_parser::ast::{BaseType, Type};
use thrift_idl_parser::{DefId, FileId};

use crate::ident;
use crate::model::{Mapping, Model, Resolved};

/// A place in the generated code (see the module docs). Derefs to the [`Model`].
#[derive(Clone, Copy)]
pub struct Scope<'m, 'p> {
    model: &'m Model<'p>,
    /// The file whose module is being generated: paths are relative to it.
    file: FileId,
    /// Whether the borrowing forms are being generated.
    borrowed: bool,
    /// The mapping of the field whose code is being generated (see [`Scope::in_field`]).
    field: Option<Mapping>,
}

impl<'p> Deref for Scope<'_, 'p> {
    type Target = Model<'p>;

    fn deref(&self) -> &Model<'p> {
        self.model
    }
}

impl<'m, 'p> Scope<'m, 'p> {
    /// The module of `file`, its owned forms, outside any field.
    pub fn new(model: &'m Model<'p>, file: FileId) -> Scope<'m, 'p> {
        Scope {
            model,
            file,
            borrowed: false,
            field: None,
        }
    }

    /// This place, generating the borrowing forms (`&'de str`, `&'de [u8]`, `…Ref<'de>`,
    /// containers as `Vec`s) when `borrowed`.
    pub fn with_borrowed(&self, borrowed: bool) -> Scope<'m, 'p> {
        Scope { borrowed, ..*self }
    }

    /// Whether the borrowing forms are being generated.
    pub fn borrowed(&self) -> bool {
        self.borrowed
    }

    /// Whether arena mode's borrowing forms are being generated (`Builder::arena`):
    /// containers as slices of the arena, boxed and optional structs as references into it.
    pub fn arena(&self) -> bool {
        self.borrowed && self.options.arena
    }

    /// Whether field `index` of struct `id` is held boxed in the form being generated: a
    /// `Box` (it breaks a recursion, or was asked for), or in arena mode's borrowing forms a
    /// reference into the arena ([`Model::by_reference`]: boxed and optional structs).
    pub fn is_boxed(&self, id: DefId, index: usize) -> bool {
        if self.arena() {
            self.model.by_reference(id, index)
        } else {
            self.model.is_boxed(id, index)
        }
    }

    /// The type of a boxed field holding `ty` ([`Scope::is_boxed`]): `Box<ty>`, or in arena
    /// mode's borrowing forms `&'de ty`.
    pub fn boxed_type(&self, ty: &TokenStream) -> TokenStream {
        if self.arena() {
            quote!(&'de #ty)
        } else {
            quote!(::std::boxed::Box<#ty>)
        }
    }

    /// The expression boxing `value`, just read with reader `r`, for a boxed field
    /// ([`Scope::is_boxed`]): `Box::new(value)`, or in arena mode's borrowing forms `value`
    /// moved into the reader's arena.
    pub fn boxed_read(&self, value: &TokenStream) -> TokenStream {
        if self.arena() {
            let rt = &self.runtime;
            quote! {{
                let value = #value;
                #rt::arena_value(r, value)?
            }}
        } else {
            quote!(::std::boxed::Box::new(#value))
        }
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

    /// The mapping in effect: the field's whose code is being generated, else the global one.
    pub fn mapping(&self) -> Mapping {
        self.field.unwrap_or_else(|| self.model.global_mapping())
    }

    /// Generates code for field `index` of struct `id` in `f`: its own string and collection
    /// mapping is in effect there. Every piece of code about a field's value (its type, read,
    /// write, size, default, conversion, derives) is made inside this.
    pub fn in_field<T>(&self, id: DefId, index: usize, f: impl FnOnce(&Scope<'m, 'p>) -> T) -> T {
        let field = Scope {
            field: self.model.field_mapping(id, index),
            ..*self
        };
        f(&field)
    }

    /// Whether a type written as `ty` names (through a typedef) something whose Rust type the
    /// mapping in effect changes, while that mapping is not the global one: then the typedef,
    /// which names the global form, is expanded.
    pub fn differs_here(&self, file: FileId, ty: &'p Type) -> bool {
        let Some(here) = self.field else {
            return false;
        };
        let strings = here.strings != self.options.strings;
        let collections = here.collections != self.options.collections;
        fn walk(
            m: &Scope<'_, '_>,
            file: FileId,
            ty: &Type,
            strings: bool,
            collections: bool,
        ) -> bool {
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
            crate::options::Strings::Std => quote::quote!(::std::string::String),
            crate::options::Strings::Bytes => quote::quote!(#rt::ByteString),
            crate::options::Strings::Compact => quote::quote!(#rt::CompactString),
        }
    }

    /// The owned type of `binary` values.
    pub fn binary_type(&self) -> TokenStream {
        let rt = &self.runtime;
        match self.mapping().strings {
            crate::options::Strings::Std => quote::quote!(::std::vec::Vec<u8>),
            crate::options::Strings::Bytes | crate::options::Strings::Compact => {
                quote::quote!(#rt::Bytes)
            }
        }
    }

    /// The reader call for an owned `string`.
    pub fn read_string(&self) -> TokenStream {
        match self.mapping().strings {
            crate::options::Strings::Std => quote::quote!(r.read_string()?),
            crate::options::Strings::Bytes => quote::quote!(r.read_byte_string()?),
            crate::options::Strings::Compact => quote::quote!(r.read_compact_string()?),
        }
    }

    /// The statement reading an owned `string` into the place `slot` (a `&mut` expression),
    /// replacing its contents where it lives (`read_string_into`, `read_byte_string_into`,
    /// `read_compact_string_into`) instead of returned and moved there.
    pub fn read_string_into(&self, slot: TokenStream) -> TokenStream {
        match self.mapping().strings {
            crate::options::Strings::Std => quote::quote!(r.read_string_into(#slot)?),
            crate::options::Strings::Bytes => quote::quote!(r.read_byte_string_into(#slot)?),
            crate::options::Strings::Compact => quote::quote!(r.read_compact_string_into(#slot)?),
        }
    }

    /// The reader call for an owned `binary`.
    pub fn read_binary(&self) -> TokenStream {
        match self.mapping().strings {
            crate::options::Strings::Std => quote::quote!(r.read_binary()?),
            crate::options::Strings::Bytes | crate::options::Strings::Compact => {
                quote::quote!(r.read_shared_bytes()?)
            }
        }
    }

    /// The statement reading an owned `binary` into the place `slot` (a `&mut` expression),
    /// replacing it where it lives (`read_binary_into`: the old buffer kept when large enough;
    /// `read_shared_bytes_into`) instead of returned and moved there.
    pub fn read_binary_into(&self, slot: TokenStream) -> TokenStream {
        match self.mapping().strings {
            crate::options::Strings::Std => quote::quote!(r.read_binary_into(#slot)?),
            crate::options::Strings::Bytes | crate::options::Strings::Compact => {
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
            crate::options::Strings::Std => quote::quote!(#ty::from(#lit)),
            crate::options::Strings::Bytes => quote::quote!(#ty::from_static(#lit)),
            crate::options::Strings::Compact => quote::quote!(#ty::const_new(#lit)),
        }
    }

    /// An owned binary from a `&[u8]` expression (a copy).
    pub fn binary_from(&self, b: TokenStream) -> TokenStream {
        let rt = &self.runtime;
        match self.mapping().strings {
            crate::options::Strings::Std => quote::quote!(#b.to_vec()),
            crate::options::Strings::Bytes | crate::options::Strings::Compact => {
                quote::quote!(#rt::Bytes::copy_from_slice(#b))
            }
        }
    }

    /// An owned binary from a string literal (`from_static` for `Bytes`: no copy).
    pub fn binary_literal(&self, lit: &str) -> TokenStream {
        let rt = &self.runtime;
        match self.mapping().strings {
            crate::options::Strings::Std => quote::quote!(#lit.as_bytes().to_vec()),
            crate::options::Strings::Bytes | crate::options::Strings::Compact => {
                quote::quote!(#rt::Bytes::from_static(#lit.as_bytes()))
            }
        }
    }

    /// Whether a set or map outside key positions is a `HashSet`/`HashMap`.
    pub fn hashed(&self, in_key: bool) -> bool {
        self.mapping().hashed(in_key)
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
        match self.model.hasher() {
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
        match self.model.hasher() {
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
        match self.model.hasher() {
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

    /// The path to a definition from the module being generated (see [`Scope::new`]):
    /// `Foo` in the same module, `super::other::Foo` otherwise (relative, so the generated tree
    /// can live anywhere in a crate). The first argument, where the name was written, only
    /// matters for lookups, which are done already.
    pub fn path_to(&self, _written_in: FileId, id: DefId) -> TokenStream {
        self.path_to_named(id, self.name(id))
    }

    /// The path to an item named `name` in the module of definition `id` (for the items
    /// generated per service: `FooClient`, `FooAddArgs`…), as [`Scope::path_to`].
    pub fn path_to_named(&self, id: DefId, name: &str) -> TokenStream {
        let from = self.file;
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

    /// Whether this type is spelled differently inside a set element or map key: it holds an
    /// `f64` (ordered wrapper there), or, with [`crate::options::Collections::Hash`], a set or map
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
