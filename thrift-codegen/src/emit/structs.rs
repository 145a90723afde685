//! Structs and exceptions: a `pub struct` with `pub` fields and its read/write/size code.
//!
//! The mapping of requiredness (Apache Thrift's wire semantics):
//! - `required` → `T`: always written; missing on read is an error naming struct and field.
//! - `optional` → `Option<T>`: written when `Some`; missing on read is `None`. `Default` gives
//!   `Some(idl default)` when the IDL has a default, `None` otherwise.
//! - neither ("default" requiredness) → `T`: always written; missing on read takes the IDL
//!   default, or the type's zero value.
//!
//! A field that closes a cycle of structs is boxed: `Box<T>`, or `Option<Box<T>>` when it is
//! not required.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use thrift_idl_parser::DefId;
use thrift_idl_parser::ast::{BaseType, Field, Requiredness, Struct, StructKind};

use super::codec::{
    Val, read_bytes_into, read_small_list_into, read_struct_body, read_value, value_len,
    write_field,
};
use super::docs::doc_attrs;
use super::fields::{
    Holding, Target, default_value, derive_list, field_type, holding, idl_default, in_place_struct,
    reads_in_place,
};
use super::names::{field_names, unknown_fields_name, unknown_init};
use super::scope::Scope;
use super::types::{complexity_allow, wire_type};
use crate::ident;
use crate::model::Resolved;

/// Field names that hold an exception's message, as IDLs spell them (compared in lower case).
const MESSAGE_FIELDS: &[&str] = &[
    "message",
    "msg",
    "errormessage",
    "error_message",
    "errmsg",
    "reason",
    "why",
    "what",
    "description",
    "detail",
    "details",
];

