//! The IDL's `rust.*` annotations, the in-IDL form of some `Builder` options:
//! - `(rust.box)` on a field: the field is held as `Box<T>` (`Builder::boxed`); its type must
//!   be a struct, union or exception;
//! - `(rust.attr = "#[...]")` on a struct, union, exception or enum, or on a field: attributes
//!   for the owned form (`Builder::type_attribute`, `Builder::field_attribute`);
//! - `(rust.type = "HashMap")` on a struct, union or exception (all its fields) or on a field:
//!   its sets and maps as `HashSet`/`HashMap` (`"BTreeMap"`, `"BTreeSet"`: as `BTree…`), or its
//!   strings and binaries as `"String"` (and `Vec<u8>`), `"ByteString"` (and `Bytes`),
//!   `"CompactString"` (and `Bytes`) (`Builder::collections_for`, `Builder::strings_for`);
//! - `(rust.name = "Name")` on a struct, union, exception, enum, typedef or service, a field
//!   or an enum value: its Rust name instead of the converted IDL name (still made unique).
//!
//! Any other `rust.*` annotation is a located warning; a `rust.attr` that is not an attribute,
//! or a `rust.box` on a field of another type, a located error.

use thrift_idl_parser::ast::{Annotation, Definition};
use thrift_idl_parser::{DefId, Diagnostic};

use proc_macro2::TokenStream;

use super::select::Item;
use super::{Model, Resolved};
use crate::options::{AttributeTarget, MappingChoice};

/// What the annotations of a program ask for.
#[derive(Default)]
pub struct FromIdl {
    /// Fields to box (checked: their types are structs, unions or exceptions).
    pub boxed: Vec<(DefId, usize)>,
    /// `rust.attr`: the owned form's attributes of a type or a field, in program order.
    pub attributes: Vec<(AttributeTarget, Item, TokenStream)>,
    /// `rust.type` choices for a type's fields or a field, in program order (a type's before
    /// its fields').
    pub mappings: Vec<(Item, MappingChoice)>,
    pub diagnostics: Vec<Diagnostic>,
}

const KNOWN: &str = "thrift-codegen reads `rust.name` on definitions, fields and enum values, \
     `rust.box` on fields, and `rust.attr`, `rust.type` on types and fields";

/// Reads every `rust.*` annotation of the program's types and fields.
pub fn read(model: &Model<'_>) -> FromIdl {
    let mut out = FromIdl::default();
    for file in model.program.files() {
        for (index, definition) in file.document.definitions.iter().enumerate() {
            let id = DefId {
                file: file.id,
                index,
            };
            let no_fields: &[thrift_idl_parser::ast::Field] = &[];
            let no_values: &[thrift_idl_parser::ast::EnumValue] = &[];
            let (annotations, fields, values) = match definition {
                Definition::Struct(s) => (&s.annotations, &s.fields[..], no_values),
                Definition::Enum(e) => (&e.annotations, no_fields, &e.values[..]),
                Definition::Typedef(t) => (&t.annotations, no_fields, no_values),
                Definition::Senum(s) => (&s.annotations, no_fields, no_values),
                Definition::Service(s) => (&s.annotations, no_fields, no_values),
                Definition::Const(_) => continue,
            };
            let attributable = matches!(definition, Definition::Struct(_) | Definition::Enum(_));
            let item = Item::Definition(id);
            for annotation in annotations
                .iter()
                .filter(|a| a.key.name.starts_with("rust."))
            {
                match annotation.key.name.as_str() {
                    "rust.name" => out.name(annotation),
                    "rust.attr" if attributable => {
                        out.attribute(AttributeTarget::Type, item, annotation);
                    }
                    "rust.type" if matches!(definition, Definition::Struct(_)) => {
                        out.mapping(item, annotation);
                    }
                    "rust.box" => out.diagnostics.push(Diagnostic::warning(
                        annotation.span,
                        "`rust.box` goes on a field, not on a type",
                    )),
                    key => out.unknown(key, annotation),
                }
            }
            for (field_index, field) in fields.iter().enumerate() {
                let item = Item::Field(id, field_index);
                for annotation in field
                    .annotations
                    .iter()
                    .filter(|a| a.key.name.starts_with("rust."))
                {
                    match annotation.key.name.as_str() {
                        "rust.name" => out.name(annotation),
                        "rust.attr" => out.attribute(AttributeTarget::Field, item, annotation),
                        "rust.type" => out.mapping(item, annotation),
                        "rust.box" if can_box(model, id, field_index) => {
                            out.boxed.push((id, field_index));
                        }
                        "rust.box" => out.diagnostics.push(Diagnostic::error(
                            annotation.span,
                            "`rust.box` needs a field whose type is a struct, union or exception",
                        )),
                        key => out.unknown(key, annotation),
                    }
                }
            }
            for annotation in values
                .iter()
                .flat_map(|v| &v.annotations)
                .filter(|a| a.key.name.starts_with("rust."))
            {
                match annotation.key.name.as_str() {
                    "rust.name" => out.name(annotation),
                    key => out.unknown(key, annotation),
                }
            }
        }
    }
    out
}

impl FromIdl {
    fn attribute(&mut self, target: AttributeTarget, item: Item, annotation: &Annotation) {
        match super::attributes::parse_attributes(&annotation.value) {
            Ok(attrs) => self.attributes.push((target, item, attrs)),
            Err(e) => self.diagnostics.push(Diagnostic::error(
                annotation.span,
                format!(
                    "`rust.attr = \"{}\"` is not a Rust attribute: {e}",
                    annotation.value
                ),
            )),
        }
    }

    /// `rust.name`: read where names are given (`ident::explicit_name`); checked here.
    fn name(&mut self, annotation: &Annotation) {
        if !crate::ident::is_identifier(&annotation.value) {
            self.diagnostics.push(Diagnostic::error(
                annotation.span,
                format!(
                    "`rust.name = \"{}\"` is not a Rust identifier (nor may it be a keyword or raw)",
                    annotation.value
                ),
            ));
        }
    }

    fn mapping(&mut self, item: Item, annotation: &Annotation) {
        match super::mappings::parse_rust_type(&annotation.value) {
            Some(choice) => self.mappings.push((item, choice)),
            None => self.diagnostics.push(Diagnostic::error(
                annotation.span,
                format!(
                    "`rust.type = \"{}\"` is not a type thrift-codegen maps to (one of {})",
                    annotation.value,
                    super::mappings::RUST_TYPES
                ),
            )),
        }
    }

    fn unknown(&mut self, key: &str, annotation: &Annotation) {
        self.diagnostics.push(Diagnostic::warning(
            annotation.key.span,
            format!("unknown annotation `{key}` ({KNOWN})"),
        ));
    }
}

/// Whether field `index` of struct `id` can be held as a `Box` (its type is a struct, union
/// or exception).
pub fn can_box(model: &Model<'_>, id: DefId, index: usize) -> bool {
    let Definition::Struct(s) = model.program.definition(id) else {
        return false;
    };
    matches!(
        model.resolve(id.file, &s.fields[index].ty),
        Resolved::Struct(..)
    )
}
