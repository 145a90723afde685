//! The typed syntax tree of one Thrift IDL file.
//!
//! Every node owns its [`Span`] (file id and byte range), so the tree outlives the source text
//! and the parser. Doc comments and annotations are kept where the IDL wrote them.

use crate::source::{FileId, Span};

/// A name as written in the IDL, e.g. `Foo`, `shared.SharedStruct` or `Color.RED`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Ident {
    /// The name exactly as written, dots included (`shared.SharedStruct`).
    pub name: String,
    /// Where the name is written.
    pub span: Span,
}

/// A string literal, unescaped.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct StringLiteral {
    /// The text between the quotes, with the escapes Apache knows (`\\ \" \' \n \r \t`) resolved.
    pub value: String,
    /// The literal in the source, quotes included.
    pub span: Span,
}

/// `( key = "value", flag )`. A key without a value gets the value `"1"`, as in Apache Thrift.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Annotation {
    /// The annotation's name (`cpp.type`, `go.tag`…), which may contain dots.
    pub key: Ident,
    /// The value with its escapes resolved; `"1"` when the annotation has none.
    pub value: String,
    /// The whole `key = "value"` entry in the source.
    pub span: Span,
}

/// One parsed `.thrift` file.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Document {
    /// The file in the [`SourceMap`](crate::SourceMap) this document was parsed from.
    pub file: FileId,
    /// The `include`, `cpp_include` and `namespace` lines, in source order.
    pub headers: Vec<Header>,
    /// Every definition that parsed, in source order.
    pub definitions: Vec<Definition>,
    /// Names of definitions left out after syntax errors in them (the parser recovers at the
    /// next definition): references to them are not reported again as unknown.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Vec::is_empty"))]
    pub recovered: Vec<String>,
}

/// A header: a line before the definitions that says where names come from or go to.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum Header {
    /// `include "path/name.thrift"`: that file's definitions are referenced as `name.Foo`.
    Include(Include),
    /// `cpp_include "header.h"`: only meaningful to Apache's C++ generator.
    CppInclude(StringLiteral),
    /// `namespace <scope> <name>`.
    Namespace(Namespace),
}

/// `include "path/name.thrift"`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Include {
    /// The path as written; it is looked up next to the including file, then in the include dirs.
    pub path: StringLiteral,
    /// The whole `include` header in the source.
    pub span: Span,
}

/// `namespace <scope> <name>`; the scope `*` applies to every language without its own.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Namespace {
    /// The language the namespace is for (`rs`, `java`, `py`…), or `*` for every language.
    pub scope: Ident,
    /// The namespace itself, dotted (`com.example.api`).
    pub name: Ident,
    /// The `( … )` annotations after the name.
    pub annotations: Vec<Annotation>,
    /// The whole `namespace` header in the source.
    pub span: Span,
}

/// A top-level definition of a `.thrift` file.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum Definition {
    /// `const <type> NAME = <value>`.
    Const(Const),
    /// `typedef <type> Name`.
    Typedef(Typedef),
    /// `enum Name { … }`.
    Enum(Enum),
    /// Legacy `senum` (a set of strings; removed from Apache Thrift in 0.17).
    Senum(Senum),
    /// A `struct`, `union` or `exception` (see [`Struct::kind`]).
    Struct(Struct),
    /// `service Name [extends Base] { … }`.
    Service(Service),
}

impl Definition {
    /// The name the definition introduces.
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

    /// The whole definition in the source, from its keyword to its closing brace or separator.
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

/// `const <type> NAME = <value>`.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Const {
    /// The declared type of the constant.
    pub ty: Type,
    /// The constant's name, referenced from values as `NAME` or `module.NAME`.
    pub name: Ident,
    /// The value as written; it is checked against `ty` by the semantic checks, not by the parser.
    pub value: ConstValue,
    /// The doc comment before the const, cleaned of its `/** */` or `///` markers; `None` if none.
    pub doc: Option<String>,
    /// The whole definition in the source, trailing `,`/`;` included when written.
    pub span: Span,
}

/// `typedef <type> Name`: another name for a type.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Typedef {
    /// The aliased type.
    pub ty: Type,
    /// The new name, usable wherever a type is (as `module.Name` from other files).
    pub name: Ident,
    /// The `( … )` annotations after the name.
    pub annotations: Vec<Annotation>,
    /// The doc comment before the definition, without its comment markers; `None` if none.
    pub doc: Option<String>,
    /// The whole definition in the source, trailing `,`/`;` included when written.
    pub span: Span,
}

