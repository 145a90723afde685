//! serde for the generated types (`Builder::serde`): derives naming serde through the runtime
//! (`__rt::serde`), the IDL's names for fields and variants, absent fields as Thrift reads
//! them, enums as their names, and maps with keys that are not object keys as pairs.
//!
//! In JSON: a struct is an object of its IDL field names; an `optional` field that is unset is
//! left out and a missing one is `None`; a missing field of default requiredness takes its IDL
//! default (or the type's zero value); a missing `required` field is an error. A union is
//! `{"variant": value}`. An enum value is its IDL name, or its number when the IDL does not
//! name it, and reads from either. Binaries are what serde makes of `Vec<u8>` and `Bytes`
//! (an array of numbers in JSON). Maps with string, integer, bool or enum keys are objects;
//! with other keys an array of `[key, value]` pairs (`thrift_runtime::serde_support::pairs`).
//! Borrowing forms implement `Serialize` only; their maps are arrays of pairs.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use thrift_idl_parser::DefId;
use thrift_idl_parser::ast::{BaseType, Enum, Field, Requiredness, Struct};

use super::fields::{Holding, default_value, holding, idl_default};
use super::scope::Scope;
use crate::model::Resolved;

/// The derives, after the generated `#[derive(...)]`: `Serialize` and `Deserialize` for the
/// owned forms, `Serialize` for the borrowing ones.
pub fn derives(m: &Scope<'_, '_>) -> TokenStream {
    if !m.options.serde {
        return TokenStream::new();
    }
    let rt = &m.runtime;
    let krate = format!("{rt}::serde").replace(' ', "");
    if m.borrowed() {
        quote! {
            #[derive(#rt::serde::Serialize)]
            #[serde(crate = #krate)]
        }
    } else {
        quote! {
            #[derive(#rt::serde::Serialize, #rt::serde::Deserialize)]
            #[serde(crate = #krate)]
        }
    }
}

