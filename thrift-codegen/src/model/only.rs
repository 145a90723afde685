//! What `Builder::only` keeps: the definitions and service functions its paths select, and
//! everything they reach, nothing else.
//!
//! A definition reaches the definitions its types name (through typedefs and containers),
//! the consts and enums its values name (field defaults, const values), and, for a service,
//! the service it extends (whose items the service's own items name) and the args, result
//! and exception types of each function it keeps. Selecting a service keeps all its functions,
//! inherited ones too; selecting `file.Service.function` alone keeps that function only (with
//! the service, and its ancestors with none of their other functions).

use std::collections::BTreeSet;

use thrift_idl_parser::ast::{ConstValue, ConstValueKind, Definition, Field, Type, TypeKind};
use thrift_idl_parser::{ConstRef, DefId, FileId, Program};

use super::select::Item;

/// The definitions kept, and the service functions kept (declaring service, index in its
/// functions).
#[derive(Debug, Default)]
pub struct Kept {
    pub definitions: BTreeSet<DefId>,
    pub functions: BTreeSet<(DefId, usize)>,
}

/// What `selected` (definitions and service functions that `only`'s paths select) keeps:
/// closed under "reaches".
pub fn kept(program: &Program, selected: impl IntoIterator<Item = Item>) -> Kept {
    let mut kept = Kept::default();
    let mut work = Vec::new();
    for item in selected {
        match item {
            Item::Function {
                service,
                declaring,
                index,
            } => {
                kept.functions.insert((declaring, index));
                work.push(service);
            }
            Item::Definition(id) => {
                let mut current = program.as_service(id).map(|s| (id, s));
                while let Some((declaring, s)) = current {
                    kept.functions
                        .extend((0..s.functions.len()).map(|index| (declaring, index)));
                    current = program.parent_service(declaring, s);
                }
                work.push(id);
            }
            Item::File(_) | Item::Field(..) => {}
        }
    }
    while let Some(id) = work.pop() {
        if !kept.definitions.insert(id) {
            continue;
        }
        let mut reach = Reach {
            program,
            found: &mut work,
        };
        match program.definition(id) {
            Definition::Const(c) => {
                reach.ty(id.file, &c.ty);
                reach.value(id.file, &c.value);
            }
            Definition::Typedef(t) => reach.ty(id.file, &t.ty),
            Definition::Enum(_) | Definition::Senum(_) => {}
            Definition::Struct(s) => reach.fields(id.file, &s.fields),
            Definition::Service(s) => {
                if let Some((parent, _)) = program.parent_service(id, s) {
                    reach.found.push(parent);
                }
                for (index, function) in s.functions.iter().enumerate() {
                    if !kept.functions.contains(&(id, index)) {
                        continue;
                    }
                    if let Some(ty) = &function.return_type {
                        reach.ty(id.file, ty);
                    }
                    reach.fields(id.file, &function.params);
                    reach.fields(id.file, &function.throws);
                }
            }
        }
    }
    kept
}

/// Pushes what types and values name.
struct Reach<'a> {
    program: &'a Program,
    found: &'a mut Vec<DefId>,
}

impl Reach<'_> {
    fn fields(&mut self, file: FileId, fields: &[Field]) {
        for field in fields {
            self.ty(file, &field.ty);
            if let Some(value) = &field.default {
                self.value(file, value);
            }
        }
    }

    fn ty(&mut self, file: FileId, ty: &Type) {
        match &ty.kind {
            TypeKind::Base(_) => {}
            TypeKind::Named(name) => {
                if let Some(id) = self.program.lookup_type(file, &name.name) {
                    self.found.push(id);
                }
            }
            TypeKind::List { element, .. } | TypeKind::Set { element, .. } => {
                self.ty(file, element)
            }
            TypeKind::Map { key, value, .. } => {
                self.ty(file, key);
                self.ty(file, value);
            }
        }
    }

    fn value(&mut self, file: FileId, value: &ConstValue) {
        match &value.kind {
            ConstValueKind::Identifier(name) => match self.program.lookup_const(file, name) {
                Some(ConstRef::Const(id) | ConstRef::EnumValue(id, _)) => self.found.push(id),
                None => {}
            },
            ConstValueKind::List(items) => {
                for item in items {
                    self.value(file, item);
                }
            }
            ConstValueKind::Map(entries) => {
                for (key, value) in entries {
                    self.value(file, key);
                    self.value(file, value);
                }
            }
            _ => {}
        }
    }
}
