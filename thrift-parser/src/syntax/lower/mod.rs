//! Lowering: pest pairs to AST nodes, one `lower_<rule>` function per grammar rule.
//!
//! Lowering also reports what the grammar accepts but Apache Thrift does not (literal overflow,
//! field ids outside i16, enum values outside i32, constructs of other dialects) and what Apache
//! accepts with a warning (implicit field ids, legacy `senum`/`slist`, `async`).

mod values;

use pest::iterators::Pair;

use super::docs::DocComments;
use crate::ast::*;
use crate::diagnostic::Diagnostic;
use crate::source::{FileId, Span};
use crate::syntax::grammar::Rule;

pub(crate) struct Lowering<'i> {
    file: FileId,
    text: &'i str,
    docs: DocComments,
    diagnostics: Vec<Diagnostic>,
}

/// Words Apache's lexer turns into tokens, so they are never identifiers (field names may be
/// some of them: see `field_name_keyword` in the grammar).
fn is_reserved(word: &str) -> bool {
    matches!(
        word,
        "namespace"
            | "cpp_include"
            | "include"
            | "void"
            | "bool"
            | "byte"
            | "i8"
            | "i16"
            | "i32"
            | "i64"
            | "double"
            | "string"
            | "binary"
            | "uuid"
            | "map"
            | "list"
            | "set"
            | "oneway"
            | "async"
            | "typedef"
            | "struct"
            | "union"
            | "exception"
            | "extends"
            | "throws"
            | "service"
            | "enum"
            | "const"
            | "required"
            | "optional"
            | "true"
            | "false"
            | "cpp_type"
            | "xsd_all"
            | "xsd_optional"
            | "xsd_nillable"
            | "xsd_attrs"
            | "slist"
            | "senum"
    )
}

/// Which list of fields is being lowered: it changes what `optional` means.
#[derive(Clone, Copy, PartialEq, Eq)]
enum FieldList {
    Struct,
    Arguments,
    Throws,
}

/// The children of a pair that carry meaning: doc comments (claimed separately) and keywords
/// that only mark syntax are left out.
fn children<'i>(pair: Pair<'i, Rule>) -> impl Iterator<Item = Pair<'i, Rule>> {
    pair.into_inner().filter(|p| {
        !matches!(
            p.as_rule(),
            Rule::COMMENT
                | Rule::doc_block
                | Rule::doc_line
                | Rule::kw_include
                | Rule::kw_cpp_include
                | Rule::kw_namespace
                | Rule::kw_const
                | Rule::kw_typedef
                | Rule::kw_enum
                | Rule::kw_senum
                | Rule::kw_struct
                | Rule::kw_union
                | Rule::kw_exception
                | Rule::kw_service
                | Rule::kw_extends
                | Rule::kw_throws
                | Rule::kw_void
                | Rule::kw_xsd_all
                | Rule::kw_xsd_optional
                | Rule::kw_xsd_nillable
                | Rule::kw_xsd_attrs
                | Rule::kw_cpp_type
                | Rule::kw_map
                | Rule::kw_set
                | Rule::kw_list
                | Rule::kw_package
                | Rule::kw_interaction
                | Rule::kw_performs
                | Rule::kw_stream
        )
    })
}

