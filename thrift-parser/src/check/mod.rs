//! Semantic checks over a loaded [`Program`]. Every check runs on every file and all errors are
//! collected, so one run reports everything.

mod consts;
mod suggest;

use std::collections::{HashMap, HashSet};

use crate::ast::*;
use crate::diagnostic::Diagnostic;
use crate::program::{DefId, ParsedFile, Program};
use crate::source::{FileId, Span};

pub use consts::ValueCheck;

/// Runs every semantic check on every parsed file of `program`.
pub fn check_program(program: &Program) -> Vec<Diagnostic> {
    let mut checker = Checker {
        program,
        diagnostics: Vec::new(),
    };
    for file in program.files() {
        checker.check_file(file);
    }
    checker.diagnostics
}

pub(crate) struct Checker<'p> {
    pub(crate) program: &'p Program,
    pub(crate) diagnostics: Vec<Diagnostic>,
}

/// A type with typedefs followed to the end.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Resolved<'p> {
    Base(BaseType),
    Enum(DefId, &'p Enum),
    Senum,
    Struct(DefId, &'p Struct),
    List(&'p Type, FileId),
    Set(&'p Type, FileId),
    Map(&'p Type, &'p Type, FileId),
    /// Unknown or cyclic: already reported, check nothing further.
    Unknown,
}

impl<'p> Checker<'p> {
    fn error(&mut self, span: Span, message: impl Into<String>) {
        self.diagnostics.push(Diagnostic::error(span, message));
    }

    fn check_file(&mut self, file: &'p ParsedFile) {
        self.check_unique_definitions(file);
        self.check_include_clashes(file);
        for (index, definition) in file.document.definitions.iter().enumerate() {
            let here = DefId {
                file: file.id,
                index,
            };
            if definition.name().name.contains('.') {
                self.error(
                    definition.name().span,
                    format!(
                        "the name `{}` of a definition cannot contain a dot",
                        definition.name().name
                    ),
                );
            }
            match definition {
                Definition::Const(c) => {
                    self.check_type(file.id, &c.ty);
                    self.check_value(file.id, here, &c.ty, &c.value);
                }
                Definition::Typedef(t) => {
                    self.check_type(file.id, &t.ty);
                    self.check_typedef_cycle(here, t);
                }
                Definition::Enum(e) => self.check_enum(e),
                Definition::Senum(_) => {}
                Definition::Struct(s) => {
                    let what = format!("{} `{}`", s.kind.keyword(), s.name.name);
                    self.check_fields(file.id, here, &s.fields, &what);
                }
                Definition::Service(s) => self.check_service(file.id, here, s),
            }
        }
    }

    /// Types and services share one namespace per file, consts have their own.
    fn check_unique_definitions(&mut self, file: &ParsedFile) {
        let mut types: HashMap<&str, Span> = HashMap::new();
        let mut consts: HashMap<&str, Span> = HashMap::new();
        for definition in &file.document.definitions {
            let name = definition.name();
            let seen = if matches!(definition, Definition::Const(_)) {
                &mut consts
            } else {
                &mut types
            };
            if let Some(first) = earlier(seen, name.name.as_str(), name.span) {
                self.diagnostics.push(
                    Diagnostic::error(name.span, format!("`{}` is already defined", name.name))
                        .with_related(first, "first defined here"),
                );
            }
        }
    }

    /// Apache Thrift rejects a type whose name is also a type of a directly included file when
    /// both files declare the same namespaces (or none): generated code would clash.
    fn check_include_clashes(&mut self, file: &ParsedFile) {
        for include in &file.includes {
            let Some(included) = self.program.file(include.file) else {
                continue;
            };
            if !same_namespaces(&file.document, &included.document) {
                continue;
            }
            for definition in &file.document.definitions {
                if matches!(definition, Definition::Const(_)) {
                    continue;
                }
                let name = definition.name();
                let clash = included
                    .document
                    .definitions
                    .iter()
                    .find(|d| !matches!(d, Definition::Const(_)) && d.name().name == name.name);
                if let Some(other) = clash {
                    self.diagnostics.push(
                        Diagnostic::error(name.span, format!("`{}` is already defined in the included file `{}`", name.name, self.program.sources.path(include.file).display()))
                            .with_related(other.name().span, "defined there")
                            .with_note("Apache Thrift rejects this when both files declare the same namespaces"),
                    );
                }
            }
        }
    }

    fn check_enum(&mut self, e: &Enum) {
        let mut names: HashMap<&str, Span> = HashMap::new();
        for value in &e.values {
            if let Some(first) = earlier(&mut names, value.name.name.as_str(), value.name.span) {
                self.diagnostics.push(
                    Diagnostic::error(
                        value.name.span,
                        format!(
                            "enum `{}` already has a value named `{}`",
                            e.name.name, value.name.name
                        ),
                    )
                    .with_related(first, "first defined here"),
                );
            }
        }
    }

    /// Field lists: unique ids and names, known types, default values of the right type.
    fn check_fields(&mut self, file: FileId, here: DefId, fields: &'p [Field], what: &str) {
        let mut ids: HashMap<i16, &Field> = HashMap::new();
        let mut names: HashMap<&str, &Field> = HashMap::new();
        for field in fields {
            if field.id_kind == FieldIdKind::OutOfRange {
                // Already reported; its placeholder id would only add a false duplicate.
            } else if let Some(first) = earlier(&mut ids, field.id, field) {
                self.diagnostics.push(
                    Diagnostic::error(
                        field.span,
                        format!(
                            "field id {} is used twice in {what}: by `{}` and `{}`",
                            field.id, first.name.name, field.name.name
                        ),
                    )
                    .with_related(first.span, "first used here"),
                );
            }
            if let Some(first) = earlier(&mut names, field.name.name.as_str(), field) {
                self.diagnostics.push(
                    Diagnostic::error(
                        field.name.span,
                        format!("field name `{}` is used twice in {what}", field.name.name),
                    )
                    .with_related(first.name.span, "first used here"),
                );
            }
            self.check_type(file, &field.ty);
            if let Some(default) = &field.default {
                self.check_value(file, here, &field.ty, default);
            }
        }
    }

    fn check_service(&mut self, file: FileId, here: DefId, service: &'p Service) {
        if let Some(extends) = &service.extends {
            match self.program.lookup_type(file, &extends.name) {
                Some(id) => {
                    let definition = self.program.definition(id);
                    if !matches!(definition, Definition::Service(_)) {
                        self.diagnostics.push(
                            Diagnostic::error(
                                extends.span,
                                format!(
                                    "`{}` is not a service: it is a {}",
                                    extends.name,
                                    definition.keyword()
                                ),
                            )
                            .with_related(definition.name().span, "defined here"),
                        );
                    } else if id.file == file && id.index > here.index {
                        self.error(extends.span, format!("service `{}` is used before it is defined; Apache Thrift requires a service to be defined before `extends` names it", extends.name));
                    }
                }
                None => self.unknown(file, extends, "service"),
            }
        }
        let mut names: HashMap<&str, Span> = HashMap::new();
        for function in &service.functions {
            if let Some(first) =
                earlier(&mut names, function.name.name.as_str(), function.name.span)
            {
                self.diagnostics.push(
                    Diagnostic::error(
                        function.name.span,
                        format!(
                            "function `{}` is already defined in service `{}`",
                            function.name.name, service.name.name
                        ),
                    )
                    .with_related(first, "first defined here"),
                );
            }
            if let Some(ty) = &function.return_type {
                self.check_type(file, ty);
            }
            let args = format!("the arguments of `{}`", function.name.name);
            self.check_fields(file, here, &function.params, &args);
            let throws = format!("the throws of `{}`", function.name.name);
            self.check_fields(file, here, &function.throws, &throws);
            for thrown in &function.throws {
                self.check_thrown(file, here, thrown);
            }
            if function.oneway {
                if let Some(ty) = &function.return_type {
                    self.error(
                        ty.span,
                        format!(
                            "oneway function `{}` must return `void`",
                            function.name.name
                        ),
                    );
                }
                if let Some(first) = function.throws.first() {
                    self.error(
                        first.span,
                        format!(
                            "oneway function `{}` cannot throw exceptions",
                            function.name.name
                        ),
                    );
                }
            }
        }
    }

    fn check_thrown(&mut self, file: FileId, here: DefId, field: &'p Field) {
        let TypeKind::Named(name) = &field.ty.kind else {
            self.error(
                field.ty.span,
                format!(
                    "`throws` may only list exceptions; `{}` has a non-exception type",
                    field.name.name
                ),
            );
            return;
        };
        let Some(id) = self.program.lookup_type(file, &name.name) else {
            return;
        };
        if id.file == file && id.index > here.index {
            self.error(name.span, format!("exception `{}` is used before it is defined; Apache Thrift requires an exception to be defined before `throws` names it", name.name));
            return;
        }
        match self.resolve(file, &field.ty) {
            Resolved::Struct(_, s) if s.kind == StructKind::Exception => {}
            Resolved::Unknown => {}
            _ => {
                let definition = self.program.definition(id);
                self.diagnostics.push(
                    Diagnostic::error(
                        name.span,
                        format!(
                            "`throws` may only list exceptions; `{}` is a {}",
                            name.name,
                            definition.keyword()
                        ),
                    )
                    .with_related(definition.name().span, "defined here"),
                );
            }
        }
    }

    /// Reports unknown type names and names that are not types.
    fn check_type(&mut self, file: FileId, ty: &Type) {
        match &ty.kind {
            TypeKind::Base(_) => {}
            TypeKind::Named(name) => match self.program.lookup_type(file, &name.name) {
                Some(id) => {
                    let definition = self.program.definition(id);
                    if let Definition::Service(_) = definition {
                        self.error(
                            name.span,
                            format!("`{}` is a service, not a type", name.name),
                        );
                    }
                }
                None => self.unknown(file, name, "type"),
            },
            TypeKind::List { element, .. } | TypeKind::Set { element, .. } => {
                self.check_type(file, element)
            }
            TypeKind::Map { key, value, .. } => {
                self.check_type(file, key);
                self.check_type(file, value);
            }
        }
    }

    fn unknown(&mut self, file: FileId, name: &Ident, what: &str) {
        // A definition dropped after a syntax error in it was reported already.
        if self.recovered(file, &name.name) {
            return;
        }
        let module = name.name.split_once('.').map(|(module, _)| module);
        if module.is_some_and(|module| self.program.module_failed(file, module)) {
            return;
        }
        let mut diagnostic =
            Diagnostic::error(name.span, format!("unknown {what} `{}`", name.name));
        if let Some(suggestion) =
            suggest::for_type(self.program, file, &name.name, what == "service")
        {
            diagnostic = diagnostic.with_note(suggestion);
        } else if let Some(module) = module.filter(|module| {
            !self
                .program
                .file(file)
                .is_some_and(|f| f.includes.iter().any(|i| i.module == *module))
        }) {
            diagnostic = diagnostic.with_note(format!(
                "no included file is named `{module}`; add `include \"{module}.thrift\"`"
            ));
        }
        self.diagnostics.push(diagnostic);
    }

    /// Whether `name`, written in `file`, names a definition the parser dropped after a syntax
    /// error in it (in `file`, or in the included module the name starts with).
    fn recovered(&self, file: FileId, name: &str) -> bool {
        let dropped = |f: FileId, n: &str| {
            self.program
                .file(f)
                .is_some_and(|p| p.document.recovered.iter().any(|r| r == n))
        };
        if dropped(file, name) {
            return true;
        }
        let Some(parsed) = self.program.file(file) else {
            return false;
        };
        parsed.includes.iter().any(|i| {
            name.strip_prefix(i.module.as_str())
                .and_then(|rest| rest.strip_prefix('.'))
                .is_some_and(|rest| dropped(i.file, rest))
        })
    }

    fn check_typedef_cycle(&mut self, start: DefId, typedef: &Typedef) {
        let mut seen = HashSet::from([start]);
        let mut current = (start.file, &typedef.ty);
        while let TypeKind::Named(name) = &current.1.kind {
            let Some(id) = self.program.lookup_type(current.0, &name.name) else {
                return;
            };
            let Some(next) = self.program.as_typedef(id) else {
                return;
            };
            if !seen.insert(id) {
                if id == start {
                    self.error(
                        typedef.name.span,
                        format!(
                            "typedef `{}` refers to itself through a cycle of typedefs",
                            typedef.name.name
                        ),
                    );
                }
                return;
            }
            current = (id.file, &next.ty);
        }
    }

    /// Follows typedefs; `Unknown` for unknown names and typedef cycles.
    pub(crate) fn resolve(&self, file: FileId, ty: &'p Type) -> Resolved<'p> {
        let mut current = (file, ty);
        for _ in 0..64 {
            match &current.1.kind {
                TypeKind::Base(b) => return Resolved::Base(*b),
                TypeKind::List { element, .. } => return Resolved::List(element, current.0),
                TypeKind::Set { element, .. } => return Resolved::Set(element, current.0),
                TypeKind::Map { key, value, .. } => return Resolved::Map(key, value, current.0),
                TypeKind::Named(name) => {
                    let Some(id) = self.program.lookup_type(current.0, &name.name) else {
                        return Resolved::Unknown;
                    };
                    match self.program.definition(id) {
                        Definition::Typedef(t) => current = (id.file, &t.ty),
                        Definition::Enum(e) => return Resolved::Enum(id, e),
                        Definition::Senum(_) => return Resolved::Senum,
                        Definition::Struct(s) => return Resolved::Struct(id, s),
                        _ => return Resolved::Unknown,
                    }
                }
            }
        }
        Resolved::Unknown
    }
}

/// The value recorded for `key` by an earlier call, or `None` (and `value` recorded) when this
/// is the first: one duplicate check for names, ids and functions alike.
fn earlier<K: std::hash::Hash + Eq, V: Copy>(
    seen: &mut HashMap<K, V>,
    key: K,
    value: V,
) -> Option<V> {
    match seen.entry(key) {
        std::collections::hash_map::Entry::Occupied(entry) => Some(*entry.get()),
        std::collections::hash_map::Entry::Vacant(entry) => {
            entry.insert(value);
            None
        }
    }
}

/// Apache's `is_common_namespace`: both files declare the same namespace for every scope that
/// either declares (two files without namespaces count as the same).
fn same_namespaces(a: &Document, b: &Document) -> bool {
    let namespaces = |d: &Document| -> HashMap<String, String> {
        d.headers
            .iter()
            .filter_map(|h| match h {
                Header::Namespace(ns) => Some((ns.scope.name.clone(), ns.name.name.clone())),
                _ => None,
            })
            .collect()
    };
    let (a, b) = (namespaces(a), namespaces(b));
    let get = |m: &HashMap<String, String>, scope: &str| {
        m.get(scope)
            .or_else(|| m.get("*"))
            .cloned()
            .unwrap_or_default()
    };
    a.iter().all(|(scope, name)| get(&b, scope) == *name)
        && b.iter().all(|(scope, name)| get(&a, scope) == *name)
}
