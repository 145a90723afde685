//! The model of a checked program under the user's [`Options`]: every option naming IDL paths
//! is resolved against the program here, by the one rule of [`PathMap`] ([`Items::select`]:
//! a path that selects nothing the option takes is an [`Error::Options`]), and the `rust.*`
//! annotations are read.

use std::collections::HashMap;

use proc_macro2::TokenStream;
use thrift_idl_parser::{Checked, DefId, FileId};

use super::attributes::parse_attributes;
use super::mappings::FieldChoice;
use super::select::{Item, Items, Selected};
use super::{Model, annotations, keys, only};
use crate::error::Error;
use crate::options::{AttributeTarget, MappingChoice, Options};
use crate::path_map::PathMap;

/// The model for `checked` under `options`, and the warnings of the `rust.*` annotations.
pub(crate) fn configure<'p>(
    checked: &'p Checked,
    options: &'p Options,
) -> Result<(Model<'p>, Vec<thrift_idl_parser::Diagnostic>), Error> {
    let hasher = hasher_tokens(options)?;
    if options.arena && !options.keep_unknown_fields.is_empty() {
        return Err(Error::Options(
            "arena cannot be combined with keep_unknown_fields: kept fields live in vectors that an arena would never free"
                .into(),
        ));
    }
    if !options.arena && !options.arena_inline.is_empty() {
        return Err(Error::Options(
            "arena_inline needs arena mode (Builder::arena): outside it optional structs are held inline already"
                .into(),
        ));
    }
    let items = Items::of(&checked.program);
    let borrow_roots = borrow_roots(options, &items)?;
    let runtime: TokenStream = options
        .runtime_path
        .parse()
        .unwrap_or_else(|_| "::thrift_runtime".parse().expect("valid path"));
    let mut model = Model::new(
        &checked.program,
        options,
        runtime,
        hasher,
        borrow_roots.as_deref(),
    );
    model.skipped = fields(items.select(
        &options.skip_fields,
        "skip_fields",
        "field of a struct or exception (a union's fields cannot be skipped: the value would have no variant)",
        |item| matches!(item, Item::Field(id, _) if items.is_struct_or_exception(id)),
    )?)
    .collect();
    if let Some(paths) = &options.only {
        let selected = items.select(paths, "only", "definition or service function", |item| {
            matches!(item, Item::Definition(_) | Item::Function { .. })
        })?;
        model.kept = Some(only::kept(
            &checked.program,
            selected.iter().map(|s| s.item),
        ));
    }
    model.externs = extern_files(options, &items)?;
    model.keep_unknown = definitions(items.select(
        &options.keep_unknown_fields,
        "keep_unknown_fields",
        "struct or exception",
        |item| matches!(item, Item::Definition(id) if items.is_struct_or_exception(id)),
    )?)
    .collect();
    let warnings = apply_annotations(options, checked, &items, &mut model)?;
    if options.arena {
        // Boxed fields are references into the arena: their structs borrow.
        model.assign_borrowing(borrow_roots.as_deref());
    }
    add_attributes(options, &items, &mut model)?;
    Ok((model, warnings))
}

/// The fields among selected items.
fn fields<T>(selected: Vec<Selected<'_, T>>) -> impl Iterator<Item = (DefId, usize)> {
    selected.into_iter().filter_map(|s| match s.item {
        Item::Field(id, index) => Some((id, index)),
        _ => None,
    })
}

/// The definitions among selected items.
fn definitions<T>(selected: Vec<Selected<'_, T>>) -> impl Iterator<Item = DefId> {
    selected.into_iter().filter_map(|s| match s.item {
        Item::Definition(id) => Some(id),
        _ => None,
    })
}

/// The files of `Builder::extern_path`, with their Rust paths.
fn extern_files(
    options: &Options,
    items: &Items<'_>,
) -> Result<HashMap<FileId, TokenStream>, Error> {
    let selected = items.select(
        &options.extern_paths,
        "extern_path",
        "IDL file that is loaded",
        |item| matches!(item, Item::File(_)),
    )?;
    let mut files = HashMap::new();
    for selected in selected {
        let Item::File(file) = selected.item else {
            continue;
        };
        let (idl, rust) = (selected.path, selected.value);
        let path = syn::parse_str::<syn::Path>(rust).map_err(|e| {
            Error::Options(format!(
                "extern_path(\"{idl}\", \"{rust}\"): not a Rust path: {e}"
            ))
        })?;
        files.insert(file, quote::ToTokens::to_token_stream(&path));
    }
    Ok(files)
}

