//! Code generation: one Rust module per IDL file, built as tokens with `quote!`, checked by
//! `syn` and printed by `prettyplease`.

mod borrowed;
mod codec;
mod consts;
mod docs;
mod enums;
mod fields;
mod names;
mod reads;
mod scope;
mod serde;
mod services;
mod structs;
mod types;
mod unions;

use proc_macro2::TokenStream;
use quote::quote;
use thrift_idl_parser::ast::{Definition, StructKind};
use thrift_idl_parser::{DefId, FileId};

use crate::ident;
use crate::model::Model;
use scope::Scope;

/// The Rust code of one IDL file's module, formatted.
pub fn module_code(model: &Model<'_>, file: FileId) -> String {
    let m = &Scope::new(model, file);
    let parsed = m.program.file(file).expect("generated files were parsed");
    let mut items = Vec::new();
    for (index, definition) in parsed.document.definitions.iter().enumerate() {
        let id = DefId { file, index };
        if !m.is_kept(id) {
            continue;
        }
        items.push(match definition {
            Definition::Const(c) => consts::const_item(m, id, c),
            Definition::Typedef(t) => {
                let name = ident::ident(m.name(id));
                let ty = types::rust_type(m, file, &t.ty, false);
                let docs = docs::doc_attrs(t.doc.as_deref());
                quote! { #docs pub type #name = #ty; }
            }
            Definition::Enum(e) => enums::enum_item(m, id, e),
            Definition::Senum(s) => {
                let name = ident::ident(m.name(id));
                let docs = docs::doc_attrs(s.doc.as_deref());
                let string = m.string_type();
                quote! { #docs pub type #name = #string; }
            }
            Definition::Struct(s) if s.kind == StructKind::Union => {
                let owned = unions::union_item(m, id, s);
                if m.is_borrowing(id) {
                    let borrowed = borrowed::union_ref_item(m, id, s);
                    quote!(#owned #borrowed)
                } else {
                    owned
                }
            }
            Definition::Struct(s) => {
                let owned = structs::struct_item(m, id, s);
                if m.is_borrowing(id) {
                    let borrowed = borrowed::struct_ref_item(m, id, s);
                    quote!(#owned #borrowed)
                } else {
                    owned
                }
            }
            Definition::Service(s) if m.options.services => services::service_item(m, id, s),
            Definition::Service(_) => TokenStream::new(),
        });
    }
    let path = &m.runtime_path;
    let contract = RUNTIME_CONTRACT;
    let tokens = quote! {
        #[allow(unused_imports)]
        use #path::__codegen as __rt;
        // Fails the build, saying why, when the runtime is not the version this generator
        // writes for.
        const _: () = __rt::require(#contract);
        #(#items)*
    };
    let syntax: syn::File = match syn::parse2(tokens.clone()) {
        Ok(file) => file,
        Err(e) => {
            panic!("thrift-codegen produced invalid Rust ({e}); please report this bug:\n{tokens}")
        }
    };
    prettyplease::unparse(&syntax)
}

/// The `thrift_runtime::__codegen::CONTRACT` this generator writes code for (the two crates
/// are released together; see the version policy, docs/src/reference/versions.md).
pub(crate) const RUNTIME_CONTRACT: u32 = 1;
