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
use quote::quote;
use thrift_idl_parser::DefId;
use thrift_idl_parser::ast::{BaseType, Field, Requiredness, Struct, StructKind};

use super::codec::{Val, value_len, write_field};
use super::docs::doc_attrs;
use super::fields::{
    Holding, Target, default_value, derive_list, field_type, holding, idl_default, sorted_fields,
};
use super::names::{field_names, unknown_fields_name, unknown_init};
use super::reads::read_impl;
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
        let attrs = m.field_attrs(id, index, false);
        let serde = super::serde::field_attrs(m, id, index, field, &names[index]);
        let attrs = quote!(#serde #attrs);
        field_declaration(m, id, index, field, &names[index], key, attrs)
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

/// The declaration of field `index` of struct `id`, named `name`, with `attrs` after its docs:
/// held as `Option<T>` or `T` (see [`holding`]).
fn field_declaration(
    m: &Scope<'_, '_>,
    id: DefId,
    index: usize,
    field: &Field,
    name: &str,
    key: bool,
    attrs: TokenStream,
) -> TokenStream {
    let field_name = ident::ident(name);
    let docs = doc_attrs(field.doc.as_deref());
    let mut ty = field_type(m, id, index, field, key);
    if holding(m, id, index, field) == Holding::Optional {
        ty = quote!(::std::option::Option<#ty>);
    }
    let allow = complexity_allow(&ty);
    quote! { #docs #attrs #allow pub #field_name: #ty, }
}

/// The args or result struct `id` of a service function (see [`Model::message`]), named
/// `name`: its fields are held, written and read as any struct's. It derives `Debug`, `Clone`
/// and `PartialEq` only, and no user option reaches it: it lives for one call.
///
/// [`Model::message`]: crate::model::Model::message
pub fn message_item(
    m: &Scope<'_, '_>,
    id: DefId,
    name: &proc_macro2::Ident,
    doc: &str,
) -> TokenStream {
    let s = m.message(id);
    let names = field_names(s);
    let fields = s.fields.iter().enumerate().map(|(index, field)| {
        field_declaration(
            m,
            id,
            index,
            field,
            &names[index],
            false,
            TokenStream::new(),
        )
    });
    let target = Target {
        ty: quote!(#name),
        ctor: name.clone(),
        generics: TokenStream::new(),
    };
    let write = write_impl(m, id, s, &names, &target);
    let read = read_impl(m, id, s, &names, &target);
    quote! {
        #[doc = #doc]
        #[derive(Debug, Clone, PartialEq)]
        pub struct #name {
            #(#fields)*
        }

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
