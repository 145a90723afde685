//! Services: per IDL function the args and result structs (named, numbered and encoded as
//! Apache's generators do: args fields by their ids, result field 0 `success`, then the
//! declared exceptions), an error enum when it `throws`; per service the blocking and async
//! handler traits, clients and processors. The runtime's `rpc` module does the rest (see its
//! docs for why almost nothing is generated twice).

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};
use thrift_idl_parser::ast::{BaseType, Function, Requiredness, Service, Type};
use thrift_idl_parser::{DefId, FileId};

use super::codec::{Val, read_struct_body, read_value, value_len, write_field};
use super::docs::doc_attrs;
use super::types::{complexity_allow, rust_type, wire_type};
use crate::ident;
use crate::model::{Model, Resolved, parent_service};

/// One IDL function as seen from the service being generated (its own, or inherited).
struct Method<'a> {
    /// The service that declares it.
    service: DefId,
    function: &'a Function,
    /// Its Rust method name.
    name: String,
    /// Its items are `{prefix}Args`, `{prefix}Result` and `{prefix}Error`.
    prefix: String,
}

impl Method<'_> {
    /// The path of an item generated for this function: `{prefix}{suffix}`.
    fn item(&self, m: &Model<'_>, suffix: &str) -> TokenStream {
        m.path_to_named(self.service, &format!("{}{suffix}", self.prefix))
    }

    fn has_error_enum(&self) -> bool {
        !self.function.throws.is_empty()
    }
}

/// The service's functions, its own first, then those it inherits (nearest ancestor first),
/// each name once.
fn all_methods<'p>(m: &Model<'p>, id: DefId, s: &'p Service) -> Vec<Method<'p>> {
    let mut methods = Vec::new();
    let mut current = Some((id, s));
    let mut seen = std::collections::HashSet::new();
    // `extends` chains are acyclic (the checker requires a service to be defined before it is
    // extended); the bound guards against anything else.
    for _ in 0..1000 {
        let Some((service, def)) = current else { break };
        let names = &m.service_names(service).functions;
        for (function, names) in def.functions.iter().zip(names) {
            if seen.insert(function.name.name.clone()) {
                methods.push(Method {
                    service,
                    function,
                    name: names.method.clone(),
                    prefix: names.prefix.clone(),
                });
            }
        }
        current = parent_service(m, service, def);
    }
    methods
}

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

fn is_bool(m: &Model<'_>, file: FileId, ty: &Type) -> bool {
    matches!(m.resolve(file, ty), Resolved::Base(BaseType::Bool))
}

