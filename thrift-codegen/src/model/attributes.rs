//! Attributes the user adds to generated items (`Builder::type_attribute` and kin), by IDL
//! path: `.` for everything, `file` for a file's definitions, `file.Type` for one type,
//! `file.Type.field` for one field (`file` is the file's name without `.thrift`). A rule
//! applies to every item its path is a prefix of, in the order the rules were given.

use proc_macro2::TokenStream;
use thrift_idl_parser::DefId;
use thrift_idl_parser::ast::Definition;

use super::Model;

use crate::options::AttributeTarget;

/// One `type_attribute`-like call.
#[derive(Clone, Debug)]
pub struct Rule {
    pub target: AttributeTarget,
    /// The path's segments; empty for `.`.
    pub path: Vec<String>,
    pub attrs: TokenStream,
}

/// Parses one or more outer attributes (`#[...]`) into tokens.
pub fn parse_attributes(text: &str) -> syn::Result<TokenStream> {
    use syn::parse::Parser;
    let attrs = syn::Attribute::parse_outer.parse_str(text)?;
    if attrs.is_empty() {
        return Err(syn::Error::new(
            proc_macro2::Span::call_site(),
            "expected `#[...]`",
        ));
    }
    Ok(attrs.iter().map(quote::ToTokens::to_token_stream).collect())
}

/// Splits an IDL path into segments: `.` is the empty path.
pub fn segments(path: &str) -> Vec<String> {
    if path == "." || path.is_empty() {
        return Vec::new();
    }
    let path = path.strip_prefix('.').unwrap_or(path);
    path.split('.').map(str::to_string).collect()
}

pub fn is_prefix(rule: &[String], item: &[&str]) -> bool {
    rule.len() <= item.len() && rule.iter().zip(item).all(|(a, b)| a == b)
}

impl Model<'_> {
    fn file_stem(&self, id: DefId) -> &str {
        self.stem(id.file)
    }

    /// `[file, Type]`: the path of a definition, as rules and annotations name it.
    pub fn type_path(&self, id: DefId) -> Vec<String> {
        vec![
            self.file_stem(id).to_string(),
            self.program.definition(id).name().name.clone(),
        ]
    }

    fn matching(&self, target: AttributeTarget, item: &[&str]) -> TokenStream {
        self.attributes
            .iter()
            .filter(|rule| rule.target == target && is_prefix(&rule.path, item))
            .map(|rule| rule.attrs.clone())
            .collect()
    }

    /// The user's attributes for the owned (`borrowed == false`) or borrowing form of a type.
    pub fn type_attrs(&self, id: DefId, borrowed: bool) -> TokenStream {
        if self.attributes.is_empty() {
            return TokenStream::new();
        }
        let stem = self.file_stem(id);
        let name = &self.program.definition(id).name().name;
        let target = if borrowed {
            AttributeTarget::RefType
        } else {
            AttributeTarget::Type
        };
        self.matching(target, &[stem, name])
    }

    /// The user's attributes for field `index` of a struct, union or exception.
    pub fn field_attrs(&self, id: DefId, index: usize, borrowed: bool) -> TokenStream {
        if self.attributes.is_empty() {
            return TokenStream::new();
        }
        let Definition::Struct(s) = self.program.definition(id) else {
            return TokenStream::new();
        };
        let stem = self.file_stem(id);
        let target = if borrowed {
            AttributeTarget::RefField
        } else {
            AttributeTarget::Field
        };
        self.matching(target, &[stem, &s.name.name, &s.fields[index].name.name])
    }

    /// The structs and exceptions (not unions) under an IDL path (`.`, `file`, `file.Type`).
    pub fn structs_under(&self, path: &[String]) -> Vec<DefId> {
        use thrift_idl_parser::ast::StructKind;
        self.program
            .files()
            .flat_map(|file| {
                file.document
                    .definitions
                    .iter()
                    .enumerate()
                    .filter_map(move |(index, d)| match d {
                        Definition::Struct(s) if s.kind != StructKind::Union => Some(DefId {
                            file: file.id,
                            index,
                        }),
                        _ => None,
                    })
            })
            .filter(|&id| {
                let item = self.type_path(id);
                let item: Vec<&str> = item.iter().map(String::as_str).collect();
                is_prefix(path, &item)
            })
            .collect()
    }

    /// Whether a rule's path names anything it could apply to (a typo is an error).
    pub fn rule_matches_something(&self, rule: &Rule) -> bool {
        self.program.files().any(|file| {
            file.document
                .definitions
                .iter()
                .enumerate()
                .any(|(index, d)| {
                    let id = DefId {
                        file: file.id,
                        index,
                    };
                    let stem = self.file_stem(id);
                    match (rule.target, d) {
                        (
                            AttributeTarget::Type | AttributeTarget::RefType,
                            Definition::Struct(_) | Definition::Enum(_),
                        ) => is_prefix(&rule.path, &[stem, &d.name().name]),
                        (
                            AttributeTarget::Field | AttributeTarget::RefField,
                            Definition::Struct(s),
                        ) => s
                            .fields
                            .iter()
                            .any(|f| is_prefix(&rule.path, &[stem, &s.name.name, &f.name.name])),
                        _ => false,
                    }
                })
        })
    }
}
