//! Read code that reads a value over the one a place holds (`ThriftRead::decode_into`, the
//! borrowing forms' small lists): lists over their elements, sets and maps over their
//! entries, strings and binaries into their buffers, so that a value decoded again keeps its
//! allocations.

use proc_macro2::{Ident, TokenStream};
use quote::quote;
use thrift_idl_parser::FileId;
use thrift_idl_parser::ast::{BaseType, Type};

use super::read::{is_scalar, read_bytes_into, read_value, vec_push};
use super::val::var;
use crate::emit::fields::in_place_struct;
use crate::emit::scope::Scope;
use crate::emit::types::{element_type, inline_len, wire_type};
use crate::model::Resolved;

/// The statement reading a borrowing form's list field of `ty` into the `SmallVec` at `slot`
/// (a `&mut` expression), replacing its elements where it lives instead of building a new one
/// and moving it there (the move reads the freshly stored words back, a store-forwarding
/// stall on every list); `None` when `ty` is not such a list (see [`inline_len`]).
pub fn read_small_list_into(
    m: &Scope<'_, '_>,
    file: FileId,
    ty: &Type,
    slot: TokenStream,
) -> Option<TokenStream> {
    if !m.borrowed() {
        return None;
    }
    let Resolved::List(f, element) = m.resolve(file, ty) else {
        return None;
    };
    inline_len(m, f, element)?;
    let rt = &m.runtime;
    if is_scalar(m, f, element, false) {
        return Some(quote!(#rt::read_scalar_list_into(r, #slot)?));
    }
    let out = var("items", 0);
    let elem_type = wire_type(m, f, element);
    let push = vec_push(m, f, element, false, 0, &out, false);
    Some(quote! {
        #rt::read_small_list_into(r, #elem_type, #slot, |r, #out| {
            #push;
            ::std::result::Result::Ok(())
        })?
    })
}

