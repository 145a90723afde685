//! IDL types as Rust types, and their wire types.

use proc_macro2::TokenStream;
use quote::quote;
use thrift_idl_parser::FileId;
use thrift_idl_parser::ast::{BaseType, StructKind, Type, TypeKind};

use super::scope::Scope;
use crate::model::Resolved;

/// The Rust type of a value of `ty` written in `file`. `in_key`: inside a set element or map
/// key, where `f64` becomes the runtime's ordered float so the collection can be ordered.
pub fn rust_type(m: &Scope<'_, '_>, file: FileId, ty: &Type, in_key: bool) -> TokenStream {
    if m.borrowed() {
        return borrowed_type(m, file, ty, true);
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

/// The Rust type of an element, key or value of a container of `ty`s: [`rust_type`], but in a
/// borrowing form a container inside a container is a `Vec` (see [`borrowed_type`]).
pub fn element_type(m: &Scope<'_, '_>, file: FileId, ty: &Type, in_key: bool) -> TokenStream {
    if m.borrowed() {
        borrowed_type(m, file, ty, false)
    } else {
        rust_type(m, file, ty, in_key)
    }
}

/// The type in a borrowing form: strings and binaries borrowed from the input (`&'de str`,
/// `&'de [u8]`), structs that borrow as their `…Ref<'de>`, lists and sets as vectors, maps as
/// vectors of pairs (decoding them needs no hashing, ordering or per-entry allocation).
/// Typedefs are expanded: an alias names the owned form.
///
/// The vector a field holds (`top`) is a `SmallVec` with inline room when its elements are
/// small ([`inline_len`]), a `Vec` otherwise. A container inside a container is always a
/// `Vec`: an empty one takes one byte on the wire, and 24 bytes in memory as a `Vec` but 56 as
/// a `SmallVec`, which would more than double what a list of empty lists makes a decoder
/// allocate per input byte.
fn borrowed_type(m: &Scope<'_, '_>, file: FileId, ty: &Type, top: bool) -> TokenStream {
    match m.resolve(file, ty) {
        Resolved::Base(BaseType::String | BaseType::Slist) | Resolved::Senum => quote!(&'de str),
        Resolved::Base(BaseType::Binary) => quote!(&'de [u8]),
        Resolved::Base(base) => base_type(m, base, false),
        Resolved::Enum(id) => m.path_to(file, id),
        Resolved::Struct(id, _) if m.is_borrowing(id) => m.ref_path(id),
        Resolved::Struct(id, _) => m.path_to(file, id),
        // Arena mode: slices of the arena.
        Resolved::List(f, e) | Resolved::Set(f, e) if m.arena() => {
            let e = borrowed_type(m, f, e, false);
            quote!(&'de [#e])
        }
        Resolved::Map(f, k, v) if m.arena() => {
            let (k, v) = (borrowed_type(m, f, k, false), borrowed_type(m, f, v, false));
            quote!(&'de [(#k, #v)])
        }
        Resolved::List(f, e) | Resolved::Set(f, e) => {
            let inline = inline_len(m, f, e).filter(|_| top);
            let e = borrowed_type(m, f, e, false);
            borrowed_vec(m, &e, inline)
        }
        Resolved::Map(f, k, v) => {
            let inline = inline_pair_len(m, f, k, v).filter(|_| top);
            let (k, v) = (borrowed_type(m, f, k, false), borrowed_type(m, f, v, false));
            borrowed_vec(m, &quote!((#k, #v)), inline)
        }
    }
}

/// A borrowing form's vector of `element`s: `SmallVec<[element; n]>` with `inline` = `n`,
/// else `Vec<element>`.
pub fn borrowed_vec(
    m: &Scope<'_, '_>,
    element: &TokenStream,
    inline: Option<usize>,
) -> TokenStream {
    let rt = &m.runtime;
    match inline {
        Some(n) => {
            let n = proc_macro2::Literal::usize_unsuffixed(n);
            quote!(#rt::SmallVec<[#element; #n]>)
        }
        None => quote!(::std::vec::Vec<#element>),
    }
}

/// The inline room of a borrowing form's containers, in bytes: a short list of small elements
/// (a Parquet column's encodings, its path, its page encoding counts, a definition-level
/// histogram) is decoded without allocating. A vector with this room takes 56 bytes, a `Vec`
/// 24.
const INLINE_BYTES: usize = 48;
/// The most elements held inline, however small.
const INLINE_MAX: usize = 16;

/// How many elements of `ty` a borrowing form's list or set field holds inline (`SmallVec`), or
/// `None` for a `Vec`: elements whose size is known here (scalars, enums, strings and
/// binaries as slices, structs of only those), at least two of them in [`INLINE_BYTES`].
pub fn inline_len(m: &Scope<'_, '_>, file: FileId, ty: &Type) -> Option<usize> {
    if m.arena() {
        // Arena mode's containers are slices: no inline room.
        return None;
    }
    borrowed_layout(m, file, ty).and_then(|(size, _)| inline_for(size))
}

/// [`inline_len`] for a borrowing form's map, a vector of `(key, value)` pairs.
pub fn inline_pair_len(m: &Scope<'_, '_>, file: FileId, key: &Type, value: &Type) -> Option<usize> {
    if m.arena() {
        return None;
    }
    let (key_size, key_align) = borrowed_layout(m, file, key)?;
    let (value_size, value_align) = borrowed_layout(m, file, value)?;
    inline_for((key_size + value_size).next_multiple_of(key_align.max(value_align)))
}

fn inline_for(size: usize) -> Option<usize> {
    if size == 0 {
        // A `Vec` of zero-sized values never allocates.
        return None;
    }
    let n = (INLINE_BYTES / size).min(INLINE_MAX);
    (n >= 2).then_some(n)
}

/// Size and alignment of `ty` in a borrowing form, where they are known without the
/// compiler: scalars, enums (an `i32`), strings and binaries (slices), and structs whose
/// fields are all of those (Rust orders their fields to leave no padding). `None` otherwise.
fn borrowed_layout(m: &Scope<'_, '_>, file: FileId, ty: &Type) -> Option<(usize, usize)> {
    match m.resolve(file, ty) {
        Resolved::Base(base) => Some(match base {
            BaseType::Bool | BaseType::I8 => (1, 1),
            BaseType::I16 => (2, 2),
            BaseType::I32 => (4, 4),
            BaseType::I64 | BaseType::Double => (8, 8),
            BaseType::Uuid => (16, 1),
            BaseType::String | BaseType::Slist | BaseType::Binary => (16, 8),
        }),
        Resolved::Enum(_) => Some((4, 4)),
        Resolved::Senum => Some((16, 8)),
        Resolved::Struct(id, s) => {
            if s.kind == StructKind::Union || m.keeps_unknown(id) {
                return None;
            }
            let (mut size, mut align) = (0, 1);
            for (index, field) in s.fields.iter().enumerate() {
                // Whether `Option` of the field's type needs no tag (a niche in the value).
                let niche = match m.resolve(id.file, &field.ty) {
                    Resolved::Base(
                        BaseType::Bool | BaseType::String | BaseType::Slist | BaseType::Binary,
                    )
                    | Resolved::Senum => true,
                    Resolved::Base(_) | Resolved::Enum(_) => false,
                    _ => return None,
                };
                if m.is_boxed(id, index) {
                    return None;
                }
                let (field_size, field_align) = borrowed_layout(m, id.file, &field.ty)?;
                size += if m.holds_as_option(id, index) && !niche {
                    // The tag, padded to the value's alignment.
                    field_size + field_align
                } else {
                    field_size
                };
                align = align.max(field_align);
            }
            Some((size.next_multiple_of(align), align))
        }
        Resolved::List(..) | Resolved::Set(..) | Resolved::Map(..) => None,
    }
}

/// The Rust type of `ty` with typedefs expanded at the top level.
fn resolved_type(m: &Scope<'_, '_>, file: FileId, ty: &Type, in_key: bool) -> TokenStream {
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

fn base_type(m: &Scope<'_, '_>, base: BaseType, in_key: bool) -> TokenStream {
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
pub fn wire_type(m: &Scope<'_, '_>, file: FileId, ty: &Type) -> TokenStream {
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
