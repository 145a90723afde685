//! The typed syntax tree of one Thrift IDL file.
//!
//! Every node owns its [`Span`] (file id and byte range), so the tree outlives the source text
//! and the parser. Doc comments and annotations are kept where the IDL wrote them.

use crate::source::{FileId, Span};

/// A name as written in the IDL, e.g. `Foo`, `shared.SharedStruct` or `Color.RED`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

/// A string literal, unescaped.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct StringLiteral {
    pub value: String,
    pub span: Span,
}

/// `( key = "value", flag )`. A key without a value gets the value `"1"`, as in Apache Thrift.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Annotation {
    pub key: Ident,
    pub value: String,
    pub span: Span,
}

/// One parsed `.thrift` file.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Document {
    pub file: FileId,
    pub headers: Vec<Header>,
    pub definitions: Vec<Definition>,
    /// Names of definitions left out after syntax errors in them (the parser recovers at the
    /// next definition): references to them are not reported again as unknown.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Vec::is_empty"))]
    pub recovered: Vec<String>,
}

#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum Header {
    Include(Include),
    CppInclude(StringLiteral),
    Namespace(Namespace),
}

#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Include {
    pub path: StringLiteral,
    pub span: Span,
}

/// `namespace <scope> <name>`; the scope `*` applies to every language without its own.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Namespace {
    pub scope: Ident,
    pub name: Ident,
    pub annotations: Vec<Annotation>,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum Definition {
    Const(Const),
    Typedef(Typedef),
    Enum(Enum),
    /// Legacy `senum` (a set of strings; removed from Apache Thrift in 0.17).
    Senum(Senum),
    Struct(Struct),
    Service(Service),
}

impl Definition {
    pub fn name(&self) -> &Ident {
        match self {
            Definition::Const(d) => &d.name,
            Definition::Typedef(d) => &d.name,
            Definition::Enum(d) => &d.name,
            Definition::Senum(d) => &d.name,
            Definition::Struct(d) => &d.name,
            Definition::Service(d) => &d.name,
        }
    }

    pub fn span(&self) -> Span {
        match self {
            Definition::Const(d) => d.span,
            Definition::Typedef(d) => d.span,
            Definition::Enum(d) => d.span,
            Definition::Senum(d) => d.span,
            Definition::Struct(d) => d.span,
            Definition::Service(d) => d.span,
        }
    }

    /// What the definition is, as the IDL says it: `struct`, `enum`, `service`…
    pub fn keyword(&self) -> &'static str {
        match self {
            Definition::Const(_) => "const",
            Definition::Typedef(_) => "typedef",
            Definition::Enum(_) => "enum",
            Definition::Senum(_) => "senum",
            Definition::Struct(s) => s.kind.keyword(),
            Definition::Service(_) => "service",
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Const {
    pub ty: Type,
    pub name: Ident,
    pub value: ConstValue,
    pub doc: Option<String>,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Typedef {
    pub ty: Type,
    pub name: Ident,
    pub annotations: Vec<Annotation>,
    pub doc: Option<String>,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Enum {
    pub name: Ident,
    pub values: Vec<EnumValue>,
    pub annotations: Vec<Annotation>,
    pub doc: Option<String>,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct EnumValue {
    pub name: Ident,
    /// The value: the explicit one, or one more than the previous value (the first is 0).
    pub value: i32,
    pub explicit: bool,
    pub annotations: Vec<Annotation>,
    pub doc: Option<String>,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Senum {
    pub name: Ident,
    pub values: Vec<StringLiteral>,
    pub annotations: Vec<Annotation>,
    pub doc: Option<String>,
    pub span: Span,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum StructKind {
    Struct,
    Union,
    Exception,
}

impl StructKind {
    pub fn keyword(self) -> &'static str {
        match self {
            StructKind::Struct => "struct",
            StructKind::Union => "union",
            StructKind::Exception => "exception",
        }
    }
}

/// A `struct`, `union` or `exception`.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Struct {
    pub kind: StructKind,
    pub name: Ident,
    pub fields: Vec<Field>,
    pub annotations: Vec<Annotation>,
    pub doc: Option<String>,
    pub span: Span,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum Requiredness {
    Required,
    Optional,
    /// Neither keyword: Apache's "optional in, required out".
    Default,
}

/// How a field got its id.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum FieldIdKind {
    /// Written in the IDL as a positive number.
    Explicit,
    /// No id written: assigned -1, -2, … in order, as Apache Thrift does (with a warning).
    Implicit,
    /// A non-positive id was written; Apache Thrift ignores it and auto-assigns, and so do we.
    Replaced,
    /// The id written does not fit in an i16: an error was reported and `id` is meaningless.
    OutOfRange,
}

#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Field {
    pub id: i16,
    pub id_kind: FieldIdKind,
    pub requiredness: Requiredness,
    pub ty: Type,
    pub name: Ident,
    pub default: Option<ConstValue>,
    /// `&` after the type: a C++ reference field (Apache's `cpp.ref`).
    pub reference: bool,
    pub annotations: Vec<Annotation>,
    pub doc: Option<String>,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Service {
    pub name: Ident,
    pub extends: Option<Ident>,
    pub functions: Vec<Function>,
    pub annotations: Vec<Annotation>,
    pub doc: Option<String>,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Function {
    pub name: Ident,
    pub oneway: bool,
    /// `None` for `void`.
    pub return_type: Option<Type>,
    pub params: Vec<Field>,
    pub throws: Vec<Field>,
    pub annotations: Vec<Annotation>,
    pub doc: Option<String>,
    pub span: Span,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum BaseType {
    Bool,
    /// `i8`, or its alias `byte`.
    I8,
    I16,
    I32,
    I64,
    Double,
    String,
    Binary,
    Uuid,
    /// Legacy `slist`, a string.
    Slist,
}

impl BaseType {
    pub fn keyword(self) -> &'static str {
        match self {
            BaseType::Bool => "bool",
            BaseType::I8 => "i8",
            BaseType::I16 => "i16",
            BaseType::I32 => "i32",
            BaseType::I64 => "i64",
            BaseType::Double => "double",
            BaseType::String => "string",
            BaseType::Binary => "binary",
            BaseType::Uuid => "uuid",
            BaseType::Slist => "slist",
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Type {
    pub kind: TypeKind,
    pub annotations: Vec<Annotation>,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum TypeKind {
    Base(BaseType),
    /// A reference to a typedef, enum, struct, union or exception: `Foo` or `module.Foo`.
    Named(Ident),
    List {
        element: Box<Type>,
        cpp_type: Option<String>,
    },
    Set {
        element: Box<Type>,
        cpp_type: Option<String>,
    },
    Map {
        key: Box<Type>,
        value: Box<Type>,
        cpp_type: Option<String>,
    },
}

#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ConstValue {
    pub kind: ConstValueKind,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum ConstValueKind {
    Int(i64),
    Double(f64),
    /// `true` or `false` (Apache reads them as the integers 1 and 0).
    Bool(bool),
    String(String),
    /// A reference to a const or an enum value: `MAX`, `Color.RED`, `module.Color.RED`.
    Identifier(String),
    List(Vec<ConstValue>),
    Map(Vec<(ConstValue, ConstValue)>),
}
