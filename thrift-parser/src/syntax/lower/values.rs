//! Lowering, continued: fields, types, constant values, literals, identifiers, and the
//! constructs of other dialects (reported, then dropped).

use pest::iterators::Pair;

use super::{FieldList, Lowering, children, is_reserved};
use crate::ast::*;
use crate::diagnostic::Diagnostic;
use crate::source::Span;
use crate::syntax::grammar::Rule;
use crate::syntax::literal::{LiteralError, parse_int, unescape};

impl<'i> Lowering<'i> {
    /// A field list: assigns implicit ids (-1, -2, … as Apache does) across the list.
    pub(super) fn lower_fields(
        &mut self,
        pairs: Vec<Pair<'i, Rule>>,
        list: FieldList,
    ) -> Vec<Field> {
        let mut next_auto: i64 = -1;
        pairs
            .into_iter()
            .map(|pair| self.lower_field(pair, list, &mut next_auto))
            .collect()
    }

    pub(super) fn lower_field(
        &mut self,
        pair: Pair<'i, Rule>,
        list: FieldList,
        next_auto: &mut i64,
    ) -> Field {
        let span = self.span(&pair);
        let doc = self.doc(&pair);
        let mut written_id = None;
        let mut requiredness = Requiredness::Default;
        let mut ty = None;
        let mut reference = false;
        let mut name = None;
        let mut default = None;
        let mut annotations = Vec::new();
        for child in children(pair) {
            match child.as_rule() {
                Rule::dialect_structured_annotation => {
                    self.lower_dialect_structured_annotation(child)
                }
                Rule::field_id => written_id = Some(self.lower_field_id(child)),
                Rule::requiredness => requiredness = self.lower_requiredness(child, list),
                Rule::field_type => ty = Some(self.lower_field_type(child)),
                Rule::reference => reference = true,
                Rule::field_name => name = Some(self.lower_field_name(child)),
                Rule::const_value => default = Some(self.lower_const_value(child)),
                Rule::xsd_attrs => {
                    // XML-schema attributes only matter to Apache's xsd generator: parsed, checked
                    // for syntax, dropped.
                    let fields = children(child)
                        .filter(|p| p.as_rule() == Rule::field)
                        .collect();
                    self.lower_fields(fields, FieldList::Struct);
                }
                Rule::annotations => annotations = self.lower_annotations(child),
                _ => {}
            }
        }
        let name = name.expect("field name");
        let (id, id_kind) = match written_id {
            Some((value, _)) if value > 0 => (value, FieldIdKind::Explicit),
            Some((value, id_span)) => {
                let auto = *next_auto;
                *next_auto -= 1;
                self.diagnostics.push(
                    Diagnostic::warning(
                        id_span,
                        format!(
                            "non-positive field id {value} is not allowed; Apache Thrift ignores it"
                        ),
                    )
                    .with_note(format!(
                        "field `{}` gets the auto-assigned id {auto}, as with Apache Thrift",
                        name.name
                    )),
                );
                (auto, FieldIdKind::Replaced)
            }
            None => {
                let auto = *next_auto;
                *next_auto -= 1;
                self.diagnostics.push(
                    Diagnostic::warning(name.span, format!("no field id for `{}`; assigned {auto}", name.name))
                        .with_note("implicit field ids may conflict and are not backwards compatible; write an explicit id"),
                );
                (auto, FieldIdKind::Implicit)
            }
        };
        let (id, id_kind) = match i16::try_from(id) {
            Ok(id) => (id, id_kind),
            Err(_) => {
                let id_span = written_id.map_or(name.span, |(_, s)| s);
                self.error(
                    id_span,
                    format!(
                        "field id {id} of `{}` is outside the range of i16 (-32768..=32767)",
                        name.name
                    ),
                );
                (0, FieldIdKind::OutOfRange)
            }
        };
        Field {
            id,
            id_kind,
            requiredness,
            ty: ty.expect("field type"),
            name,
            default,
            reference,
            annotations,
            doc,
            span,
        }
    }

    pub(super) fn lower_field_id(&mut self, pair: Pair<'i, Rule>) -> (i64, Span) {
        let literal = children(pair).next().expect("field id literal");
        let span = self.span(&literal);
        (self.lower_int_literal(&literal), span)
    }

    pub(super) fn lower_requiredness(
        &mut self,
        pair: Pair<'i, Rule>,
        list: FieldList,
    ) -> Requiredness {
        let keyword = children(pair).next().expect("requiredness keyword");
        match keyword.as_rule() {
            Rule::kw_required => Requiredness::Required,
            _ if list == FieldList::Arguments => {
                let span = self.span(&keyword);
                self.warning(span, "`optional` is ignored in argument lists");
                Requiredness::Default
            }
            _ => Requiredness::Optional,
        }
    }

    pub(super) fn lower_field_name(&mut self, pair: Pair<'i, Rule>) -> Ident {
        Ident {
            name: pair.as_str().to_string(),
            span: self.span(&pair),
        }
    }