/// `rename` to the IDL's name when the Rust name differs.
fn rename(rust: &str, idl: &str) -> Option<TokenStream> {
    (rust.trim_start_matches("r#") != idl).then(|| quote!(rename = #idl))
}

/// The name of the function giving a field's IDL default, for `#[serde(default = "...")]`.
fn default_fn(rust: &str) -> proc_macro2::Ident {
    format_ident!("__serde_default_{}", rust.trim_start_matches("r#"))
}

/// The attributes of field `index` (`rust`: its Rust name) of struct `id`.
pub fn field_attrs(
    m: &Scope<'_, '_>,
    id: DefId,
    index: usize,
    field: &Field,
    rust: &str,
) -> TokenStream {
    if !m.options.serde {
        return TokenStream::new();
    }
    let mut items: Vec<TokenStream> = rename(rust, &field.name.name).into_iter().collect();
    let optional = holding(m, id, index, field) == Holding::Optional;
    if optional {
        items.push(quote!(default));
        items.push(quote!(
            skip_serializing_if = "::std::option::Option::is_none"
        ));
    } else if field.requiredness != Requiredness::Required && !m.borrowed() {
        if idl_default(m, id, index, field).is_some() {
            let path = format!("{}::{}", m.name(id), default_fn(rust));
            items.push(quote!(default = #path));
        } else {
            items.push(quote!(default));
        }
    }
    finish(m, id, field, items)
}

/// `items`, with the pairs form for a map whose keys need it, as one `#[serde(...)]` (nothing
/// when there are none).
fn finish(m: &Scope<'_, '_>, id: DefId, field: &Field, mut items: Vec<TokenStream>) -> TokenStream {
    if !m.borrowed() && has_pair_keys(m, id, field) {
        let rt = &m.runtime;
        let with = format!("{rt}::serde_support::pairs").replace(' ', "");
        items.push(quote!(with = #with));
    }
    if items.is_empty() {
        return TokenStream::new();
    }
    quote!(#[serde(#(#items),*)])
}

/// The attributes of variant `index` of a union.
pub fn variant_attrs(m: &Scope<'_, '_>, id: DefId, field: &Field, rust: &str) -> TokenStream {
    if !m.options.serde {
        return TokenStream::new();
    }
    let items = rename(rust, &field.name.name).into_iter().collect();
    finish(m, id, field, items)
}

/// `#[serde(skip)]` for the member of kept unknown fields (they have no IDL names).
pub fn skip(m: &Scope<'_, '_>) -> TokenStream {
    if m.options.serde {
        quote!(#[serde(skip)])
    } else {
        TokenStream::new()
    }
}

/// The functions giving the IDL defaults of fields of default requiredness, which missing
/// fields take on deserializing (owned form).
pub fn default_fns(m: &Scope<'_, '_>, id: DefId, s: &Struct, names: &[String]) -> TokenStream {
    if !m.options.serde {
        return TokenStream::new();
    }
    let fns: Vec<TokenStream> = s
        .fields
        .iter()
        .enumerate()
        .filter(|(index, field)| {
            field.requiredness != Requiredness::Required
                && holding(m, id, *index, field) != Holding::Optional
                && idl_default(m, id, *index, field).is_some()
        })
        .map(|(index, field)| {
            let name = default_fn(&names[index]);
            let ty = super::fields::field_type(m, id, index, field, m.is_key_struct(id));
            let value = default_value(m, id, index, field);
            quote! {
                fn #name() -> #ty {
                    #value
                }
            }
        })
        .collect();
    if fns.is_empty() {
        return TokenStream::new();
    }
    let ty = crate::ident::ident(m.name(id));
    quote! {
        /// The IDL defaults that missing fields take on deserializing.
        impl #ty {
            #(#fns)*
        }
    }
}

/// `Serialize` and `Deserialize` of an enum: its IDL name, or its number when the IDL does not
/// name it; read from either.
pub fn enum_impls(m: &Scope<'_, '_>, id: DefId, e: &Enum) -> TokenStream {
    if !m.options.serde {
        return TokenStream::new();
    }
    let rt = &m.runtime;
    let name = crate::ident::ident(m.name(id));
    let idl_name = &e.name.name;
    let arms = e.values.iter().map(|v| {
        let idl = &v.name.name;
        let value = proc_macro2::Literal::i32_unsuffixed(v.value);
        quote!(#idl => ::std::option::Option::Some(#value),)
    });
    quote! {
        impl #rt::serde::Serialize for #name {
            fn serialize<S: #rt::serde::Serializer>(
                &self,
                serializer: S,
            ) -> ::std::result::Result<S::Ok, S::Error> {
                #rt::serde_support::serialize_enum(self.0, self.name(), serializer)
            }
        }

        impl<'de> #rt::serde::Deserialize<'de> for #name {
            fn deserialize<D: #rt::serde::Deserializer<'de>>(
                deserializer: D,
            ) -> ::std::result::Result<Self, D::Error> {
                #rt::serde_support::deserialize_enum(deserializer, #idl_name, |name| match name {
                    #(#arms)*
                    _ => ::std::option::Option::None,
                })
                .map(#name)
            }
        }
    }
}

/// Whether the field's type is a map whose keys are not object keys in JSON: structs, unions,
/// exceptions, containers, binaries, uuids, doubles.
fn has_pair_keys(m: &Scope<'_, '_>, id: DefId, field: &Field) -> bool {
    let Resolved::Map(file, key, _) = m.resolve(id.file, &field.ty) else {
        return false;
    };
    !matches!(
        m.resolve(file, key),
        Resolved::Base(
            BaseType::Bool
                | BaseType::I8
                | BaseType::I16
                | BaseType::I32
                | BaseType::I64
                | BaseType::String
                | BaseType::Slist
        ) | Resolved::Enum(_)
            | Resolved::Senum
    )
}
