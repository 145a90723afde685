//! What the IDL says a value is: types, and the fields of structs, of a function's args and
//! result, and of `TApplicationException`.

use thrift_idl_parser::ast::{BaseType, Field, Function, Requiredness, StructKind, Type};
use thrift_idl_parser::{DefId, FileId, Program};

/// A type: from the IDL, a definition named (`--type`), or a base type (the fields of
/// `TApplicationException`).
#[derive(Clone, Copy)]
pub(super) enum Ty<'p> {
    Idl(FileId, &'p Type),
    Def(DefId),
    Base(BaseType),
}

/// A type with typedefs followed.
pub(super) enum Resolved<'p> {
    Base(BaseType),
    Enum(&'p thrift_idl_parser::ast::Enum),
    Senum,
    Struct(DefId),
    List(Ty<'p>),
    Set(Ty<'p>),
    Map(Ty<'p>, Ty<'p>),
}

pub(super) struct FieldSpec<'p> {
    pub(super) id: i16,
    pub(super) name: &'p str,
    pub(super) ty: Ty<'p>,
    pub(super) required: bool,
}

/// The fields of a struct, of a function's args or result, or of `TApplicationException`.
pub(super) struct StructSpec<'p> {
    pub(super) name: String,
    pub(super) union: bool,
    pub(super) fields: Vec<FieldSpec<'p>>,
}

impl<'p> StructSpec<'p> {
    pub(super) fn of(program: &'p Program, id: DefId) -> StructSpec<'p> {
        let s = program.as_struct(id).expect("a struct's id");
        StructSpec {
            name: s.name.name.clone(),
            union: s.kind == StructKind::Union,
            fields: fields(id.file, &s.fields),
        }
    }

    pub(super) fn args(file: FileId, f: &'p Function) -> StructSpec<'p> {
        StructSpec {
            name: format!("{}_args", f.name.name),
            union: false,
            fields: fields(file, &f.params),
        }
    }

    pub(super) fn result(file: FileId, f: &'p Function) -> StructSpec<'p> {
        let mut out = Vec::new();
        if let Some(ty) = &f.return_type {
            out.push(FieldSpec {
                id: 0,
                name: "success",
                ty: Ty::Idl(file, ty),
                required: false,
            });
        }
        out.extend(fields(file, &f.throws).into_iter().map(|mut field| {
            field.required = false;
            field
        }));
        StructSpec {
            name: format!("{}_result", f.name.name),
            union: false,
            fields: out,
        }
    }

    pub(super) fn application() -> StructSpec<'static> {
        StructSpec {
            name: "TApplicationException".into(),
            union: false,
            fields: vec![
                FieldSpec {
                    id: 1,
                    name: "message",
                    ty: Ty::Base(BaseType::String),
                    required: false,
                },
                FieldSpec {
                    id: 2,
                    name: "type",
                    ty: Ty::Base(BaseType::I32),
                    required: false,
                },
            ],
        }
    }
}

fn fields(file: FileId, fields: &[Field]) -> Vec<FieldSpec<'_>> {
    fields
        .iter()
        .map(|f| FieldSpec {
            id: f.id,
            name: &f.name.name,
            ty: Ty::Idl(file, &f.ty),
            required: f.requiredness == Requiredness::Required,
        })
        .collect()
}
