//! Unions as Rust enums, one variant per field.
//!
//! On the wire a union is a struct with exactly one field set. Reading one where no known field
//! is set (empty, or only fields this code does not know) is an `InvalidData` error; when
//! several are set, the last one read wins, as in Apache Thrift's libraries. Unknown fields are
//! skipped.

use proc_macro2::TokenStream;
use quote::quote;
use thrift_idl_parser::DefId;
use thrift_idl_parser::ast::{BaseType, Struct};

use super::codec::{Val, read_struct_body, read_value, value_len, write_field};
use super::docs::doc_attrs;
use super::fields::{Target, derive_list};
use super::names::variant_names;
use super::scope::Scope;
use super::types::wire_type;
use crate::ident;
use crate::model::Resolved;

pub fn union_item(m: &Scope<'_, '_>, id: DefId, s: &Struct) -> TokenStream {
    union_form(m, id, s, &Target::owned(m, id))
}

/// The enum and its impls, for the owned or the borrowing form.
pub fn union_form(m: &Scope<'_, '_>, id: DefId, s: &Struct, target: &Target) -> TokenStream {
    let key = m.is_key_struct(id) && !m.borrowed();
    let (name, ty, generics) = (&target.ctor, &target.ty, &target.generics);
    let docs = if m.borrowed() {
        let doc = format!(
            " The borrowing form of [`{}`]: strings and binaries point into the input.",
            m.name(id)
        );
        quote!(#[doc = #doc])
    } else {
        doc_attrs(s.doc.as_deref())
    };
    let variants = variant_names(s);
    let file = id.file;

    let types: Vec<TokenStream> = s
        .fields
        .iter()
        .enumerate()
        .map(|(index, field)| super::fields::field_type(m, id, index, field, key))
        .collect();
    let variant_items = s
        .fields
        .iter()
        .enumerate()
        .map(|(index, field)| {
            let docs = doc_attrs(field.doc.as_deref());
            let variant = ident::ident(&variants[index]);
            let ty = &types[index];
            let allow = super::types::complexity_allow(ty);
            let attrs = m.field_attrs(id, index, m.borrowed());
            let serde = super::serde::variant_attrs(m, id, field, &variants[index]);
            quote! { #docs #serde #attrs #allow #variant(#ty), }
        })
        .collect::<Vec<_>>();

    let can_default = m.derives(id).default && !s.fields.is_empty();
    let derive = if m.borrowed() {
        quote!(#[derive(Debug, Clone, PartialEq)])
    } else {
        derive_list(m, id, false)
    };
    let default_impl = if can_default {
        let first = ident::ident(&variants[0]);
        let value = match s.fields[0].default.as_ref().filter(|_| !m.borrowed()) {
            Some(v) => m.in_field(id, 0, |m| {
                super::consts::value_expr(m, file, &s.fields[0].ty, file, v, key)
            }),
            None => quote!(::std::default::Default::default()),
        };
        quote! {
            impl #generics ::std::default::Default for #ty {
                fn default() -> Self {
                    #name::#first(#value)
                }
            }
        }
    } else {
        TokenStream::new()
    };
    let lint = variant_lint(s, &variants, &types);

    let codec = codec_impls(m, id, s, target, &variants);
    let attrs = m.type_attrs(id, m.borrowed());
    let serde = super::serde::derives(m);
    quote! {
        #docs
        #derive
        #serde
        #attrs
        #lint
        pub enum #ty {
            #(#variant_items)*
        }

        #default_impl

        #codec
    }
}

/// `ThriftWrite` and `ThriftRead` of a union: one arm per variant.
fn codec_impls(
    m: &Scope<'_, '_>,
    id: DefId,
    s: &Struct,
    target: &Target,
    variants: &[String],
) -> TokenStream {
    let key = m.is_key_struct(id) && !m.borrowed();
    let (name, ty, generics) = (&target.ctor, &target.ty, &target.generics);
    let rt = &m.runtime;
    let idl_name = &s.name.name;
    let file = id.file;
    let mut write_arms = Vec::new();
    let mut len_arms = Vec::new();
    let mut read_arms = Vec::new();
    for (index, field) in s.fields.iter().enumerate() {
        let variant = ident::ident(&variants[index]);
        let field_id = proc_macro2::Literal::i16_unsuffixed(field.id);
        let ttype = wire_type(m, file, &field.ty);
        let is_bool = matches!(m.resolve(file, &field.ty), Resolved::Base(BaseType::Bool));
        // The variant's own mapping for its size, write and read.
        let (size, write, mut read) = m.in_field(id, index, |m| {
            let size = if is_bool {
                quote!(P::bool_field_value_len())
            } else {
                value_len(m, file, &field.ty, &Val::reference(quote!(value)), key, 0)
            };
            // The only field written, right after the struct begins: the previous id is 0.
            let write = write_field(
                m,
                file,
                &field.ty,
                &Val::reference(quote!(value)),
                key,
                field.id,
                Some(0),
            );
            (size, write, read_value(m, file, &field.ty, key, 0))
        });
        write_arms.push(quote! {
            #name::#variant(value) => {
                #write
            }
        });
        let binding = if is_bool { quote!(_) } else { quote!(value) };
        len_arms.push(
            quote!(#name::#variant(#binding) => P::field_begin_len(#ttype, #field_id, 0) + #size,),
        );
        if m.is_boxed(id, index) {
            read = m.boxed_read(&read);
        }
        read_arms.push(quote!((#field_id, #ttype) => value = ::std::option::Option::Some(#name::#variant(#read)),));
    }
    let missing = format!("union `{idl_name}` has no known field set");
    let (value_decl, result) = if read_arms.is_empty() {
        (
            TokenStream::new(),
            quote!(::std::result::Result::Err(#rt::Error::invalid_data(#missing))),
        )
    } else {
        (
            quote!(let mut value = ::std::option::Option::None;),
            quote!(value.ok_or_else(|| #rt::Error::invalid_data(#missing))),
        )
    };
    let read_body = read_struct_body(m, value_decl, &[], &read_arms, result, None);
    let (write_body, len_body) = if s.fields.is_empty() {
        (quote!(match *self {}), quote!(match *self {}))
    } else {
        (
            quote! { match self { #(#write_arms)* } },
            quote! { P::struct_begin_len() + match self { #(#len_arms)* } + P::field_stop_len() + P::struct_end_len() },
        )
    };
    let write_fn = if s.fields.is_empty() {
        quote! {
            fn write<W: #rt::ProtocolWriter>(&self, _w: &mut W) -> #rt::Result<()> {
                #write_body
            }
        }
    } else {
        quote! {
            fn write<W: #rt::ProtocolWriter>(&self, w: &mut W) -> #rt::Result<()> {
                let token = w.write_struct_begin()?;
                #write_body
                w.write_field_stop()?;
                w.write_struct_end(token)
            }
        }
    };

    quote! {
        impl #generics #rt::ThriftWrite for #ty {
            #write_fn

            fn encoded_len<P: #rt::ProtocolSize>(&self) -> usize {
                #len_body
            }
        }

        impl<'de> #rt::ThriftRead<'de> for #ty {
            fn read<R: #rt::ProtocolReader<'de>>(r: &mut R) -> #rt::Result<Self> {
                #read_body
            }
        }
    }
}

/// Clippy lints that IDL names or layouts can trigger on a generated enum and that the user
/// cannot fix without changing the IDL: allowed only where they would fire.
fn variant_lint(s: &Struct, variants: &[String], types: &[TokenStream]) -> TokenStream {
    let mut allows = Vec::new();
    if variants.len() >= 3 && shares_word(variants) {
        allows.push(quote!(clippy::enum_variant_names));
    }
    let _ = s;
    // Inline structs make variants of very different sizes.
    if types.iter().any(|t| !t.to_string().contains("Box"))
        && variants.len() >= 2
        && has_inline_struct(types)
    {
        allows.push(quote!(clippy::large_enum_variant));
    }
    if allows.is_empty() {
        TokenStream::new()
    } else {
        quote!(#[allow(#(#allows),*)])
    }
}

fn has_inline_struct(types: &[TokenStream]) -> bool {
    // Paths that are not std types nor primitives name generated structs or enums.
    types.iter().any(|t| {
        let s = t.to_string();
        !s.starts_with(":: std")
            && !s.starts_with('[')
            && !matches!(s.as_str(), "bool" | "i8" | "i16" | "i32" | "i64" | "f64")
    })
}

/// Whether all names share a first or last camel-case word (what `enum_variant_names` checks).
fn shares_word(names: &[String]) -> bool {
    let words = |n: &str| -> Vec<String> {
        let mut words = Vec::new();
        let mut current = String::new();
        for c in n.chars() {
            if c.is_uppercase() && !current.is_empty() {
                words.push(std::mem::take(&mut current));
            }
            current.push(c);
        }
        words.push(current);
        words
    };
    let split: Vec<Vec<String>> = names.iter().map(|n| words(n)).collect();
    let first = &split[0];
    let same_first = split.iter().all(|w| w.len() > 1 && w[0] == first[0]);
    let same_last = split
        .iter()
        .all(|w| w.len() > 1 && w.last() == first.last());
    same_first || same_last
}
