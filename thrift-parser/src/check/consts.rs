//! Const values against their declared types: integer ranges, enum members, element and key
//! types of containers, struct literal fields, and references to other consts.

use super::{Checker, Resolved};
use crate::ast::*;
use crate::diagnostic::Diagnostic;
use crate::program::{ConstRef, DefId};
use crate::source::FileId;

/// How deep const references may chain before we stop following them.
const MAX_REFERENCE_DEPTH: usize = 32;

/// A const value checked against a type: the context a value check needs.
#[derive(Clone, Copy)]
pub struct ValueCheck {
    /// File whose scope names in the value are looked up in.
    pub file: FileId,
    /// The definition that holds the value (a const or a struct with a default): consts of the
    /// same file it uses must come before it, as Apache Thrift requires.
    pub holder: DefId,
    depth: usize,
}

impl<'p> Checker<'p> {
    pub(crate) fn check_value(
        &mut self,
        file: FileId,
        holder: DefId,
        ty: &'p Type,
        value: &ConstValue,
    ) {
        let at = ValueCheck {
            file,
            holder,
            depth: 0,
        };
        self.check_value_at(at, file, ty, value);
    }

    /// `type_file` is where `ty` was written (names in it resolve there); `at.file` is where the
    /// value was written.
    fn check_value_at(
        &mut self,
        at: ValueCheck,
        type_file: FileId,
        ty: &'p Type,
        value: &ConstValue,
    ) {
        let expected = self.resolve(type_file, ty);
        if matches!(expected, Resolved::Unknown) {
            return;
        }
        if let ConstValueKind::Identifier(name) = &value.kind {
            self.check_reference(at, expected, type_file, ty, name, value);
            return;
        }
        match expected {
            Resolved::Base(base) => self.check_base(base, value),
            Resolved::Senum => self.expect(
                matches!(value.kind, ConstValueKind::String(_)),
                value,
                "a string",
            ),
            Resolved::Enum(_, e) => match value.kind {
                ConstValueKind::Int(v) => {
                    if !e.values.iter().any(|ev| i64::from(ev.value) == v) {
                        self.diagnostics.push(
                            Diagnostic::error(
                                value.span,
                                format!("{v} is not a value of enum `{}`", e.name.name),
                            )
                            .with_related(e.name.span, "enum defined here"),
                        );
                    }
                }
                _ => self.mismatch(value, &format!("a value of enum `{}`", e.name.name)),
            },
            Resolved::Struct(id, s) => match &value.kind {
                ConstValueKind::Map(entries) => {
                    for (key, field_value) in entries {
                        let ConstValueKind::String(field_name) = &key.kind else {
                            self.mismatch(
                                key,
                                &format!(
                                    "a field name of {} `{}` (a string)",
                                    s.kind.keyword(),
                                    s.name.name
                                ),
                            );
                            continue;
                        };
                        match s.fields.iter().find(|f| &f.name.name == field_name) {
                            Some(field) => self.check_value_at(at, id.file, &field.ty, field_value),
                            None => self.diagnostics.push(
                                Diagnostic::error(
                                    key.span,
                                    format!(
                                        "{} `{}` has no field `{field_name}`",
                                        s.kind.keyword(),
                                        s.name.name
                                    ),
                                )
                                .with_related(s.name.span, "defined here"),
                            ),
                        }
                    }
                }
                _ => self.mismatch(
                    value,
                    &format!(
                        "a {} literal `{{ \"field\": value }}` for `{}`",
                        s.kind.keyword(),
                        s.name.name
                    ),
                ),
            },
            Resolved::List(element, file) | Resolved::Set(element, file) => match &value.kind {
                ConstValueKind::List(items) => {
                    for item in items {
                        self.check_value_at(at, file, element, item);
                    }
                }
                // Apache Thrift accepts `{}` as an empty list or set.
                ConstValueKind::Map(entries) if entries.is_empty() => {}
                _ => self.mismatch(value, "a list `[ … ]`"),
            },
            Resolved::Map(key_ty, value_ty, file) => match &value.kind {
                ConstValueKind::Map(entries) => {
                    for (key, entry) in entries {
                        self.check_value_at(at, file, key_ty, key);
                        self.check_value_at(at, file, value_ty, entry);
                    }
                }
                // …and `[]` as an empty map.
                ConstValueKind::List(items) if items.is_empty() => {}
                _ => self.mismatch(value, "a map `{ key: value }`"),
            },
            Resolved::Unknown => {}
        }
    }

    fn check_base(&mut self, base: BaseType, value: &ConstValue) {
        let range = |lo: i64, hi: i64, this: &mut Self| match value.kind {
            ConstValueKind::Int(v) if v < lo || v > hi => this.error(
                value.span,
                format!("{v} is out of range for {} ({lo}..={hi})", base.keyword()),
            ),
            ConstValueKind::Int(_) | ConstValueKind::Bool(_) => {}
            _ => this.mismatch(value, &format!("an integer ({})", base.keyword())),
        };
        match base {
            BaseType::Bool => self.expect(
                matches!(value.kind, ConstValueKind::Bool(_) | ConstValueKind::Int(_)),
                value,
                "a bool (`true`, `false`, or an integer)",
            ),
            BaseType::I8 => range(i64::from(i8::MIN), i64::from(i8::MAX), self),
            BaseType::I16 => range(i64::from(i16::MIN), i64::from(i16::MAX), self),
            BaseType::I32 => range(i64::from(i32::MIN), i64::from(i32::MAX), self),
            BaseType::I64 => range(i64::MIN, i64::MAX, self),
            BaseType::Double => self.expect(
                matches!(
                    value.kind,
                    ConstValueKind::Int(_) | ConstValueKind::Double(_)
                ),
                value,
                "a number",
            ),
            BaseType::String | BaseType::Binary | BaseType::Slist => self.expect(
                matches!(value.kind, ConstValueKind::String(_)),
                value,
                "a string",
            ),
            BaseType::Uuid => match &value.kind {
                ConstValueKind::String(s) if is_uuid(s) => {}
                ConstValueKind::String(s) => self.error(
                    value.span,
                    format!("`{s}` is not a UUID (xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx)"),
                ),
                _ => self.mismatch(value, "a UUID string"),
            },
        }
    }

