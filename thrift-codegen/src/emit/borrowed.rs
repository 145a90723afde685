//! Borrowing forms: for every struct, union and exception `Foo` that holds strings or binaries
//! (directly or through other types), a `FooRef<'de>` decoded without copying them: strings are
//! `&'de str` (checked UTF-8), binaries `&'de [u8]`, nested structs inline, lists and sets
//! vectors, maps vectors of pairs (`SmallVec`s with inline room for a field's container of small
//! elements, `Vec`s otherwise: see `types::borrowed_type`). Decoding one whose fields are
//! scalars, strings, binaries, nested structs and short containers of small elements
//! allocates nothing. `Foo::from(&foo_ref)` converts to the owned form (and
//! applies IDL defaults, which the borrowing form leaves as `None`).

use proc_macro2::TokenStream;
use quote::quote;
use thrift_idl_parser::ast::{BaseType, Struct, Type};
use thrift_idl_parser::{DefId, FileId};

use super::fields::{Holding, Target, default_value, holding};
use super::names::{field_names, unknown_fields_name, variant_names};
use super::reads::read_impl;
use super::scope::Scope;
use super::structs::{unknown_member, write_impl};
use super::types::{complexity_allow, rust_type};
use super::unions::union_form;
use crate::ident;
use crate::model::Resolved;

