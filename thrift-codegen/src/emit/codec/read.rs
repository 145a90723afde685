//! Read code for one value of a given type (`read_value`) and for a struct's fields
//! (`read_struct_body`): numbers many at a time, structs, strings and binaries read in place
//! where they will live, containers built through the runtime's builders.

use proc_macro2::{Ident, TokenStream};
use quote::quote;
use thrift_idl_parser::FileId;
use thrift_idl_parser::ast::{BaseType, Type};

use super::val::var;
use crate::emit::fields::in_place_struct;
use crate::emit::scope::{CollectionKind, Scope};
use crate::emit::types::{borrowed_vec, element_type, inline_len, inline_pair_len, wire_type};
use crate::model::Resolved;

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
        Resolved::List(f, element) if m.arena() => arena_list(m, f, element, false, depth),
        Resolved::Set(f, element) if m.arena() => arena_list(m, f, element, true, depth),
        Resolved::List(f, element) => read_list_or_set(m, f, element, false, in_key, depth),
        Resolved::Set(f, element) => read_list_or_set(m, f, element, true, in_key, depth),
        Resolved::Map(f, key, val) if m.arena() => arena_map(m, f, key, val, depth),
        Resolved::Map(f, key, val) => read_map(m, f, key, val, in_key, depth),
    }
}

/// The expression reading a list or set of `element`s (outside arena mode) with reader `r`:
/// numbers many at a time, structs, strings and binaries in place in the vector's next slot,
/// sets of the owned forms into a `HashSet` or through the runtime's `BTreeSetBuilder`.
/// `in_key`: the container is inside a set element or map key (of an owned form).
fn read_list_or_set(
    m: &Scope<'_, '_>,
    f: FileId,
    element: &Type,
    is_set: bool,
    in_key: bool,
    depth: usize,
) -> TokenStream {
    let rt = &m.runtime;
    let borrowed = m.borrowed();
    let (header, out) = (var("header", depth), var("items", depth));
    let elem_type = wire_type(m, f, element);
    let elem_key = (in_key || is_set) && !m.borrowed();
    let elem_rust = element_type(m, f, element, elem_key);
    let capacity = quote!(#rt::capacity_hint::<#elem_rust>(#header.len));
    let read = || read_value(m, f, element, elem_key, depth + 1);
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

/// The expression reading a map of `key`s to `val`s (outside arena mode) with reader `r`: a
/// vector of pairs in borrowing forms, else a `HashMap` or a `BTreeMap` built through the
/// runtime's `BTreeMapBuilder`.
fn read_map(
    m: &Scope<'_, '_>,
    f: FileId,
    key: &Type,
    val: &Type,
    in_key: bool,
    depth: usize,
) -> TokenStream {
    let rt = &m.runtime;
    let borrowed = m.borrowed();
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

/// The expression reading a map into the reader's arena (arena mode's borrowing forms): a
/// slice of pairs.
fn arena_map(m: &Scope<'_, '_>, f: FileId, key: &Type, val: &Type, depth: usize) -> TokenStream {
    let rt = &m.runtime;
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
pub(super) fn is_scalar(m: &Scope<'_, '_>, file: FileId, element: &Type, in_key: bool) -> bool {
    match m.resolve(file, element) {
        Resolved::Base(BaseType::I8 | BaseType::I16 | BaseType::I32 | BaseType::I64) => true,
        Resolved::Base(BaseType::Double) => !in_key,
        _ => false,
    }
}

/// The statement adding one element of `element` to the vector `out` (a `&mut` in a list's
/// closure, a local for sets): struct, string and binary elements are read in place, in the
/// vector's next slot.
pub(super) fn vec_push(
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
    if let Some(path) = in_place_struct(m, file, element) {
        quote!(#rt::read_element::<#path, _>(r, #vec)?)
    } else if let Some(read_into) = read_bytes_into(m, file, element, slot) {
        read_into
    } else {
        let read = read_value(m, file, element, elem_key, depth + 1);
        quote!(#out.push(#read))
    }
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
