//! [`Val`]: a value in generated code, as the code writing and sizing it names it; and the
//! names of the locals of nested containers.

use proc_macro2::{Ident, Span, TokenStream};
use quote::quote;

/// A value in generated code: a reference (`item`, bound by a loop or `if let`) or a place
/// (`self.field`). Scalars are copied out of either without `*&`.
#[derive(Clone)]
pub struct Val {
    tokens: TokenStream,
    is_ref: bool,
}

impl Val {
    pub fn reference(tokens: TokenStream) -> Val {
        Val {
            tokens,
            is_ref: true,
        }
    }

    pub fn place(tokens: TokenStream) -> Val {
        Val {
            tokens,
            is_ref: false,
        }
    }

    /// The value itself, for `Copy` types.
    pub(super) fn copied(&self) -> TokenStream {
        let t = &self.tokens;
        if self.is_ref { quote!(*#t) } else { t.clone() }
    }

    /// A reference to the value.
    pub(super) fn by_ref(&self) -> TokenStream {
        let t = &self.tokens;
        if self.is_ref { t.clone() } else { quote!(&#t) }
    }

    /// For method calls and field access (auto-deref does the rest).
    pub(super) fn expr(&self) -> TokenStream {
        self.tokens.clone()
    }
}

/// The name of a local of generated code at nesting `depth` (`item0`, `items1`…), unique
/// among the nested loops and closures of one value.
pub(super) fn var(prefix: &str, depth: usize) -> Ident {
    Ident::new(&format!("{prefix}{depth}"), Span::call_site())
}
