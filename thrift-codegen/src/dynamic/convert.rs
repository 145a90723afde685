//! The converter between the value model and JSON: the IDL's types resolved, named and
//! mapped to wire types.

use thrift_idl_parser::Program;
use thrift_idl_parser::ast::{BaseType, Definition, TypeKind};
use thrift_runtime::TType;

use super::error::{Error, error};
use super::protocol::Protocol;
use super::schema::{Resolved, Ty};

pub(super) struct Convert<'p> {
    pub(super) program: &'p Program,
    /// The JSON protocol carries a binary as base64 text.
    pub(super) base64: bool,
}

impl<'p> Convert<'p> {
    pub(super) fn new(program: &'p Program, protocol: Protocol) -> Convert<'p> {
        Convert {
            program,
            base64: protocol == Protocol::Json,
        }
    }

    pub(super) fn resolve(&self, ty: Ty<'p>) -> Result<Resolved<'p>, Error> {
        let (mut file, mut ty) = match ty {
            Ty::Base(b) => return Ok(Resolved::Base(b)),
            Ty::Idl(file, ty) => (file, ty),
            Ty::Def(id) => match self.program.definition(id) {
                Definition::Typedef(t) => (id.file, &t.ty),
                Definition::Enum(e) => return Ok(Resolved::Enum(e)),
                Definition::Senum(_) => return Ok(Resolved::Senum),
                Definition::Struct(_) => return Ok(Resolved::Struct(id)),
                d => return Err(error(format!("`{}` is not a type", d.name().name))),
            },
        };
        // Typedef chains of a checked program are acyclic; the bound guards others.
        for _ in 0..1000 {
            return Ok(match &ty.kind {
                TypeKind::Base(b) => Resolved::Base(*b),
                TypeKind::List { element, .. } => Resolved::List(Ty::Idl(file, element)),
                TypeKind::Set { element, .. } => Resolved::Set(Ty::Idl(file, element)),
                TypeKind::Map { key, value, .. } => {
                    Resolved::Map(Ty::Idl(file, key), Ty::Idl(file, value))
                }
                TypeKind::Named(name) => {
                    let id = self
                        .program
                        .lookup_type(file, &name.name)
                        .ok_or_else(|| error(format!("unknown type `{}`", name.name)))?;
                    match self.program.definition(id) {
                        Definition::Typedef(t) => {
                            (file, ty) = (id.file, &t.ty);
                            continue;
                        }
                        Definition::Enum(e) => Resolved::Enum(e),
                        Definition::Senum(_) => Resolved::Senum,
                        Definition::Struct(_) => Resolved::Struct(id),
                        _ => return Err(error(format!("`{}` is not a type", name.name))),
                    }
                }
            });
        }
        Err(error("typedefs nest too deep"))
    }

    /// How an error names a type.
    pub(super) fn describe(&self, ty: Ty<'p>) -> String {
        match ty {
            Ty::Base(b) => b.keyword().into(),
            Ty::Def(id) => format!("`{}`", self.program.definition(id).name().name),
            Ty::Idl(_, ty) => match &ty.kind {
                TypeKind::Base(b) => b.keyword().into(),
                TypeKind::Named(name) => format!("`{}`", name.name),
                TypeKind::List { .. } => "a list".into(),
                TypeKind::Set { .. } => "a set".into(),
                TypeKind::Map { .. } => "a map".into(),
            },
        }
    }

    pub(super) fn ttype(&self, ty: Ty<'p>) -> Result<TType, Error> {
        Ok(match self.resolve(ty)? {
            Resolved::Base(b) => base_ttype(b),
            Resolved::Enum(_) => TType::I32,
            Resolved::Senum => TType::String,
            Resolved::Struct(_) => TType::Struct,
            Resolved::List(_) => TType::List,
            Resolved::Set(_) => TType::Set,
            Resolved::Map(..) => TType::Map,
        })
    }
}

fn base_ttype(b: BaseType) -> TType {
    match b {
        BaseType::Bool => TType::Bool,
        BaseType::I8 => TType::I8,
        BaseType::I16 => TType::I16,
        BaseType::I32 => TType::I32,
        BaseType::I64 => TType::I64,
        BaseType::Double => TType::Double,
        BaseType::String | BaseType::Binary | BaseType::Slist => TType::String,
        BaseType::Uuid => TType::Uuid,
    }
}
