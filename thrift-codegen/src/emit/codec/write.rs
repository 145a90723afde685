//! Write and size code for one value of a given type: container loops written out, a
//! field's header and value in one writer call where the writer has one.

use proc_macro2::TokenStream;
use quote::quote;
use thrift_idl_parser::FileId;
use thrift_idl_parser::ast::{BaseType, Type};

use super::val::{Val, var};
use crate::emit::scope::Scope;
use crate::emit::types::wire_type;
use crate::model::Resolved;

/// Statements writing the value behind `value` (an expression of type `&T`) with writer `w`.
pub(super) fn write_value(
    m: &Scope<'_, '_>,
    file: FileId,
    ty: &Type,
    val: &Val,
    in_key: bool,
    depth: usize,
) -> TokenStream {
    write_value_in(m, file, ty, val, in_key, depth, None)
}

/// [`write_value`]; a list, set or map that is a field's value (`field`: the `id, prev_id`
/// arguments) starts with the field's header and its own in one call (`write_list_field_begin`…).
fn write_value_in(
    m: &Scope<'_, '_>,
    file: FileId,
    ty: &Type,
    val: &Val,
    in_key: bool,
    depth: usize,
    field: Option<&TokenStream>,
) -> TokenStream {
    let in_key = in_key && !m.borrowed();
    let (copied, by_ref, value) = (val.copied(), val.by_ref(), val.expr());
    let rt = &m.runtime;
    match m.resolve(file, ty) {
        Resolved::Base(base) => match base {
            BaseType::Bool => quote!(w.write_bool(#copied)?;),
            BaseType::I8 => quote!(w.write_i8(#copied)?;),
            BaseType::I16 => quote!(w.write_i16(#copied)?;),
            BaseType::I32 => quote!(w.write_i32(#copied)?;),
            BaseType::I64 => quote!(w.write_i64(#copied)?;),
            BaseType::Double if in_key => quote!(w.write_double(#value.0)?;),
            BaseType::Double => quote!(w.write_double(#copied)?;),
            // Borrowing forms hold `&str`/`&[u8]` already.
            BaseType::String | BaseType::Slist if m.borrowed() => quote!(w.write_string(#value)?;),
            BaseType::Binary if m.borrowed() => quote!(w.write_binary(#value)?;),
            BaseType::String | BaseType::Slist => quote!(w.write_string(#by_ref)?;),
            BaseType::Binary => quote!(w.write_binary(#by_ref)?;),
            BaseType::Uuid => quote!(w.write_uuid(#by_ref)?;),
        },
        Resolved::Enum(_) => quote!(w.write_i32(#value.0)?;),
        Resolved::Senum if m.borrowed() => quote!(w.write_string(#value)?;),
        Resolved::Senum => quote!(w.write_string(#by_ref)?;),
        Resolved::Struct(..) => quote!(#rt::ThriftWrite::write(#by_ref, w)?;),
        Resolved::List(f, element) | Resolved::Set(f, element) => {
            let is_set = matches!(m.resolve(file, ty), Resolved::Set(..));
            let elem_key = (in_key || is_set) && !m.borrowed();
            let item = var("item", depth);
            let elem_type = wire_type(m, f, element);
            let body = write_value(
                m,
                f,
                element,
                &Val::reference(quote!(#item)),
                elem_key,
                depth + 1,
            );
            let (begin, field_begin, end) = if is_set {
                (
                    quote!(write_set_begin),
                    quote!(write_set_field_begin),
                    quote!(write_set_end),
                )
            } else {
                (
                    quote!(write_list_begin),
                    quote!(write_list_field_begin),
                    quote!(write_list_end),
                )
            };
            let begin = match field {
                Some(args) => quote!(w.#field_begin(#args, #elem_type, #value.len())?;),
                None => quote!(w.#begin(#elem_type, #value.len())?;),
            };
            // Arena mode's slices are iterated through `iter()` (a `&&[T]` is no iterator).
            let items = if m.arena() {
                quote!(#value.iter())
            } else {
                by_ref.clone()
            };
            quote! {
                #begin
                for #item in #items {
                    #body
                }
                w.#end()?;
            }
        }
        Resolved::Map(f, key, val) => {
            let (k, v) = (var("key", depth), var("value", depth));
            let (key_type, value_type) = (wire_type(m, f, key), wire_type(m, f, val));
            let write_key = write_value(m, f, key, &Val::reference(quote!(#k)), true, depth + 1);
            let write_val = write_value(m, f, val, &Val::reference(quote!(#v)), in_key, depth + 1);
            let begin = match field {
                Some(args) => {
                    quote!(w.write_map_field_begin(#args, #key_type, #value_type, #value.len())?;)
                }
                None => quote!(w.write_map_begin(#key_type, #value_type, #value.len())?;),
            };
            let entries = if m.arena() {
                quote!(#value.iter())
            } else {
                by_ref.clone()
            };
            quote! {
                #begin
                for (#k, #v) in #entries {
                    #write_key
                    #write_val
                }
                w.write_map_end()?;
            }
        }
    }
}

/// Statements writing a whole field, header (after `prev`, the previous field's id when known
/// at generation time) and the value behind `val`, with one call where the writer has one for
/// the type (`write_i64_field`, `write_string_field`, `write_list_field_begin`…: header and
/// value, or a container's header, stored together); otherwise `write_field_begin` or
/// `write_field_begin_after`, the value, and `write_field_end`.
pub fn write_field(
    m: &Scope<'_, '_>,
    file: FileId,
    ty: &Type,
    val: &Val,
    in_key: bool,
    id: i16,
    prev: Option<i16>,
) -> TokenStream {
    let field_id = proc_macro2::Literal::i16_unsuffixed(id);
    let prev_id = match prev {
        Some(p) => {
            let p = proc_macro2::Literal::i16_unsuffixed(p);
            quote!(::std::option::Option::Some(#p))
        }
        None => quote!(::std::option::Option::None),
    };
    let args = quote!(#field_id, #prev_id);
    let in_key = in_key && !m.borrowed();
    let (copied, by_ref, value) = (val.copied(), val.by_ref(), val.expr());
    match m.resolve(file, ty) {
        Resolved::Base(BaseType::I32) => quote!(w.write_i32_field(#args, #copied)?;),
        Resolved::Enum(_) => quote!(w.write_i32_field(#args, #value.0)?;),
        Resolved::Base(BaseType::I64) => quote!(w.write_i64_field(#args, #copied)?;),
        Resolved::Base(BaseType::Double) if in_key => {
            quote!(w.write_double_field(#args, #value.0)?;)
        }
        Resolved::Base(BaseType::Double) => quote!(w.write_double_field(#args, #copied)?;),
        Resolved::Base(BaseType::String | BaseType::Slist) | Resolved::Senum if m.borrowed() => {
            quote!(w.write_string_field(#args, #value)?;)
        }
        Resolved::Base(BaseType::Binary) if m.borrowed() => {
            quote!(w.write_binary_field(#args, #value)?;)
        }
        Resolved::Base(BaseType::String | BaseType::Slist) | Resolved::Senum => {
            quote!(w.write_string_field(#args, #by_ref)?;)
        }
        Resolved::Base(BaseType::Binary) => quote!(w.write_binary_field(#args, #by_ref)?;),
        Resolved::List(..) | Resolved::Set(..) | Resolved::Map(..) => {
            let body = write_value_in(m, file, ty, val, in_key, 0, Some(&args));
            quote! {
                #body
                w.write_field_end()?;
            }
        }
        _ => {
            let body = write_value(m, file, ty, val, in_key, 0);
            let ttype = wire_type(m, file, ty);
            let begin = match prev {
                Some(p) => {
                    let p = proc_macro2::Literal::i16_unsuffixed(p);
                    quote!(w.write_field_begin_after(#ttype, #field_id, #p)?;)
                }
                None => quote!(w.write_field_begin(#ttype, #field_id)?;),
            };
            quote! {
                #begin
                #body
                w.write_field_end()?;
            }
        }
    }
}

/// An expression: the encoded size (under protocol `P`) of the value behind `value` (`&T`).
pub fn value_len(
    m: &Scope<'_, '_>,
    file: FileId,
    ty: &Type,
    val: &Val,
    in_key: bool,
    depth: usize,
) -> TokenStream {
    let in_key = in_key && !m.borrowed();
    let (copied, by_ref, value) = (val.copied(), val.by_ref(), val.expr());
    let rt = &m.runtime;
    match m.resolve(file, ty) {
        Resolved::Base(base) => match base {
            BaseType::Bool => quote!(P::bool_len(#copied)),
            BaseType::I8 => quote!(P::i8_len(#copied)),
            BaseType::I16 => quote!(P::i16_len(#copied)),
            BaseType::I32 => quote!(P::i32_len(#copied)),
            BaseType::I64 => quote!(P::i64_len(#copied)),
            BaseType::Double if in_key => quote!(P::double_len(#value.0)),
            BaseType::Double => quote!(P::double_len(#copied)),
            BaseType::String | BaseType::Slist => quote!(P::string_len(#value.len())),
            BaseType::Binary => quote!(P::binary_len(#value.len())),
            BaseType::Uuid => quote!(P::uuid_len(#by_ref)),
        },
        Resolved::Enum(_) => quote!(P::i32_len(#value.0)),
        Resolved::Senum => quote!(P::string_len(#value.len())),
        Resolved::Struct(..) => quote!(#rt::ThriftWrite::encoded_len::<P>(#by_ref)),
        Resolved::List(f, element) | Resolved::Set(f, element) => {
            let is_set = matches!(m.resolve(file, ty), Resolved::Set(..));
            let item = var("item", depth);
            let elem_type = wire_type(m, f, element);
            let item_len = value_len(
                m,
                f,
                element,
                &Val::reference(quote!(#item)),
                (in_key || is_set) && !m.borrowed(),
                depth + 1,
            );
            let begin = if is_set {
                quote!(set_begin_len)
            } else {
                quote!(list_begin_len)
            };
            quote! {
                P::#begin(#elem_type, #value.len())
                    + #value.iter().map(|#item| #item_len).sum::<usize>()
            }
        }
        Resolved::Map(f, key, val) => {
            let (k, v) = (var("key", depth), var("value", depth));
            let (key_type, value_type) = (wire_type(m, f, key), wire_type(m, f, val));
            let key_len = value_len(m, f, key, &Val::reference(quote!(#k)), true, depth + 1);
            let val_len = value_len(m, f, val, &Val::reference(quote!(#v)), in_key, depth + 1);
            quote! {
                P::map_begin_len(#key_type, #value_type, #value.len())
                    + #value.iter().map(|(#k, #v)| #key_len + #val_len).sum::<usize>()
            }
        }
    }
}