/// A struct with `ThriftWrite` and `ThriftRead`, for args and results (no borrowing form, no
/// in-place reading: these live for one call).
fn plain_struct(
    m: &Model<'_>,
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

/// The Rust type a function returns on success.
fn success_type(m: &Model<'_>, file: FileId, f: &Function) -> TokenStream {
    match &f.return_type {
        Some(ty) => rust_type(m, file, ty, false),
        None => quote!(()),
    }
}

/// `Result<T, E>` of a method seen from the module being generated.
fn result_type(m: &Model<'_>, method: &Method<'_>) -> TokenStream {
    let rt = &m.runtime;
    let ok = success_type(m, method.service.file, method.function);
    let err = if method.has_error_enum() {
        method.item(m, "Error")
    } else {
        quote!(#rt::Error)
    };
    quote!(::std::result::Result<#ok, #err>)
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

/// The Rust names of a function's parameters.
fn param_names(f: &Function) -> Vec<String> {
    let mut scope = ident::Scope::new();
    f.params
        .iter()
        .map(|p| scope.unique(ident::field_name(&p.name.name)))
        .collect()
}

/// Args struct, result struct, error enum and their conversions for one of the service's
/// own functions.
fn function_items(m: &Model<'_>, service: DefId, s: &Service, method: &Method<'_>) -> TokenStream {
    let rt = &m.runtime;
    let file = service.file;
    let f = method.function;
    let prefix = &method.prefix;
    let idl = &f.name.name;

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
    let args = plain_struct(
        m,
        file,
        &args_name,
        &format!("{idl}_args"),
        &format!(" The arguments of `{}.{idl}`.", s.name.name),
        &args_fields,
    );
    if f.oneway {
        return args;
    }

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
    let result_name = format_ident!("{prefix}Result");
    let result = plain_struct(
        m,
        file,
        &result_name,
        &format!("{idl}_result"),
        &format!(
            " The result of `{}.{idl}`: the value returned (field 0) or the exception thrown.",
            s.name.name
        ),
        &result_fields,
    );

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

    let error_enum = if method.has_error_enum() {
        let types: Vec<TokenStream> = f
            .throws
            .iter()
            .map(|t| rust_type(m, file, &t.ty, false))
            .collect();
        let docs = f.throws.iter().map(|t| {
            let doc = format!(
                " `{}` (field {}) of `{}.{idl}`.",
                t.name.name, t.id, s.name.name
            );
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
                let unique =
                    id.is_some() && resolved.iter().filter(|other| *other == id).count() == 1;
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
            s.name.name
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

/// The parameters of a method in a signature: `a: i32, b: String`.
fn signature_params(m: &Model<'_>, method: &Method<'_>) -> Vec<TokenStream> {
    let file = method.service.file;
    method
        .function
        .params
        .iter()
        .zip(param_names(method.function))
        .map(|(p, name)| {
            let name = ident::ident(&name);
            let mut ty = rust_type(m, file, &p.ty, false);
            if p.requiredness == Requiredness::Optional {
                ty = quote!(::std::option::Option<#ty>);
            }
            quote!(#name: #ty)
        })
        .collect()
}

fn param_idents(method: &Method<'_>) -> Vec<proc_macro2::Ident> {
    param_names(method.function)
        .iter()
        .map(|n| ident::ident(n))
        .collect()
}

/// `#[allow(clippy::result_large_err)]` for a method returning its error enum (an exception
/// struct inline can pass clippy's size limit).
fn large_err_allow(method: &Method<'_>) -> TokenStream {
    if method.has_error_enum() {
        quote!(#[allow(clippy::result_large_err)])
    } else {
        TokenStream::new()
    }
}

fn many_params_allow(method: &Method<'_>) -> TokenStream {
    // clippy's `too_many_arguments` counts `self`: more than 7 in all.
    if method.function.params.len() >= 7 {
        quote!(#[allow(clippy::too_many_arguments)])
    } else {
        TokenStream::new()
    }
}

fn method_doc(method: &Method<'_>, service_idl: &str) -> TokenStream {
    let mut docs = doc_attrs(method.function.doc.as_deref());
    if docs.is_empty() {
        let text = format!(
            " `{service_idl}.{}`{}.",
            method.function.name.name,
            if method.function.oneway {
                " (oneway)"
            } else {
                ""
            }
        );
        docs = quote!(#[doc = #text]);
    }
    docs
}

pub fn service_item(m: &Model<'_>, id: DefId, s: &Service) -> TokenStream {
    let rt = &m.runtime;
    let service_name = m.name(id).to_owned();
    let idl = &s.name.name;
    let own = all_methods(m, id, s)
        .into_iter()
        .filter(|method| method.service == id)
        .collect::<Vec<_>>();
    let methods = all_methods(m, id, s);
    let items = own.iter().map(|method| function_items(m, id, s, method));

    let names = m.service_names(id);
    let trait_name = ident::ident(&service_name);
    let async_trait = ident::ident(&names.async_trait);
    let client = ident::ident(&names.client);
    let async_client = ident::ident(&names.async_client);
    let processor = ident::ident(&names.processor);
    let async_processor = ident::ident(&names.async_processor);
    let dispatch = ident::ident(&names.dispatch);
    let dispatch_async = ident::ident(&names.dispatch_async);
    let parent = parent_service(m, id, s);
    // Calls of no function of its own go to the parent's dispatch (or are not this service's).
    let (supertrait, async_supertrait, parent_call, parent_call_async) = match parent {
        Some((pid, _)) => {
            let pnames = m.service_names(pid);
            let ptrait = m.path_to(id.file, pid);
            let pasync = m.path_to_named(pid, &pnames.async_trait);
            let pdispatch = m.path_to_named(pid, &pnames.dispatch);
            let pdispatch_async = m.path_to_named(pid, &pnames.dispatch_async);
            (
                quote!(#ptrait + ::std::marker::Send + ::std::marker::Sync),
                quote!(#pasync + ::std::marker::Send + ::std::marker::Sync),
                Some(quote!(#pdispatch(handler, call, out))),
                Some(quote!(#pdispatch_async(handler, call, out).await)),
            )
        }
        None => (
            quote!(::std::marker::Send + ::std::marker::Sync),
            quote!(::std::marker::Send + ::std::marker::Sync),
            None,
            None,
        ),
    };

    // Handler traits: the service's own functions.
    let trait_methods = own.iter().map(|method| {
        let name = ident::ident(&method.name);
        let params = signature_params(m, method);
        let ret = result_type(m, method);
        let doc = method_doc(method, idl);
        let allow = many_params_allow(method);
        let large = large_err_allow(method);
        quote! {
            #doc
            #allow
            #large
            fn #name(&self, #(#params),*) -> #ret;
        }
    });
    let async_trait_methods = own.iter().map(|method| {
        let name = ident::ident(&method.name);
        let params = signature_params(m, method);
        let ret = result_type(m, method);
        let doc = method_doc(method, idl);
        let allow = many_params_allow(method);
        quote! {
            #doc
            #allow
            fn #name(&self, #(#params),*) -> impl ::std::future::Future<Output = #ret> + ::std::marker::Send;
        }
    });

    // Dispatch: the own functions' arms, then the parent's dispatch.
    let arms = own.iter().map(|method| {
        let name = ident::ident(&method.name);
        let idl_name = &method.function.name.name;
        let args_ty = method.item(m, "Args");
        let params = param_idents(method);
        let args_binding = if params.is_empty() {
            quote!(_: #args_ty)
        } else {
            quote!(args: #args_ty)
        };
        let call_args = params.iter().map(|p| quote!(args.#p));
        if method.function.oneway {
            quote! {
                #idl_name => #rt::rpc::serve_oneway(call, |#args_binding| {
                    handler.#name(#(#call_args),*)
                })?,
            }
        } else {
            let result_ty = method.item(m, "Result");
            quote! {
                #idl_name => #rt::rpc::serve(call, out, |#args_binding| {
                    #result_ty::from_outcome(handler.#name(#(#call_args),*))
                })?,
            }
        }
    });
    let async_arms = own.iter().map(|method| {
        let name = ident::ident(&method.name);
        let idl_name = &method.function.name.name;
        let args_ty = method.item(m, "Args");
        let params = param_idents(method);
        let args_binding = if params.is_empty() {
            quote!(_: #args_ty)
        } else {
            quote!(args: #args_ty)
        };
        let call_args = params.iter().map(|p| quote!(args.#p));
        if method.function.oneway {
            quote! {
                #idl_name => #rt::rpc::serve_oneway_async(call, |#args_binding| {
                    handler.#name(#(#call_args),*)
                }).await?,
            }
        } else {
            let result_ty = method.item(m, "Result");
            quote! {
                // The handler is called before the `async` block, which then holds only its
                // future (`Send` by the trait's bound), not the args: proving the args `Send`
                // through a deep chain of structs overflows the compiler's recursion limit.
                #idl_name => #rt::rpc::serve_async(call, out, |#args_binding| {
                    let reply = handler.#name(#(#call_args),*);
                    async move { #result_ty::from_outcome(reply.await) }
                }).await?,
            }
        }
    });

    // Clients: every function, inherited ones too.
    let client_methods = methods.iter().map(|method| {
        let name = ident::ident(&method.name);
        let params = signature_params(m, method);
        let idents = param_idents(method);
        let args_ty = method.item(m, "Args");
        let idl_name = &method.function.name.name;
        let doc = method_doc(method, idl);
        let allow = many_params_allow(method);
        if method.function.oneway {
            quote! {
                #doc
                #allow
                pub fn #name(&mut self, #(#params),*) -> #rt::Result<()> {
                    self.channel.call_oneway(#idl_name, &#args_ty { #(#idents),* })
                }
            }
        } else {
            let result_ty = method.item(m, "Result");
            let ret = result_type(m, method);
            let large = large_err_allow(method);
            quote! {
                #doc
                #allow
                #large
                pub fn #name(&mut self, #(#params),*) -> #ret {
                    let result: #result_ty = self.channel.call(#idl_name, &#args_ty { #(#idents),* })?;
                    result.into_outcome()
                }
            }
        }
    });
    let async_client_methods = methods.iter().map(|method| {
        let name = ident::ident(&method.name);
        let params = signature_params(m, method);
        let idents = param_idents(method);
        let args_ty = method.item(m, "Args");
        let idl_name = &method.function.name.name;
        let doc = method_doc(method, idl);
        let allow = many_params_allow(method);
        if method.function.oneway {
            quote! {
                #doc
                #allow
                pub fn #name(&self, #(#params),*) -> impl ::std::future::Future<Output = #rt::Result<()>> + ::std::marker::Send + '_ {
                    #rt::rpc::call_oneway_async(&self.channel, #idl_name, &#args_ty { #(#idents),* })
                }
            }
        } else {
            let result_ty = method.item(m, "Result");
            let ret = result_type(m, method);
            quote! {
                #doc
                #allow
                pub fn #name(&self, #(#params),*) -> impl ::std::future::Future<Output = #ret> + ::std::marker::Send + '_ {
                    // The args are encoded now: the future holds bytes, not the args, so it
                    // is `Send` whatever their types (see `serve_async` above).
                    let reply = #rt::rpc::call_async::<_, _, #result_ty>(&self.channel, #idl_name, &#args_ty { #(#idents),* });
                    async move { reply.await?.into_outcome() }
                }
            }
        }
    });

    let arms: Vec<TokenStream> = arms.collect();
    let async_arms: Vec<TokenStream> = async_arms.collect();
    let body = |arms: &[TokenStream], parent: &Option<TokenStream>| match (arms.is_empty(), parent)
    {
        (true, Some(parent)) => quote!(#parent),
        (true, None) => quote! {
            let _ = (handler, call, out);
            ::std::result::Result::Ok(false)
        },
        (false, parent) => {
            let fallback = match parent {
                Some(parent) => quote!(_ => return #parent,),
                None => quote!(_ => return ::std::result::Result::Ok(false),),
            };
            quote! {
                match call.name() {
                    #(#arms)*
                    #fallback
                }
                ::std::result::Result::Ok(true)
            }
        }
    };
    let dispatch_body = body(&arms, &parent_call);
    let dispatch_async_body = body(&async_arms, &parent_call_async);
    // A service of oneway functions only (Jaeger's agent) writes no replies itself.
    let writes_replies = parent.is_some() || own.iter().any(|m| !m.function.oneway);
    let out_param = if writes_replies || own.is_empty() {
        quote!(out)
    } else {
        quote!(_out)
    };
    let out_allow = if writes_replies {
        TokenStream::new()
    } else {
        quote!(#[allow(clippy::ptr_arg)])
    };
    let docs = doc_attrs(s.doc.as_deref());
    let trait_doc = format!(
        " The handler of `{idl}`, blocking: implement it and serve it with [`{processor}`]."
    );
    let async_trait_doc = format!(
        " The handler of `{idl}`, async: implement it and serve it with [`{async_processor}`]."
    );
    // Links go through `__rt`, the module's import of the runtime, so that they resolve
    // whatever `Builder::runtime_path` is.
    let client_doc = format!(
        " A blocking client of `{idl}` over a [`Channel`](__rt::rpc::Channel) (such as `thrift_runtime::rpc::blocking::Connection`)."
    );
    let async_client_doc = format!(
        " An async client of `{idl}` over an [`AsyncChannel`](__rt::rpc::AsyncChannel): clone it, or share it, to call from many tasks at once."
    );
    let processor_doc =
        format!(" Serves `{idl}` with a blocking handler (a [`Processor`](__rt::rpc::Processor)).");
    let async_processor_doc = format!(
        " Serves `{idl}` with an async handler (an [`AsyncProcessor`](__rt::rpc::AsyncProcessor))."
    );
    let dispatch_doc = format!(
        " Serves `call` with `handler` if it names a function of `{idl}` (or of a service it extends); `false` if it names none."
    );
    quote! {
        #(#items)*

        #docs
        #[doc = #trait_doc]
        pub trait #trait_name: #supertrait {
            #(#trait_methods)*
        }

        #[doc = #async_trait_doc]
        pub trait #async_trait: #async_supertrait {
            #(#async_trait_methods)*
        }

        #[doc = #dispatch_doc]
        #out_allow
        pub fn #dispatch<H: #trait_name + ?Sized>(
            handler: &H,
            call: &#rt::rpc::Message,
            #out_param: &mut ::std::vec::Vec<u8>,
        ) -> #rt::Result<bool> {
            #dispatch_body
        }

        #[doc = #dispatch_doc]
        #out_allow
        pub async fn #dispatch_async<H: #async_trait + ?Sized>(
            handler: &H,
            call: &#rt::rpc::Message,
            #out_param: &mut ::std::vec::Vec<u8>,
        ) -> #rt::Result<bool> {
            #dispatch_async_body
        }

        #[doc = #processor_doc]
        #[derive(Debug, Clone, Default)]
        pub struct #processor<H> {
            handler: H,
        }

        impl<H> #processor<H> {
            /// A processor calling `handler`.
            pub fn new(handler: H) -> Self {
                #processor { handler }
            }

            /// The handler.
            pub fn handler(&self) -> &H {
                &self.handler
            }
        }

        impl<H: #trait_name> #rt::rpc::Processor for #processor<H> {
            fn process(
                &self,
                call: &#rt::rpc::Message,
                out: &mut ::std::vec::Vec<u8>,
            ) -> #rt::Result<()> {
                if #dispatch(&self.handler, call, out)? {
                    ::std::result::Result::Ok(())
                } else {
                    call.reply_unknown_method(out)
                }
            }
        }

        #[doc = #async_processor_doc]
        #[derive(Debug, Clone, Default)]
        pub struct #async_processor<H> {
            handler: H,
        }

        impl<H> #async_processor<H> {
            /// A processor calling `handler`.
            pub fn new(handler: H) -> Self {
                #async_processor { handler }
            }

            /// The handler.
            pub fn handler(&self) -> &H {
                &self.handler
            }
        }

        impl<H: #async_trait> #rt::rpc::AsyncProcessor for #async_processor<H> {
            async fn process(
                &self,
                call: &#rt::rpc::Message,
                out: &mut ::std::vec::Vec<u8>,
            ) -> #rt::Result<()> {
                if #dispatch_async(&self.handler, call, out).await? {
                    ::std::result::Result::Ok(())
                } else {
                    call.reply_unknown_method(out)
                }
            }
        }

        #[doc = #client_doc]
        #[derive(Debug, Clone)]
        pub struct #client<C> {
            channel: C,
        }

        impl<C: #rt::rpc::Channel> #client<C> {
            /// A client calling through `channel`.
            pub fn new(channel: C) -> Self {
                #client { channel }
            }

            /// The channel.
            pub fn channel(&self) -> &C {
                &self.channel
            }

            /// The channel, mutably.
            pub fn channel_mut(&mut self) -> &mut C {
                &mut self.channel
            }

            /// Returns the channel.
            pub fn into_channel(self) -> C {
                self.channel
            }

            #(#client_methods)*
        }

        #[doc = #async_client_doc]
        #[derive(Debug, Clone)]
        pub struct #async_client<C> {
            channel: C,
        }

        impl<C: #rt::rpc::AsyncChannel> #async_client<C> {
            /// A client calling through `channel`.
            pub fn new(channel: C) -> Self {
                #async_client { channel }
            }

            /// The channel.
            pub fn channel(&self) -> &C {
                &self.channel
            }

            /// Returns the channel.
            pub fn into_channel(self) -> C {
                self.channel
            }

            #(#async_client_methods)*
        }
    }
}
