//! The model of a checked program under the user's [`Options`]: every option naming IDL paths
//! is resolved against the program here (a path that names nothing is an
//! [`Error::Options`]), and the `rust.*` annotations are read.

use std::collections::{BTreeSet, HashMap};

use proc_macro2::TokenStream;
use thrift_idl_parser::{Checked, DefId, FileId};

use super::attributes::{Rule, parse_attributes, segments};
use super::{Model, annotations, keys, mappings, only};
use crate::error::Error;
use crate::options::{MappingChoice, Options};

/// The model for `checked` under `options`, and the warnings of the `rust.*` annotations.
pub(crate) fn configure<'p>(
    checked: &'p Checked,
    options: &'p Options,
) -> Result<(Model<'p>, Vec<thrift_idl_parser::Diagnostic>), Error> {
    let hasher = hasher_tokens(options)?;
    if options.arena && !options.keep_unknown.is_empty() {
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
    let borrow_roots = borrow_roots(options, checked)?;
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
    model.skipped = skipped_fields(options, checked)?;
    model.kept = options
        .only
        .as_ref()
        .map(|paths| only::kept(&checked.program, paths))
        .transpose()?;
    model.externs = extern_files(options, checked)?;
    model.keep_unknown = unknown_keepers(options, &model)?;
    let warnings = apply_annotations(options, checked, &mut model)?;
    if options.arena {
        // Boxed fields are references into the arena: their structs borrow.
        model.assign_borrowing(borrow_roots.as_deref());
    }
    let rules = attribute_rules(options, &model)?;
    model.attributes.extend(rules);
    Ok((model, warnings))
}

/// The files of `Builder::extern_path`, with their Rust paths.
fn extern_files(
    options: &Options,
    checked: &Checked,
) -> Result<HashMap<FileId, TokenStream>, Error> {
    let program = &checked.program;
    options.extern_paths
        .iter()
        .map(|(idl, rust)| {
            let file = program.files_named(idl).next().ok_or_else(|| {
                    Error::Options(format!(
                        "extern_path: `{idl}` names no IDL file that is loaded (the file's name without .thrift)"
                    ))
                })?;
            let path = syn::parse_str::<syn::Path>(rust).map_err(|e| {
                Error::Options(format!("extern_path(\"{idl}\", \"{rust}\"): not a Rust path: {e}"))
            })?;
            Ok((file.id, quote::ToTokens::to_token_stream(&path)))
        })
        .collect()
}

/// Applies the IDL's `rust.*` annotations and [`Builder::boxed`] to the model: boxes, and
/// the IDL's attributes (the builder's are added after them). Returns the annotations' warnings; their
/// errors (a `rust.attr` that does not parse, a `rust.box` on a field that cannot be
/// boxed) are an [`Error::Idl`].
fn apply_annotations(
    options: &Options,
    checked: &Checked,
    model: &mut Model<'_>,
) -> Result<Vec<thrift_idl_parser::Diagnostic>, Error> {
    let from_idl = annotations::read(model);
    let diagnostics = from_idl.diagnostics;
    let mut boxes = from_idl.boxed;
    for path in &options.boxed {
        let (id, index, _) = field_path(checked, "boxed", path)?;
        if !annotations::can_box(model, id, index) {
            return Err(Error::Options(format!(
                "boxed: `{path}` is not a field whose type is a struct, union or exception"
            )));
        }
        boxes.push((id, index));
    }
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
    for path in &options.arena_inline {
        let (id, index, _) = field_path(checked, "arena_inline", path)?;
        if !keys::optional_struct_field(model, id, index) {
            return Err(Error::Options(format!(
                "arena_inline: `{path}` is not an optional field of a struct or exception whose type is a struct, union or exception"
            )));
        }
        if model.is_boxed(id, index) {
            return Err(Error::Options(format!(
                "arena_inline: `{path}` is boxed (asked for, or it breaks a recursion): it stays a reference"
            )));
        }
        model.add_inline(id, index);
    }
    model.attributes = from_idl.attributes;
    let mut rules = from_idl.mappings;
    for (path, choice) in &options.mapping_rules {
        let segments = segments(path);
        if !model.names_fields(&segments) {
            let call = match choice {
                MappingChoice::Strings(_) => "strings_for",
                MappingChoice::Collections(_) => "collections_for",
            };
            return Err(Error::Options(format!(
                "{call}: `{path}` names no field (paths are `.`, `file`, `file.Type`, `file.Type.field`, the file's name without .thrift)"
            )));
        }
        rules.push(mappings::Rule {
            path: segments,
            choice: *choice,
        });
    }
    let mappings = model.field_mappings_of(&rules);
    model.set_field_mappings(mappings);
    Ok(diagnostics)
}

/// The attribute rules, parsed and checked against the program.
fn attribute_rules(options: &Options, model: &Model<'_>) -> Result<Vec<Rule>, Error> {
    options.attributes
        .iter()
        .map(|(target, path, attribute)| {
            let call = target.call();
            let attrs = parse_attributes(attribute).map_err(|e| {
                Error::Options(format!("{call}(\"{path}\", ..): `{attribute}` is not a Rust attribute: {e}"))
            })?;
            let rule = Rule {
                target: *target,
                path: segments(path),
                attrs,
            };
            if !model.rule_matches_something(&rule) {
                return Err(Error::Options(format!(
                    "{call}: `{path}` names no {} (paths are `.`, `file`, `file.Type`{}, the file's name without .thrift)",
                    if target.is_type() { "type" } else { "field" },
                    if target.is_type() { "" } else { ", `file.Type.field`" },
                )));
            }
            Ok(rule)
        })
        .collect()
}

/// The structs whose borrowing forms are asked for: `None` for all of them.
fn borrow_roots(options: &Options, checked: &Checked) -> Result<Option<Vec<DefId>>, Error> {
    if !options.borrowed {
        return Ok(Some(Vec::new()));
    }
    let Some(paths) = &options.borrowed_types else {
        return Ok(None);
    };
    paths
        .iter()
        .map(|path| {
            let (file, name) = path.rsplit_once('.').unwrap_or(("", path));
            find_struct(checked, file, name).ok_or_else(|| {
                Error::Options(format!(
                    "borrowed_types: `{path}` names no struct, union or exception (paths are `file.Type`, the file's name without .thrift)"
                ))
            })
        })
        .collect::<Result<Vec<_>, _>>()
        .map(Some)
}

/// The structs of [`Builder::keep_unknown_fields`].
fn unknown_keepers(options: &Options, model: &Model<'_>) -> Result<BTreeSet<DefId>, Error> {
    let mut out = BTreeSet::new();
    for path in &options.keep_unknown {
        let segments = segments(path);
        let found = model.structs_under(&segments);
        // `.` is every struct there is, also none.
        if found.is_empty() && !segments.is_empty() {
            return Err(Error::Options(format!(
                "keep_unknown_fields: `{path}` names no struct or exception (paths are `.`, `file`, `file.Type`, the file's name without .thrift)"
            )));
        }
        out.extend(found);
    }
    Ok(out)
}

/// The fields of [`Builder::skip_fields`], as (struct, field index).
fn skipped_fields(options: &Options, checked: &Checked) -> Result<BTreeSet<(DefId, usize)>, Error> {
    options.skip_fields
        .iter()
        .map(|path| {
            let (id, index, s) = field_path(checked, "skip_fields", path)?;
            if s.kind == thrift_idl_parser::ast::StructKind::Union {
                return Err(Error::Options(format!(
                    "skip_fields: `{path}` is a field of a union; a union's fields cannot be skipped (the value would have no variant)"
                )));
            }
            Ok((id, index))
        })
        .collect()
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

/// The field `file.Type.field` of a struct, union or exception, for the option `call`: the
/// definition, the field's index, and the struct.
fn field_path<'c>(
    checked: &'c Checked,
    call: &str,
    path: &str,
) -> Result<(DefId, usize, &'c thrift_idl_parser::ast::Struct), Error> {
    let not_found = || {
        Error::Options(format!(
            "{call}: `{path}` names no field of a struct, union or exception (paths are `file.Type.field`, the file's name without .thrift)"
        ))
    };
    let (ty, field) = path.rsplit_once('.').ok_or_else(not_found)?;
    let (file, name) = ty.rsplit_once('.').ok_or_else(not_found)?;
    let id = find_struct(checked, file, name).ok_or_else(not_found)?;
    let thrift_idl_parser::ast::Definition::Struct(s) = checked.program.definition(id) else {
        return Err(not_found());
    };
    let index = s
        .fields
        .iter()
        .position(|f| f.name.name == field)
        .ok_or_else(not_found)?;
    Ok((id, index, s))
}

/// The struct, union or exception `name` of the file whose name without `.thrift` is `file`.
fn find_struct(checked: &Checked, file: &str, name: &str) -> Option<DefId> {
    checked.program.files_named(file).find_map(|f| {
        f.document
            .definitions
            .iter()
            .position(|d| {
                matches!(d, thrift_idl_parser::ast::Definition::Struct(_)) && d.name().name == name
            })
            .map(|index| DefId { file: f.id, index })
    })
}