/// `enum Name { A, B = 5, … }`: named `i32` values.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Enum {
    /// The enum's name, a type; its values are referenced as `Name.VALUE`.
    pub name: Ident,
    /// The values in declaration order.
    pub values: Vec<EnumValue>,
    /// The `( … )` annotations after the closing brace.
    pub annotations: Vec<Annotation>,
    /// The doc comment before the definition, without its comment markers; `None` if none.
    pub doc: Option<String>,
    /// The whole definition in the source, from `enum` to the closing brace or annotations.
    pub span: Span,
}

/// One value of an [`Enum`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct EnumValue {
    /// The value's name, referenced from constants as `Enum.NAME`.
    pub name: Ident,
    /// The value: the explicit one, or one more than the previous value (the first is 0).
    pub value: i32,
    /// True when the IDL wrote `= N`; false when the value was assigned implicitly.
    pub explicit: bool,
    /// The `( … )` annotations after the value.
    pub annotations: Vec<Annotation>,
    /// The doc comment before the value, without its comment markers; `None` if none.
    pub doc: Option<String>,
    /// The value in the source, from its name to its annotations or separator.
    pub span: Span,
}

/// Legacy `senum Name { "a", "b" }`: a set of allowed strings.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Senum {
    /// The senum's name, usable as a type (a string).
    pub name: Ident,
    /// The allowed strings in declaration order.
    pub values: Vec<StringLiteral>,
    /// The `( … )` annotations after the closing brace.
    pub annotations: Vec<Annotation>,
    /// The doc comment before the definition, without its comment markers; `None` if none.
    pub doc: Option<String>,
    /// The whole definition in the source, from `senum` to the closing brace or annotations.
    pub span: Span,
}

/// Which keyword introduced a [`Struct`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum StructKind {
    /// `struct`: a record of fields.
    Struct,
    /// `union`: at most one field set at a time.
    Union,
    /// `exception`: a struct that functions can list in `throws`.
    Exception,
}

impl StructKind {
    /// The IDL keyword: `struct`, `union` or `exception`.
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
    /// `struct`, `union` or `exception`.
    pub kind: StructKind,
    /// The type's name, referenced as `Name` or `module.Name`.
    pub name: Ident,
    /// The fields in declaration order.
    pub fields: Vec<Field>,
    /// The `( … )` annotations after the closing brace.
    pub annotations: Vec<Annotation>,
    /// The doc comment before the definition, without its comment markers; `None` if none.
    pub doc: Option<String>,
    /// The whole definition in the source, from its keyword to the closing brace or annotations.
    pub span: Span,
}

/// A field's `required` / `optional` keyword, or its absence.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum Requiredness {
    /// `required`: always written; missing on read is an error.
    Required,
    /// `optional`: written only when set.
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

/// A field of a struct, union or exception, a function parameter, or a `throws` entry.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Field {
    /// The field id (`1:`), or the negative id Apache assigns (-1, -2, … in order) when none or a
    /// non-positive one is written; see `id_kind` (0 when the written id is out of range).
    pub id: i16,
    /// How `id` was obtained: written, implicit, replaced or out of range.
    pub id_kind: FieldIdKind,
    /// The `required` / `optional` keyword, if any (`optional` in an argument list is ignored with
    /// a warning and gives [`Requiredness::Default`]).
    pub requiredness: Requiredness,
    /// The field's type (an exception for a `throws` entry).
    pub ty: Type,
    /// The field's name; Thrift keywords are allowed here.
    pub name: Ident,
    /// The default after `=` (`1: i32 x = 5`); `None` when none is written.
    pub default: Option<ConstValue>,
    /// `&` after the type: a C++ reference field (Apache's `cpp.ref`).
    pub reference: bool,
    /// The `( … )` annotations after the field.
    pub annotations: Vec<Annotation>,
    /// The doc comment before the field, without its comment markers; `None` if none.
    pub doc: Option<String>,
    /// The whole field in the source, from its id (or type) to its annotations or separator.
    pub span: Span,
}