pub fn struct_ref_item(m: &Scope<'_, '_>, id: DefId, s: &Struct) -> TokenStream {
    let names = field_names(s);
    let owned = ident::ident(m.name(id));
    let target = Target::borrowed(m, id);
    let ref_name = &target.ctor;
    let doc = format!(
        " The borrowing form of [`{}`]: strings and binaries point into the input.",
        m.name(id)
    );

    let owned_scope = m;
    let m = &m.with_borrowed(true);
    let holdings: Vec<Holding> = s
        .fields
        .iter()
        .enumerate()
        .map(|(i, f)| holding(m, id, i, f))
        .collect();
    let fields = s
        .fields
        .iter()
        .enumerate()
        .map(|(index, field)| {
            let field_name = ident::ident(&names[index]);
            let mut ty = rust_type(m, id.file, &field.ty, false);
            if m.is_boxed(id, index) {
                ty = m.boxed_type(&ty);
            }
            if holdings[index] == Holding::Optional {
                ty = quote!(::std::option::Option<#ty>);
            }
            let allow = complexity_allow(&ty);
            let attrs = m.field_attrs(id, index, true);
            let serde = super::serde::field_attrs(m, id, index, field, &names[index]);
            quote! { #serde #attrs #allow pub #field_name: #ty, }
        })
        .collect::<Vec<_>>();
    let unknown = unknown_member(m, id, &names);
    let write = write_impl(m, id, s, &names, &target);
    let read = read_impl(m, id, s, &names, &target);
    let serde = super::serde::derives(m);
    let m = owned_scope;

    let mut derives = vec![quote!(Debug), quote!(Clone), quote!(PartialEq)];
    if m.derives(id).default {
        derives.push(quote!(Default));
    }
    let own_holdings: Vec<Holding> = s
        .fields
        .iter()
        .enumerate()
        .map(|(i, f)| holding(m, id, i, f))
        .collect();
    // A required field of the struct's own type (through a cycle) makes values impossible to
    // build, and rustc says so about the conversion; the IDL is still valid Thrift.
    let impossible = s.fields.iter().enumerate().any(|(index, field)| {
        m.is_boxed(id, index)
            && field.requiredness == thrift_idl_parser::ast::Requiredness::Required
    });
    let recursion_allow = if impossible {
        quote!(#[allow(unconditional_recursion)])
    } else {
        TokenStream::new()
    };
    let conversions = s.fields.iter().enumerate().map(|(index, field)| {
        let field_name = ident::ident(&names[index]);
        let value = field_conversion(
            m,
            id,
            index,
            field,
            &field_name,
            holdings[index],
            own_holdings[index],
        );
        quote!(#field_name: #value)
    });
    let unknown_conversion = m.keeps_unknown(id).then(|| {
        let member = ident::ident(&unknown_fields_name(&names));
        quote!(#member: value.#member.clone())
    });
    let conversions = conversions.chain(unknown_conversion);
    let attrs = m.type_attrs(id, true);
    let no_drop = no_drop_assertion(m, ref_name);
    quote! {
        #[doc = #doc]
        #[derive(#(#derives),*)]
        #serde
        #attrs
        pub struct #ref_name<'de> {
            #(#fields)*
            #unknown
        }

        #write
        #read

        #no_drop

        impl ::std::convert::From<&#ref_name<'_>> for #owned {
            #recursion_allow
            fn from(value: &#ref_name<'_>) -> Self {
                #owned { #(#conversions),* }
            }
        }

        impl ::std::convert::From<#ref_name<'_>> for #owned {
            fn from(value: #ref_name<'_>) -> Self {
                #owned::from(&value)
            }
        }
    }
}

/// In arena mode, the compile-time check that nothing in the borrowing form `name` needs to be
/// dropped: an arena never drops what it holds, so a value that did would leak.
fn no_drop_assertion(m: &Scope<'_, '_>, name: &proc_macro2::Ident) -> TokenStream {
    if !m.options.arena {
        return TokenStream::new();
    }
    quote! {
        const _: () = if ::std::mem::needs_drop::<#name<'static>>() {
            ::std::panic!("an arena form holds nothing that needs dropping");
        };
    }
}

/// `value.field` of the borrowing form, converted to the owned field.
fn field_conversion(
    m: &Scope<'_, '_>,
    id: DefId,
    index: usize,
    field: &thrift_idl_parser::ast::Field,
    name: &proc_macro2::Ident,
    borrowed: Holding,
    owned: Holding,
) -> TokenStream {
    m.in_field(id, index, |m| {
        let file = id.file;
        let key = m.is_key_struct(id);
        // `m` is the owned form's scope: `boxed` is the owned field's `Box`; `ref_boxed` the
        // borrowing field's (a `Box`, or in arena mode a reference into the arena, which
        // more fields are).
        let boxed = m.is_boxed(id, index);
        let ref_boxed = m.with_borrowed(true).is_boxed(id, index);
        let reference = m.options.arena && ref_boxed;
        let place = quote!(value.#name);
        if !boxed && !ref_boxed && same_representation(m, file, &field.ty, key, true) {
            let whole = if is_copy(m, file, &field.ty) {
                place.clone()
            } else {
                quote!(#place.clone())
            };
            if borrowed == owned {
                return whole;
            }
            let default = default_value(m, id, index, field);
            return if is_copy(m, file, &field.ty) {
                quote!(#place.unwrap_or(#default))
            } else if super::consts::has_call(&default) {
                quote!(#place.clone().unwrap_or_else(|| #default))
            } else {
                quote!(#place.clone().unwrap_or(#default))
            };
        }
        let item = quote!(item);
        let (expr, mut function) = convert(m, file, &field.ty, Arg::Ref(quote!(#item)), key, 0);
        // A struct without a borrowing form held by reference (arena mode) is cloned out.
        let cloned = expr.to_string() == quote!(::std::clone::Clone::clone(#item)).to_string();
        if cloned {
            function = Some(quote!(::std::clone::Clone::clone));
        }
        let boxed_expr = |inner: TokenStream| {
            if boxed {
                quote!(::std::boxed::Box::new(#inner))
            } else {
                inner
            }
        };
        // The borrowing field's `Option<&T>`: an `Option` of a reference into the arena is
        // one already.
        let access = if reference {
            place.clone()
        } else if ref_boxed {
            quote!(#place.as_deref())
        } else {
            quote!(#place.as_ref())
        };
        match (borrowed, owned) {
            (Holding::Always, _) => {
                let arg = if reference {
                    Arg::Ref(place.clone())
                } else if ref_boxed {
                    Arg::Ref(quote!(&*#place))
                } else {
                    Arg::Place(place.clone())
                };
                let (expr, _) = convert(m, file, &field.ty, arg, key, 0);
                boxed_expr(expr)
            }
            (Holding::Optional, Holding::Optional) => match (&function, boxed) {
                (Some(_), false) if cloned => quote!(#access.cloned()),
                (Some(f), false) => quote!(#access.map(#f)),
                _ => {
                    let body = boxed_expr(expr);
                    quote!(#access.map(|#item| #body))
                }
            },
            (Holding::Optional, Holding::Always) => {
                let default = default_value(m, id, index, field);
                match (&function, boxed) {
                    (Some(f), false) => quote!(#access.map_or_else(|| #default, #f)),
                    _ => {
                        let body = boxed_expr(expr);
                        quote!(#access.map_or_else(|| #default, |#item| #body))
                    }
                }
            }
        }
    })
}

/// Whether the borrowing and owned forms of a type are the same Rust type.
fn same_representation(m: &Scope<'_, '_>, file: FileId, ty: &Type, key: bool, top: bool) -> bool {
    match m.resolve(file, ty) {
        Resolved::Base(BaseType::String | BaseType::Binary | BaseType::Slist) | Resolved::Senum => {
            false
        }
        Resolved::Base(BaseType::Double) => !key,
        Resolved::Base(_) | Resolved::Enum(_) => true,
        Resolved::Struct(id, _) => !m.is_borrowing(id),
        // Arena mode's containers are slices.
        Resolved::List(..) if m.options.arena => false,
        // A field's list of small elements is a `SmallVec` in the borrowing form; lists
        // inside containers are `Vec`s.
        Resolved::List(f, e) => {
            (!top || super::types::inline_len(m, f, e).is_none())
                && same_representation(m, f, e, key, false)
        }
        Resolved::Set(..) | Resolved::Map(..) => false,
    }
}

fn is_copy(m: &Scope<'_, '_>, file: FileId, ty: &Type) -> bool {
    matches!(
        m.resolve(file, ty),
        Resolved::Base(
            BaseType::Bool
                | BaseType::I8
                | BaseType::I16
                | BaseType::I32
                | BaseType::I64
                | BaseType::Double
                | BaseType::Uuid
        ) | Resolved::Enum(_)
    )
}

/// A borrowed value in generated code: a reference (`item`) or a place (`value.field`).
#[derive(Clone)]
enum Arg {
    Ref(TokenStream),
    Place(TokenStream),
}

impl Arg {
    /// The value itself (for `Copy` types, and `&str` which is `Copy` too).
    fn deref(&self) -> TokenStream {
        match self {
            Arg::Ref(v) => quote!(*#v),
            Arg::Place(v) => v.clone(),
        }
    }

    /// A reference to the value.
    fn by_ref(&self) -> TokenStream {
        match self {
            Arg::Ref(v) => v.clone(),
            Arg::Place(v) => quote!(&#v),
        }
    }

    /// For method calls (auto-ref does the rest).
    fn receiver(&self) -> TokenStream {
        match self {
            Arg::Ref(v) | Arg::Place(v) => v.clone(),
        }
    }
}

/// The owned value of a borrowed value, and, when that is a plain function call `f(v)`, the
/// function (for `.map(f)` without a closure).
fn convert(
    m: &Scope<'_, '_>,
    file: FileId,
    ty: &Type,
    v: Arg,
    key: bool,
    depth: usize,
) -> (TokenStream, Option<TokenStream>) {
    let rt = &m.runtime;
    let (deref, by_ref, receiver) = (v.deref(), v.by_ref(), v.receiver());
    let item = proc_macro2::Ident::new(&format!("item{depth}"), proc_macro2::Span::call_site());
    let element_iter = |f: FileId, e: &Type, element_key: bool| -> TokenStream {
        let (inner, function) = convert(m, f, e, Arg::Ref(quote!(#item)), element_key, depth + 1);
        if inner.to_string() == quote!(*#item).to_string() {
            quote!(.copied())
        } else if let Some(function) = function {
            quote!(.map(#function))
        } else if inner.to_string() == quote!(::std::clone::Clone::clone(#item)).to_string() {
            quote!(.cloned())
        } else {
            quote!(.map(|#item| #inner))
        }
    };
    match m.resolve(file, ty) {
        Resolved::Base(BaseType::Double) if key => (quote!(#rt::OrderedF64(#deref)), None),
        Resolved::Base(BaseType::String | BaseType::Slist) | Resolved::Senum => {
            (m.string_from(deref), None)
        }
        Resolved::Base(BaseType::Binary) => (m.binary_from(receiver.clone()), None),
        Resolved::Base(_) | Resolved::Enum(_) => (deref, None),
        Resolved::Struct(id, _) if m.is_borrowing(id) => {
            let path = m.path_to(file, id);
            (quote!(#path::from(#by_ref)), Some(quote!(#path::from)))
        }
        Resolved::Struct(..) => (quote!(::std::clone::Clone::clone(#by_ref)), None),
        Resolved::List(f, e) => {
            let map = element_iter(f, e, key);
            let whole = map.to_string();
            if whole == quote!(.cloned()).to_string() || whole == quote!(.copied()).to_string() {
                (quote!(#receiver.to_vec()), None)
            } else {
                (quote!(#receiver.iter() #map .collect()), None)
            }
        }
        Resolved::Set(f, e) => {
            let map = element_iter(f, e, true);
            (quote!(#receiver.iter() #map .collect()), None)
        }
        Resolved::Map(f, k, val) => {
            let (key_item, value_item) = (
                proc_macro2::Ident::new(&format!("key{depth}"), proc_macro2::Span::call_site()),
                proc_macro2::Ident::new(&format!("value{depth}"), proc_macro2::Span::call_site()),
            );
            let (k_expr, _) = convert(m, f, k, Arg::Ref(quote!(#key_item)), true, depth + 1);
            let (v_expr, _) = convert(m, f, val, Arg::Ref(quote!(#value_item)), key, depth + 1);
            (
                quote!(#receiver.iter().map(|(#key_item, #value_item)| (#k_expr, #v_expr)).collect()),
                None,
            )
        }
    }
}

/// The borrowing form of a union.
pub fn union_ref_item(m: &Scope<'_, '_>, id: DefId, s: &Struct) -> TokenStream {
    let items = union_form(&m.with_borrowed(true), id, s, &Target::borrowed(m, id));
    let variants = &variant_names(s);
    let owned = ident::ident(m.name(id));
    let ref_name = ident::ident(m.ref_name(id));
    let key = m.is_key_struct(id);
    let arms = s.fields.iter().enumerate().map(|(index, field)| {
        let variant = ident::ident(&variants[index]);
        let boxed = m.is_boxed(id, index);
        let arg = if boxed {
            Arg::Ref(quote!(&**value))
        } else {
            Arg::Ref(quote!(value))
        };
        let (expr, _) = m.in_field(id, index, |m| convert(m, id.file, &field.ty, arg, key, 0));
        let expr = if boxed {
            quote!(::std::boxed::Box::new(#expr))
        } else {
            expr
        };
        quote!(#ref_name::#variant(value) => #owned::#variant(#expr),)
    });
    let body = if s.fields.is_empty() {
        quote!(match *value {})
    } else {
        quote!(match value { #(#arms)* })
    };
    let no_drop = no_drop_assertion(m, &ref_name);
    quote! {
        #items

        #no_drop

        impl ::std::convert::From<&#ref_name<'_>> for #owned {
            fn from(value: &#ref_name<'_>) -> Self {
                #body
            }
        }

        impl ::std::convert::From<#ref_name<'_>> for #owned {
            fn from(value: #ref_name<'_>) -> Self {
                #owned::from(&value)
            }
        }
    }
}