impl<'i> Lowering<'i> {
    pub(crate) fn new(file: FileId, text: &'i str, document: Pair<'i, Rule>) -> Lowering<'i> {
        Lowering {
            file,
            text,
            docs: DocComments::collect(document),
            diagnostics: Vec::new(),
        }
    }

    pub(crate) fn into_diagnostics(self) -> Vec<Diagnostic> {
        self.diagnostics
    }

    fn span(&self, pair: &Pair<'_, Rule>) -> Span {
        let s = pair.as_span();
        Span::new(self.file, s.start(), s.end())
    }

    fn doc(&self, pair: &Pair<'_, Rule>) -> Option<String> {
        self.docs.before(self.text, pair.as_span().start())
    }

    fn error(&mut self, span: Span, message: impl Into<String>) {
        self.diagnostics.push(Diagnostic::error(span, message));
    }

    fn warning(&mut self, span: Span, message: impl Into<String>) {
        self.diagnostics.push(Diagnostic::warning(span, message));
    }

    fn dialect_error(&mut self, span: Span, construct: &str, dialect: &str) {
        self.diagnostics.push(
            Diagnostic::error(
                span,
                format!("{construct} is not Apache Thrift ({dialect})"),
            )
            .with_note("thrift-codegen accepts the IDL of Apache Thrift 0.2x only"),
        );
    }

    pub(crate) fn lower_document(&mut self, pair: Pair<'i, Rule>) -> Document {
        let mut headers = Vec::new();
        let mut definitions: Vec<Definition> = Vec::new();
        for child in children(pair) {
            let span = self.span(&child);
            let is_header = matches!(
                child.as_rule(),
                Rule::include | Rule::cpp_include | Rule::namespace | Rule::legacy_namespace
            );
            if is_header {
                if let Some(first) = definitions.first() {
                    let first_span = first.span();
                    self.diagnostics.push(
                        Diagnostic::error(span, "headers (`include`, `cpp_include`, `namespace`) must come before all definitions")
                            .with_related(first_span, "first definition is here"),
                    );
                }
            }
            match child.as_rule() {
                Rule::include => headers.push(Header::Include(self.lower_include(child))),
                Rule::cpp_include => {
                    headers.push(Header::CppInclude(self.lower_cpp_include(child)))
                }
                Rule::namespace => {
                    if let Some(ns) = self.lower_namespace(child) {
                        headers.push(Header::Namespace(ns));
                    }
                }
                Rule::legacy_namespace => self.lower_legacy_namespace(child),
                Rule::header_separator => self.lower_header_separator(child),
                Rule::const_def => definitions.push(Definition::Const(self.lower_const_def(child))),
                Rule::typedef => definitions.push(Definition::Typedef(self.lower_typedef(child))),
                Rule::enum_def => definitions.push(Definition::Enum(self.lower_enum_def(child))),
                Rule::senum_def => definitions.push(Definition::Senum(self.lower_senum_def(child))),
                Rule::struct_def => definitions.push(Definition::Struct(
                    self.lower_struct_like(child, StructKind::Struct),
                )),
                Rule::union_def => definitions.push(Definition::Struct(
                    self.lower_struct_like(child, StructKind::Union),
                )),
                Rule::exception_def => definitions.push(Definition::Struct(
                    self.lower_struct_like(child, StructKind::Exception),
                )),
                Rule::service => definitions.push(Definition::Service(self.lower_service(child))),
                Rule::dialect_item => self.lower_dialect_item(child),
                _ => {}
            }
        }
        Document {
            file: self.file,
            headers,
            definitions,
            recovered: Vec::new(),
        }
    }

    fn lower_include(&mut self, pair: Pair<'i, Rule>) -> Include {
        let span = self.span(&pair);
        let literal = children(pair).next().expect("include has a literal");
        Include {
            path: self.lower_literal(literal),
            span,
        }
    }

    fn lower_cpp_include(&mut self, pair: Pair<'i, Rule>) -> StringLiteral {
        let literal = children(pair).next().expect("cpp_include has a literal");
        self.lower_literal(literal)
    }

    fn lower_namespace(&mut self, pair: Pair<'i, Rule>) -> Option<Namespace> {
        let span = self.span(&pair);
        let mut inner = children(pair);
        let first = inner.next()?;
        let (scope, name_pair) = if first.as_rule() == Rule::namespace_star {
            let star = Ident {
                name: "*".into(),
                span: Span::new(
                    self.file,
                    first.as_span().start(),
                    first.as_span().start() + 1,
                ),
            };
            (star, children(first).next()?)
        } else {
            (
                self.lower_identifier(children(first).next()?),
                inner.next()?,
            )
        };
        let name = self.lower_namespace_name(name_pair)?;
        let annotations = inner
            .next()
            .map(|a| self.lower_annotations(a))
            .unwrap_or_default();
        Some(Namespace {
            scope,
            name,
            annotations,
            span,
        })
    }

    fn lower_namespace_name(&mut self, pair: Pair<'i, Rule>) -> Option<Ident> {
        let inner = children(pair).next()?;
        if inner.as_rule() == Rule::keyword {
            let span = self.span(&inner);
            self.error(
                span,
                format!(
                    "`{}` is a keyword and cannot be a namespace name",
                    inner.as_str()
                ),
            );
            return None;
        }
        Some(self.lower_identifier(inner))
    }

    fn lower_legacy_namespace(&mut self, pair: Pair<'i, Rule>) {
        let keyword = children(pair).next().expect("legacy namespace keyword");
        let span = self.span(&keyword);
        let language = match keyword.as_str() {
            "cpp_namespace" => "cpp",
            "java_package" => "java",
            "csharp_namespace" => "csharp",
            "delphi_namespace" => "delphi",
            "php_namespace" => "php",
            "py_module" => "py",
            "perl_package" => "perl",
            "ruby_namespace" => "rb",
            "smalltalk_category" => "smalltalk.category",
            "smalltalk_prefix" => "smalltalk.prefix",
            "xsd_namespace" => "xsd",
            _ => "cocoa",
        };
        self.diagnostics.push(
            Diagnostic::error(
                span,
                format!(
                    "`{}` is no longer supported by Apache Thrift",
                    keyword.as_str()
                ),
            )
            .with_note(format!("write `namespace {language} <name>` instead")),
        );
    }

    fn lower_header_separator(&mut self, pair: Pair<'i, Rule>) {
        let span = self.span(&pair);
        self.error(
            span,
            format!(
                "`{}` after a header is not Apache Thrift syntax",
                pair.as_str()
            ),
        );
    }

    fn lower_const_def(&mut self, pair: Pair<'i, Rule>) -> Const {
        let span = self.span(&pair);
        let doc = self.doc(&pair);
        let mut inner = children(pair);
        let ty = self.lower_field_type(inner.next().expect("const type"));
        let name = self.lower_identifier(inner.next().expect("const name"));
        let value = self.lower_const_value(inner.next().expect("const value"));
        if let Some(annotations) = inner.next() {
            let span = self.span(&annotations);
            self.dialect_error(
                span,
                "an annotation on a `const`",
                "a pilota and thriftgo extension",
            );
        }
        Const {
            ty,
            name,
            value,
            doc,
            span,
        }
    }

    fn lower_typedef(&mut self, pair: Pair<'i, Rule>) -> Typedef {
        let span = self.span(&pair);
        let doc = self.doc(&pair);
        let mut inner = children(pair);
        let ty = self.lower_field_type(inner.next().expect("typedef type"));
        let name = self.lower_identifier(inner.next().expect("typedef name"));
        let annotations = inner
            .next()
            .map(|a| self.lower_annotations(a))
            .unwrap_or_default();
        Typedef {
            ty,
            name,
            annotations,
            doc,
            span,
        }
    }

    fn lower_enum_def(&mut self, pair: Pair<'i, Rule>) -> Enum {
        let span = self.span(&pair);
        let doc = self.doc(&pair);
        let mut name = None;
        let mut values = Vec::new();
        let mut annotations = Vec::new();
        let mut next_value: i64 = 0;
        for child in children(pair) {
            match child.as_rule() {
                Rule::identifier => name = Some(self.lower_identifier(child)),
                Rule::enum_value => values.push(self.lower_enum_value(child, &mut next_value)),
                Rule::annotations => annotations = self.lower_annotations(child),
                _ => {}
            }
        }
        Enum {
            name: name.expect("enum name"),
            values,
            annotations,
            doc,
            span,
        }
    }

    fn lower_enum_value(&mut self, pair: Pair<'i, Rule>, next_value: &mut i64) -> EnumValue {
        let span = self.span(&pair);
        let doc = self.doc(&pair);
        let mut name = None;
        let mut explicit = None;
        let mut annotations = Vec::new();
        for child in children(pair) {
            match child.as_rule() {
                Rule::identifier => name = Some(self.lower_identifier(child)),
                Rule::int_literal => {
                    explicit = Some((self.lower_int_literal(&child), self.span(&child)))
                }
                Rule::annotations => annotations = self.lower_annotations(child),
                _ => {}
            }
        }
        let name = name.expect("enum value name");
        let value = match explicit {
            Some((value, value_span)) => {
                if i32::try_from(value).is_err() {
                    self.error(
                        value_span,
                        format!(
                            "enum value `{}` = {value} does not fit in a 32-bit integer",
                            name.name
                        ),
                    );
                }
                value
            }
            None => {
                if *next_value > i64::from(i32::MAX) {
                    self.error(
                        name.span,
                        format!(
                            "enum value `{}` overflows: the previous value is i32::MAX",
                            name.name
                        ),
                    );
                }
                *next_value
            }
        };
        *next_value = value.saturating_add(1);
        EnumValue {
            name,
            value: value as i32,
            explicit: explicit.is_some(),
            annotations,
            doc,
            span,
        }
    }

    fn lower_senum_def(&mut self, pair: Pair<'i, Rule>) -> Senum {
        let span = self.span(&pair);
        let doc = self.doc(&pair);
        self.diagnostics.push(
            Diagnostic::warning(
                span,
                "`senum` is deprecated and was removed in Apache Thrift 0.17",
            )
            .with_note("use `string` instead"),
        );
        let mut name = None;
        let mut values = Vec::new();
        let mut annotations = Vec::new();
        for child in children(pair) {
            match child.as_rule() {
                Rule::identifier => name = Some(self.lower_identifier(child)),
                Rule::senum_value => {
                    let literal = children(child).next().expect("senum value literal");
                    values.push(self.lower_literal(literal));
                }
                Rule::annotations => annotations = self.lower_annotations(child),
                _ => {}
            }
        }
        Senum {
            name: name.expect("senum name"),
            values,
            annotations,
            doc,
            span,
        }
    }

    /// `struct_def`, `union_def` and `exception_def`.
    fn lower_struct_like(&mut self, pair: Pair<'i, Rule>, kind: StructKind) -> Struct {
        let span = self.span(&pair);
        let doc = self.doc(&pair);
        let mut name = None;
        let mut field_pairs = Vec::new();
        let mut annotations = Vec::new();
        for child in children(pair) {
            match child.as_rule() {
                Rule::identifier => name = Some(self.lower_identifier(child)),
                Rule::field => field_pairs.push(child),
                Rule::annotations => annotations = self.lower_annotations(child),
                _ => {}
            }
        }
        let fields = self.lower_fields(field_pairs, FieldList::Struct);
        Struct {
            kind,
            name: name.expect("struct name"),
            fields,
            annotations,
            doc,
            span,
        }
    }

    fn lower_service(&mut self, pair: Pair<'i, Rule>) -> Service {
        let span = self.span(&pair);
        let doc = self.doc(&pair);
        let mut name = None;
        let mut extends = None;
        let mut functions = Vec::new();
        let mut annotations = Vec::new();
        for child in children(pair) {
            match child.as_rule() {
                Rule::identifier => name = Some(self.lower_identifier(child)),
                Rule::extends => extends = Some(self.lower_extends(child)),
                Rule::function => functions.push(self.lower_function(child)),
                Rule::dialect_service_item => self.lower_dialect_service_item(child),
                Rule::annotations => annotations = self.lower_annotations(child),
                _ => {}
            }
        }
        Service {
            name: name.expect("service name"),
            extends,
            functions,
            annotations,
            doc,
            span,
        }
    }

    fn lower_extends(&mut self, pair: Pair<'i, Rule>) -> Ident {
        self.lower_identifier(children(pair).next().expect("extends name"))
    }

    fn lower_function(&mut self, pair: Pair<'i, Rule>) -> Function {
        let span = self.span(&pair);
        let doc = self.doc(&pair);
        let mut oneway = false;
        let mut return_type = None;
        let mut name = None;
        let mut params = Vec::new();
        let mut throws = Vec::new();
        let mut annotations = Vec::new();
        for child in children(pair) {
            match child.as_rule() {
                Rule::oneway => oneway = self.lower_oneway(child),
                Rule::function_type => return_type = self.lower_function_type(child),
                Rule::identifier => name = Some(self.lower_identifier(child)),
                Rule::field => params.push(child),
                Rule::throws => throws = self.lower_throws(child),
                Rule::annotations => annotations = self.lower_annotations(child),
                _ => {}
            }
        }
        let params = self.lower_fields(params, FieldList::Arguments);
        Function {
            name: name.expect("function name"),
            oneway,
            return_type,
            params,
            throws,
            annotations,
            doc,
            span,
        }
    }

    fn lower_oneway(&mut self, pair: Pair<'i, Rule>) -> bool {
        let keyword = children(pair).next().expect("oneway keyword");
        if keyword.as_rule() == Rule::kw_async {
            let span = self.span(&keyword);
            self.diagnostics.push(
                Diagnostic::warning(span, "`async` is deprecated")
                    .with_note("it is called `oneway` now"),
            );
        }
        true
    }

    /// `None` for `void`.
    fn lower_function_type(&mut self, pair: Pair<'i, Rule>) -> Option<Type> {
        let inner = children(pair).next().expect("function type");
        match inner.as_rule() {
            Rule::field_type => Some(self.lower_field_type(inner)),
            Rule::dialect_stream => {
                let span = self.span(&inner);
                self.dialect_error(span, "a `stream`/`sink` return type", "fbthrift syntax");
                None
            }
            _ => None,
        }
    }

    fn lower_throws(&mut self, pair: Pair<'i, Rule>) -> Vec<Field> {
        let fields = children(pair)
            .filter(|p| p.as_rule() == Rule::field)
            .collect();
        self.lower_fields(fields, FieldList::Throws)
    }
}
