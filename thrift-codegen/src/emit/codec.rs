//! Read, write and size code for one value of a given type. Generated per type: no dynamic
//! dispatch, container loops written out, field headers from constants.

use proc_macro2::{Ident, Span, TokenStream};
use quote::quote;
use thrift_idl_parser::FileId;
use thrift_idl_parser::ast::{BaseType, Type};

use super::scope::{CollectionKind, Scope};
use super::types::{borrowed_vec, element_type, inline_len, inline_pair_len, wire_type};
use crate::model::Resolved;

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
    fn copied(&self) -> TokenStream {
        let t = &self.tokens;
        if self.is_ref { quote!(*#t) } else { t.clone() }
    }

    /// A reference to the value.
    fn by_ref(&self) -> TokenStream {
        let t = &self.tokens;
        if self.is_ref { t.clone() } else { quote!(&#t) }
    }

    /// For method calls and field access (auto-deref does the rest).
    fn expr(&self) -> TokenStream {
        self.tokens.clone()
    }
}

fn var(prefix: &str, depth: usize) -> Ident {
    Ident::new(&format!("{prefix}{depth}"), Span::call_site())
}

/// Statements writing the value behind `value` (an expression of type `&T`) with writer `w`.
pub fn write_value(
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

/// An expression reading one value of `ty` with reader `r` (inside a function returning
/// `Result`).
pub fn read_value(
    m: &Scope<'_, '_>,
    file: FileId,
    ty: &Type,
    in_key: bool,
    depth: usize,
) -> TokenStream {
    let rt = &m.runtime;
    let borrowed = m.borrowed();
    let in_key = in_key && !borrowed;
    match m.resolve(file, ty) {
        Resolved::Base(base) => match base {
            BaseType::Bool => quote!(r.read_bool()?),
            BaseType::I8 => quote!(r.read_i8()?),
            BaseType::I16 => quote!(r.read_i16()?),
            BaseType::I32 => quote!(r.read_i32()?),
            BaseType::I64 => quote!(r.read_i64()?),
            BaseType::Double if in_key => quote!(#rt::OrderedF64(r.read_double()?)),
            BaseType::Double => quote!(r.read_double()?),
            BaseType::String | BaseType::Slist if borrowed => quote!(r.read_str()?),
            BaseType::String | BaseType::Slist => m.read_string(),
            BaseType::Binary if borrowed => quote!(r.read_bytes()?),
            BaseType::Binary => m.read_binary(),
            BaseType::Uuid => quote!(r.read_uuid()?),
        },
        Resolved::Enum(id) => {
            let path = m.path_to(file, id);
            quote!(#path(r.read_i32()?))
        }
        Resolved::Senum if borrowed => quote!(r.read_str()?),
        Resolved::Senum => m.read_string(),
        Resolved::Struct(id, _) => {
            let path = m.struct_path(file, id);
            quote!(<#path as #rt::ThriftRead<'de>>::read(r)?)
        }
        Resolved::List(f, element) | Resolved::Set(f, element) => {
            let is_set = matches!(m.resolve(file, ty), Resolved::Set(..));
            let (header, out) = (var("header", depth), var("items", depth));
            let elem_type = wire_type(m, f, element);
            let elem_key = (in_key || is_set) && !m.borrowed();
            let elem_rust = element_type(m, f, element, elem_key);
            let capacity = quote!(#rt::capacity_hint::<#elem_rust>(#header.len));
            let read = || read_value(m, f, element, elem_key, depth + 1);
            if m.arena() {
                return arena_list(m, f, element, is_set, depth);
            }
            // A field's own container (depth 0) has inline room in borrowing forms.
            let inline = (borrowed && depth == 0)
                .then(|| inline_len(m, f, element))
                .flatten();
            if (!is_set || borrowed) && is_scalar(m, f, element, elem_key) {
                // Numbers: the runtime reads them many at a time into the vector.
                let container = borrowed_vec(m, &elem_rust, inline);
                let read = if is_set {
                    quote!(#rt::read_scalar_set)
                } else {
                    quote!(#rt::read_scalar_list)
                };
                return quote!(#read::<#container, #elem_rust, _>(r)?);
            }
            let build = if !is_set || borrowed {
                let push = vec_push(m, f, element, elem_key, depth, &out, is_set);
                Build::vec(m, &out, &capacity, push, &elem_rust, inline)
            } else if m.hashed(in_key) {
                let read = read();
                Build {
                    init: m.hash_with_capacity(CollectionKind::Set, &capacity),
                    add: quote!(#out.insert(#read)),
                    finish: quote!(#out),
                }
            } else {
                let read = read();
                Build::btree(
                    &header,
                    &out,
                    quote!(#rt::BTreeSetBuilder),
                    quote!(#out.insert(#read)),
                )
            };
            let Build { init, add, finish } = build;
            if !is_set {
                // One call: the runtime's loop, this list's element read as the closure.
                let read_list = match inline {
                    Some(n) => {
                        let n = proc_macro2::Literal::usize_unsuffixed(n);
                        quote!(#rt::read_small_list::<[#elem_rust; #n], _>)
                    }
                    None => quote!(#rt::read_list),
                };
                return quote! {
                    #read_list(r, #elem_type, |r, #out| {
                        #add;
                        ::std::result::Result::Ok(())
                    })?
                };
            }
            quote! {{
                let #header = r.read_set_begin()?;
                #rt::check_element_type(#header.elem, #elem_type, #header.len)?;
                let mut #out = #init;
                for _ in 0..#header.len {
                    #add;
                }
                r.read_set_end()?;
                #finish
            }}
        }
        Resolved::Map(f, key, val) if m.arena() => {
            let out = var("items", depth);
            let (key_type, value_type) = (wire_type(m, f, key), wire_type(m, f, val));
            let read_key = read_value(m, f, key, false, depth + 1);
            let read_val = read_value(m, f, val, false, depth + 1);
            let (k, v) = (var("key", depth), var("value", depth));
            quote! {
                #rt::arena_map(r, #key_type, #value_type, |r, #out| {
                    let #k = #read_key;
                    let #v = #read_val;
                    #out.push((#k, #v));
                    ::std::result::Result::Ok(())
                })?
            }
        }
        Resolved::Map(f, key, val) => {
            let (header, out) = (var("header", depth), var("items", depth));
            let (key_type, value_type) = (wire_type(m, f, key), wire_type(m, f, val));
            let read_key = read_value(m, f, key, true, depth + 1);
            let read_val = read_value(m, f, val, in_key, depth + 1);
            let (k, v) = (var("key", depth), var("value", depth));
            let (key_rust, val_rust) = (
                element_type(m, f, key, true),
                element_type(m, f, val, in_key),
            );
            let capacity = quote!(#rt::capacity_hint::<(#key_rust, #val_rust)>(#header.len));
            let build = if borrowed {
                // Borrowing forms hold maps as vectors of pairs.
                let inline = inline_pair_len(m, f, key, val).filter(|_| depth == 0);
                let pair = quote!((#key_rust, #val_rust));
                Build::vec(
                    m,
                    &out,
                    &capacity,
                    quote!(#out.push((#k, #v))),
                    &pair,
                    inline,
                )
            } else if m.hashed(in_key) {
                Build {
                    init: m.hash_with_capacity(CollectionKind::Map, &capacity),
                    add: quote!(#out.insert(#k, #v)),
                    finish: quote!(#out),
                }
            } else {
                Build::btree(
                    &header,
                    &out,
                    quote!(#rt::BTreeMapBuilder),
                    quote!(#out.insert(#k, #v)),
                )
            };
            let Build { init, add, finish } = build;
            quote! {{
                let #header = r.read_map_begin()?;
                #rt::check_element_type(#header.key, #key_type, #header.len)?;
                #rt::check_element_type(#header.value, #value_type, #header.len)?;
                let mut #out = #init;
                for _ in 0..#header.len {
                    let #k = #read_key;
                    let #v = #read_val;
                    #add;
                }
                r.read_map_end()?;
                #finish
            }}
        }
    }
}

/// The expression reading a list or set of `element`s into the reader's arena (arena mode's
/// borrowing forms): numbers many at a time, structs read in place in their slot, other
/// elements pushed.
fn arena_list(
    m: &Scope<'_, '_>,
    file: FileId,
    element: &Type,
    is_set: bool,
    depth: usize,
) -> TokenStream {
    let rt = &m.runtime;
    let elem_rust = element_type(m, file, element, false);
    if is_scalar(m, file, element, false) {
        let read = if is_set {
            quote!(#rt::arena_scalar_set)
        } else {
            quote!(#rt::arena_scalar_list)
        };
        return quote!(#read::<#elem_rust, _>(r)?);
    }
    let out = var("items", depth);
    let elem_type = wire_type(m, file, element);
    let push = vec_push(m, file, element, false, depth, &out, false);
    let read = if is_set {
        quote!(#rt::arena_set)
    } else {
        quote!(#rt::arena_list)
    };
    quote! {
        #read(r, #elem_type, |r, #out| {
            #push;
            ::std::result::Result::Ok(())
        })?
    }
}

/// Whether list or set elements of `element` are numbers that the runtime reads many at a
/// time (`read_scalar_list`): `byte`, `i16`, `i32`, `i64`, and `double` where it is an `f64`
/// (not the `OrderedF64` of a key).
fn is_scalar(m: &Scope<'_, '_>, file: FileId, element: &Type, in_key: bool) -> bool {
    match m.resolve(file, element) {
        Resolved::Base(BaseType::I8 | BaseType::I16 | BaseType::I32 | BaseType::I64) => true,
        Resolved::Base(BaseType::Double) => !in_key,
        _ => false,
    }
}

/// The statement adding one element of `element` to the vector `out` (a `&mut` in a list's
/// closure, a local for sets): struct, string and binary elements are read in place, in the
/// vector's next slot.
fn vec_push(
    m: &Scope<'_, '_>,
    file: FileId,
    element: &Type,
    elem_key: bool,
    depth: usize,
    out: &Ident,
    is_set: bool,
) -> TokenStream {
    let rt = &m.runtime;
    let vec = if is_set {
        quote!(&mut #out)
    } else {
        quote!(#out)
    };
    let slot = quote!(#rt::push_default(#vec));
    if let Some(path) = super::fields::in_place_struct(m, file, element) {
        quote!(#rt::read_element::<#path, _>(r, #vec)?)
    } else if let Some(read_into) = read_bytes_into(m, file, element, slot) {
        read_into
    } else {
        let read = read_value(m, file, element, elem_key, depth + 1);
        quote!(#out.push(#read))
    }
}

/// The statement reading a borrowing form's list field of `ty` into the `SmallVec` at `slot`
/// (a `&mut` expression), replacing its elements where it lives instead of building a new one
/// and moving it there (the move reads the freshly stored words back, a store-forwarding
/// stall on every list); `None` when `ty` is not such a list (see [`inline_len`]).
pub fn read_small_list_into(
    m: &Scope<'_, '_>,
    file: FileId,
    ty: &Type,
    slot: TokenStream,
) -> Option<TokenStream> {
    if !m.borrowed() {
        return None;
    }
    let Resolved::List(f, element) = m.resolve(file, ty) else {
        return None;
    };
    inline_len(m, f, element)?;
    let rt = &m.runtime;
    if is_scalar(m, f, element, false) {
        return Some(quote!(#rt::read_scalar_list_into(r, #slot)?));
    }
    let out = var("items", 0);
    let elem_type = wire_type(m, f, element);
    let push = vec_push(m, f, element, false, 0, &out, false);
    Some(quote! {
        #rt::read_small_list_into(r, #elem_type, #slot, |r, #out| {
            #push;
            ::std::result::Result::Ok(())
        })?
    })
}

/// The statement reading an owned form's list of `ty` into the `Vec` at `slot` (a `&mut`
/// expression) where it lives, so that a value decoded again keeps its allocations
/// (`ThriftRead::decode_into`): over its old elements when they hold allocations to keep
/// (the runtime's `read_list_into`), else refilled (`read_list_refill`, the vector's capacity
/// kept); `None` when `ty` is not such a list. `depth` is the list's nesting depth (for the
/// names of locals).
pub fn read_list_over(
    m: &Scope<'_, '_>,
    file: FileId,
    ty: &Type,
    slot: TokenStream,
    depth: usize,
) -> Option<TokenStream> {
    if m.borrowed() {
        return None;
    }
    let Resolved::List(f, element) = m.resolve(file, ty) else {
        return None;
    };
    let rt = &m.runtime;
    if is_scalar(m, f, element, false) {
        return Some(quote!(#rt::read_scalar_list_into(r, #slot)?));
    }
    let (item, out) = (var("item", depth), var("items", depth));
    let elem_type = wire_type(m, f, element);
    // Elements whose `read_into` reads in place: one runtime call.
    let std_string = m.mapping().strings == crate::options::Strings::Std
        && matches!(
            m.resolve(f, element),
            Resolved::Base(BaseType::String | BaseType::Slist) | Resolved::Senum
        );
    if super::fields::in_place_struct(m, f, element).is_some() || std_string {
        let elem_rust = element_type(m, f, element, false);
        return Some(quote!(#rt::read_list_reusing::<#elem_rust, _>(r, #elem_type, #slot)?));
    }
    let add = vec_push(m, f, element, false, depth, &out, false);
    let add = quote! {
        |r, #out| {
            #add;
            ::std::result::Result::Ok(())
        }
    };
    // Strings and binaries of the other mappings into their buffers, lists over their
    // elements, sets and maps over their entries.
    let over = read_bytes_into(m, f, element, quote!(#item))
        .or_else(|| read_list_over(m, f, element, quote!(#item), depth + 1))
        .or_else(|| read_collection_over(m, f, element, quote!(#item), depth + 1));
    Some(match over {
        Some(over) => quote! {
            #rt::read_list_into(
                r,
                #elem_type,
                #slot,
                |r, #item| {
                    #over;
                    ::std::result::Result::Ok(())
                },
                #add,
            )?
        },
        None => quote!(#rt::read_list_refill(r, #elem_type, #slot, #add)?),
    })
}

/// The statement reading an owned form's set or map of `ty` into the collection at `slot` (a
/// `&mut` expression) where it lives (the runtime's `read_set_into`, `read_map_into`): a
/// `BTreeMap` or `BTreeSet` decoded again with the same keys allocates nothing, and entries
/// are read over old ones, so that `ThriftRead::decode_into` keeps the allocations of their
/// strings and nested values. `None` when `ty` is not a set or map, or in a borrowing form.
/// `depth` is the collection's nesting depth (for the names of locals).
pub fn read_collection_over(
    m: &Scope<'_, '_>,
    file: FileId,
    ty: &Type,
    slot: TokenStream,
    depth: usize,
) -> Option<TokenStream> {
    if m.borrowed() {
        return None;
    }
    let rt = &m.runtime;
    let ok = quote!(::std::result::Result::Ok);
    match m.resolve(file, ty) {
        Resolved::Set(f, element) => {
            let item = var("item", depth);
            let elem_type = wire_type(m, f, element);
            let fresh = read_value(m, f, element, true, depth + 1);
            let over = read_bytes_into(m, f, element, quote!(#item))
                .unwrap_or_else(|| quote!(*#item = #fresh));
            let elem_eq = read_if_new(m, f, element, &item, &fresh);
            Some(quote! {
                #rt::read_set_into(
                    r,
                    #elem_type,
                    #slot,
                    #elem_eq,
                    |r, #item| {
                        #over;
                        #ok(())
                    },
                    |r| {
                        let #item = #fresh;
                        #ok(#item)
                    },
                )?
            })
        }
        Resolved::Map(f, key, val) => {
            let (k, v) = (var("key", depth), var("value", depth));
            let (key_type, value_type) = (wire_type(m, f, key), wire_type(m, f, val));
            let read_key = read_value(m, f, key, true, depth + 1);
            let read_val = read_value(m, f, val, false, depth + 1);
            let key_over =
                read_bytes_into(m, f, key, quote!(#k)).unwrap_or_else(|| quote!(*#k = #read_key));
            let value_over = read_value_over(m, f, val, quote!(#v), depth + 1)
                .unwrap_or_else(|| quote!(*#v = #read_val));
            let key_eq = read_if_new(m, f, key, &k, &read_key);
            Some(quote! {
                #rt::read_map_into(
                    r,
                    #key_type,
                    #value_type,
                    #slot,
                    #key_eq,
                    |r, #k| {
                        #key_over;
                        #ok(())
                    },
                    |r, #v| {
                        #value_over;
                        #ok(())
                    },
                    |r, #k| {
                        let #k = match #k {
                            ::std::option::Option::Some(#k) => #k,
                            ::std::option::Option::None => #read_key,
                        };
                        #ok((#k, #read_val))
                    },
                )?
            })
        }
        _ => None,
    }
}

/// The function (a runtime path or a closure) that compares a set's next element or a map's
/// next key of `ty` with the old one it is given (the runtime's `Compared`): strings and
/// binaries held in buffers of their own on the input's bytes (`compare_bytes`, through
/// `read_binary_if_eq`: read only when the same, nothing allocated; else left for a read over
/// an old one), scalars and enums read and compared. Other keys (structs, containers, and the
/// shared `ByteString` and `Bytes`, which would otherwise keep the old input alive) are left
/// unread (`unread`), and their collection is built again over its old entries.
fn read_if_new(
    m: &Scope<'_, '_>,
    file: FileId,
    ty: &Type,
    old: &Ident,
    read: &TokenStream,
) -> TokenStream {
    use crate::options::Strings;
    let rt = &m.runtime;
    let strings = m.mapping().strings;
    match m.resolve(file, ty) {
        Resolved::Base(BaseType::String | BaseType::Slist) | Resolved::Senum
            if strings != Strings::Bytes =>
        {
            quote!(#rt::compare_bytes)
        }
        Resolved::Base(BaseType::Binary) if strings == Strings::Std => quote!(#rt::compare_bytes),
        Resolved::Base(
            BaseType::Bool
            | BaseType::I8
            | BaseType::I16
            | BaseType::I32
            | BaseType::I64
            | BaseType::Double
            | BaseType::Uuid,
        )
        | Resolved::Enum(_) => quote! {
            |r, #old| ::std::result::Result::Ok(#rt::Compared::of(#read, #old))
        },
        _ => quote!(#rt::unread),
    }
}

/// The statement reading a map's value of `ty` over the old one at `slot` (a `&mut`
/// expression), keeping its allocations: a struct read in place, a string or binary into its
/// buffer, a list, set or map over its elements; `None` when `ty` holds nothing to keep.
fn read_value_over(
    m: &Scope<'_, '_>,
    file: FileId,
    ty: &Type,
    slot: TokenStream,
    depth: usize,
) -> Option<TokenStream> {
    let rt = &m.runtime;
    if let Some(path) = super::fields::in_place_struct(m, file, ty) {
        return Some(quote!(<#path as #rt::ThriftRead<'de>>::read_into(r, #slot)?));
    }
    read_bytes_into(m, file, ty, slot.clone())
        .or_else(|| read_list_over(m, file, ty, slot.clone(), depth))
        .or_else(|| read_collection_over(m, file, ty, slot, depth))
}

/// The statement reading a value of `ty` into the place `slot` (a `&mut` expression) when
/// `ty` is held as an owned string (`string`, `slist`, `senum`) or `binary`, which are read in
/// place (see [`Scope::read_string_into`], [`Scope::read_binary_into`]); `None` otherwise
/// (borrowed forms hold `&str` and `&[u8]`).
pub fn read_bytes_into(
    m: &Scope<'_, '_>,
    file: FileId,
    ty: &Type,
    slot: TokenStream,
) -> Option<TokenStream> {
    if m.borrowed() {
        return None;
    }
    match m.resolve(file, ty) {
        Resolved::Base(BaseType::String | BaseType::Slist) | Resolved::Senum => {
            Some(m.read_string_into(slot))
        }
        Resolved::Base(BaseType::Binary) => Some(m.read_binary_into(slot)),
        _ => None,
    }
}

/// How a decoded container is built: `init` before its elements, `add` for each, `finish`
/// gives the value.
struct Build {
    init: TokenStream,
    add: TokenStream,
    finish: TokenStream,
}

impl Build {
    /// A vector of `element`s sized from the header (lists, and the sets and maps of
    /// borrowing forms): a `Vec`, or a `SmallVec` with room for `inline` elements.
    fn vec(
        m: &Scope<'_, '_>,
        out: &Ident,
        capacity: &TokenStream,
        add: TokenStream,
        element: &TokenStream,
        inline: Option<usize>,
    ) -> Build {
        let init = match inline {
            Some(_) => {
                let vec = borrowed_vec(m, element, inline);
                quote!(<#vec>::with_capacity(#capacity))
            }
            None => quote!(::std::vec::Vec::with_capacity(#capacity)),
        };
        Build {
            init,
            add,
            finish: quote!(#out),
        }
    }

    /// A `BTreeSet`/`BTreeMap` through the runtime's `builder` (`BTreeSetBuilder`,
    /// `BTreeMapBuilder`): small ones inserted one by one, large ones built in bulk.
    fn btree(header: &Ident, out: &Ident, builder: TokenStream, add: TokenStream) -> Build {
        Build {
            init: quote!(#builder::new(#header.len)),
            add,
            finish: quote!(#out.finish()),
        }
    }
}

/// The body of a generated `ThriftRead::read` for a struct or union: `declarations`, then the
/// `in_order` fast path (one `read_field_after` per field, in the order writers emit them), then
/// the field loop dispatching on `(field id, wire type)` to `arms` (unknown ids and wrong wire
/// types are skipped, as Apache does, or handled by `unknown`: the match's last arms, or the
/// statement when there are no others, for the field whose header is `field`), then `result`.
pub fn read_struct_body(
    m: &Scope<'_, '_>,
    declarations: TokenStream,
    in_order: &[TokenStream],
    arms: &[TokenStream],
    result: TokenStream,
    unknown: Option<TokenStream>,
) -> TokenStream {
    let rt = &m.runtime;
    let dispatch = match (unknown, arms.is_empty()) {
        (None, true) => quote!(r.skip(field.ttype)?;),
        (None, false) => quote! {
            match (field.id, field.ttype) {
                #(#arms)*
                (_, ttype) => r.skip(ttype)?,
            }
        },
        (Some(unknown), true) => quote!(#unknown;),
        (Some(unknown), false) => quote! {
            match (field.id, field.ttype) {
                #(#arms)*
                #unknown,
            }
        },
    };
    quote! {
        let token = r.read_struct_begin()?;
        #declarations
        #(#in_order)*
        loop {
            let field = r.read_field_begin()?;
            if field.ttype == #rt::TType::Stop {
                break;
            }
            #dispatch
            r.read_field_end()?;
        }
        r.read_struct_end(token)?;
        #result
    }
}
