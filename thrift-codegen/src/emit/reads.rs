//! Reading structs and exceptions (`ThriftRead`): a fast path that expects the fields in id
//! order, as every writer emits them (each header compared with a constant), then a general
//! loop matching `(field id, wire type)`. A struct whose `Default` allocates nothing is read in
//! place (`read_into`, see [`reads_in_place`]); others into locals, then built. Both forms
//! share the per-field reads ([`every_field_read`]).

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use thrift_idl_parser::DefId;
use thrift_idl_parser::ast::{Field, Requiredness, Struct};

use super::codec::{
    read_bytes_into, read_collection_over, read_list_over, read_small_list_into, read_struct_body,
    read_value,
};
use super::fields::{
    Holding, Target, default_value, holding, idl_default, in_place_struct, reads_in_place,
    sorted_fields,
};
use super::names::unknown_fields_name;
use super::scope::Scope;
use super::types::wire_type;
use crate::ident;
use crate::model::Resolved;

/// [`sorted_fields`] with the id of the field before each one (0 before the first: what a
/// reader's last field id is at a struct's start), for `read_field_after`.
fn in_order_fields(s: &Struct) -> Vec<(usize, &Field, i16)> {
    let mut prev = 0;
    sorted_fields(s)
        .into_iter()
        .map(|(index, field)| (index, field, std::mem::replace(&mut prev, field.id)))
        .collect()
}