    pub(super) fn lower_field_type(&mut self, pair: Pair<'i, Rule>) -> Type {
        let span = self.span(&pair);
        let mut inner = children(pair);
        let ty = inner.next().expect("type");
        let kind = match ty.as_rule() {
            Rule::base_type => TypeKind::Base(self.lower_base_type(ty)),
            Rule::map_type => self.lower_map_type(ty),
            Rule::set_type => self.lower_set_type(ty),
            Rule::list_type => self.lower_list_type(ty),
            _ => TypeKind::Named(self.lower_named_type(ty)),
        };
        let annotations = match inner.next() {
            Some(a) if a.as_rule() == Rule::annotations => self.lower_annotations(a),
            Some(a) => {
                let span = self.span(&a);
                self.diagnostics.push(
                    Diagnostic::error(span, "an annotation on a reference to a named type is not Apache Thrift (a pilota and creditkarma/thrift-parser extension)")
                        .with_note("annotate the typedef, field or function instead"),
                );
                Vec::new()
            }
            None => Vec::new(),
        };
        Type {
            kind,
            annotations,
            span,
        }
    }

    pub(super) fn lower_base_type(&mut self, pair: Pair<'i, Rule>) -> BaseType {
        let keyword = children(pair).next().expect("base type keyword");
        match keyword.as_rule() {
            Rule::kw_bool => BaseType::Bool,
            Rule::kw_byte | Rule::kw_i8 => BaseType::I8,
            Rule::kw_i16 => BaseType::I16,
            Rule::kw_i32 => BaseType::I32,
            Rule::kw_i64 => BaseType::I64,
            Rule::kw_double => BaseType::Double,
            Rule::kw_string => BaseType::String,
            Rule::kw_binary => BaseType::Binary,
            Rule::kw_uuid => BaseType::Uuid,
            _ => {
                let span = self.span(&keyword);
                self.diagnostics.push(
                    Diagnostic::warning(span, "`slist` is deprecated")
                        .with_note("use `string` instead"),
                );
                BaseType::Slist
            }
        }
    }

    pub(super) fn lower_map_type(&mut self, pair: Pair<'i, Rule>) -> TypeKind {
        let mut cpp_type = None;
        let mut types = Vec::new();
        for child in children(pair) {
            match child.as_rule() {
                Rule::cpp_type => cpp_type = Some(self.lower_cpp_type(child)),
                _ => types.push(self.lower_field_type(child)),
            }
        }
        let value = types.pop().expect("map value type");
        let key = types.pop().expect("map key type");
        TypeKind::Map {
            key: Box::new(key),
            value: Box::new(value),
            cpp_type,
        }
    }

    pub(super) fn lower_set_type(&mut self, pair: Pair<'i, Rule>) -> TypeKind {
        let (element, cpp_type) = self.lower_element_and_cpp_type(pair);
        TypeKind::Set { element, cpp_type }
    }

    pub(super) fn lower_list_type(&mut self, pair: Pair<'i, Rule>) -> TypeKind {
        let (element, cpp_type) = self.lower_element_and_cpp_type(pair);
        TypeKind::List { element, cpp_type }
    }

    pub(super) fn lower_element_and_cpp_type(
        &mut self,
        pair: Pair<'i, Rule>,
    ) -> (Box<Type>, Option<String>) {
        let mut cpp_type = None;
        let mut element = None;
        for child in children(pair) {
            match child.as_rule() {
                Rule::cpp_type => cpp_type = Some(self.lower_cpp_type(child)),
                _ => element = Some(self.lower_field_type(child)),
            }
        }
        (Box::new(element.expect("element type")), cpp_type)
    }

    pub(super) fn lower_cpp_type(&mut self, pair: Pair<'i, Rule>) -> String {
        let literal = children(pair).next().expect("cpp_type literal");
        self.lower_literal(literal).value
    }

    pub(super) fn lower_named_type(&mut self, pair: Pair<'i, Rule>) -> Ident {
        self.lower_identifier(children(pair).next().expect("type name"))
    }

    pub(super) fn lower_annotations(&mut self, pair: Pair<'i, Rule>) -> Vec<Annotation> {
        children(pair).map(|a| self.lower_annotation(a)).collect()
    }

    pub(super) fn lower_annotation(&mut self, pair: Pair<'i, Rule>) -> Annotation {
        let span = self.span(&pair);
        let mut inner = children(pair);
        let key = self.lower_identifier(inner.next().expect("annotation key"));
        let value = inner
            .next()
            .map_or_else(|| "1".to_string(), |v| self.lower_literal(v).value);
        Annotation { key, value, span }
    }

