//! Facts about struct fields and the forms generated for them (how a field is held, its
//! default, whether a struct is read in place, the derive list), shared by the value
//! expressions of `codec` and the item modules above it.

use proc_macro2::TokenStream;
use quote::quote;
use thrift_idl_parser::ast::{
    BaseType, ConstValue, ConstValueKind, Field, Requiredness, Struct, StructKind,
};
use thrift_idl_parser::{ConstRef, DefId, FileId};

use super::consts::{is_zero_value, value_expr};
use super::scope::Scope;
use super::types::rust_type;
use crate::ident;
use crate::model::Resolved;

/// How a field is held.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Holding {
    /// `T` (or `Box<T>`), always written.
    Always,
    /// `Option<T>` (or `Option<Box<T>>`), written when `Some`.
    Optional,
}

pub fn holding(m: &Scope<'_, '_>, id: DefId, index: usize, field: &Field) -> Holding {
    // Borrowing forms apply IDL defaults of scalars, strings and binaries (no allocation) but
    // not of containers and structs: a field with one of those is `None` when absent, and the
    // conversion to the owned form applies the default.
    let borrowed_default = m.borrowed()
        && field.requiredness == Requiredness::Default
        && idl_default(m, id, index, field).is_some()
        && !matches!(
            m.resolve(id.file, &field.ty),
            Resolved::Base(_) | Resolved::Enum(_) | Resolved::Senum
        );
    // In arena mode a required boxed field is a plain reference: its struct has no
    // `Default` (as with a `Box`: a required recursive field has no finite default).
    if m.holds_as_option(id, index) || borrowed_default {
        Holding::Optional
    } else {
        Holding::Always
    }
}

/// The type a struct's code is generated for: the owned `Foo`, or the borrowing `FooRef<'de>`.
pub struct Target {
    /// The type with its lifetime, e.g. `FooRef<'de>`.
    pub ty: TokenStream,
    /// The name used to construct it, e.g. `FooRef`.
    pub ctor: proc_macro2::Ident,
    /// Generics of `impl` blocks for it: `<'de>` or nothing.
    pub generics: TokenStream,
}

impl Target {
    pub fn owned(m: &Scope<'_, '_>, id: DefId) -> Target {
        let name = ident::ident(m.name(id));
        Target {
            ty: quote!(#name),
            ctor: name,
            generics: TokenStream::new(),
        }
    }

    pub fn borrowed(m: &Scope<'_, '_>, id: DefId) -> Target {
        let name = ident::ident(m.ref_name(id));
        Target {
            ty: quote!(#name<'de>),
            ctor: name,
            generics: quote!(<'de>),
        }
    }
}

pub fn derive_list(m: &Scope<'_, '_>, id: DefId, derive_default: bool) -> TokenStream {
    let d = m.derives(id);
    let mut traits = vec![quote!(Debug), quote!(Clone), quote!(PartialEq)];
    if d.eq {
        traits.push(quote!(Eq));
    }
    if d.hash {
        traits.push(quote!(Hash));
    }
    if d.partial_ord {
        traits.push(quote!(PartialOrd));
    }
    if d.ord {
        traits.push(quote!(Ord));
    }
    if derive_default {
        traits.push(quote!(Default));
    }
    quote!(#[derive(#(#traits),*)])
}

/// The IDL default of a field, unless it is what `Default::default()` gives anyway (`0`,
/// `false`, `""`, `[]`…) on a field that is not held as an `Option`.
pub fn idl_default<'a>(
    m: &Scope<'_, '_>,
    id: DefId,
    index: usize,
    field: &'a Field,
) -> Option<&'a thrift_idl_parser::ast::ConstValue> {
    let value = field.default.as_ref()?;
    if !m.holds_as_option(id, index) && is_zero_value(m, id.file, &field.ty, value) {
        None
    } else {
        Some(value)
    }
}

/// The string a const value is, written where `file` is: a literal, or a const naming one
/// (followed through other consts, as far as a checked program's acyclic references go).
fn string_value<'a>(m: &Scope<'_, 'a>, file: FileId, value: &'a ConstValue) -> Option<&'a str> {
    let (mut file, mut value) = (file, value);
    for _ in 0..1000 {
        match &value.kind {
            ConstValueKind::String(s) => return Some(s),
            ConstValueKind::Identifier(name) => match m.program.lookup_const(file, name)? {
                ConstRef::Const(id) => {
                    let program: &'a thrift_idl_parser::Program = m.program;
                    value = &program.as_const(id)?.value;
                    file = id.file;
                }
                ConstRef::EnumValue(..) => return None,
            },
            _ => return None,
        }
    }
    None
}

