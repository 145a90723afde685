//! The serving side of a service, each item once per [`Flavor`]: the handler trait a user
//! implements (the service's own functions, with the parent's trait as a supertrait), the
//! dispatch function (the own functions' arms, then the parent's dispatch), and the processor
//! the runtime's servers take.

use proc_macro2::TokenStream;
use quote::quote;

use super::{
    Flavor, Method, ServiceView, large_err_allow, method_doc, param_idents, params_allow,
    result_type, signature_params,
};
use crate::emit::docs::doc_attrs;
use crate::emit::scope::Scope;

/// The handler trait: `Foo` (blocking) or `FooAsync`.
pub(super) fn handler_trait(
    m: &Scope<'_, '_>,
    view: &ServiceView<'_>,
    flavor: Flavor,
) -> TokenStream {
    let name = view.handler_trait(flavor);
    let processor = view.processor(flavor);
    let idl = view.idl();
    let supertrait = match view.parent {
        Some(parent) => {
            let path = match flavor {
                Flavor::Blocking => m.path_to(view.id.file, parent),
                Flavor::Async => m.path_to_named(parent, &m.service_names(parent).async_trait),
            };
            quote!(#path + ::std::marker::Send + ::std::marker::Sync)
        }
        None => quote!(::std::marker::Send + ::std::marker::Sync),
    };
    let methods = view.own().map(|method| {
        let name = crate::ident::ident(&method.name);
        let params = signature_params(m, method);
        let ret = result_type(m, method);
        let doc = method_doc(method, idl);
        let allow = params_allow(method);
        match flavor {
            Flavor::Blocking => {
                let large = large_err_allow(method);
                quote! {
                    #doc
                    #allow
                    #large
                    fn #name(&self, #(#params),*) -> #ret;
                }
            }
            Flavor::Async => quote! {
                #doc
                #allow
                fn #name(&self, #(#params),*) -> impl ::std::future::Future<Output = #ret> + ::std::marker::Send;
            },
        }
    });
    // The service's own doc goes on the blocking trait, the one named like the service.
    let docs = match flavor {
        Flavor::Blocking => doc_attrs(view.service.doc.as_deref()),
        Flavor::Async => TokenStream::new(),
    };
    let doc = format!(
        " The handler of `{idl}`, {}: implement it and serve it with [`{processor}`].",
        flavor.pick("blocking", "async")
    );
    quote! {
        #docs
        #[doc = #doc]
        pub trait #name: #supertrait {
            #(#methods)*
        }
    }
}

/// The `match` arm serving one of the service's own functions.
fn dispatch_arm(m: &Scope<'_, '_>, method: &Method<'_>, flavor: Flavor) -> TokenStream {
    let rt = &m.runtime;
    let name = crate::ident::ident(&method.name);
    let idl_name = &method.function.name.name;
    let args_ty = method.item(m, "Args");
    let params = param_idents(method);
    let args_binding = if params.is_empty() {
        quote!(_: #args_ty)
    } else {
        quote!(args: #args_ty)
    };
    let call_args = params.iter().map(|p| quote!(args.#p));
    let result_ty = method.item(m, "Result");
    match (flavor, method.function.oneway) {
        (Flavor::Blocking, true) => quote! {
            #idl_name => #rt::rpc::serve_oneway(call, |#args_binding| {
                handler.#name(#(#call_args),*)
            })?,
        },
        (Flavor::Blocking, false) => quote! {
            #idl_name => #rt::rpc::serve(call, out, |#args_binding| {
                #result_ty::from_outcome(handler.#name(#(#call_args),*))
            })?,
        },
        (Flavor::Async, true) => quote! {
            #idl_name => #rt::rpc::serve_oneway_async(call, |#args_binding| {
                handler.#name(#(#call_args),*)
            }).await?,
        },
        // The handler is called before the `async` block, which then holds only its future
        // (`Send` by the trait's bound), not the args: proving the args `Send` through a deep
        // chain of structs overflows the compiler's recursion limit.
        (Flavor::Async, false) => quote! {
            #idl_name => #rt::rpc::serve_async(call, out, |#args_binding| {
                let reply = handler.#name(#(#call_args),*);
                async move { #result_ty::from_outcome(reply.await) }
            }).await?,
        },
    }
}