/// The statement reading an owned form's list of `ty` into the `Vec` at `slot` (a `&mut`
/// expression) where it lives, so that a value decoded again keeps its allocations
/// (`ThriftRead::decode_into`): over its old elements when they hold allocations to keep
/// (the runtime's `read_list_into`), else refilled (`read_list_refill`, the vector's capacity
/// kept); `None` when `ty` is not such a list. `depth` is the list's nesting depth (for the
/// names of locals).
pub fn read_list_over(
    m: &Scope<'_, '_>,
    file: FileId,
    ty: &Type,
    slot: TokenStream,
    depth: usize,
) -> Option<TokenStream> {
    if m.borrowed() {
        return None;
    }
    let Resolved::List(f, element) = m.resolve(file, ty) else {
        return None;
    };
    let rt = &m.runtime;
    if is_scalar(m, f, element, false) {
        return Some(quote!(#rt::read_scalar_list_into(r, #slot)?));
    }
    let (item, out) = (var("item", depth), var("items", depth));
    let elem_type = wire_type(m, f, element);
    // Elements whose `read_into` reads in place: one runtime call.
    let std_string = m.mapping().strings == crate::options::Strings::Std
        && matches!(
            m.resolve(f, element),
            Resolved::Base(BaseType::String | BaseType::Slist) | Resolved::Senum
        );
    if in_place_struct(m, f, element).is_some() || std_string {
        let elem_rust = element_type(m, f, element, false);
        return Some(quote!(#rt::read_list_reusing::<#elem_rust, _>(r, #elem_type, #slot)?));
    }
    let add = vec_push(m, f, element, false, depth, &out, false);
    let add = quote! {
        |r, #out| {
            #add;
            ::std::result::Result::Ok(())
        }
    };
    // Strings and binaries of the other mappings into their buffers, lists over their
    // elements, sets and maps over their entries.
    let over = read_bytes_into(m, f, element, quote!(#item))
        .or_else(|| read_list_over(m, f, element, quote!(#item), depth + 1))
        .or_else(|| read_collection_over(m, f, element, quote!(#item), depth + 1));
    Some(match over {
        Some(over) => quote! {
            #rt::read_list_into(
                r,
                #elem_type,
                #slot,
                |r, #item| {
                    #over;
                    ::std::result::Result::Ok(())
                },
                #add,
            )?
        },
        None => quote!(#rt::read_list_refill(r, #elem_type, #slot, #add)?),
    })
}

/// The statement reading an owned form's set or map of `ty` into the collection at `slot` (a
/// `&mut` expression) where it lives (the runtime's `read_set_into`, `read_map_into`): a
/// `BTreeMap` or `BTreeSet` decoded again with the same keys allocates nothing, and entries
/// are read over old ones, so that `ThriftRead::decode_into` keeps the allocations of their
/// strings and nested values. `None` when `ty` is not a set or map, or in a borrowing form.
/// `depth` is the collection's nesting depth (for the names of locals).
pub fn read_collection_over(
    m: &Scope<'_, '_>,
    file: FileId,
    ty: &Type,
    slot: TokenStream,
    depth: usize,
) -> Option<TokenStream> {
    if m.borrowed() {
        return None;
    }
    let rt = &m.runtime;
    let ok = quote!(::std::result::Result::Ok);
    match m.resolve(file, ty) {
        Resolved::Set(f, element) => {
            let item = var("item", depth);
            let elem_type = wire_type(m, f, element);
            let fresh = read_value(m, f, element, true, depth + 1);
            let over = read_bytes_into(m, f, element, quote!(#item))
                .unwrap_or_else(|| quote!(*#item = #fresh));
            let elem_eq = read_if_new(m, f, element, &item, &fresh);
            Some(quote! {
                #rt::read_set_into(
                    r,
                    #elem_type,
                    #slot,
                    #elem_eq,
                    |r, #item| {
                        #over;
                        #ok(())
                    },
                    |r| {
                        let #item = #fresh;
                        #ok(#item)
                    },
                )?
            })
        }
        Resolved::Map(f, key, val) => {
            let (k, v) = (var("key", depth), var("value", depth));
            let (key_type, value_type) = (wire_type(m, f, key), wire_type(m, f, val));
            let read_key = read_value(m, f, key, true, depth + 1);
            let read_val = read_value(m, f, val, false, depth + 1);
            let key_over =
                read_bytes_into(m, f, key, quote!(#k)).unwrap_or_else(|| quote!(*#k = #read_key));
            let value_over = read_value_over(m, f, val, quote!(#v), depth + 1)
                .unwrap_or_else(|| quote!(*#v = #read_val));
            let key_eq = read_if_new(m, f, key, &k, &read_key);
            Some(quote! {
                #rt::read_map_into(
                    r,
                    #key_type,
                    #value_type,
                    #slot,
                    #key_eq,
                    |r, #k| {
                        #key_over;
                        #ok(())
                    },
                    |r, #v| {
                        #value_over;
                        #ok(())
                    },
                    |r, #k| {
                        let #k = match #k {
                            ::std::option::Option::Some(#k) => #k,
                            ::std::option::Option::None => #read_key,
                        };
                        #ok((#k, #read_val))
                    },
                )?
            })
        }
        _ => None,
    }
}

/// The function (a runtime path or a closure) that compares a set's next element or a map's
/// next key of `ty` with the old one it is given (the runtime's `Compared`): strings and
/// binaries held in buffers of their own on the input's bytes (`compare_bytes`, through
/// `read_binary_if_eq`: read only when the same, nothing allocated; else left for a read over
/// an old one), scalars and enums read and compared. Other keys (structs, containers, and the
/// shared `ByteString` and `Bytes`, which would otherwise keep the old input alive) are left
/// unread (`unread`), and their collection is built again over its old entries.
fn read_if_new(
    m: &Scope<'_, '_>,
    file: FileId,
    ty: &Type,
    old: &Ident,
    read: &TokenStream,
) -> TokenStream {
    use crate::options::Strings;
    let rt = &m.runtime;
    let strings = m.mapping().strings;
    match m.resolve(file, ty) {
        Resolved::Base(BaseType::String | BaseType::Slist) | Resolved::Senum
            if strings != Strings::Bytes =>
        {
            quote!(#rt::compare_bytes)
        }
        Resolved::Base(BaseType::Binary) if strings == Strings::Std => quote!(#rt::compare_bytes),
        Resolved::Base(
            BaseType::Bool
            | BaseType::I8
            | BaseType::I16
            | BaseType::I32
            | BaseType::I64
            | BaseType::Double
            | BaseType::Uuid,
        )
        | Resolved::Enum(_) => quote! {
            |r, #old| ::std::result::Result::Ok(#rt::Compared::of(#read, #old))
        },
        _ => quote!(#rt::unread),
    }
}

/// The statement reading a map's value of `ty` over the old one at `slot` (a `&mut`
/// expression), keeping its allocations: a struct read in place, a string or binary into its
/// buffer, a list, set or map over its elements; `None` when `ty` holds nothing to keep.
fn read_value_over(
    m: &Scope<'_, '_>,
    file: FileId,
    ty: &Type,
    slot: TokenStream,
    depth: usize,
) -> Option<TokenStream> {
    let rt = &m.runtime;
    if let Some(path) = in_place_struct(m, file, ty) {
        return Some(quote!(<#path as #rt::ThriftRead<'de>>::read_into(r, #slot)?));
    }
    read_bytes_into(m, file, ty, slot.clone())
        .or_else(|| read_list_over(m, file, ty, slot.clone(), depth))
        .or_else(|| read_collection_over(m, file, ty, slot, depth))
}
