//! IDL types as Rust types, and their wire types.

use proc_macro2::TokenStream;
use quote::quote;
use thrift_parser::ast::{BaseType, Type, TypeKind};
use thrift_parser::FileId;

use crate::model::{Model, Resolved};

/// The Rust type of a value of `ty` written in `file`. `in_key`: inside a set element or map
/// key, where `f64` becomes the runtime's ordered float so the collection can be ordered.
pub fn rust_type(m: &Model<'_>, file: FileId, ty: &Type, in_key: bool) -> TokenStream {
    if m.borrowed() {
        return borrowed_type(m, file, ty);
    }
    match &ty.kind {
        TypeKind::Base(base) => base_type(m, *base, in_key),
        TypeKind::Named(name) => {
            if in_key && m.has_key_form(file, ty) {
                // An alias would name the plain `f64` form: spell the key form out.
                return resolved_type(m, file, ty, true);
            }
            if m.differs_here(file, ty) {
                // An alias names the global mapping's form; this field maps otherwise.
                return resolved_type(m, file, ty, in_key);
            }
            match m.resolve(file, ty) {
                Resolved::Senum => m.string_type(),
                _ => m.path_to(file, m.lookup(file, &name.name)),
            }
        }
        TypeKind::List { element, .. } => {
            let element = rust_type(m, file, element, in_key);
            quote!(::std::vec::Vec<#element>)
        }
        TypeKind::Set { element, .. } => {
            let element = rust_type(m, file, element, true);
            m.set_type(&element, in_key)
        }
        TypeKind::Map { key, value, .. } => {
            let key = rust_type(m, file, key, true);
            let value = rust_type(m, file, value, in_key);
            m.map_type(&key, &value, in_key)
        }
    }
}

/// The type in a borrowing form: strings and binaries borrowed from the input (`&'de str`,
/// `&'de [u8]`), structs that borrow as their `…Ref<'de>`, lists and sets as `Vec`s, maps as
/// `Vec`s of pairs (decoding them needs no hashing, ordering or per-entry allocation).
/// Typedefs are expanded: an alias names the owned form.
fn borrowed_type(m: &Model<'_>, file: FileId, ty: &Type) -> TokenStream {
    match m.resolve(file, ty) {
        Resolved::Base(BaseType::String | BaseType::Slist) | Resolved::Senum => quote!(&'de str),
        Resolved::Base(BaseType::Binary) => quote!(&'de [u8]),
        Resolved::Base(base) => base_type(m, base, false),
        Resolved::Enum(id) => m.path_to(file, id),
        Resolved::Struct(id, _) if m.is_borrowing(id) => m.ref_path(id),
        Resolved::Struct(id, _) => m.path_to(file, id),
        Resolved::List(f, e) | Resolved::Set(f, e) => {
            let e = borrowed_type(m, f, e);
            quote!(::std::vec::Vec<#e>)
        }
        Resolved::Map(f, k, v) => {
            let (k, v) = (borrowed_type(m, f, k), borrowed_type(m, f, v));
            quote!(::std::vec::Vec<(#k, #v)>)
        }
    }
}

/// The Rust type of `ty` with typedefs expanded at the top level.
fn resolved_type(m: &Model<'_>, file: FileId, ty: &Type, in_key: bool) -> TokenStream {
    match m.resolve(file, ty) {
        Resolved::Base(base) => base_type(m, base, in_key),
        Resolved::Enum(id) | Resolved::Struct(id, _) => m.path_to(file, id),
        Resolved::Senum => m.string_type(),
        Resolved::List(f, e) => {
            let e = rust_type(m, f, e, in_key);
            quote!(::std::vec::Vec<#e>)
        }
        Resolved::Set(f, e) => {
            let e = rust_type(m, f, e, true);
            m.set_type(&e, in_key)
        }
        Resolved::Map(f, k, v) => {
            let k = rust_type(m, f, k, true);
            let v = rust_type(m, f, v, in_key);
            m.map_type(&k, &v, in_key)
        }
    }
}

fn base_type(m: &Model<'_>, base: BaseType, in_key: bool) -> TokenStream {
    let rt = &m.runtime;
    match base {
        BaseType::Bool => quote!(bool),
        BaseType::I8 => quote!(i8),
        BaseType::I16 => quote!(i16),
        BaseType::I32 => quote!(i32),
        BaseType::I64 => quote!(i64),
        BaseType::Double if in_key => quote!(#rt::OrderedF64),
        BaseType::Double => quote!(f64),
        BaseType::String | BaseType::Slist => m.string_type(),
        BaseType::Binary => m.binary_type(),
        BaseType::Uuid => quote!([u8; 16]),
    }
}

/// `TType::…` of a value of `ty` on the wire.
pub fn wire_type(m: &Model<'_>, file: FileId, ty: &Type) -> TokenStream {
    let rt = &m.runtime;
    let variant = match m.resolve(file, ty) {
        Resolved::Base(base) => match base {
            BaseType::Bool => quote!(Bool),
            BaseType::I8 => quote!(I8),
            BaseType::I16 => quote!(I16),
            BaseType::I32 => quote!(I32),
            BaseType::I64 => quote!(I64),
            BaseType::Double => quote!(Double),
            BaseType::String | BaseType::Slist | BaseType::Binary => quote!(String),
            BaseType::Uuid => quote!(Uuid),
        },
        Resolved::Enum(_) => quote!(I32),
        Resolved::Senum => quote!(String),
        Resolved::Struct(..) => quote!(Struct),
        Resolved::List(..) => quote!(List),
        Resolved::Set(..) => quote!(Set),
        Resolved::Map(..) => quote!(Map),
    };
    quote!(#rt::TType::#variant)
}

/// Whether clippy's `type_complexity` lint (default threshold 250) fires on this type, by
/// clippy's own measure: every path, array, slice or tuple type scores 10 times its nesting
/// depth. Deeply nested IDL containers can exceed it; such items get a targeted `allow`.
pub fn is_too_complex(ty: &TokenStream) -> bool {
    fn score(ty: &syn::Type, nest: u64) -> u64 {
        match ty {
            syn::Type::Path(p) => {
                10 * nest
                    + p.path
                        .segments
                        .iter()
                        .flat_map(|s| match &s.arguments {
                            syn::PathArguments::AngleBracketed(a) => {
                                a.args.iter().collect::<Vec<_>>()
                            }
                            _ => Vec::new(),
                        })
                        .map(|arg| match arg {
                            syn::GenericArgument::Type(t) => score(t, nest + 1),
                            _ => 0,
                        })
                        .sum::<u64>()
            }
            syn::Type::Array(a) => 10 * nest + score(&a.elem, nest + 1),
            syn::Type::Slice(s) => 10 * nest + score(&s.elem, nest + 1),
            syn::Type::Tuple(t) => {
                10 * nest + t.elems.iter().map(|e| score(e, nest + 1)).sum::<u64>()
            }
            syn::Type::Reference(r) => 1 + score(&r.elem, nest),
            _ => 1,
        }
    }
    syn::parse2::<syn::Type>(ty.clone()).is_ok_and(|t| score(&t, 1) > 250)
}

/// `#[allow(clippy::type_complexity)]` when [`is_too_complex`], nothing otherwise.
pub fn complexity_allow(ty: &TokenStream) -> TokenStream {
    if is_too_complex(ty) {
        quote!(#[allow(clippy::type_complexity)])
    } else {
        TokenStream::new()
    }
}
