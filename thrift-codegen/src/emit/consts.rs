//! Const values as Rust expressions, and `const`/`static` items for IDL consts.

use proc_macro2::{Literal, TokenStream};
use quote::quote;
use thrift_idl_parser::ast::{BaseType, Const, ConstValue, ConstValueKind, StructKind, Type};
use thrift_idl_parser::{ConstRef, DefId, FileId};

use super::docs::doc_attrs;
use super::scope::{CollectionKind, Scope};
use super::types::rust_type;
use crate::ident;
use crate::model::Resolved;

/// Whether a const of this type can be a Rust `const` (scalars, strings as `&str`, binaries as
/// `&[u8]`); the others are `static` [`std::sync::LazyLock`]s, built once on first use.
fn is_const_item(m: &Scope<'_, '_>, file: FileId, ty: &Type) -> bool {
    matches!(
        m.resolve(file, ty),
        Resolved::Base(_) | Resolved::Enum(_) | Resolved::Senum
    )
}

/// `pub const NAME: T = …;` or `pub static NAME: LazyLock<T> = …;`
pub fn const_item(m: &Scope<'_, '_>, id: DefId, c: &Const) -> TokenStream {
    let file = id.file;
    let name = ident::ident(m.name(id));
    let docs = doc_attrs(c.doc.as_deref());
    if is_const_item(m, file, &c.ty) {
        let (ty, value) = match m.resolve(file, &c.ty) {
            Resolved::Base(BaseType::String | BaseType::Slist) | Resolved::Senum => {
                (quote!(&str), string_literal(&c.value, m, file))
            }
            Resolved::Base(BaseType::Binary) => {
                let s = string_literal(&c.value, m, file);
                (quote!(&[u8]), quote!(#s.as_bytes()))
            }
            _ => (
                rust_type(m, file, &c.ty, false),
                value_expr(m, file, &c.ty, file, &c.value, false),
            ),
        };
        quote! { #docs pub const #name: #ty = #value; }
    } else {
        let ty = rust_type(m, file, &c.ty, false);
        let value = value_expr(m, file, &c.ty, file, &c.value, false);
        let allow = super::types::complexity_allow(&quote!(::std::sync::LazyLock<#ty>));
        // `LazyLock::new(|| Vec::new())` is a redundant closure: pass the function itself.
        let init = function_called(&value).unwrap_or_else(|| quote!(|| #value));
        quote! {
            #docs
            #allow
            pub static #name: ::std::sync::LazyLock<#ty> = ::std::sync::LazyLock::new(#init);
        }
    }
}

/// `f` when `value` is a call without arguments `f()` of a path `f` (`Vec::new()`,
/// `<HashMap<_, _, H> as Default>::default()`), so that the function itself can be passed.
fn function_called(value: &TokenStream) -> Option<TokenStream> {
    use proc_macro2::{Delimiter, TokenTree};
    let tokens: Vec<TokenTree> = value.clone().into_iter().collect();
    let (TokenTree::Group(args), path) = tokens.split_last()? else {
        return None;
    };
    let plain_path = !path.is_empty() && !path.iter().any(|t| matches!(t, TokenTree::Group(_)));
    (args.delimiter() == Delimiter::Parenthesis && args.stream().is_empty() && plain_path)
        .then(|| path.iter().cloned().collect())
}

/// A string const as a `&'static str` expression (a literal, or another string const).
fn string_literal(value: &ConstValue, m: &Scope<'_, '_>, file: FileId) -> TokenStream {
    match &value.kind {
        ConstValueKind::String(s) => quote!(#s),
        ConstValueKind::Identifier(name) => match m.program.lookup_const(file, name) {
            Some(ConstRef::Const(id)) => m
                .program
                .as_const(id)
                .map_or(quote!(""), |c| string_literal(&c.value, m, id.file)),
            _ => quote!(""),
        },
        _ => quote!(""),
    }
}

/// An expression of the Rust type of `ty` (`in_key` as in [`rust_type`]) with the value
/// `value`. Checked programs only give values that fit their types.
///
/// `tf` is the file where `ty` was written (its names resolve there), `vf` the file where
/// `value` was written (its identifiers resolve there).
pub fn value_expr(
    m: &Scope<'_, '_>,
    tf: FileId,
    ty: &Type,
    vf: FileId,
    value: &ConstValue,
    in_key: bool,
) -> TokenStream {
    let rt = &m.runtime;
    let file = tf;
    if let ConstValueKind::Identifier(name) = &value.kind {
        if let Some(reference) = reference_expr(m, tf, ty, vf, name, in_key) {
            return reference;
        }
    }
    match m.resolve(tf, ty) {
        Resolved::Base(base) => match base {
            BaseType::Bool => {
                let b = matches!(value.kind, ConstValueKind::Bool(true))
                    || matches!(value.kind, ConstValueKind::Int(i) if i != 0);
                quote!(#b)
            }
            BaseType::I8 | BaseType::I16 | BaseType::I32 | BaseType::I64 => {
                int_literal(as_int(value), base)
            }
            BaseType::Double => {
                let v = match value.kind {
                    ConstValueKind::Double(d) => d,
                    _ => as_int(value) as f64,
                };
                let lit = float_literal(v);
                if in_key {
                    quote!(#rt::OrderedF64(#lit))
                } else {
                    lit
                }
            }
            BaseType::String | BaseType::Slist => m.string_literal(as_str(value)),
            BaseType::Binary => m.binary_literal(as_str(value)),
            BaseType::Uuid => {
                let bytes = parse_uuid(as_str(value));
                quote!([#(#bytes),*])
            }
        },
        Resolved::Senum => m.string_literal(as_str(value)),
        Resolved::Enum(id) => {
            let path = m.path_to(file, id);
            let v = as_int(value) as i32;
            let named = m
                .program
                .as_enum(id)
                .and_then(|e| e.values.iter().find(|ev| ev.value == v));
            match named {
                Some(ev) => {
                    let variant = ident::ident(&super::names::value_name(m, id, &ev.name.name));
                    quote!(#path::#variant)
                }
                None => {
                    let lit = int_literal(i64::from(v), BaseType::I32);
                    quote!(#path(#lit))
                }
            }
        }
        Resolved::Struct(id, s) => struct_literal(m, id, s, vf, value),
        Resolved::List(f, element) => {
            let items = list_items(value)
                .iter()
                .map(|v| value_expr(m, f, element, vf, v, in_key))
                .collect::<Vec<_>>();
            if items.is_empty() {
                quote!(::std::vec::Vec::new())
            } else {
                quote!(::std::vec::Vec::from([#(#items),*]))
            }
        }
        Resolved::Set(f, element) => {
            let items = list_items(value)
                .iter()
                .map(|v| value_expr(m, f, element, vf, v, true))
                .collect::<Vec<_>>();
            m.collection_literal(CollectionKind::Set, in_key, &items)
        }
        Resolved::Map(f, key, val) => {
            let ConstValueKind::Map(entries) = &value.kind else {
                return m.collection_literal(CollectionKind::Map, in_key, &[]);
            };
            let pairs = entries
                .iter()
                .map(|(k, v)| {
                    let k = value_expr(m, f, key, vf, k, true);
                    let v = value_expr(m, f, val, vf, v, in_key);
                    quote!((#k, #v))
                })
                .collect::<Vec<_>>();
            m.collection_literal(CollectionKind::Map, in_key, &pairs)
        }
    }
}

fn list_items(value: &ConstValue) -> &[ConstValue] {
    match &value.kind {
        ConstValueKind::List(items) => items,
        _ => &[],
    }
}

/// A reference to another const or an enum value, converted to the expected type.
fn reference_expr(
    m: &Scope<'_, '_>,
    tf: FileId,
    ty: &Type,
    vf: FileId,
    name: &str,
    in_key: bool,
) -> Option<TokenStream> {
    let rt = &m.runtime;
    let file = tf;
    match m.program.lookup_const(vf, name) {
        Some(ConstRef::EnumValue(id, index)) => {
            let e = m.program.as_enum(id)?;
            let value = &e.values[index];
            match m.resolve(file, ty) {
                Resolved::Enum(_) => {
                    let path = m.path_to(file, id);
                    let variant = ident::ident(&super::names::value_name(m, id, &value.name.name));
                    Some(quote!(#path::#variant))
                }
                Resolved::Base(BaseType::Double) => {
                    let lit = float_literal(f64::from(value.value));
                    Some(if in_key {
                        quote!(#rt::OrderedF64(#lit))
                    } else {
                        lit
                    })
                }
                Resolved::Base(base) => Some(int_literal(i64::from(value.value), base)),
                _ => None,
            }
        }
        Some(ConstRef::Const(id)) => {
            // Re-emit the referenced value in the type expected here (it may be declared with a
            // compatible but different type, e.g. an i32 const used as an i64).
            let target = m.program.as_const(id)?;
            Some(value_expr(m, tf, ty, id.file, &target.value, in_key))
        }
        None => {
            // A bare or foreign-qualified enum value name, which Apache accepts for enum types.
            let Resolved::Enum(id) = m.resolve(file, ty) else {
                return None;
            };
            let e = m.program.as_enum(id)?;
            let last = name.rsplit('.').next()?;
            let value = e.values.iter().find(|v| v.name.name == last)?;
            let path = m.path_to(file, id);
            let variant = ident::ident(&super::names::value_name(m, id, &value.name.name));
            Some(quote!(#path::#variant))
        }
    }
}

/// `Foo { a: …, b: …, .. }` with every field spelled out: given values, IDL defaults, `None`.
fn struct_literal(
    m: &Scope<'_, '_>,
    id: DefId,
    s: &thrift_idl_parser::ast::Struct,
    vf: FileId,
    value: &ConstValue,
) -> TokenStream {
    let path = m.path_to(vf, id);
    let entries: &[(ConstValue, ConstValue)] = match &value.kind {
        ConstValueKind::Map(entries) => entries,
        _ => &[],
    };
    let given = |name: &str| {
        entries.iter().find_map(|(k, v)| match &k.kind {
            ConstValueKind::String(s) if s == name => Some(v),
            _ => None,
        })
    };
    let names = super::names::field_names(s);
    if s.kind == StructKind::Union {
        let variants = super::names::variant_names(s);
        for (index, field) in s.fields.iter().enumerate() {
            if let Some(v) = given(&field.name.name) {
                let variant = ident::ident(&variants[index]);
                let mut expr = m.in_field(id, index, |m| {
                    value_expr(m, id.file, &field.ty, vf, v, m.is_key_struct(id))
                });
                if m.is_boxed(id, index) {
                    expr = quote!(::std::boxed::Box::new(#expr));
                }
                return quote!(#path::#variant(#expr));
            }
        }
        return quote!(::std::default::Default::default());
    }
    let fields = s.fields.iter().enumerate().map(|(index, field)| {
        let name = ident::ident(&names[index]);
        let boxed = m.is_boxed(id, index);
        // A given value was written where the literal is; a field default in the struct's file.
        let value = given(&field.name.name)
            .map(|v| (vf, v))
            .or(field.default.as_ref().map(|v| (id.file, v)));
        let expr = match value {
            Some((value_file, v)) => {
                let mut expr = m.in_field(id, index, |m| {
                    value_expr(m, id.file, &field.ty, value_file, v, m.is_key_struct(id))
                });
                if boxed {
                    expr = quote!(::std::boxed::Box::new(#expr));
                }
                if m.holds_as_option(id, index) {
                    quote!(::std::option::Option::Some(#expr))
                } else {
                    expr
                }
            }
            None => quote!(::std::default::Default::default()),
        };
        quote!(#name: #expr)
    });
    let fields = fields.chain(super::names::unknown_init(m, id, &names));
    quote!(#path { #(#fields),* })
}

fn as_int(value: &ConstValue) -> i64 {
    match value.kind {
        ConstValueKind::Int(i) => i,
        ConstValueKind::Bool(b) => i64::from(b),
        ConstValueKind::Double(d) => d as i64,
        _ => 0,
    }
}

fn as_str(value: &ConstValue) -> &str {
    match &value.kind {
        ConstValueKind::String(s) => s,
        _ => "",
    }
}

fn int_literal(v: i64, base: BaseType) -> TokenStream {
    let ty = match base {
        BaseType::I8 => quote!(i8),
        BaseType::I16 => quote!(i16),
        BaseType::I32 => quote!(i32),
        _ => quote!(i64),
    };
    if v == i64::MIN {
        return quote!(#ty::MIN);
    }
    let lit = Literal::u64_unsuffixed(v.unsigned_abs());
    if v < 0 { quote!(-#lit) } else { quote!(#lit) }
}

/// A float literal that round-trips exactly; values clippy would take for an approximation of
/// a `std::f64::consts` constant are written as their bits.
fn float_literal(v: f64) -> TokenStream {
    if v.is_nan() {
        return quote!(f64::NAN);
    }
    if v.is_infinite() {
        return if v > 0.0 {
            quote!(f64::INFINITY)
        } else {
            quote!(f64::NEG_INFINITY)
        };
    }
    if looks_like_known_constant(v.abs()) {
        let bits = Literal::u64_suffixed(v.to_bits());
        return quote!(f64::from_bits(#bits));
    }
    let lit = Literal::f64_unsuffixed(v.abs());
    if v.is_sign_negative() {
        quote!(-#lit)
    } else {
        quote!(#lit)
    }
}

fn looks_like_known_constant(v: f64) -> bool {
    use std::f64::consts::*;
    const KNOWN: &[f64] = &[
        E,
        FRAC_1_PI,
        FRAC_1_SQRT_2,
        FRAC_2_PI,
        FRAC_2_SQRT_PI,
        FRAC_PI_2,
        FRAC_PI_3,
        FRAC_PI_4,
        FRAC_PI_6,
        FRAC_PI_8,
        LN_10,
        LN_2,
        LOG10_E,
        LOG2_E,
        LOG2_10,
        LOG10_2,
        PI,
        SQRT_2,
        TAU,
    ];
    let digits = format!("{v}");
    // Clippy's approx_constant looks at literals with enough digits that are prefixes of a
    // constant; compare the same way (a couple of digits of slack).
    digits.len() >= 4
        && KNOWN.iter().any(|k| {
            let known = format!("{k}");
            let shared = digits
                .chars()
                .zip(known.chars())
                .take_while(|(a, b)| a == b)
                .count();
            shared + 1 >= digits.len().min(known.len()) && shared >= 4
        })
}

fn parse_uuid(s: &str) -> Vec<Literal> {
    let hex: String = s.chars().filter(char::is_ascii_hexdigit).collect();
    (0..16)
        .map(|i| {
            let byte = hex
                .get(2 * i..2 * i + 2)
                .and_then(|b| u8::from_str_radix(b, 16).ok())
                .unwrap_or(0);
            Literal::u8_unsuffixed(byte)
        })
        .collect()
}

/// Whether `value` is the zero value of `ty`, i.e. what `Default::default()` gives.
pub fn is_zero_value(m: &Scope<'_, '_>, file: FileId, ty: &Type, value: &ConstValue) -> bool {
    match (m.resolve(file, ty), &value.kind) {
        (Resolved::Base(BaseType::Double), ConstValueKind::Double(d)) => {
            *d == 0.0 && d.is_sign_positive()
        }
        (Resolved::Base(BaseType::Uuid), ConstValueKind::String(s)) => {
            parse_uuid(s).iter().all(|b| b.to_string() == "0")
        }
        (
            Resolved::Base(_) | Resolved::Enum(_),
            ConstValueKind::Int(0) | ConstValueKind::Bool(false),
        ) => true,
        (
            Resolved::Base(BaseType::String | BaseType::Binary | BaseType::Slist) | Resolved::Senum,
            ConstValueKind::String(s),
        ) => s.is_empty(),
        (
            Resolved::List(..) | Resolved::Set(..) | Resolved::Map(..),
            ConstValueKind::List(items),
        ) => items.is_empty(),
        (
            Resolved::List(..) | Resolved::Set(..) | Resolved::Map(..),
            ConstValueKind::Map(entries),
        ) => entries.is_empty(),
        _ => false,
    }
}

/// Whether an expression calls a function or method (so it may allocate and should be
/// evaluated lazily): an identifier starting in lower case followed by `( … )`. Tuple struct
/// and variant constructors (`Color(1)`, `Some(x)`) are upper case.
pub fn has_call(expr: &TokenStream) -> bool {
    let tokens: Vec<proc_macro2::TokenTree> = expr.clone().into_iter().collect();
    tokens.windows(2).any(|pair| match pair {
        [
            proc_macro2::TokenTree::Ident(ident),
            proc_macro2::TokenTree::Group(group),
        ] => {
            group.delimiter() == proc_macro2::Delimiter::Parenthesis
                && ident
                    .to_string()
                    .trim_start_matches("r#")
                    .starts_with(|c: char| c.is_ascii_lowercase())
        }
        _ => false,
    }) || tokens.iter().any(|t| match t {
        proc_macro2::TokenTree::Group(group) => has_call(&group.stream()),
        _ => false,
    })
}