/// The dispatch function: `dispatch_foo` or `dispatch_foo_async`.
pub(super) fn dispatch(m: &Scope<'_, '_>, view: &ServiceView<'_>, flavor: Flavor) -> TokenStream {
    let rt = &m.runtime;
    let arms: Vec<TokenStream> = view
        .own()
        .map(|method| dispatch_arm(m, method, flavor))
        .collect();
    // Calls of no function of its own go to the parent's dispatch (or are not this service's).
    let parent = view.parent.map(|parent| {
        let names = m.service_names(parent);
        let path = m.path_to_named(parent, flavor.pick(&names.dispatch, &names.dispatch_async));
        match flavor {
            Flavor::Blocking => quote!(#path(handler, call, out)),
            Flavor::Async => quote!(#path(handler, call, out).await),
        }
    });
    let body = match (arms.is_empty(), &parent) {
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
    // A service of oneway functions only (Jaeger's agent) writes no replies itself.
    let writes_replies = view.parent.is_some() || view.own().any(|method| !method.function.oneway);
    let out_param = if writes_replies || arms.is_empty() {
        quote!(out)
    } else {
        quote!(_out)
    };
    let out_allow = if writes_replies {
        TokenStream::new()
    } else {
        quote!(#[allow(clippy::ptr_arg)])
    };
    let doc = format!(
        " Serves `call` with `handler` if it names a function of `{}` (or of a service it extends); `false` if it names none.",
        view.idl()
    );
    let name = view.dispatch(flavor);
    let handler = view.handler_trait(flavor);
    let asyncness = flavor.pick(TokenStream::new(), quote!(async));
    quote! {
        #[doc = #doc]
        #out_allow
        pub #asyncness fn #name<H: #handler + ?Sized>(
            handler: &H,
            call: &#rt::rpc::Message,
            #out_param: &mut ::std::vec::Vec<u8>,
        ) -> #rt::Result<bool> {
            #body
        }
    }
}

/// The processor: `FooProcessor` (a `Processor`) or `FooAsyncProcessor` (an
/// `AsyncProcessor`).
pub(super) fn processor(m: &Scope<'_, '_>, view: &ServiceView<'_>, flavor: Flavor) -> TokenStream {
    let rt = &m.runtime;
    let name = view.processor(flavor);
    let handler = view.handler_trait(flavor);
    let dispatch = view.dispatch(flavor);
    let doc = match flavor {
        Flavor::Blocking => format!(
            " Serves `{}` with a blocking handler (a [`Processor`](__rt::rpc::Processor)).",
            view.idl()
        ),
        Flavor::Async => format!(
            " Serves `{}` with an async handler (an [`AsyncProcessor`](__rt::rpc::AsyncProcessor)).",
            view.idl()
        ),
    };
    let process = match flavor {
        Flavor::Blocking => quote! {
            impl<H: #handler> #rt::rpc::Processor for #name<H> {
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
        },
        Flavor::Async => quote! {
            impl<H: #handler> #rt::rpc::AsyncProcessor for #name<H> {
                async fn process(
                    &self,
                    call: &#rt::rpc::Message,
                    out: &mut ::std::vec::Vec<u8>,
                ) -> #rt::Result<()> {
                    if #dispatch(&self.handler, call, out).await? {
                        ::std::result::Result::Ok(())
                    } else {
                        call.reply_unknown_method(out)
                    }
                }
            }
        },
    };
    quote! {
        #[doc = #doc]
        #[derive(Debug, Clone, Default)]
        pub struct #name<H> {
            handler: H,
        }

        impl<H> #name<H> {
            /// A processor calling `handler`.
            pub fn new(handler: H) -> Self {
                #name { handler }
            }

            /// The handler.
            pub fn handler(&self) -> &H {
                &self.handler
            }
        }

        #process
    }
}
