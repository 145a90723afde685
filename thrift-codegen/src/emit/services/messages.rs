//! The messages of one IDL function, as Apache's generators name, number and encode them: the
//! args struct (fields by their ids), the result struct (field 0 `success`, then the declared
//! exceptions), and an error enum when it `throws`, with the conversions between a handler's
//! outcome and the result struct.

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};
use thrift_idl_parser::ast::{BaseType, Function, Requiredness, Type};
use thrift_idl_parser::{DefId, FileId};

use super::{Method, ServiceView, param_names, success_type};
use crate::emit::codec::{Val, read_struct_body, read_value, value_len, write_field};
use crate::emit::scope::Scope;
use crate::emit::types::{complexity_allow, rust_type, wire_type};
use crate::ident;
use crate::model::Resolved;

/// A field of an args or result struct.
struct PlainField<'a> {
    name: proc_macro2::Ident,
    idl_name: String,
    id: i16,
    ty: &'a Type,
    /// Held as `Option<T>` and written only when set.
    optional: bool,
    /// Missing on read is an error.
    required: bool,
}

fn is_bool(m: &Scope<'_, '_>, file: FileId, ty: &Type) -> bool {
    matches!(m.resolve(file, ty), Resolved::Base(BaseType::Bool))
}

/// A struct with `ThriftWrite` and `ThriftRead`, for args and results (no borrowing form, no
/// in-place reading: these live for one call).
fn plain_struct(
    m: &Scope<'_, '_>,
    file: FileId,
    name: &proc_macro2::Ident,
    idl_name: &str,
    doc: &str,
    fields: &[PlainField<'_>],
) -> TokenStream {
    let rt = &m.runtime;
    let mut sorted: Vec<&PlainField<'_>> = fields.iter().collect();
    sorted.sort_by_key(|f| f.id);

    let declarations = fields.iter().map(|f| {
        let field_name = &f.name;
        let mut ty = rust_type(m, file, f.ty, false);
        if f.optional {
            ty = quote!(::std::option::Option<#ty>);
        }
        let allow = complexity_allow(&ty);
        quote! { #allow pub #field_name: #ty, }
    });

    let mut writes = Vec::new();
    let mut lens = Vec::new();
    let mut prev: Option<i16> = Some(0);
    for f in &sorted {
        let field_name = &f.name;
        let ttype = wire_type(m, file, f.ty);
        let field_id = Literal::i16_unsuffixed(f.id);
        let value = if f.optional {
            Val::reference(quote!(value))
        } else {
            Val::place(quote!(self.#field_name))
        };
        let write = write_field(m, file, f.ty, &value, false, f.id, prev);
        let size = if is_bool(m, file, f.ty) {
            quote!(P::bool_field_value_len())
        } else {
            value_len(m, file, f.ty, &value, false, 0)
        };
        let size = quote!(P::field_begin_len(#ttype, #field_id, prev) + #size);
        if f.optional {
            writes.push(quote! {
                if let ::std::option::Option::Some(value) = &self.#field_name {
                    #write
                }
            });
            let present = if is_bool(m, file, f.ty) {
                quote!(if self.#field_name.is_some())
            } else {
                quote!(if let ::std::option::Option::Some(value) = &self.#field_name)
            };
            lens.push(quote! {
                #present {
                    len += #size;
                    prev = #field_id;
                }
            });
            prev = None;
        } else {
            writes.push(write);
            lens.push(quote! {
                len += #size;
                prev = #field_id;
            });
            prev = Some(f.id);
        }
    }
    let len_body = if lens.is_empty() {
        quote!(P::struct_begin_len() + P::field_stop_len() + P::struct_end_len())
    } else {
        quote! {
            let mut len = P::struct_begin_len();
            let mut prev: i16 = 0;
            #(#lens)*
            let _ = prev;
            len + P::field_stop_len() + P::struct_end_len()
        }
    };

    let locals: Vec<_> = fields
        .iter()
        .map(|f| format_ident!("f_{}", f.name.to_string().trim_start_matches("r#")))
        .collect();
    let local_declarations = locals
        .iter()
        .map(|local| quote!(let mut #local = ::std::option::Option::None;));
    let arms: Vec<TokenStream> = fields
        .iter()
        .zip(&locals)
        .map(|(f, local)| {
            let field_id = Literal::i16_unsuffixed(f.id);
            let ttype = wire_type(m, file, f.ty);
            let read = read_value(m, file, f.ty, false, 0);
            quote!((#field_id, #ttype) => { #local = ::std::option::Option::Some(#read); })
        })
        .collect();
    let inits = fields.iter().zip(&locals).map(|(f, local)| {
        let field_name = &f.name;
        let idl_field = &f.idl_name;
        let value = if f.optional {
            quote!(#local)
        } else if f.required || !m.has_default(file, f.ty, false) {
            quote!(#local.ok_or_else(|| #rt::Error::missing_required_field(#idl_name, #idl_field))?)
        } else {
            quote!(#local.unwrap_or_default())
        };
        quote!(#field_name: #value)
    });
    let body = read_struct_body(
        m,
        quote!(#(#local_declarations)*),
        &[],
        &arms,
        quote!(::std::result::Result::Ok(#name { #(#inits),* })),
        None,
    );
    quote! {
        #[doc = #doc]
        #[derive(Debug, Clone, PartialEq)]
        pub struct #name {
            #(#declarations)*
        }

        impl #rt::ThriftWrite for #name {
            fn write<W: #rt::ProtocolWriter>(&self, w: &mut W) -> #rt::Result<()> {
                let token = w.write_struct_begin()?;
                #(#writes)*
                w.write_field_stop()?;
                w.write_struct_end(token)
            }

            fn encoded_len<P: #rt::ProtocolSize>(&self) -> usize {
                #len_body
            }
        }

        impl<'de> #rt::ThriftRead<'de> for #name {
            fn read<R: #rt::ProtocolReader<'de>>(r: &mut R) -> #rt::Result<Self> {
                #body
            }
        }
    }
}

/// The Rust names of a function's result fields: `success`, then the exceptions.
fn result_field_names(f: &Function) -> (String, Vec<String>) {
    let mut scope = ident::Scope::new();
    let success = scope.unique("success".to_owned());
    let throws = f
        .throws
        .iter()
        .map(|t| scope.unique(ident::field_name(&t.name.name)))
        .collect();
    (success, throws)
}

/// The Rust names of a function's error variants: one per exception, and `Thrift`.
fn error_variant_names(f: &Function) -> Vec<String> {
    let mut scope = ident::Scope::new();
    scope.reserve("Thrift");
    f.throws
        .iter()
        .map(|t| scope.unique_camel(ident::type_name(&t.name.name)))
        .collect()
}

/// What the items of one function are made from.
struct Items<'a> {
    /// The IDL service and function names, for docs and messages.
    service: &'a str,
    function: &'a Function,
    prefix: &'a str,
}

/// Args struct, result struct, error enum and their conversions for one of the service's
/// own functions.
pub(super) fn function_items(
    m: &Scope<'_, '_>,
    view: &ServiceView<'_>,
    method: &Method<'_>,
) -> TokenStream {
    let items = Items {
        service: view.idl(),
        function: method.function,
        prefix: &method.prefix,
    };
    let file = view.id.file;
    let args = args_struct(m, file, &items);
    if method.function.oneway {
        return args;
    }
    let result_fields = result_fields(method.function);
    let result = result_struct(m, file, &items, &result_fields);
    let conversions = outcome_conversions(m, file, &items, method, &result_fields);
    let error_enum = if method.has_error_enum() {
        error_enum(m, file, &items)
    } else {
        TokenStream::new()
    };
    quote! {
        #args
        #result
        #conversions
        #error_enum
    }
}

/// The args struct: a field per parameter, by its id.
fn args_struct(m: &Scope<'_, '_>, file: FileId, items: &Items<'_>) -> TokenStream {
    let (f, prefix, idl) = (items.function, items.prefix, &items.function.name.name);
    let params = param_names(f);
    let args_fields: Vec<PlainField<'_>> = f
        .params
        .iter()
        .zip(&params)
        .map(|(p, name)| PlainField {
            name: ident::ident(name),
            idl_name: p.name.name.clone(),
            id: p.id,
            ty: &p.ty,
            optional: p.requiredness == Requiredness::Optional,
            required: p.requiredness == Requiredness::Required,
        })
        .collect();
    let args_name = format_ident!("{prefix}Args");
    plain_struct(
        m,
        file,
        &args_name,
        &format!("{idl}_args"),
        &format!(" The arguments of `{}.{idl}`.", items.service),
        &args_fields,
    )
}

/// The result struct's fields: `success` (field 0) when the function returns a value, then
/// the declared exceptions, all optional.
fn result_fields(f: &Function) -> Vec<PlainField<'_>> {
    let (success_name, throw_names) = result_field_names(f);
    let mut result_fields = Vec::new();
    if let Some(ty) = &f.return_type {
        result_fields.push(PlainField {
            name: ident::ident(&success_name),
            idl_name: "success".to_owned(),
            id: 0,
            ty,
            optional: true,
            required: false,
        });
    }
    for (t, name) in f.throws.iter().zip(&throw_names) {
        result_fields.push(PlainField {
            name: ident::ident(name),
            idl_name: t.name.name.clone(),
            id: t.id,
            ty: &t.ty,
            optional: true,
            required: false,
        });
    }
    result_fields
}

fn result_struct(
    m: &Scope<'_, '_>,
    file: FileId,
    items: &Items<'_>,
    result_fields: &[PlainField<'_>],
) -> TokenStream {
    let (prefix, idl) = (items.prefix, &items.function.name.name);
    let result_name = format_ident!("{prefix}Result");
    plain_struct(
        m,
        file,
        &result_name,
        &format!("{idl}_result"),
        &format!(
            " The result of `{}.{idl}`: the value returned (field 0) or the exception thrown.",
            items.service
        ),
        result_fields,
    )
}

/// `from_outcome` (a handler's outcome to the result struct) and `into_outcome` (the result
/// struct to what a client returns).
fn outcome_conversions(
    m: &Scope<'_, '_>,
    file: FileId,
    items: &Items<'_>,
    method: &Method<'_>,
    result_fields: &[PlainField<'_>],
) -> TokenStream {
    let rt = &m.runtime;
    let (f, prefix, idl) = (items.function, items.prefix, &items.function.name.name);
    let result_name = format_ident!("{prefix}Result");
    let (success_name, throw_names) = result_field_names(f);
    let error_name = format_ident!("{prefix}Error");
    let error_type = if method.has_error_enum() {
        quote!(#error_name)
    } else {
        quote!(#rt::Error)
    };
    let variants: Vec<_> = error_variant_names(f)
        .iter()
        .map(|v| ident::ident(v))
        .collect();
    let throw_fields: Vec<_> = throw_names.iter().map(|n| ident::ident(n)).collect();
    let none_fields: Vec<TokenStream> = result_fields
        .iter()
        .map(|field| {
            let name = &field.name;
            quote!(#name: ::std::option::Option::None)
        })
        .collect();
    let success_ident = ident::ident(&success_name);
    // The result struct with `set` holding `value` and every other field `None`.
    let with_one = |set: &proc_macro2::Ident, value: TokenStream| {
        let inits = result_fields.iter().map(|field| {
            let name = &field.name;
            if name == set {
                quote!(#name: ::std::option::Option::Some(#value))
            } else {
                quote!(#name: ::std::option::Option::None)
            }
        });
        quote!(#result_name { #(#inits),* })
    };
    let ok_arm = if f.return_type.is_some() {
        let value = with_one(&ident::ident(&success_name), quote!(success));
        quote!(::std::result::Result::Ok(success) => ::std::result::Result::Ok(#value),)
    } else {
        quote!(::std::result::Result::Ok(()) => ::std::result::Result::Ok(#result_name { #(#none_fields),* }),)
    };
    let err_arms = variants.iter().zip(&throw_fields).map(|(variant, field)| {
        let value = with_one(field, quote!(e));
        quote!(::std::result::Result::Err(#error_name::#variant(e)) => ::std::result::Result::Ok(#value),)
    });
    let undeclared = if method.has_error_enum() {
        quote!(::std::result::Result::Err(#error_name::Thrift(e)) => ::std::result::Result::Err(e),)
    } else {
        quote!(::std::result::Result::Err(e) => ::std::result::Result::Err(e),)
    };
    let success_check = if f.return_type.is_some() {
        quote! {
            if let ::std::option::Option::Some(success) = self.#success_ident {
                return ::std::result::Result::Ok(success);
            }
        }
    } else {
        TokenStream::new()
    };
    let throw_checks = variants.iter().zip(&throw_fields).map(|(variant, field)| {
        quote! {
            if let ::std::option::Option::Some(e) = self.#field {
                return ::std::result::Result::Err(#error_name::#variant(e));
            }
        }
    });
    let missing = if f.return_type.is_some() {
        let text = format!("{idl} failed: unknown result");
        let error = quote! {
            #rt::Error::from(
                #rt::ApplicationException::new(#rt::ApplicationExceptionKind::MISSING_RESULT, #text),
            )
        };
        if method.has_error_enum() {
            quote!(::std::result::Result::Err(#error_name::Thrift(#error)))
        } else {
            quote!(::std::result::Result::Err(#error))
        }
    } else {
        quote!(::std::result::Result::Ok(()))
    };
    let ok_type = success_type(m, file, f);
    let allow_large = if method.has_error_enum() {
        quote!(#[allow(clippy::result_large_err)])
    } else {
        TokenStream::new()
    };
    let conversions = quote! {
        impl #result_name {
            /// The result struct of a handler's outcome; `Err` for an error that is not a
            /// declared exception (sent as a `TApplicationException`).
            #allow_large
            pub fn from_outcome(
                outcome: ::std::result::Result<#ok_type, #error_type>,
            ) -> #rt::Result<Self> {
                match outcome {
                    #ok_arm
                    #(#err_arms)*
                    #undeclared
                }
            }

            /// The outcome a client gets: the value, or the declared exception received.
            #allow_large
            pub fn into_outcome(self) -> ::std::result::Result<#ok_type, #error_type> {
                #success_check
                #(#throw_checks)*
                #missing
            }
        }
    };

    conversions
}

/// The error enum of a function that `throws`: a variant per exception, and `Thrift`.
fn error_enum(m: &Scope<'_, '_>, file: FileId, items: &Items<'_>) -> TokenStream {
    let rt = &m.runtime;
    let (f, prefix, idl) = (items.function, items.prefix, &items.function.name.name);
    let s_name = items.service;
    let error_name = format_ident!("{prefix}Error");
    let variants: Vec<_> = error_variant_names(f)
        .iter()
        .map(|v| ident::ident(v))
        .collect();
    let types: Vec<TokenStream> = f
        .throws
        .iter()
        .map(|t| rust_type(m, file, &t.ty, false))
        .collect();
    let docs = f.throws.iter().map(|t| {
        let doc = format!(" `{}` (field {}) of `{}.{idl}`.", t.name.name, t.id, s_name);
        quote!(#[doc = #doc])
    });
    let display_arms = variants
        .iter()
        .map(|v| quote!(#error_name::#v(e) => ::std::fmt::Display::fmt(e, f),));
    let source_arms = variants
        .iter()
        .map(|v| quote!(#error_name::#v(e) => ::std::option::Option::Some(e),));
    // `From` for each exception type declared once (two fields of one type, typedefs
    // followed, would make the conversion ambiguous).
    let resolved: Vec<Option<DefId>> = f
        .throws
        .iter()
        .map(|t| match m.resolve(file, &t.ty) {
            Resolved::Struct(id, _) => Some(id),
            _ => None,
        })
        .collect();
    let froms = variants
        .iter()
        .zip(&types)
        .zip(&resolved)
        .filter_map(|((v, ty), id)| {
            let unique = id.is_some() && resolved.iter().filter(|other| *other == id).count() == 1;
            unique.then(|| {
                quote! {
                    impl ::std::convert::From<#ty> for #error_name {
                        fn from(e: #ty) -> Self {
                            #error_name::#v(e)
                        }
                    }
                }
            })
        });
    let enum_doc = format!(
        " The errors of `{}.{idl}`: its declared exceptions, and any other error.",
        s_name
    );
    quote! {
        #[doc = #enum_doc]
        #[derive(Debug)]
        #[allow(clippy::large_enum_variant)]
        pub enum #error_name {
            #(#docs #variants(#types),)*
            /// Not a declared exception: a transport or protocol failure, a
            /// `TApplicationException` from the server, a handler's other error.
            Thrift(#rt::Error),
        }

        impl ::std::fmt::Display for #error_name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                match self {
                    #(#display_arms)*
                    #error_name::Thrift(e) => ::std::fmt::Display::fmt(e, f),
                }
            }
        }

        impl ::std::error::Error for #error_name {
            fn source(&self) -> ::std::option::Option<&(dyn ::std::error::Error + 'static)> {
                match self {
                    #(#source_arms)*
                    #error_name::Thrift(e) => ::std::option::Option::Some(e),
                }
            }
        }

        #(#froms)*

        impl ::std::convert::From<#rt::Error> for #error_name {
            fn from(e: #rt::Error) -> Self {
                #error_name::Thrift(e)
            }
        }

        impl ::std::convert::From<#rt::ApplicationException> for #error_name {
            fn from(e: #rt::ApplicationException) -> Self {
                #error_name::Thrift(#rt::Error::from(e))
            }
        }
    }
}