    fn check_reference(
        &mut self,
        at: ValueCheck,
        expected: Resolved<'p>,
        type_file: FileId,
        ty: &'p Type,
        name: &str,
        value: &ConstValue,
    ) {
        let Some(target) = self.program.lookup_const(at.file, name) else {
            // Apache also accepts a bare or foreign-qualified name whose last part is a value
            // of the expected enum.
            if let Resolved::Enum(_, e) = expected {
                let last = name.rsplit('.').next().unwrap_or(name);
                if e.values.iter().any(|v| v.name.name == last) {
                    return;
                }
            }
            if let Some((module, _)) = name.split_once('.') {
                if self.program.module_failed(at.file, module) {
                    return;
                }
            }
            let mut diagnostic = Diagnostic::error(
                value.span,
                format!("unknown constant or enum value `{name}`"),
            );
            if let Some(suggestion) = super::suggest::for_value(self.program, at.file, name) {
                diagnostic = diagnostic.with_note(suggestion);
            }
            self.diagnostics.push(diagnostic);
            return;
        };
        let defined = match target {
            ConstRef::Const(id) | ConstRef::EnumValue(id, _) => id,
        };
        if defined.file == at.holder.file && defined.index >= at.holder.index {
            self.diagnostics.push(
                Diagnostic::error(value.span, format!("`{name}` is used before it is defined"))
                    .with_related(self.program.definition(defined).name().span, "defined here")
                    .with_note("Apache Thrift requires consts and enums to be defined before a value uses them"),
            );
            return;
        }
        match target {
            ConstRef::Const(id) => {
                if at.depth >= MAX_REFERENCE_DEPTH {
                    return;
                }
                let target_const = self
                    .program
                    .as_const(id)
                    .expect("ConstRef::Const is a const");
                let next = ValueCheck {
                    file: id.file,
                    holder: id,
                    depth: at.depth + 1,
                };
                // The referenced value must fit the type expected here.
                let before = self.diagnostics.len();
                self.check_value_at(next, type_file, ty, &target_const.value);
                if self.diagnostics.len() > before {
                    self.diagnostics.truncate(before);
                    self.mismatch(
                        value,
                        &format!("{} (`{name}` has another type)", describe(expected)),
                    );
                }
            }
            ConstRef::EnumValue(id, index) => {
                let enum_value = self
                    .program
                    .enum_value(id, index)
                    .expect("ConstRef::EnumValue is valid");
                match expected {
                    Resolved::Enum(expected_id, e) if expected_id != id => self.error(
                        value.span,
                        format!("`{name}` is not a value of enum `{}`", e.name.name),
                    ),
                    Resolved::Enum(..) => {}
                    Resolved::Base(
                        BaseType::I8
                        | BaseType::I16
                        | BaseType::I32
                        | BaseType::I64
                        | BaseType::Double,
                    ) => {
                        let literal = ConstValue {
                            kind: ConstValueKind::Int(enum_value.value.into()),
                            span: value.span,
                        };
                        if let Resolved::Base(base) = expected {
                            self.check_base(base, &literal);
                        }
                    }
                    _ => self.mismatch(value, describe(expected).as_str()),
                }
            }
        }
    }

    fn expect(&mut self, ok: bool, value: &ConstValue, expected: &str) {
        if !ok {
            self.mismatch(value, expected);
        }
    }

    fn mismatch(&mut self, value: &ConstValue, expected: &str) {
        let found = match &value.kind {
            ConstValueKind::Int(_) => "an integer",
            ConstValueKind::Double(_) => "a double",
            ConstValueKind::Bool(_) => "a bool",
            ConstValueKind::String(_) => "a string",
            ConstValueKind::Identifier(_) => "a constant",
            ConstValueKind::List(_) => "a list",
            ConstValueKind::Map(_) => "a map",
        };
        self.error(
            value.span,
            format!("type mismatch: expected {expected}, found {found}"),
        );
    }
}

fn describe(resolved: Resolved<'_>) -> String {
    match resolved {
        Resolved::Base(b) => format!("a value of type {}", b.keyword()),
        Resolved::Enum(_, e) => format!("a value of enum `{}`", e.name.name),
        Resolved::Senum => "a string".into(),
        Resolved::Struct(_, s) => format!("a `{}` literal", s.name.name),
        Resolved::List(..) => "a list".into(),
        Resolved::Set(..) => "a set".into(),
        Resolved::Map(..) => "a map".into(),
        Resolved::Unknown => "a value".into(),
    }
}

fn is_uuid(s: &str) -> bool {
    let s = s
        .strip_prefix('{')
        .and_then(|s| s.strip_suffix('}'))
        .unwrap_or(s);
    let groups: Vec<&str> = s.split('-').collect();
    groups.len() == 5
        && groups
            .iter()
            .zip([8, 4, 4, 4, 12])
            .all(|(g, n)| g.len() == n && g.bytes().all(|b| b.is_ascii_hexdigit()))
}