/// An exception's `Display`: `Name: message` from its message field (the first string field
/// named like one of [`MESSAGE_FIELDS`]), and the `Debug` form, which names every field,
/// when it has none or it is unset.
fn exception_display(m: &Scope<'_, '_>, id: DefId, s: &Struct, names: &[String]) -> TokenStream {
    let idl_name = &s.name.name;
    let message = s.fields.iter().enumerate().find(|(_, f)| {
        MESSAGE_FIELDS.contains(&f.name.name.to_ascii_lowercase().as_str())
            && matches!(
                m.resolve(id.file, &f.ty),
                Resolved::Base(BaseType::String | BaseType::Slist)
            )
    });
    let Some((index, _)) = message else {
        return quote!(write!(f, "{self:?}"));
    };
    let field = ident::ident(&names[index]);
    let format = format!("{idl_name}: {{}}");
    if m.holds_as_option(id, index) {
        quote! {
            match &self.#field {
                ::std::option::Option::Some(message) => write!(f, #format, message),
                ::std::option::Option::None => write!(f, "{self:?}"),
            }
        }
    } else {
        quote!(write!(f, #format, self.#field))
    }
}

pub fn struct_item(m: &Scope<'_, '_>, id: DefId, s: &Struct) -> TokenStream {
    let key = m.is_key_struct(id);
    let name = ident::ident(m.name(id));
    let docs = doc_attrs(s.doc.as_deref());
    let names = field_names(s);

    let fields = s.fields.iter().enumerate().map(|(index, field)| {
        let field_name = ident::ident(&names[index]);
        let docs = doc_attrs(field.doc.as_deref());
        let mut ty = field_type(m, id, index, field, key);
        if holding(m, id, index, field) == Holding::Optional {
            ty = quote!(::std::option::Option<#ty>);
        }
        let allow = complexity_allow(&ty);
        let attrs = m.field_attrs(id, index, false);
        let serde = super::serde::field_attrs(m, id, index, field, &names[index]);
        quote! { #docs #serde #attrs #allow pub #field_name: #ty, }
    });
    let unknown_member = unknown_member(m, id, &names);

    // `Default`: derived when it gives the right values, written out when the IDL has defaults.
    let has_idl_defaults = s
        .fields
        .iter()
        .enumerate()
        .any(|(index, f)| idl_default(m, id, index, f).is_some());
    let can_default = m.derives(id).default;
    let derive = derive_list(m, id, can_default && !has_idl_defaults);
    let default_impl = if can_default && has_idl_defaults {
        let inits = s.fields.iter().enumerate().map(|(index, field)| {
            let field_name = ident::ident(&names[index]);
            let value = default_value(m, id, index, field);
            quote!(#field_name: #value)
        });
        let inits = inits.chain(unknown_init(m, id, &names));
        quote! {
            impl ::std::default::Default for #name {
                fn default() -> Self {
                    #name { #(#inits),* }
                }
            }
        }
    } else {
        TokenStream::new()
    };

    let constructor = constructor(m, id, s, &names, can_default);
    let write = write_impl(m, id, s, &names, &Target::owned(m, id));
    let read = read_impl(m, id, s, &names, &Target::owned(m, id));
    let exception = if s.kind == StructKind::Exception {
        let display = exception_display(m, id, s, &names);
        quote! {
            impl ::std::fmt::Display for #name {
                fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                    #display
                }
            }

            impl ::std::error::Error for #name {}
        }
    } else {
        TokenStream::new()
    };
    let attrs = m.type_attrs(id, false);
    let serde = super::serde::derives(m);
    let serde_defaults = super::serde::default_fns(m, id, s, &names);
    quote! {
        #docs
        #derive
        #serde
        #attrs
        pub struct #name {
            #(#fields)*
            #unknown_member
        }

        #default_impl
        #serde_defaults
        #constructor
        #exception
        #write
        #read
    }
}

/// `new` taking the `required` fields, in IDL order, the others at their defaults; only for
/// structs and exceptions that have required fields (for the others `Default` is the way).
fn constructor(
    m: &Scope<'_, '_>,
    id: DefId,
    s: &Struct,
    names: &[String],
    can_default: bool,
) -> TokenStream {
    let required: Vec<usize> = (0..s.fields.len())
        .filter(|&index| s.fields[index].requiredness == Requiredness::Required)
        .collect();
    if required.is_empty() || (!can_default && required.len() < s.fields.len()) {
        return TokenStream::new();
    }
    let name = ident::ident(m.name(id));
    let key = m.is_key_struct(id);
    let types: Vec<TokenStream> = required
        .iter()
        .map(|&index| field_type(m, id, index, &s.fields[index], key))
        .collect();
    let params = required.iter().zip(&types).map(|(&index, ty)| {
        let field_name = ident::ident(&names[index]);
        quote!(#field_name: #ty)
    });
    let complexity = types
        .iter()
        .map(complexity_allow)
        .find(|allow| !allow.is_empty())
        .unwrap_or_default();
    let inits = required.iter().map(|&index| ident::ident(&names[index]));
    let rest = if required.len() < s.fields.len() {
        quote!(..::std::default::Default::default())
    } else {
        TokenStream::new()
    };
    let unknown = unknown_init(m, id, names)
        .filter(|_| rest.is_empty())
        .map(|init| quote!(#init,));
    let allow = if required.len() > 7 {
        quote!(#[allow(clippy::too_many_arguments)] #complexity)
    } else {
        complexity
    };
    let doc = if rest.is_empty() {
        format!(" A `{}` of its fields (all `required`).", m.name(id))
    } else {
        format!(
            " A `{0}` of its `required` fields, the others at their defaults (set them after, or \
             build with `{0} {{ field, ..{0}::default() }}`).",
            m.name(id)
        )
    };
    quote! {
        impl #name {
            #[doc = #doc]
            #allow
            pub fn new(#(#params),*) -> Self {
                #name { #(#inits,)* #unknown #rest }
            }
        }
    }
}

/// The declaration of the member holding kept unknown fields, when struct `id` has one.
pub fn unknown_member(m: &Scope<'_, '_>, id: DefId, names: &[String]) -> TokenStream {
    if !m.keeps_unknown(id) {
        return TokenStream::new();
    }
    let rt = &m.runtime;
    let member = ident::ident(&unknown_fields_name(names));
    let serde = super::serde::skip(m);
    quote! {
        /// Fields the IDL does not declare, as they came in; written back among the others.
        #serde
        pub #member: #rt::UnknownFields,
    }
}

fn sorted_fields(s: &Struct) -> Vec<(usize, &Field)> {
    let mut fields: Vec<(usize, &Field)> = s.fields.iter().enumerate().collect();
    fields.sort_by_key(|(_, f)| f.id);
    fields
}

/// [`sorted_fields`] with the id of the field before each one (0 before the first: what a
/// reader's last field id is at a struct's start), for `read_field_after`.
fn in_order_fields(s: &Struct) -> Vec<(usize, &Field, i16)> {
    let mut prev = 0;
    sorted_fields(s)
        .into_iter()
        .map(|(index, field)| (index, field, std::mem::replace(&mut prev, field.id)))
        .collect()
}

fn is_bool(m: &Scope<'_, '_>, id: DefId, field: &Field) -> bool {
    matches!(
        m.resolve(id.file, &field.ty),
        Resolved::Base(BaseType::Bool)
    )
}

pub fn write_impl(
    m: &Scope<'_, '_>,
    id: DefId,
    s: &Struct,
    names: &[String],
    target: &Target,
) -> TokenStream {
    let key = m.is_key_struct(id) && !m.borrowed();
    let rt = &m.runtime;
    let (name, generics) = (&target.ty, &target.generics);
    let fields = sorted_fields(s);

    let mut writes = Vec::new();
    let mut lens = Vec::new();
    // Kept unknown fields go between the known ones, where they came (see
    // `thrift_runtime::unknown`); the writer then tracks the previous field id itself.
    let unknown = m
        .keeps_unknown(id)
        .then(|| ident::ident(&unknown_fields_name(names)));
    let unknown_at = |position: usize| {
        let unknown = unknown.as_ref()?;
        let last = position == fields.len();
        let position = proc_macro2::Literal::u16_unsuffixed(position as u16);
        Some((
            quote!(self.#unknown.write_at(w, #position, #last)?;),
            quote!(len += self.#unknown.len_at::<P>(#position, #last, &mut prev);),
        ))
    };
    // The previous field id for compact deltas: known at generation time until an optional
    // field (or a kept unknown one) makes it depend on the value.
    let mut prev: Option<i16> = if unknown.is_some() { None } else { Some(0) };
    if unknown.is_some() {
        lens.push(quote!(let mut prev: i16 = 0;));
    }
    for (position, &(index, field)) in fields.iter().enumerate() {
        if let Some((write, len)) = unknown_at(position) {
            writes.push(write);
            lens.push(len);
        }
        let field_name = ident::ident(&names[index]);
        let field_id = proc_macro2::Literal::i16_unsuffixed(field.id);
        let ttype = wire_type(m, id.file, &field.ty);
        let conditional = holding(m, id, index, field) == Holding::Optional;
        let value = if conditional {
            Val::reference(quote!(value))
        } else {
            Val::place(quote!(self.#field_name))
        };
        let (write, value_size) = m.in_field(id, index, |m| {
            let write = write_field(m, id.file, &field.ty, &value, key, field.id, prev);
            let value_size = if is_bool(m, id, field) {
                quote!(P::bool_field_value_len())
            } else {
                value_len(m, id.file, &field.ty, &value, key, 0)
            };
            (write, value_size)
        });
        let prev_expr = match prev {
            Some(p) => {
                let p = proc_macro2::Literal::i16_unsuffixed(p);
                quote!(#p)
            }
            None => quote!(prev),
        };
        let size = quote!(P::field_begin_len(#ttype, #field_id, #prev_expr) + #value_size);
        let more_follow = position + 1 < fields.len();
        // A bool's size does not depend on its value: test presence only.
        let present = if is_bool(m, id, field) {
            quote!(if self.#field_name.is_some())
        } else {
            quote!(if let ::std::option::Option::Some(value) = &self.#field_name)
        };
        if conditional {
            writes.push(quote! {
                if let ::std::option::Option::Some(value) = &self.#field_name {
                    #write
                }
            });
            if unknown.is_some() {
                lens.push(quote! {
                    #present {
                        len += #size;
                        prev = #field_id;
                    }
                });
            } else if more_follow {
                lens.push(quote! {
                    let mut prev: i16 = #prev_expr;
                    #present {
                        len += #size;
                        prev = #field_id;
                    }
                });
                prev = None;
            } else {
                lens.push(quote! {
                    #present {
                        len += #size;
                    }
                });
            }
        } else if unknown.is_some() {
            writes.push(write);
            lens.push(quote! {
                len += #size;
                prev = #field_id;
            });
        } else {
            writes.push(write);
            lens.push(quote!(len += #size;));
            prev = Some(field.id);
        }
    }
    if let Some((write, len)) = unknown_at(fields.len()) {
        writes.push(write);
        lens.push(len);
    }
    let len_binding = if lens.is_empty() {
        quote!(let len)
    } else {
        quote!(let mut len)
    };
    quote! {
        impl #generics #rt::ThriftWrite for #name {
            fn write<W: #rt::ProtocolWriter>(&self, w: &mut W) -> #rt::Result<()> {
                let token = w.write_struct_begin()?;
                #(#writes)*
                w.write_field_stop()?;
                w.write_struct_end(token)
            }

            fn encoded_len<P: #rt::ProtocolSize>(&self) -> usize {
                #len_binding = P::struct_begin_len();
                #(#lens)*
                len + P::field_stop_len() + P::struct_end_len()
            }
        }
    }
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
    // Each field's read appears twice (`field_reads`).
    let (in_order, arms): (Vec<TokenStream>, Vec<TokenStream>) = in_order_fields(s)
        .into_iter()
        .enumerate()
        .map(|(position, (index, field, prev))| {
            if m.is_skipped(id, index) {
                return skipped_field_reads(m, id, field, prev);
            }
            let local = &locals[index];
            let read = read_field(m, id, index, field, key);
            let after = unknown.as_ref().map(|u| u.seen(position));
            field_reads(
                m,
                id,
                field,
                prev,
                quote!(#local = ::std::option::Option::Some(#read); #after),
            )
        })
        .unzip();
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

/// The expression reading field `index` of struct `id` (boxed when the field is).
fn read_field(m: &Scope<'_, '_>, id: DefId, index: usize, field: &Field, key: bool) -> TokenStream {
    let read = m.in_field(id, index, |m| read_value(m, id.file, &field.ty, key, 0));
    if m.is_boxed(id, index) {
        quote!(::std::boxed::Box::new(#read))
    } else {
        read
    }
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
    let (in_order, arms): (Vec<TokenStream>, Vec<TokenStream>) = in_order_fields(s)
        .into_iter()
        .enumerate()
        .map(|(position, (index, field, prev))| {
            if m.is_skipped(id, index) {
                return skipped_field_reads(m, id, field, prev);
            }
            let seen = &seen[index];
            let field_name = ident::ident(&names[index]);
            let optional = holding(m, id, index, field) == Holding::Optional;
            let boxed = m.is_boxed(id, index);
            let in_place = if boxed {
                None
            } else {
                in_place_struct(m, id.file, &field.ty)
            };
            // Strings and binaries are read into their slot (no build-then-move; an old buffer is
            // reused).
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
                        .or_else(|| read_small_list_into(m, id.file, &field.ty, slot))
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
            let after = unknown.as_ref().map(|u| u.seen(position));
            field_reads(m, id, field, prev, quote!(#assign #seen = true; #after))
        })
        .unzip();
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
/// reader's position stored and reloaded around the call, on about 100 instructions of work.
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
