//! The messages of one IDL function, as Apache's generators name, number and encode them: the
//! args struct (fields by their ids) and the result struct (field 0 `success`, then the
//! declared exceptions), which the model defines ([`Model::message`]) and the struct generator
//! emits; an error enum when it `throws`; and the conversions between a handler's outcome and
//! the result struct.
//!
//! [`Model::message`]: crate::model::Model::message

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use thrift_idl_parser::ast::Function;
use thrift_idl_parser::{DefId, FileId};

use super::{Method, ServiceView, success_type};
use crate::emit::names::field_names;
use crate::emit::scope::Scope;
use crate::emit::structs::message_item;
use crate::emit::types::rust_type;
use crate::ident;
use crate::model::Resolved;

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
    let (prefix, idl) = (&method.prefix, &method.function.name.name);
    let args = message_item(
        m,
        method.args,
        &format_ident!("{prefix}Args"),
        &format!(" The arguments of `{}.{idl}`.", items.service),
    );
    let Some(result) = method.result else {
        return args;
    };
    let result_doc = format!(
        " The result of `{}.{idl}`: the value returned (field 0) or the exception thrown.",
        items.service
    );
    let result_struct = message_item(m, result, &format_ident!("{prefix}Result"), &result_doc);
    let result_fields = field_names(m.message(result));
    let conversions = outcome_conversions(m, file, &items, method, &result_fields);
    let error_enum = if method.has_error_enum() {
        error_enum(m, file, &items)
    } else {
        TokenStream::new()
    };
    quote! {
        #args
        #result_struct
        #conversions
        #error_enum
    }
}

/// `from_outcome` (a handler's outcome to the result struct) and `into_outcome` (the result
/// struct to what a client returns).
fn outcome_conversions(
    m: &Scope<'_, '_>,
    file: FileId,
    items: &Items<'_>,
    method: &Method<'_>,
    result_fields: &[String],
) -> TokenStream {
    let rt = &m.runtime;
    let (f, prefix, idl) = (items.function, items.prefix, &items.function.name.name);
    let result_name = format_ident!("{prefix}Result");
    // The result struct's fields: `success` first when the function returns a value, then one
    // per exception.
    let returns = usize::from(f.return_type.is_some());
    let throw_names = &result_fields[returns..];
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
    let result_fields: Vec<_> = result_fields.iter().map(|n| ident::ident(n)).collect();
    let none_fields: Vec<TokenStream> = result_fields
        .iter()
        .map(|name| quote!(#name: ::std::option::Option::None))
        .collect();
    // The result struct with `set` holding `value` and every other field `None`.
    let with_one = |set: &proc_macro2::Ident, value: TokenStream| {
        let inits = result_fields.iter().map(|name| {
            if name == set {
                quote!(#name: ::std::option::Option::Some(#value))
            } else {
                quote!(#name: ::std::option::Option::None)
            }
        });
        quote!(#result_name { #(#inits),* })
    };
    let ok_arm = if f.return_type.is_some() {
        let value = with_one(&result_fields[0], quote!(success));
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
        let success = &result_fields[0];
        quote! {
            if let ::std::option::Option::Some(success) = self.#success {
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