pub fn read_impl(
    m: &Scope<'_, '_>,
    id: DefId,
    s: &Struct,
    names: &[String],
    target: &Target,
) -> TokenStream {
    if reads_in_place(m, id) {
        return read_in_place_impl(m, id, s, names, target);
    }
    let key = m.is_key_struct(id) && !m.borrowed();
    let rt = &m.runtime;
    let (name, ctor) = (&target.ty, &target.ctor);
    let idl_name = &s.name.name;
    let locals: Vec<_> = names
        .iter()
        .map(|n| format_ident!("f_{}", n.trim_start_matches("r#")))
        .collect();

    let unknown = Unknown::new(m, id, s, names, false);
    let declarations = locals
        .iter()
        .enumerate()
        .filter(|(index, _)| !m.is_skipped(id, *index))
        .map(|(_, local)| quote!(let mut #local = ::std::option::Option::None;))
        .chain(unknown.as_ref().map(|u| {
            u.declarations(quote! {
                let mut unknown = #rt::UnknownFields::new();
            })
        }));
    let (in_order, arms) = every_field_read(m, id, s, unknown.as_ref(), |index, field| {
        let local = &locals[index];
        let read = read_field(m, id, index, field, key);
        quote!(#local = ::std::option::Option::Some(#read);)
    });
    let inits = s.fields.iter().enumerate().map(|(index, field)| {
        let field_name = ident::ident(&names[index]);
        let local = &locals[index];
        let idl_field = &field.name.name;
        if m.is_skipped(id, index) {
            let value = absent_value(m, id, index, field);
            return quote!(#field_name: #value);
        }
        let value = match (field.requiredness, holding(m, id, index, field)) {
            (Requiredness::Required, _) => {
                quote!(#local.ok_or_else(|| #rt::Error::missing_required_field(#idl_name, #idl_field))?)
            }
            (_, Holding::Optional) => quote!(#local),
            _ => match idl_default(m, id, index, field) {
                Some(_) => {
                    let default = default_value(m, id, index, field);
                    if !super::consts::has_call(&default) {
                        quote!(#local.unwrap_or(#default))
                    } else {
                        quote!(#local.unwrap_or_else(|| #default))
                    }
                }
                None => quote!(#local.unwrap_or_default()),
            },
        };
        quote!(#field_name: #value)
    });
    let inits = inits.chain(unknown.as_ref().map(|u| {
        let member = &u.member;
        quote!(#member: unknown)
    }));
    let settle = unknown.as_ref().map(Unknown::settle);
    let body = read_struct_body(
        m,
        quote!(#(#declarations)*),
        &in_order,
        &arms,
        quote! {
            #settle
            ::std::result::Result::Ok(#ctor { #(#inits),* })
        },
        unknown.as_ref().map(Unknown::fallback),
    );
    quote! {
        impl<'de> #rt::ThriftRead<'de> for #name {
            fn read<R: #rt::ProtocolReader<'de>>(r: &mut R) -> #rt::Result<Self> {
                #body
            }
        }
    }
}

/// The expression reading field `index` of struct `id` (boxed when the field is; in arena
/// mode a struct read in place is read where it lives in the arena).
fn read_field(m: &Scope<'_, '_>, id: DefId, index: usize, field: &Field, key: bool) -> TokenStream {
    if !m.is_boxed(id, index) {
        return m.in_field(id, index, |m| read_value(m, id.file, &field.ty, key, 0));
    }
    if m.arena() {
        if let Some(path) = in_place_struct(m, id.file, &field.ty) {
            let rt = &m.runtime;
            return quote!(#rt::arena_read::<#path, _>(r)?);
        }
    }
    let read = m.in_field(id, index, |m| read_value(m, id.file, &field.ty, key, 0));
    m.boxed_read(&read)
}

/// Every field's reads, in id order: for the fast path and as the general loop's arms (see
/// [`field_reads`]). `store(index, field)` is what reading field `index` does; a struct that
/// keeps unknown fields also counts the known ones read; a skipped field is read past.
fn every_field_read(
    m: &Scope<'_, '_>,
    id: DefId,
    s: &Struct,
    unknown: Option<&Unknown>,
    mut store: impl FnMut(usize, &Field) -> TokenStream,
) -> (Vec<TokenStream>, Vec<TokenStream>) {
    in_order_fields(s)
        .into_iter()
        .enumerate()
        .map(|(position, (index, field, prev))| {
            if m.is_skipped(id, index) {
                return skipped_field_reads(m, id, field, prev);
            }
            let read = store(index, field);
            let after = unknown.map(|u| u.seen(position));
            field_reads(m, id, field, prev, quote!(#read #after))
        })
        .unzip()
}

/// A field's `store` statements twice: in the in-order fast path (fields in id order, as
/// every writer emits them, each header compared with a constant) and as an arm of the general
/// loop's match on `(field id, wire type)`.
fn field_reads(
    m: &Scope<'_, '_>,
    id: DefId,
    field: &Field,
    prev: i16,
    store: TokenStream,
) -> (TokenStream, TokenStream) {
    let field_id = proc_macro2::Literal::i16_unsuffixed(field.id);
    let prev = proc_macro2::Literal::i16_unsuffixed(prev);
    let ttype = wire_type(m, id.file, &field.ty);
    (
        quote! {
            if r.read_field_after(#ttype, #field_id, #prev) {
                #store
                r.read_field_end()?;
            }
        },
        quote!((#field_id, #ttype) => { #store }),
    )
}

/// The value of a field the input did not have (and that is not `required`): `None` when it
/// is held as an `Option`, else its default.
fn absent_value(m: &Scope<'_, '_>, id: DefId, index: usize, field: &Field) -> TokenStream {
    match holding(m, id, index, field) {
        Holding::Optional => quote!(::std::option::Option::None),
        _ => default_value(m, id, index, field),
    }
}

/// A skipped field's reads (`Builder::skip_fields`): in the in-order path it is read past, so
/// that the fields after it stay on the fast path; the general loop has no arm for it, so it
/// is skipped there like an unknown field.
fn skipped_field_reads(
    m: &Scope<'_, '_>,
    id: DefId,
    field: &Field,
    prev: i16,
) -> (TokenStream, TokenStream) {
    let field_id = proc_macro2::Literal::i16_unsuffixed(field.id);
    let prev = proc_macro2::Literal::i16_unsuffixed(prev);
    let ttype = wire_type(m, id.file, &field.ty);
    (
        quote! {
            if r.read_field_after(#ttype, #field_id, #prev) {
                r.skip(#ttype)?;
                r.read_field_end()?;
            }
        },
        TokenStream::new(),
    )
}

/// `ThriftRead` for a struct read in place (see [`reads_in_place`]): `read` starts from
/// `Default` and calls `read_into`, which writes each field where it lives (nested structs
/// through their own `read_into`), notes which fields it saw, and at the end resets the
/// fields the input did not have to what `read` gives for them (or fails on a missing
/// `required` one), so that `read_into` replaces whatever `out` held.
fn read_in_place_impl(
    m: &Scope<'_, '_>,
    id: DefId,
    s: &Struct,
    names: &[String],
    target: &Target,
) -> TokenStream {
    let key = m.is_key_struct(id) && !m.borrowed();
    let rt = &m.runtime;
    let name = &target.ty;
    let idl_name = &s.name.name;
    let seen: Vec<_> = names
        .iter()
        .map(|n| format_ident!("seen_{}", n.trim_start_matches("r#")))
        .collect();
    let unknown = Unknown::new(m, id, s, names, true);
    let declarations = seen
        .iter()
        .enumerate()
        .filter(|(index, _)| !m.is_skipped(id, *index))
        .map(|(_, seen)| quote!(let mut #seen = false;))
        .chain(unknown.as_ref().map(|u| {
            let member = &u.member;
            u.declarations(quote!(out.#member.clear();))
        }));
    let (in_order, arms) = every_field_read(m, id, s, unknown.as_ref(), |index, field| {
        let seen = &seen[index];
        let field_name = ident::ident(&names[index]);
        let optional = holding(m, id, index, field) == Holding::Optional;
        let boxed = m.is_boxed(id, index);
        // An optional boxed struct is read into its box (`Box<T>::read_into` reads into the
        // `T`): `decode_into` keeps the box, and a fresh read builds the value in it.
        let in_place = match (boxed, optional) {
            (false, _) => in_place_struct(m, id.file, &field.ty),
            // A reference into the arena is read there (`read_field`).
            (true, _) if m.arena() => None,
            (true, true) => {
                in_place_struct(m, id.file, &field.ty).map(|path| quote!(::std::boxed::Box<#path>))
            }
            (true, false) => None,
        };
        // Strings, binaries and lists are read into their slot, over what it holds (no
        // build-then-move; `decode_into` keeps their allocations); a key struct's lists hold
        // key forms and are read whole.
        let slot = if optional {
            quote!(out.#field_name.get_or_insert_with(::std::default::Default::default))
        } else {
            quote!(&mut out.#field_name)
        };
        let in_place_bytes = if boxed {
            None
        } else {
            m.in_field(id, index, |m| {
                read_bytes_into(m, id.file, &field.ty, slot.clone())
                    .or_else(|| read_small_list_into(m, id.file, &field.ty, slot.clone()))
                    .or_else(|| {
                        (!key)
                            .then(|| read_list_over(m, id.file, &field.ty, slot.clone(), 0))
                            .flatten()
                    })
                    .or_else(|| {
                        (!key)
                            .then(|| read_collection_over(m, id.file, &field.ty, slot, 0))
                            .flatten()
                    })
            })
        };
        let assign = match (in_place, in_place_bytes) {
            (Some(path), _) if optional => {
                quote!(#rt::read_into_option::<#path, _>(r, &mut out.#field_name)?;)
            }
            (Some(path), _) => {
                quote!(<#path as #rt::ThriftRead<'de>>::read_into(r, &mut out.#field_name)?;)
            }
            (None, Some(read_into)) => quote!(#read_into;),
            (None, None) => {
                let mut read = read_field(m, id, index, field, key);
                if optional {
                    read = quote!(::std::option::Option::Some(#read));
                }
                quote!(out.#field_name = #read;)
            }
        };
        quote!(#assign #seen = true;)
    });
    let absent = s.fields.iter().enumerate().map(|(index, field)| {
        let seen = &seen[index];
        let field_name = ident::ident(&names[index]);
        let idl_field = &field.name.name;
        if m.is_skipped(id, index) {
            // Never read: always what `read` gives for an absent optional field.
            let value = absent_value(m, id, index, field);
            return quote!(out.#field_name = #value;);
        }
        let reset = match field.requiredness {
            Requiredness::Required => quote! {
                return ::std::result::Result::Err(
                    #rt::Error::missing_required_field(#idl_name, #idl_field),
                );
            },
            _ => {
                let value = absent_value(m, id, index, field);
                quote!(out.#field_name = #value;)
            }
        };
        quote! {
            if !#seen {
                #reset
            }
        }
    });
    let settle = unknown.as_ref().map(Unknown::settle);
    let body = read_struct_body(
        m,
        quote!(#(#declarations)*),
        &in_order,
        &arms,
        quote! {
            #(#absent)*
            #settle
            ::std::result::Result::Ok(())
        },
        unknown.as_ref().map(Unknown::fallback),
    );
    let inline = is_small_leaf(m, id, s).then(|| quote!(#[inline(always)]));
    quote! {
        impl<'de> #rt::ThriftRead<'de> for #name {
            fn read<R: #rt::ProtocolReader<'de>>(r: &mut R) -> #rt::Result<Self> {
                let mut out = <Self as ::std::default::Default>::default();
                <Self as #rt::ThriftRead<'de>>::read_into(r, &mut out)?;
                ::std::result::Result::Ok(out)
            }

            #inline
            fn read_into<R: #rt::ProtocolReader<'de>>(
                r: &mut R,
                out: &mut Self,
            ) -> #rt::Result<()> {
                #body
            }
        }
    }
}

/// Whether struct `id`'s decoder is small enough to be worth inlining where it is called
/// (`#[inline(always)]` on its `read_into`; a plain `#[inline]` left `PageEncodingStats` out of
/// line in the Parquet benchmark): at most [`SMALL_LEAF_FIELDS`] fields, each a scalar, an
/// enum, a string or a binary, and no unknown fields kept. Such structs are the elements of
/// long lists (Parquet's `PageEncodingStats`, three `i32`s, two or three per column): called
/// out of line, each element paid a call, the saving and restoring of six registers, and the
/// reader's position stored and reloaded around the call, on little work (BENCHMARKS.md,
/// "What each runtime/codegen change did").
fn is_small_leaf(m: &Scope<'_, '_>, id: DefId, s: &Struct) -> bool {
    s.fields.len() <= SMALL_LEAF_FIELDS
        && !m.keeps_unknown(id)
        && s.fields.iter().all(|field| {
            matches!(
                m.resolve(id.file, &field.ty),
                Resolved::Base(_) | Resolved::Enum(_) | Resolved::Senum
            )
        })
}

/// The most fields an inlined leaf struct has (see [`is_small_leaf`]).
const SMALL_LEAF_FIELDS: usize = 4;

/// The read code of a struct that keeps unknown fields (`Builder::keep_unknown_fields`):
/// `after` counts the known fields read so far (in the order they are written, by id), and
/// a field the struct does not know is read into `place` with that count, so that writing puts
/// it back where it came.
struct Unknown {
    /// The struct's member holding them.
    member: proc_macro2::Ident,
    /// Where the read puts them: a local, or `out.member`.
    place: TokenStream,
    /// How many fields the struct declares (with none, `after` is not a variable).
    fields: usize,
    /// Their ids: a field with one of them and another wire type is skipped, as Apache does,
    /// not kept (written back beside the known field, the id would be there twice).
    ids: Vec<i16>,
}

impl Unknown {
    /// `None` unless struct `id` keeps unknown fields; `in_place`: read into `out.member`
    /// (else into the local `unknown`).
    fn new(
        m: &Scope<'_, '_>,
        id: DefId,
        s: &Struct,
        names: &[String],
        in_place: bool,
    ) -> Option<Unknown> {
        if !m.keeps_unknown(id) {
            return None;
        }
        let member = ident::ident(&unknown_fields_name(names));
        let place = if in_place {
            quote!(out.#member)
        } else {
            quote!(unknown)
        };
        Some(Unknown {
            member,
            place,
            fields: s.fields.len(),
            ids: s.fields.iter().map(|f| f.id).collect(),
        })
    }

    /// `init` (the place's initialization), and the count's.
    fn declarations(&self, init: TokenStream) -> TokenStream {
        if self.fields > 0 {
            quote!(#init let mut after: u16 = 0;)
        } else {
            init
        }
    }

    /// The statement after known field `position` (by id) was read. After the last one it
    /// is `u16::MAX`, "after every known field", as for fields added by `UnknownFields::push`,
    /// so that a read value and a built one with the same fields are equal.
    fn seen(&self, position: usize) -> TokenStream {
        if position + 1 == self.fields {
            return quote!(after = u16::MAX;);
        }
        let count = proc_macro2::Literal::u16_unsuffixed(position as u16 + 1);
        quote!(after = #count;)
    }

    /// The statement putting the kept fields in the order encoding writes them.
    fn settle(&self) -> TokenStream {
        let place = &self.place;
        quote!(#place.settle();)
    }

    /// The match arms for a field that is not read into a known one (`field`: its header).
    fn fallback(&self) -> TokenStream {
        let place = &self.place;
        if self.fields == 0 {
            return quote!(#place.read_field(r, field.id, field.ttype, u16::MAX)?);
        }
        let ids = id_patterns(&self.ids);
        quote! {
            (#(#ids)|*, _) => r.skip(field.ttype)?,
            _ => #place.read_field(r, field.id, field.ttype, after)?
        }
    }
}

/// Patterns matching exactly `ids`: runs of consecutive ids as ranges (`1..=3`), the others
/// alone.
fn id_patterns(ids: &[i16]) -> Vec<TokenStream> {
    let mut sorted = ids.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    let mut runs: Vec<(i16, i16)> = Vec::new();
    for id in sorted {
        match runs.last_mut() {
            Some((_, end)) if i32::from(*end) + 1 == i32::from(id) => *end = id,
            _ => runs.push((id, id)),
        }
    }
    let literal = proc_macro2::Literal::i16_unsuffixed;
    runs.into_iter()
        .map(|(start, end)| {
            let (a, b) = (literal(start), literal(end));
            if start == end {
                quote!(#a)
            } else {
                quote!(#a..=#b)
            }
        })
        .collect()
}
