//! Attributes added to generated items: the IDL's `rust.attr` and the `Builder`'s
//! `type_attribute` and kin, each kept for the items it goes on when the model is configured
//! (`configure`), and looked up here when code is emitted.

use proc_macro2::TokenStream;
use thrift_idl_parser::DefId;

use super::Model;
use super::select::Item;

use crate::options::AttributeTarget;

/// Parses one or more outer attributes (`#[...]`) into tokens.
pub fn parse_attributes(text: &str) -> syn::Result<TokenStream> {
    use syn::parse::Parser;
    let attrs = syn::Attribute::parse_outer.parse_str(text)?;
    if attrs.is_empty() {
        return Err(syn::Error::new(
            proc_macro2::Span::call_site(),
            "expected `#[...]`",
        ));
    }
    Ok(attrs.iter().map(quote::ToTokens::to_token_stream).collect())
}

impl Model<'_> {
    /// Adds `attrs` to those of `item` (a type or a field) in the form of `target`, after the
    /// ones it has.
    pub fn add_attributes(&mut self, target: AttributeTarget, item: Item, attrs: TokenStream) {
        self.attributes
            .entry((target, item))
            .or_default()
            .extend(attrs);
    }

    fn attributes_of(&self, target: AttributeTarget, item: Item) -> TokenStream {
        self.attributes
            .get(&(target, item))
            .cloned()
            .unwrap_or_default()
    }

    /// The attributes of the owned (`borrowed == false`) or borrowing form of a type.
    pub fn type_attrs(&self, id: DefId, borrowed: bool) -> TokenStream {
        let target = if borrowed {
            AttributeTarget::RefType
        } else {
            AttributeTarget::Type
        };
        self.attributes_of(target, Item::Definition(id))
    }

    /// The attributes of field `index` of a struct, union or exception.
    pub fn field_attrs(&self, id: DefId, index: usize, borrowed: bool) -> TokenStream {
        let target = if borrowed {
            AttributeTarget::RefField
        } else {
            AttributeTarget::Field
        };
        self.attributes_of(target, Item::Field(id, index))
    }
}
