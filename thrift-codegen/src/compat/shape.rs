//! Types with typedefs followed, compared as generated Rust and as the wire sees them.

use thrift_idl_parser::ast::{BaseType, Definition, Type, TypeKind};
use thrift_idl_parser::{FileId, Program};

/// A type with typedefs followed: what generated Rust names (`Named` keeps the definition's
/// name and kind).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Shape {
    Base(BaseType),
    Enum(String),
    Senum,
    Struct(String),
    List(Box<Shape>),
    Set(Box<Shape>),
    Map(Box<Shape>, Box<Shape>),
    /// A name that does not resolve (the program has errors).
    Unknown(String),
}

impl Shape {
    pub(super) fn of(program: &Program, file: FileId, ty: &Type) -> Shape {
        Shape::resolve(program, file, ty, 0)
    }

    fn resolve(program: &Program, file: FileId, ty: &Type, depth: usize) -> Shape {
        match &ty.kind {
            TypeKind::Base(b) => Shape::Base(*b),
            TypeKind::List { element, .. } => {
                Shape::List(Box::new(Shape::resolve(program, file, element, depth)))
            }
            TypeKind::Set { element, .. } => {
                Shape::Set(Box::new(Shape::resolve(program, file, element, depth)))
            }
            TypeKind::Map { key, value, .. } => Shape::Map(
                Box::new(Shape::resolve(program, file, key, depth)),
                Box::new(Shape::resolve(program, file, value, depth)),
            ),
            TypeKind::Named(name) => {
                let Some(id) = program.lookup_type(file, &name.name) else {
                    return Shape::Unknown(name.name.clone());
                };
                match program.definition(id) {
                    // Typedef chains are acyclic in checked programs; the bound guards others.
                    Definition::Typedef(t) if depth < 100 => {
                        Shape::resolve(program, id.file, &t.ty, depth + 1)
                    }
                    Definition::Enum(e) => Shape::Enum(e.name.name.clone()),
                    Definition::Senum(_) => Shape::Senum,
                    Definition::Struct(s) => Shape::Struct(s.name.name.clone()),
                    _ => Shape::Unknown(name.name.clone()),
                }
            }
        }
    }

    /// What the wire carries: strings and binaries alike, enums as `i32`, any struct as a
    /// struct (its own fields are compared where it is defined).
    pub(super) fn wire(&self) -> String {
        match self {
            Shape::Base(BaseType::String | BaseType::Binary | BaseType::Slist) | Shape::Senum => {
                "string".into()
            }
            Shape::Base(BaseType::I32) | Shape::Enum(_) => "i32".into(),
            Shape::Base(b) => b.keyword().into(),
            Shape::Struct(_) => "struct".into(),
            Shape::List(e) => format!("list<{}>", e.wire()),
            Shape::Set(e) => format!("set<{}>", e.wire()),
            Shape::Map(k, v) => format!("map<{},{}>", k.wire(), v.wire()),
            Shape::Unknown(name) => name.clone(),
        }
    }

    pub(super) fn describe(&self) -> String {
        match self {
            Shape::Base(b) => b.keyword().into(),
            Shape::Enum(name) | Shape::Struct(name) | Shape::Unknown(name) => name.clone(),
            Shape::Senum => "senum".into(),
            Shape::List(e) => format!("list<{}>", e.describe()),
            Shape::Set(e) => format!("set<{}>", e.describe()),
            Shape::Map(k, v) => format!("map<{}, {}>", k.describe(), v.describe()),
        }
    }
}