/// `service Name [extends Base] { … }`.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Service {
    /// The service's name, which other services may name after `extends`.
    pub name: Ident,
    /// The service named after `extends` (`Base` or `module.Base`); `None` without `extends`.
    pub extends: Option<Ident>,
    /// The functions in declaration order.
    pub functions: Vec<Function>,
    /// The `( … )` annotations after the closing brace.
    pub annotations: Vec<Annotation>,
    /// The doc comment before the definition, without its comment markers; `None` if none.
    pub doc: Option<String>,
    /// The whole definition in the source, from `service` to the closing brace or annotations.
    pub span: Span,
}

/// A function of a [`Service`]: `[oneway] <type> name(<params>) [throws (<exceptions>)]`.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Function {
    /// The function's name, which is also the method name in messages on the wire.
    pub name: Ident,
    /// True for `oneway` (or the deprecated `async`): no reply is sent, not even an exception.
    pub oneway: bool,
    /// `None` for `void`.
    pub return_type: Option<Type>,
    /// The parameters in declaration order, as fields (with ids).
    pub params: Vec<Field>,
    /// The `throws ( … )` entries, each a field whose type is an exception; empty without `throws`.
    pub throws: Vec<Field>,
    /// The `( … )` annotations after the function.
    pub annotations: Vec<Annotation>,
    /// The doc comment before the function, without its comment markers; `None` if none.
    pub doc: Option<String>,
    /// The whole function in the source, from `oneway` or its return type to its annotations or
    /// separator.
    pub span: Span,
}

/// A built-in scalar type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum BaseType {
    /// `bool`.
    Bool,
    /// `i8`, or its alias `byte`.
    I8,
    /// `i16`.
    I16,
    /// `i32`.
    I32,
    /// `i64`.
    I64,
    /// `double`: a 64-bit float.
    Double,
    /// `string`: UTF-8 text.
    String,
    /// `binary`: arbitrary bytes (the same wire type as `string`).
    Binary,
    /// `uuid`: 16 bytes.
    Uuid,
    /// Legacy `slist`, a string.
    Slist,
}

impl BaseType {
    /// The IDL keyword (`i8` for `byte` too).
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

/// A type as written at a use site (field, const, typedef, return type, container element).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Type {
    /// Base, named or container type.
    pub kind: TypeKind,
    /// The `( … )` annotations right after a base or container type (`string (foo = "x")`).
    pub annotations: Vec<Annotation>,
    /// The type in the source, annotations included.
    pub span: Span,
}

/// The shape of a [`Type`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum TypeKind {
    /// A built-in type: `bool`, `i32`, `string`, …
    Base(BaseType),
    /// A reference to a typedef, enum, struct, union or exception: `Foo` or `module.Foo`.
    Named(Ident),
    /// `list<T>`.
    List {
        /// The element type.
        element: Box<Type>,
        /// Apache's `cpp_type "…"` override for the C++ container, if written.
        cpp_type: Option<String>,
    },
    /// `set<T>`.
    Set {
        /// The element type.
        element: Box<Type>,
        /// Apache's `cpp_type "…"` override for the C++ container, if written.
        cpp_type: Option<String>,
    },
    /// `map<K, V>`.
    Map {
        /// The key type.
        key: Box<Type>,
        /// The value type.
        value: Box<Type>,
        /// Apache's `cpp_type "…"` override for the C++ container, if written.
        cpp_type: Option<String>,
    },
}

/// A constant value: of a `const`, a field default, or nested in a list or map constant.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ConstValue {
    /// The literal, reference or container.
    pub kind: ConstValueKind,
    /// The value in the source (the whole `[ … ]` or `{ … }` for containers).
    pub span: Span,
}

/// The shape of a [`ConstValue`], as written (not yet checked against a type).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum ConstValueKind {
    /// An integer literal, decimal or `0x` hex, with optional sign (0 after an out-of-range error).
    Int(i64),
    /// A floating-point literal (one with a `.` or an exponent).
    Double(f64),
    /// `true` or `false` (Apache reads them as the integers 1 and 0).
    Bool(bool),
    /// A string literal, its escapes resolved.
    String(String),
    /// A reference to a const or an enum value: `MAX`, `Color.RED`, `module.Color.RED`.
    Identifier(String),
    /// `[a, b, …]`, in source order.
    List(Vec<ConstValue>),
    /// `{k: v, …}` entries in source order, duplicates kept.
    Map(Vec<(ConstValue, ConstValue)>),
}
