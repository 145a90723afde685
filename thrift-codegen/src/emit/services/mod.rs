//! Services: per IDL function its messages ([`messages`]: the args and result structs and an
//! error enum); per service the blocking and async handler traits, dispatch functions and
//! processors ([`server`]) and clients ([`client`]). Each blocking/async pair is emitted by
//! one function from one description, with the [`Flavor`] as its parameter. The runtime's
//! `rpc` module does the rest (see its docs for why almost nothing is generated twice).

mod client;
mod messages;
mod server;

use proc_macro2::{Ident, TokenStream};
use quote::quote;
use thrift_idl_parser::DefId;
use thrift_idl_parser::ast::{Function, Requiredness, Service};

use super::docs::doc_attrs;
use super::scope::Scope;
use super::types::rust_type;
use crate::ident;
use crate::model::ServiceNames;

/// Which of the twins is being emitted.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Flavor {
    Blocking,
    Async,
}

impl Flavor {
    /// `blocking` for the blocking twin, `asynchronous` for the async one.
    fn pick<T>(self, blocking: T, asynchronous: T) -> T {
        match self {
            Flavor::Blocking => blocking,
            Flavor::Async => asynchronous,
        }
    }
}

/// One IDL function as seen from the service being generated (its own, or inherited).
struct Method<'a> {
    /// The service that declares it.
    service: DefId,
    function: &'a Function,
    /// Its Rust method name.
    name: String,
    /// Its items are `{prefix}Args`, `{prefix}Result` and `{prefix}Error`.
    prefix: String,
    /// Its args struct, and its result struct unless it is `oneway` (see `Model::message`).
    args: DefId,
    result: Option<DefId>,
}

impl Method<'_> {
    /// The path of an item generated for this function: `{prefix}{suffix}`.
    fn item(&self, m: &Scope<'_, '_>, suffix: &str) -> TokenStream {
        m.path_to_named(self.service, &format!("{}{suffix}", self.prefix))
    }

    fn has_error_enum(&self) -> bool {
        !self.function.throws.is_empty()
    }
}

/// A service as its items are emitted: its functions, its own and inherited, and the
/// service it extends. The `extends` chain is walked once, here.
struct ServiceView<'p> {
    id: DefId,
    service: &'p Service,
    names: &'p ServiceNames,
    /// The Rust name of the service (its blocking handler trait).
    name: String,
    /// Every function, its own first, then those it inherits (nearest ancestor first), each
    /// name once.
    all: Vec<Method<'p>>,
    /// The service it extends.
    parent: Option<DefId>,
}

impl<'p> ServiceView<'p> {
    fn new(m: &'p Scope<'_, '_>, id: DefId, service: &'p Service) -> ServiceView<'p> {
        let mut all = Vec::new();
        let mut current = Some((id, service));
        let mut seen = std::collections::HashSet::new();
        // `extends` chains are acyclic (the checker requires a service to be defined before
        // it is extended); the bound guards against anything else.
        for _ in 0..1000 {
            let Some((declaring, def)) = current else {
                break;
            };
            let names = &m.service_names(declaring).functions;
            for (index, (function, names)) in def.functions.iter().zip(names).enumerate() {
                if !m.keeps_function(declaring, index) {
                    continue;
                }
                if seen.insert(function.name.name.clone()) {
                    all.push(Method {
                        service: declaring,
                        function,
                        name: names.method.clone(),
                        prefix: names.prefix.clone(),
                        args: names.args,
                        result: names.result,
                    });
                }
            }
            current = m.program.parent_service(declaring, def);
        }
        ServiceView {
            id,
            service,
            names: m.service_names(id),
            name: m.name(id).to_owned(),
            all,
            parent: m
                .program
                .parent_service(id, service)
                .map(|(parent, _)| parent),
        }
    }

    /// The functions the service declares itself.
    fn own(&self) -> impl Iterator<Item = &Method<'p>> {
        self.all.iter().filter(|method| method.service == self.id)
    }

    /// The IDL name of the service.
    fn idl(&self) -> &str {
        &self.service.name.name
    }

    fn handler_trait(&self, flavor: Flavor) -> Ident {
        ident::ident(flavor.pick(&self.name, &self.names.async_trait))
    }

    fn dispatch(&self, flavor: Flavor) -> Ident {
        ident::ident(flavor.pick(&self.names.dispatch, &self.names.dispatch_async))
    }

    fn processor(&self, flavor: Flavor) -> Ident {
        ident::ident(flavor.pick(&self.names.processor, &self.names.async_processor))
    }

    fn client(&self, flavor: Flavor) -> Ident {
        ident::ident(flavor.pick(&self.names.client, &self.names.async_client))
    }
}

/// Every item of a service, in the order of the goldens: the messages of its own functions,
/// then each blocking/async pair.
pub fn service_item(m: &Scope<'_, '_>, id: DefId, s: &Service) -> TokenStream {
    let view = ServiceView::new(m, id, s);
    let messages = view
        .own()
        .map(|method| messages::function_items(m, &view, method));
    let twins = |emit: fn(&Scope<'_, '_>, &ServiceView<'_>, Flavor) -> TokenStream| {
        let blocking = emit(m, &view, Flavor::Blocking);
        let asynchronous = emit(m, &view, Flavor::Async);
        quote!(#blocking #asynchronous)
    };
    let traits = twins(server::handler_trait);
    let dispatch = twins(server::dispatch);
    let processors = twins(server::processor);
    let clients = twins(client::client);
    quote! {
        #(#messages)*
        #traits
        #dispatch
        #processors
        #clients
    }
}

/// The Rust type a function returns on success.
fn success_type(m: &Scope<'_, '_>, file: thrift_idl_parser::FileId, f: &Function) -> TokenStream {
    match &f.return_type {
        Some(ty) => rust_type(m, file, ty, false),
        None => quote!(()),
    }
}

/// `Result<T, E>` of a method seen from the module being generated.
fn result_type(m: &Scope<'_, '_>, method: &Method<'_>) -> TokenStream {
    let rt = &m.runtime;
    let ok = success_type(m, method.service.file, method.function);
    let err = if method.has_error_enum() {
        method.item(m, "Error")
    } else {
        quote!(#rt::Error)
    };
    quote!(::std::result::Result<#ok, #err>)
}

/// The Rust names of a function's parameters.
fn param_names(f: &Function) -> Vec<String> {
    let mut scope = ident::Scope::new();
    f.params
        .iter()
        .map(|p| scope.unique(ident::field_name(&p.name.name)))
        .collect()
}

/// The parameters of a method in a signature: `a: i32, b: String`.
fn signature_params(m: &Scope<'_, '_>, method: &Method<'_>) -> Vec<TokenStream> {
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

fn param_idents(method: &Method<'_>) -> Vec<Ident> {
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

/// The lints a method's parameters can trigger in a consuming crate: clippy's
/// `too_many_arguments` (it counts `self`: more than 7 in all), and `disallowed_names` where
/// the IDL names a parameter `foo`, `baz` or `quux` (clippy's default placeholder names; the
/// parameters of a method with a body are bindings it checks).
fn params_allow(method: &Method<'_>) -> TokenStream {
    let mut lints = Vec::new();
    if method.function.params.len() >= 7 {
        lints.push(quote!(clippy::too_many_arguments));
    }
    if param_names(method.function)
        .iter()
        .any(|name| matches!(name.as_str(), "foo" | "baz" | "quux"))
    {
        lints.push(quote!(clippy::disallowed_names));
    }
    if lints.is_empty() {
        TokenStream::new()
    } else {
        quote!(#[allow(#(#lints),*)])
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
