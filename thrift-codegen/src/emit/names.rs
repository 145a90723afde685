//! The Rust names of the members of IDL definitions (struct fields, union variants, enum
//! values), shared by the items that declare them and the expressions that use them.

use proc_macro2::TokenStream;
use quote::quote;
use thrift_idl_parser::DefId;
use thrift_idl_parser::ast::{Enum, Struct};

use super::scope::Scope;
use crate::ident;

/// The Rust names of a struct's fields, in declaration order.
pub fn field_names(s: &Struct) -> Vec<String> {
    let mut scope = ident::Scope::new();
    s.fields
        .iter()
        .map(|f| match ident::explicit_name(&f.annotations) {
            Some(name) => scope.unique(name.to_string()),
            None => scope.unique(ident::field_name(&f.name.name)),
        })
        .collect()
}

/// The name of the member holding the kept unknown fields (`Builder::keep_unknown_fields`):
/// `unknown_fields`, with `_` appended while a field of the IDL has that name.
pub fn unknown_fields_name(names: &[String]) -> String {
    let mut name = String::from("unknown_fields");
    while names.contains(&name) {
        name.push('_');
    }
    name
}

/// `unknown_fields: UnknownFields::new()`, the member's initializer in a struct literal
/// (`Default`, `new`, constants), when struct `id` has the member.
pub fn unknown_init(m: &Scope<'_, '_>, id: DefId, names: &[String]) -> Option<TokenStream> {
    m.keeps_unknown(id).then(|| {
        let rt = &m.runtime;
        let member = ident::ident(&unknown_fields_name(names));
        quote!(#member: #rt::UnknownFields::new())
    })
}

/// The Rust names of a union's variants, in declaration order.
pub fn variant_names(s: &Struct) -> Vec<String> {
    let mut scope = ident::Scope::new();
    s.fields
        .iter()
        .map(|f| match ident::explicit_name(&f.annotations) {
            Some(name) => scope.unique_camel(name.to_string()),
            None => scope.unique_camel(ident::type_name(&f.name.name)),
        })
        .collect()
}

/// The Rust names of an enum's values, in declaration order.
pub fn value_names(e: &Enum) -> Vec<String> {
    let mut scope = ident::Scope::new();
    scope.reserve("KNOWN");
    e.values
        .iter()
        .map(|v| match ident::explicit_name(&v.annotations) {
            Some(name) => scope.unique(name.to_string()),
            None => scope.unique(ident::const_name(&v.name.name)),
        })
        .collect()
}

/// The Rust name of one value of the enum `id`.
pub fn value_name(m: &Scope<'_, '_>, id: DefId, idl_name: &str) -> String {
    let e = m.program.as_enum(id).expect("an enum");
    let index = e
        .values
        .iter()
        .position(|v| v.name.name == idl_name)
        .expect("a value of the enum");
    value_names(e).swap_remove(index)
}
