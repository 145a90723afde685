//! The calling side of a service, once per [`Flavor`]: a client over a channel, with a
//! method for every function, inherited ones too.

use proc_macro2::TokenStream;
use quote::quote;

use super::{
    Flavor, Method, ServiceView, large_err_allow, method_doc, param_idents, params_allow,
    result_type, signature_params,
};
use crate::emit::scope::Scope;

/// One client method.
fn client_method(
    m: &Scope<'_, '_>,
    view: &ServiceView<'_>,
    method: &Method<'_>,
    flavor: Flavor,
) -> TokenStream {
    let rt = &m.runtime;
    let name = crate::ident::ident(&method.name);
    let params = signature_params(m, method);
    let idents = param_idents(method);
    let args_ty = method.item(m, "Args");
    let idl_name = &method.function.name.name;
    let doc = method_doc(method, view.idl());
    let allow = params_allow(method);
    let args = quote!(&#args_ty { #(#idents),* });
    if method.function.oneway {
        return match flavor {
            Flavor::Blocking => quote! {
                #doc
                #allow
                pub fn #name(&mut self, #(#params),*) -> #rt::Result<()> {
                    self.channel.call_oneway(#idl_name, #args)
                }
            },
            Flavor::Async => quote! {
                #doc
                #allow
                pub fn #name(&self, #(#params),*) -> impl ::std::future::Future<Output = #rt::Result<()>> + ::std::marker::Send + '_ {
                    #rt::rpc::call_oneway_async(&self.channel, #idl_name, #args)
                }
            },
        };
    }
    let result_ty = method.item(m, "Result");
    let ret = result_type(m, method);
    match flavor {
        Flavor::Blocking => {
            let large = large_err_allow(method);
            quote! {
                #doc
                #allow
                #large
                pub fn #name(&mut self, #(#params),*) -> #ret {
                    let result: #result_ty = self.channel.call(#idl_name, #args)?;
                    result.into_outcome()
                }
            }
        }
        // The args are encoded before the future is made: it holds bytes, not the args, so it
        // is `Send` whatever their types (see the async dispatch arm in `server`).
        Flavor::Async => quote! {
            #doc
            #allow
            pub fn #name(&self, #(#params),*) -> impl ::std::future::Future<Output = #ret> + ::std::marker::Send + '_ {
                let reply = #rt::rpc::call_async::<_, _, #result_ty>(&self.channel, #idl_name, #args);
                async move { reply.await?.into_outcome() }
            }
        },
    }
}

/// The client: `FooClient<C: Channel>` or `FooAsyncClient<C: AsyncChannel>`.
pub(super) fn client(m: &Scope<'_, '_>, view: &ServiceView<'_>, flavor: Flavor) -> TokenStream {
    let rt = &m.runtime;
    let name = view.client(flavor);
    let idl = view.idl();
    let methods = view
        .all
        .iter()
        .map(|method| client_method(m, view, method, flavor));
    // Links go through `__rt`, the module's import of the runtime, so that they resolve
    // whatever `Builder::runtime_path` is.
    let (doc, channel, channel_mut) = match flavor {
        Flavor::Blocking => (
            format!(
                " A blocking client of `{idl}` over a [`Channel`](__rt::rpc::Channel) (such as `thrift_runtime::rpc::blocking::Connection`)."
            ),
            quote!(#rt::rpc::Channel),
            quote! {
                /// The channel, mutably.
                pub fn channel_mut(&mut self) -> &mut C {
                    &mut self.channel
                }
            },
        ),
        Flavor::Async => (
            format!(
                " An async client of `{idl}` over an [`AsyncChannel`](__rt::rpc::AsyncChannel): clone it, or share it, to call from many tasks at once."
            ),
            quote!(#rt::rpc::AsyncChannel),
            TokenStream::new(),
        ),
    };
    quote! {
        #[doc = #doc]
        #[derive(Debug, Clone)]
        pub struct #name<C> {
            channel: C,
        }

        impl<C: #channel> #name<C> {
            /// A client calling through `channel`.
            pub fn new(channel: C) -> Self {
                #name { channel }
            }

            /// The channel.
            pub fn channel(&self) -> &C {
                &self.channel
            }

            #channel_mut

            /// Returns the channel.
            pub fn into_channel(self) -> C {
                self.channel
            }

            #(#methods)*
        }
    }
}