/// The value a field takes in `Default` (and for a default-requiredness field missing on read).
pub fn default_value(m: &Scope<'_, '_>, id: DefId, index: usize, field: &Field) -> TokenStream {
    m.in_field(id, index, |m| field_default(m, id, index, field))
}

/// [`default_value`] in the field's mapping.
fn field_default(m: &Scope<'_, '_>, id: DefId, index: usize, field: &Field) -> TokenStream {
    let boxed = m.is_boxed(id, index);
    match idl_default(m, id, index, field) {
        Some(value) => {
            // Borrowing forms hold string and binary defaults as `&'static` literals, also
            // when the default names a const (of this file or an included one).
            let literal = m
                .borrowed()
                .then(|| string_value(m, id.file, value))
                .flatten();
            let mut expr = match (literal, m.resolve(id.file, &field.ty)) {
                (Some(s), Resolved::Base(BaseType::String | BaseType::Slist) | Resolved::Senum) => {
                    quote!(#s)
                }
                (Some(s), Resolved::Base(BaseType::Binary)) => quote!(#s.as_bytes()),
                _ => value_expr(
                    m,
                    id.file,
                    &field.ty,
                    id.file,
                    value,
                    m.is_key_struct(id) && !m.borrowed(),
                ),
            };
            if boxed {
                expr = quote!(::std::boxed::Box::new(#expr));
            }
            if holding(m, id, index, field) == Holding::Optional {
                quote!(::std::option::Option::Some(#expr))
            } else {
                expr
            }
        }
        None => quote!(::std::default::Default::default()),
    }
}

/// Whether struct `id` is read in place (`ThriftRead::read_into` generated, nested structs and
/// struct list elements read where they live): its form being generated (the borrowing one in
/// borrowed mode, when it has one) has a `Default` that allocates nothing to start from, i.e.
/// derived, with no IDL defaults in the owned form, and every field held as `T` of a struct
/// type read in place itself (unions have no such `Default`: their first variant may hold a
/// value that allocates). Structs without fields have nothing to read in place.
pub fn reads_in_place(m: &Scope<'_, '_>, id: DefId) -> bool {
    form_reads_in_place(&m.with_borrowed(m.borrowed() && m.is_borrowing(id)), id)
}

fn form_reads_in_place(m: &Scope<'_, '_>, id: DefId) -> bool {
    let Some(s) = m.struct_def(id) else {
        return false;
    };
    if s.kind == StructKind::Union || s.fields.is_empty() || !m.derives(id).default {
        return false;
    }
    s.fields.iter().enumerate().all(|(index, field)| {
        if !m.borrowed() && idl_default(m, id, index, field).is_some() {
            return false;
        }
        if holding(m, id, index, field) == Holding::Optional {
            return true;
        }
        match m.resolve(id.file, &field.ty) {
            Resolved::Struct(inner, _) => !m.is_boxed(id, index) && reads_in_place(m, inner),
            _ => true,
        }
    })
}

/// The path of the struct type `ty` resolves to, in the form being generated, when it is read
/// in place (see [`reads_in_place`]).
pub fn in_place_struct(
    m: &Scope<'_, '_>,
    file: thrift_idl_parser::FileId,
    ty: &thrift_idl_parser::ast::Type,
) -> Option<TokenStream> {
    let Resolved::Struct(id, _) = m.resolve(file, ty) else {
        return None;
    };
    reads_in_place(m, id).then(|| m.struct_path(file, id))
}

/// The Rust type of field `index` of struct `id` (`Box`ed when it is), before an `Option` for
/// its requiredness, in the field's own mapping; `key`: the struct is a key struct.
pub fn field_type(
    m: &Scope<'_, '_>,
    id: DefId,
    index: usize,
    field: &Field,
    key: bool,
) -> TokenStream {
    m.in_field(id, index, |m| {
        let ty = rust_type(m, id.file, &field.ty, key);
        if m.is_boxed(id, index) {
            m.boxed_type(&ty)
        } else {
            ty
        }
    })
}

/// The fields in id order (as they are written), with their indices.
pub fn sorted_fields(s: &Struct) -> Vec<(usize, &Field)> {
    let mut fields: Vec<(usize, &Field)> = s.fields.iter().enumerate().collect();
    fields.sort_by_key(|(_, f)| f.id);
    fields
}
