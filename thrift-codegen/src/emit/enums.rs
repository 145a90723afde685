//! IDL enums as `i32` newtypes with associated consts: values the IDL does not name are kept
//! (and written back unchanged), and `match` on the named values stays ergonomic:
//! `match color { Color::RED => …, Color::GREEN => …, other => … }`.

use std::collections::HashSet;

use proc_macro2::TokenStream;
use quote::quote;
use thrift_idl_parser::DefId;
use thrift_idl_parser::ast::Enum;

use super::docs::doc_attrs;
use super::names::value_names;
use super::scope::Scope;
use crate::ident;

pub fn enum_item(m: &Scope<'_, '_>, id: DefId, e: &Enum) -> TokenStream {
    let name = ident::ident(m.name(id));
    let idl_name = &e.name.name;
    let docs = doc_attrs(e.doc.as_deref());
    let unknown_format = format!("{idl_name}({{}})");
    let names = value_names(e);
    let consts = e.values.iter().zip(&names).map(|(v, rust)| {
        let rust = ident::ident(rust);
        let docs = doc_attrs(v.doc.as_deref());
        let value = proc_macro2::Literal::i32_unsuffixed(v.value.abs());
        let value = if v.value < 0 {
            quote!(-#value)
        } else {
            quote!(#value)
        };
        quote! { #docs pub const #rust: #name = #name(#value); }
    });
    let known = names.iter().map(|n| ident::ident(n));
    // Two names for one number: the first is the one `name()` gives.
    let mut seen = HashSet::new();
    let arms: Vec<TokenStream> = e
        .values
        .iter()
        .zip(&names)
        .filter(|(v, _)| seen.insert(v.value))
        .map(|(v, rust)| {
            let rust = ident::ident(rust);
            let idl = &v.name.name;
            quote!(#name::#rust => ::std::option::Option::Some(#idl),)
        })
        .collect();
    let name_body = if arms.is_empty() {
        quote!(::std::option::Option::None)
    } else {
        quote! {
            match self {
                #(#arms)*
                _ => ::std::option::Option::None,
            }
        }
    };
    // `Default` is the first declared value (0 for an enum without values), as a field of
    // the enum's type reads when it is absent.
    let (derive_default, default_impl) = match names.first() {
        Some(first) => {
            let first = ident::ident(first);
            (
                TokenStream::new(),
                quote! {
                    impl ::std::default::Default for #name {
                        /// The first value the IDL declares.
                        fn default() -> Self {
                            #name::#first
                        }
                    }
                },
            )
        }
        None => (quote!(, Default), TokenStream::new()),
    };
    let attrs = m.type_attrs(id, false);
    let serde = super::serde::enum_impls(m, id, e);
    quote! {
        #docs
        #[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord #derive_default)]
        #attrs
        pub struct #name(pub i32);

        #default_impl

        impl #name {
            #(#consts)*

            /// Every value the IDL names, in declaration order.
            pub const KNOWN: &[#name] = &[#(#name::#known),*];

            /// The IDL name of this value, or `None` for a number the IDL does not name (a
            /// value from a newer peer, kept as it is).
            pub fn name(self) -> ::std::option::Option<&'static str> {
                #name_body
            }
        }

        impl ::std::fmt::Debug for #name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                match self.name() {
                    ::std::option::Option::Some(name) => f.write_str(name),
                    ::std::option::Option::None => write!(f, #unknown_format, self.0),
                }
            }
        }

        impl ::std::convert::From<i32> for #name {
            fn from(value: i32) -> Self {
                #name(value)
            }
        }

        impl ::std::convert::From<#name> for i32 {
            fn from(value: #name) -> Self {
                value.0
            }
        }

        #serde
    }
}