    pub(super) fn lower_const_value(&mut self, pair: Pair<'i, Rule>) -> ConstValue {
        let span = self.span(&pair);
        let inner = children(pair).next().expect("const value");
        let kind = match inner.as_rule() {
            Rule::int_literal => ConstValueKind::Int(self.lower_int_literal(&inner)),
            Rule::double_literal => ConstValueKind::Double(self.lower_double_literal(&inner)),
            Rule::bool_literal => ConstValueKind::Bool(inner.as_str() == "true"),
            Rule::literal => ConstValueKind::String(self.lower_literal(inner).value),
            Rule::identifier => ConstValueKind::Identifier(inner.as_str().to_string()),
            Rule::const_list => self.lower_const_list(inner),
            _ => self.lower_const_map(inner),
        };
        ConstValue { kind, span }
    }

    pub(super) fn lower_const_list(&mut self, pair: Pair<'i, Rule>) -> ConstValueKind {
        ConstValueKind::List(children(pair).map(|v| self.lower_const_value(v)).collect())
    }

    pub(super) fn lower_const_map(&mut self, pair: Pair<'i, Rule>) -> ConstValueKind {
        ConstValueKind::Map(
            children(pair)
                .map(|e| self.lower_const_map_entry(e))
                .collect(),
        )
    }

    pub(super) fn lower_const_map_entry(
        &mut self,
        pair: Pair<'i, Rule>,
    ) -> (ConstValue, ConstValue) {
        let mut inner = children(pair);
        let key = self.lower_const_value(inner.next().expect("map key"));
        let value = self.lower_const_value(inner.next().expect("map value"));
        (key, value)
    }

    pub(super) fn lower_int_literal(&mut self, pair: &Pair<'i, Rule>) -> i64 {
        match parse_int(pair.as_str()) {
            Ok(value) => value,
            Err(_) => {
                let span = self.span(pair);
                self.error(
                    span,
                    format!(
                        "integer literal `{}` does not fit in a 64-bit signed integer",
                        pair.as_str()
                    ),
                );
                0
            }
        }
    }

    pub(super) fn lower_double_literal(&mut self, pair: &Pair<'i, Rule>) -> f64 {
        // The grammar only lets through what `f64::from_str` reads; a huge exponent gives ±inf.
        pair.as_str().parse().unwrap_or(0.0)
    }

    pub(super) fn lower_literal(&mut self, pair: Pair<'i, Rule>) -> StringLiteral {
        let span = self.span(&pair);
        let body = children(pair).next().map_or("", |b| b.as_str());
        let value = match unescape(body) {
            Ok(value) => value,
            Err(LiteralError::Newline) => {
                self.dialect_error(
                    span,
                    "a string literal that spans several lines",
                    "a thriftgo extension",
                );
                body.to_string()
            }
            Err(LiteralError::BadEscape(c)) => {
                self.diagnostics.push(
                    Diagnostic::error(span, format!("unknown escape `\\{c}` in string literal"))
                        .with_note(r#"Apache Thrift knows \\ \" \' \n \r \t"#),
                );
                body.to_string()
            }
            Err(LiteralError::Overflow) => body.to_string(),
        };
        StringLiteral { value, span }
    }

    pub(super) fn lower_identifier(&mut self, pair: Pair<'i, Rule>) -> Ident {
        let ident = Ident {
            name: pair.as_str().to_string(),
            span: self.span(&pair),
        };
        if is_reserved(&ident.name) {
            self.error(
                ident.span,
                format!("`{}` is a keyword and cannot be used as a name", ident.name),
            );
        }
        ident
    }

    pub(super) fn lower_dialect_item(&mut self, pair: Pair<'i, Rule>) {
        let inner = children(pair).next().expect("dialect item");
        let span = self.span(&inner);
        match inner.as_rule() {
            Rule::dialect_structured_annotation => self.lower_dialect_structured_annotation(inner),
            Rule::dialect_package => {
                self.dialect_error(span, "`package`", "fbthrift syntax; use `namespace`")
            }
            Rule::dialect_interaction => {
                self.dialect_error(span, "`interaction`", "fbthrift syntax")
            }
            _ => self.dialect_error(
                span,
                &format!("the exception qualifier `{}`", inner.as_str()),
                "fbthrift syntax",
            ),
        }
    }

    pub(super) fn lower_dialect_service_item(&mut self, pair: Pair<'i, Rule>) {
        let inner = children(pair).next().expect("dialect service item");
        let span = self.span(&inner);
        match inner.as_rule() {
            Rule::dialect_performs => self.dialect_error(span, "`performs`", "fbthrift syntax"),
            _ => self.lower_dialect_structured_annotation(inner),
        }
    }

    pub(super) fn lower_dialect_structured_annotation(&mut self, pair: Pair<'i, Rule>) {
        let span = self.span(&pair);
        let name = children(pair).next().map_or("", |p| p.as_str());
        self.dialect_error(
            span,
            &format!("the structured annotation `@{name}`"),
            "fbthrift syntax; use `( key = \"value\" )` annotations",
        );
    }
}