/// Applies the IDL's `rust.*` annotations and the `Builder`'s boxes, inline fields and
/// mappings to the model; keeps the annotations' attributes (the builder's are added after
/// them). Returns the annotations' warnings; their errors (a `rust.attr` that does not parse,
/// a `rust.box` on a field that cannot be boxed) are an [`Error::Idl`].
fn apply_annotations(
    options: &Options,
    checked: &Checked,
    items: &Items<'_>,
    model: &mut Model<'_>,
) -> Result<Vec<thrift_idl_parser::Diagnostic>, Error> {
    let from_idl = annotations::read(model);
    let diagnostics = from_idl.diagnostics;
    let mut boxes = from_idl.boxed;
    boxes.extend(fields(items.select(
        &options.boxed,
        "boxed",
        "field whose type is a struct, union or exception",
        |item| matches!(item, Item::Field(id, index) if annotations::can_box(model, id, index)),
    )?));
    if diagnostics
        .iter()
        .any(thrift_idl_parser::Diagnostic::is_error)
    {
        return Err(Error::Idl(thrift_idl_parser::diagnostic::render_all(
            &diagnostics,
            &checked.program.sources,
        )));
    }
    for (id, index) in boxes {
        model.add_boxed(id, index);
    }
    let inline = items.select(
        &options.arena_inline,
        "arena_inline",
        "optional field of a struct or exception whose type is a struct, union or exception \
         and that is not boxed (by `boxed`, `rust.box`, or to break a recursion)",
        |item| {
            matches!(item, Item::Field(id, index)
                if keys::optional_struct_field(model, id, index) && !model.is_boxed(id, index))
        },
    )?;
    for (id, index) in fields(inline) {
        model.add_inline(id, index);
    }
    for (target, item, attrs) in from_idl.attributes {
        model.add_attributes(target, item, attrs);
    }
    // The IDL's `rust.type` first (a type's for each of its fields), then the builder's.
    let mut choices = Vec::new();
    for (item, choice) in from_idl.mappings {
        match item {
            Item::Definition(id) => {
                let count = model.struct_def(id).map_or(0, |s| s.fields.len());
                choices.extend((0..count).map(|index| ((id, index), choice)));
            }
            Item::Field(id, index) => choices.push(((id, index), choice)),
            Item::File(_) | Item::Function { .. } => {}
        }
    }
    choices.extend(mapping_choices(
        items,
        &options.strings_for,
        "strings_for",
        MappingChoice::Strings,
    )?);
    choices.extend(mapping_choices(
        items,
        &options.collections_for,
        "collections_for",
        MappingChoice::Collections,
    )?);
    let mappings = model.field_mappings_of(&choices);
    model.set_field_mappings(mappings);
    Ok(diagnostics)
}

/// The choices of `strings_for` or `collections_for` (`option`), each for a field its path
/// selects, in the order given.
fn mapping_choices<T: Copy>(
    items: &Items<'_>,
    paths: &PathMap<T>,
    option: &str,
    choice: impl Fn(T) -> MappingChoice,
) -> Result<Vec<FieldChoice>, Error> {
    let selected = items.select(paths, option, "field", |item| {
        matches!(item, Item::Field(..))
    })?;
    Ok(selected
        .into_iter()
        .filter_map(|s| match s.item {
            Item::Field(id, index) => Some(((id, index), choice(*s.value))),
            _ => None,
        })
        .collect())
}

/// Adds the `Builder`'s attributes (`type_attribute` and kin) to the items their paths
/// select, each parsed once.
fn add_attributes(
    options: &Options,
    items: &Items<'_>,
    model: &mut Model<'_>,
) -> Result<(), Error> {
    for target in [
        AttributeTarget::Type,
        AttributeTarget::RefType,
        AttributeTarget::Field,
        AttributeTarget::RefField,
    ] {
        let call = target.call();
        let mut parsed = PathMap::new();
        for (path, attribute) in options.attributes(target).iter() {
            let attrs = parse_attributes(attribute).map_err(|e| {
                Error::Options(format!(
                    "{call}(\"{path}\", ..): `{attribute}` is not a Rust attribute: {e}"
                ))
            })?;
            parsed.insert(path, attrs);
        }
        let selected = if target.is_type() {
            items.select(
                &parsed,
                call,
                "type (struct, union, exception or enum)",
                |item| matches!(item, Item::Definition(id) if items.is_type(id)),
            )?
        } else {
            items.select(&parsed, call, "field", |item| {
                matches!(item, Item::Field(..))
            })?
        };
        for selected in selected {
            model.add_attributes(target, selected.item, selected.value.clone());
        }
    }
    Ok(())
}

/// The structs whose borrowing forms are asked for: `None` for all of them.
fn borrow_roots(options: &Options, items: &Items<'_>) -> Result<Option<Vec<DefId>>, Error> {
    if !options.borrowed {
        return Ok(Some(Vec::new()));
    }
    let Some(paths) = &options.borrowed_types else {
        return Ok(None);
    };
    let selected = items.select(
        paths,
        "borrowed_types",
        "struct, union or exception",
        |item| matches!(item, Item::Definition(id) if items.is_struct(id)),
    )?;
    Ok(Some(definitions(selected).collect()))
}

/// The hasher type as tokens, checked: a type that parses, and only with `Hash` collections.
fn hasher_tokens(options: &Options) -> Result<Option<TokenStream>, Error> {
    let Some(path) = &options.hasher else {
        return Ok(None);
    };
    if options.collections != crate::options::Collections::Hash {
        return Err(Error::Options(format!(
            "the hasher `{path}` needs the `hash` collections (Collections::Hash, \
             `--collections hash`); the `btree` collections have no hasher"
        )));
    }
    match syn::parse_str::<syn::Type>(path) {
        Ok(ty) => Ok(Some(quote::ToTokens::to_token_stream(&ty))),
        Err(e) => Err(Error::Options(format!(
            "the hasher `{path}` is not a Rust type path: {e}"
        ))),
    }
}

/// The diagnostics of the `rust.*` annotations of a checked program (for `check`): unknown
/// keys (warnings), attributes that do not parse and boxes of fields that cannot be boxed
/// (errors).
#[cfg(feature = "cli")]
pub(crate) fn annotation_diagnostics(checked: &Checked) -> Vec<thrift_idl_parser::Diagnostic> {
    let options = Options::default();
    let model = Model::new(
        &checked.program,
        &options,
        quote::quote!(::thrift_runtime),
        None,
        None,
    );
    annotations::read(&model).diagnostics
}
