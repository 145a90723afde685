//! The parts of a program that IDL paths name ([`Item`]), each with its path, and what the
//! paths of an option select among them ([`Items::select`]; the rule is
//! [`PathMap`]'s).

use std::collections::{BTreeSet, HashMap};

use thrift_idl_parser::ast::{Definition, StructKind};
use thrift_idl_parser::{DefId, FileId, Program};

use crate::error::Error;
use crate::path_map::{PathMap, selects};

/// A part of the program that an IDL path names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Item {
    /// An IDL file: `file`.
    File(FileId),
    /// A definition: `file.Definition`.
    Definition(DefId),
    /// Field `index` of a struct, union or exception: `file.Type.field`.
    Field(DefId, usize),
    /// A function of service `service`, declared as function `index` of `declaring` (the
    /// service itself or one it extends): `file.Service.function`.
    Function {
        service: DefId,
        declaring: DefId,
        index: usize,
    },
}

/// Every part of a program that a path can name, in program order, with the names that make
/// its path.
pub struct Items<'p> {
    program: &'p Program,
    /// Every file's name without `.thrift`.
    stems: HashMap<FileId, String>,
    /// Each item with the definition's and the member's name, when it has them.
    items: Vec<(Item, Option<&'p str>, Option<&'p str>)>,
}

/// Every file's name without `.thrift`: its first segment in IDL paths.
pub fn file_stems(program: &Program) -> HashMap<FileId, String> {
    program
        .files()
        .map(|file| {
            let stem = program.sources.path(file.id).file_stem();
            let stem = stem.map_or_else(String::new, |s| s.to_string_lossy().into_owned());
            (file.id, stem)
        })
        .collect()
}

impl<'p> Items<'p> {
    /// The files, definitions, fields of structs, unions and exceptions, and functions of
    /// services (inherited ones under the inheriting service too, unless it declares one of
    /// that name) of `program`.
    pub fn of(program: &'p Program) -> Items<'p> {
        let mut items = Vec::new();
        for file in program.files() {
            items.push((Item::File(file.id), None, None));
            for (index, definition) in file.document.definitions.iter().enumerate() {
                let id = DefId {
                    file: file.id,
                    index,
                };
                let name = Some(definition.name().name.as_str());
                items.push((Item::Definition(id), name, None));
                match definition {
                    Definition::Struct(s) => {
                        for (index, field) in s.fields.iter().enumerate() {
                            let member = Some(field.name.name.as_str());
                            items.push((Item::Field(id, index), name, member));
                        }
                    }
                    Definition::Service(s) => {
                        let mut seen = BTreeSet::new();
                        let mut current = Some((id, s));
                        while let Some((declaring, s)) = current {
                            for (index, function) in s.functions.iter().enumerate() {
                                let member = function.name.name.as_str();
                                if seen.insert(member) {
                                    let function = Item::Function {
                                        service: id,
                                        declaring,
                                        index,
                                    };
                                    items.push((function, name, Some(member)));
                                }
                            }
                            current = program.parent_service(declaring, s);
                        }
                    }
                    _ => {}
                }
            }
        }
        Items {
            program,
            stems: file_stems(program),
            items,
        }
    }

    /// The file of an item.
    fn file(item: Item) -> FileId {
        match item {
            Item::File(file) => file,
            Item::Definition(id) | Item::Field(id, _) | Item::Function { service: id, .. } => {
                id.file
            }
        }
    }

    /// For each entry of `map` in order, the items that its path selects and `takes` accepts
    /// (in program order), with the entry's path and value. An entry that selects none is an
    /// [`Error::Options`]: `{option}: `{path}` names no {what}` (but `.`).
    pub fn select<'m, T>(
        &self,
        map: &'m PathMap<T>,
        option: &str,
        what: &str,
        takes: impl Fn(Item) -> bool,
    ) -> Result<Vec<Selected<'m, T>>, Error> {
        let mut out = Vec::new();
        for (path, value) in map.iter() {
            let before = out.len();
            for &(item, definition, member) in &self.items {
                let stem = self.stems[&Items::file(item)].as_str();
                let segments = [stem, definition.unwrap_or(""), member.unwrap_or("")];
                let len = 1 + usize::from(definition.is_some()) + usize::from(member.is_some());
                if selects(path, &segments[..len]) && takes(item) {
                    out.push(Selected { item, path, value });
                }
            }
            if out.len() == before && !path.is_empty() {
                return Err(Error::Options(format!(
                    "{option}: `{path}` names no {what} (paths are `.`, `file`, \
                     `file.Definition`, `file.Definition.member`, the file's name without \
                     .thrift; each selects what it names and what is inside it)"
                )));
            }
        }
        Ok(out)
    }

    /// Whether `id` is a struct or an exception (not a union).
    pub fn is_struct_or_exception(&self, id: DefId) -> bool {
        matches!(self.program.definition(id), Definition::Struct(s) if s.kind != StructKind::Union)
    }

    /// Whether `id` is a struct, union or exception.
    pub fn is_struct(&self, id: DefId) -> bool {
        matches!(self.program.definition(id), Definition::Struct(_))
    }

    /// Whether `id` is a struct, union, exception or enum: a type that attributes go on.
    pub fn is_type(&self, id: DefId) -> bool {
        matches!(
            self.program.definition(id),
            Definition::Struct(_) | Definition::Enum(_)
        )
    }
}

/// One item an option's path selects, with that path and its value.
pub struct Selected<'m, T> {
    pub item: Item,
    pub path: &'m str,
    pub value: &'m T,
}
