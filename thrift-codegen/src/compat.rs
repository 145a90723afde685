//! Breaking-change checks between two versions of an IDL (`thrift-codegen compat OLD NEW`).
//!
//! Both versions are loaded with their includes and compared as whole programs: definitions
//! are matched by name across files (a definition moved to another file is found there),
//! fields and parameters by id, enum values by name, functions by name (inherited ones
//! included). Every difference is a [`Change`] of one [`Class`]:
//! - [`Class::Wire`]: old readers or writers no longer interoperate with new ones (a required
//!   field added or removed, a field id or wire type changed, a function removed…);
//! - [`Class::Source`]: the bytes still agree, but generated Rust changes a name or a type, so
//!   code written against the old generated code no longer compiles (a field renamed,
//!   `optional` to default requiredness, `i32` to an enum…);
//! - [`Class::Safe`]: neither (an optional field, an enum value, a function added).
//!
//! Each change is located in the new version (or, when it has nothing there, at the old
//! one's path) with the old location as a note; [`Change::diagnostic`] renders it like the
//! checker's diagnostics. The rules, by [`Change::rule`], are listed in the guide's reference
//! (docs/src/reference/idl-tools.md).

use std::collections::{BTreeMap, HashSet};

use thrift_idl_parser::ast::{
    BaseType, ConstValue, Definition, Field, Function, Requiredness, Service, StructKind, Type,
    TypeKind,
};
use thrift_idl_parser::{DefId, Diagnostic, FileId, Program, Span};

use crate::ident;

/// How a change affects the users of an IDL.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Class {
    /// Neither the wire nor the generated Rust breaks.
    Safe,
    /// The generated Rust changes incompatibly; the wire does not.
    Source,
    /// Old and new peers no longer understand each other.
    Wire,
}

impl Class {
    /// `wire-breaking`, `source-breaking` or `safe`, as printed.
    pub fn as_str(self) -> &'static str {
        match self {
            Class::Wire => "wire-breaking",
            Class::Source => "source-breaking",
            Class::Safe => "safe",
        }
    }
}

/// One difference between the old and the new version.
#[derive(Debug, Clone)]
pub struct Change {
    /// What kind of difference: `field-removed`, `field-type-changed`… (see docs/src/reference/idl-tools.md).
    pub rule: &'static str,
    /// Its effect.
    pub class: Class,
    /// What changed, in words.
    pub message: String,
    /// Where it is in the new version; `None` when the new version has nothing there.
    pub new: Option<Span>,
    /// Where it was in the old version; `None` for an addition.
    pub old: Option<Span>,
}

impl Change {
    /// The change as a diagnostic in the new version's sources: an error when it breaks the
    /// wire, a warning otherwise, with the old location (and source line) as a note. Without
    /// a place in the new version it names `new_root`, the new version's file.
    pub fn diagnostic(&self, old: &Program, new_root: &str) -> Diagnostic {
        let message = format!("{}: {} [{}]", self.class.as_str(), self.message, self.rule);
        let mut d = match (self.new, self.class) {
            (Some(span), Class::Wire) => Diagnostic::error(span, message),
            (Some(span), _) => Diagnostic::warning(span, message),
            (None, class) => {
                let mut d = Diagnostic::unlocated(new_root, message);
                if class != Class::Wire {
                    d.severity = thrift_idl_parser::Severity::Warning;
                }
                d
            }
        };
        if let Some(span) = self.old {
            let file = old.sources.get(span.file);
            let (line, col) = file.line_col(span.start as usize);
            d = d.with_note(format!(
                "was at {}:{line}:{col}: {}",
                file.path.display(),
                file.line_text(line).trim()
            ));
        }
        d
    }

    /// One JSON object on one line: the diagnostic's fields (`path`, `line`, `col`,
    /// `severity`, `message`, `notes`) and `class`, `rule`.
    pub fn to_json(&self, old: &Program, new: &Program, new_root: &str) -> String {
        let json = self.diagnostic(old, new_root).to_json(&new.sources);
        format!(
            "{{\"class\":\"{}\",\"rule\":\"{}\",{}",
            self.class.as_str(),
            self.rule,
            &json[1..]
        )
    }
}

/// Every change from `old` to `new`, in the new version's order (then removals).
pub fn compare(old: &Program, new: &Program) -> Vec<Change> {
    let mut c = Compare {
        old,
        new,
        changes: Vec::new(),
    };
    let old_defs = definitions(old);
    let new_defs = definitions(new);
    let mut matched_new = HashSet::new();
    for &o in &old_defs {
        match matching(old, o, new, &new_defs) {
            Some(n) => {
                matched_new.insert(n);
                c.definition(o, n);
            }
            None => c.removed_definition(o),
        }
    }
    for &n in &new_defs {
        if !matched_new.contains(&n) {
            let def = new.definition(n);
            c.push(
                "definition-added",
                Class::Safe,
                format!("{} `{}` added", def.keyword(), def.name().name),
                Some(def.name().span),
                None,
            );
        }
    }
    c.changes.sort_by_key(|change| {
        (
            change.new.is_none(),
            change.new.map(|s| (s.file, s.start)),
            change.old.map(|s| (s.file, s.start)),
        )
    });
    c.changes
}

fn definitions(program: &Program) -> Vec<DefId> {
    program
        .files()
        .flat_map(|f| {
            (0..f.document.definitions.len()).map(move |index| DefId { file: f.id, index })
        })
        .collect()
}

fn stem(program: &Program, file: FileId) -> String {
    program
        .sources
        .path(file)
        .file_stem()
        .map_or_else(String::new, |s| s.to_string_lossy().into_owned())
}

/// Where a file is in its version: its path relative to the root file's directory when it is
/// under it (`b.thrift`, `common/b.thrift`), else its path as loaded (from an include
/// directory both versions share).
fn place(program: &Program, file: FileId) -> std::path::PathBuf {
    let path = program.sources.path(file);
    let root = program.files().next().and_then(|f| {
        program
            .sources
            .path(f.id)
            .parent()
            .map(std::path::Path::to_path_buf)
    });
    match root.and_then(|root| {
        path.strip_prefix(&root)
            .ok()
            .map(std::path::Path::to_path_buf)
    }) {
        Some(relative) => relative,
        None => path.to_path_buf(),
    }
}

/// The new definition `o` became: the one of the same name in the file at the same place,
/// else in the only file of the same name, else the only one of that name anywhere (moved).
fn matching(old: &Program, o: DefId, new: &Program, new_defs: &[DefId]) -> Option<DefId> {
    let name = &old.definition(o).name().name;
    let same_name: Vec<DefId> = new_defs
        .iter()
        .copied()
        .filter(|&n| &new.definition(n).name().name == name)
        .collect();
    let old_place = place(old, o.file);
    let old_stem = stem(old, o.file);
    let same_stem: Vec<DefId> = same_name
        .iter()
        .copied()
        .filter(|&n| stem(new, n.file) == old_stem)
        .collect();
    same_name
        .iter()
        .copied()
        .find(|&n| place(new, n.file) == old_place)
        .or_else(|| (same_stem.len() == 1).then(|| same_stem[0]))
        .or_else(|| (same_name.len() == 1).then(|| same_name[0]))
}

/// A type with typedefs followed: what generated Rust names (`Named` keeps the definition's
/// name and kind).
#[derive(Debug, Clone, PartialEq, Eq)]
enum Shape {
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
    fn of(program: &Program, file: FileId, ty: &Type) -> Shape {
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
    fn wire(&self) -> String {
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

    fn describe(&self) -> String {
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

/// What a list of fields belongs to, for messages and for the rules that differ.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Owner {
    /// A struct, union or exception's fields.
    Struct,
    /// A function's parameters.
    Params,
    /// A function's `throws`.
    Throws,
}

struct Compare<'a> {
    old: &'a Program,
    new: &'a Program,
    changes: Vec<Change>,
}

impl Compare<'_> {
    fn push(
        &mut self,
        rule: &'static str,
        class: Class,
        message: String,
        new: Option<Span>,
        old: Option<Span>,
    ) {
        self.changes.push(Change {
            rule,
            class,
            message,
            new,
            old,
        });
    }

    fn removed_definition(&mut self, o: DefId) {
        let def = self.old.definition(o);
        let (class, what) = match def {
            Definition::Service(_) => (Class::Wire, "its clients' calls fail"),
            _ => (Class::Source, "its generated Rust item is gone"),
        };
        self.push(
            "definition-removed",
            class,
            format!("{} `{}` removed: {what}", def.keyword(), def.name().name),
            None,
            Some(def.name().span),
        );
    }

    fn definition(&mut self, o: DefId, n: DefId) {
        let (od, nd) = (self.old.definition(o), self.new.definition(n));
        let name = &nd.name().name;
        let (old_stem, new_stem) = (stem(self.old, o.file), stem(self.new, n.file));
        if old_stem != new_stem || place(self.old, o.file) != place(self.new, n.file) {
            self.push(
                "definition-moved",
                Class::Source,
                format!(
                    "{} `{name}` moved from `{}` to `{}`: its Rust path changes to the `{}` module",
                    nd.keyword(),
                    place(self.old, o.file).display(),
                    place(self.new, n.file).display(),
                    ident::field_name(&new_stem)
                ),
                Some(nd.name().span),
                Some(od.name().span),
            );
        }
        match (od, nd) {
            (Definition::Struct(os), Definition::Struct(ns)) => {
                if os.kind != ns.kind {
                    // A union reader rejects a struct with several fields set; a struct and an
                    // exception agree on the wire.
                    let class = if os.kind == StructKind::Union || ns.kind == StructKind::Union {
                        Class::Wire
                    } else {
                        Class::Source
                    };
                    self.push(
                        "definition-kind-changed",
                        class,
                        format!(
                            "`{name}` changed from {} to {}",
                            os.kind.keyword(),
                            ns.kind.keyword()
                        ),
                        Some(ns.name.span),
                        Some(os.name.span),
                    );
                }
                self.rust_name(
                    &os.name.name,
                    &os.annotations,
                    &ns.name.name,
                    &ns.annotations,
                    ns.name.span,
                    os.name.span,
                );
                self.fields(
                    Owner::Struct,
                    name,
                    (o.file, &os.fields),
                    (n.file, &ns.fields),
                    ns.name.span,
                );
            }
            (Definition::Enum(oe), Definition::Enum(ne)) => {
                for ov in &oe.values {
                    match ne.values.iter().find(|v| v.name.name == ov.name.name) {
                        Some(nv) if nv.value != ov.value => self.push(
                            "enum-value-changed",
                            Class::Wire,
                            format!(
                                "`{name}.{}` changed from {} to {}",
                                nv.name.name, ov.value, nv.value
                            ),
                            Some(nv.span),
                            Some(ov.span),
                        ),
                        Some(_) => {}
                        None => match ne.values.iter().find(|v| v.value == ov.value) {
                            Some(nv)
                                if ident::const_name(&nv.name.name)
                                    == ident::const_name(&ov.name.name) => {}
                            Some(nv) => self.push(
                                "enum-value-renamed",
                                Class::Source,
                                format!(
                                    "`{name}.{}` ({}) renamed to `{}`",
                                    ov.name.name, ov.value, nv.name.name
                                ),
                                Some(nv.span),
                                Some(ov.span),
                            ),
                            None => self.push(
                                "enum-value-removed",
                                Class::Wire,
                                format!(
                                    "`{name}.{}` ({}) removed: old writers may still send it",
                                    ov.name.name, ov.value
                                ),
                                Some(ne.name.span),
                                Some(ov.span),
                            ),
                        },
                    }
                }
                for nv in &ne.values {
                    let known = oe
                        .values
                        .iter()
                        .any(|v| v.name.name == nv.name.name || v.value == nv.value);
                    if !known {
                        self.push(
                            "enum-value-added",
                            Class::Safe,
                            format!("`{name}.{}` ({}) added", nv.name.name, nv.value),
                            Some(nv.span),
                            None,
                        );
                    }
                }
            }
            (Definition::Typedef(ot), Definition::Typedef(nt)) => {
                self.types(
                    "typedef-changed",
                    true,
                    &format!("typedef `{name}`"),
                    (o.file, &ot.ty),
                    (n.file, &nt.ty),
                    nt.ty.span,
                    ot.ty.span,
                );
            }
            (Definition::Const(oc), Definition::Const(nc)) => {
                self.types(
                    "const-type-changed",
                    false,
                    &format!("const `{name}`"),
                    (o.file, &oc.ty),
                    (n.file, &nc.ty),
                    nc.ty.span,
                    oc.ty.span,
                );
                if !same_value(&oc.value, &nc.value) {
                    self.push(
                        "const-value-changed",
                        Class::Safe,
                        format!("the value of const `{name}` changed"),
                        Some(nc.value.span),
                        Some(oc.value.span),
                    );
                }
            }
            (Definition::Service(os), Definition::Service(ns)) => self.service(o, os, n, ns),
            (Definition::Senum(_), Definition::Senum(_)) => {}
            (od, nd) => self.push(
                "definition-kind-changed",
                Class::Wire,
                format!("`{name}` changed from {} to {}", od.keyword(), nd.keyword()),
                Some(nd.name().span),
                Some(od.name().span),
            ),
        }
    }

    /// A Rust type name that changed although the IDL name did not (a `rust.name`).
    fn rust_name(
        &mut self,
        old_name: &str,
        old_annotations: &[thrift_idl_parser::ast::Annotation],
        new_name: &str,
        new_annotations: &[thrift_idl_parser::ast::Annotation],
        new: Span,
        old: Span,
    ) {
        let rust = |name: &str, annotations| {
            ident::explicit_name(annotations).map_or_else(|| ident::type_name(name), str::to_owned)
        };
        let (o, n) = (
            rust(old_name, old_annotations),
            rust(new_name, new_annotations),
        );
        if o != n {
            self.push(
                "rust-name-changed",
                Class::Source,
                format!("the Rust name of `{new_name}` changed from `{o}` to `{n}`"),
                Some(new),
                Some(old),
            );
        }
    }

    /// Compares two types; `on_wire`: whether values of it are sent (a const's are not).
    #[allow(clippy::too_many_arguments)]
    fn types(
        &mut self,
        rule: &'static str,
        on_wire: bool,
        what: &str,
        old: (FileId, &Type),
        new: (FileId, &Type),
        new_span: Span,
        old_span: Span,
    ) -> bool {
        let o = Shape::of(self.old, old.0, old.1);
        let n = Shape::of(self.new, new.0, new.1);
        if o == n {
            return false;
        }
        let class = if !on_wire || o.wire() == n.wire() {
            Class::Source
        } else {
            Class::Wire
        };
        self.push(
            rule,
            class,
            format!(
                "the type of {what} changed from `{}` to `{}`",
                o.describe(),
                n.describe()
            ),
            Some(new_span),
            Some(old_span),
        );
        true
    }

    fn fields(
        &mut self,
        owner: Owner,
        name: &str,
        old: (FileId, &[Field]),
        new: (FileId, &[Field]),
        new_owner_span: Span,
    ) {
        let noun = match owner {
            Owner::Struct => "field",
            Owner::Params => "parameter",
            Owner::Throws => "exception",
        };
        for of in old.1 {
            let what = format!("{noun} `{}` of `{name}`", of.name.name);
            let Some(nf) = new.1.iter().find(|f| f.id == of.id) else {
                if let Some(nf) = new.1.iter().find(|f| f.name.name == of.name.name) {
                    self.push(
                        "field-id-changed",
                        Class::Wire,
                        format!("the id of {what} changed from {} to {}", of.id, nf.id),
                        Some(nf.span),
                        Some(of.span),
                    );
                    continue;
                }
                let (class, why) = match owner {
                    Owner::Struct if of.requiredness == Requiredness::Required => {
                        (Class::Wire, "old readers require it")
                    }
                    Owner::Struct | Owner::Params => (Class::Source, "its generated Rust is gone"),
                    Owner::Throws => (
                        Class::Source,
                        "the variant of the error enum is gone; new servers never send it",
                    ),
                };
                self.push(
                    "field-removed",
                    class,
                    format!("{what} (id {}) removed: {why}", of.id),
                    Some(new_owner_span),
                    Some(of.span),
                );
                continue;
            };
            let what = format!("{noun} {} of `{name}`", nf.id);
            if field_rust_name(of) != field_rust_name(nf) {
                self.push(
                    "field-renamed",
                    Class::Source,
                    format!(
                        "{what} renamed from `{}` to `{}`",
                        of.name.name, nf.name.name
                    ),
                    Some(nf.name.span),
                    Some(of.name.span),
                );
            }
            self.types(
                "field-type-changed",
                true,
                &what,
                (old.0, &of.ty),
                (new.0, &nf.ty),
                nf.ty.span,
                of.ty.span,
            );
            if owner == Owner::Struct && of.requiredness != nf.requiredness {
                let required = |r| r == Requiredness::Required;
                let class = if required(of.requiredness) || required(nf.requiredness) {
                    Class::Wire
                } else {
                    Class::Source
                };
                self.push(
                    "field-requiredness-changed",
                    class,
                    format!(
                        "{what} changed from {} to {}",
                        requiredness(of.requiredness),
                        requiredness(nf.requiredness)
                    ),
                    Some(nf.span),
                    Some(of.span),
                );
            }
            match (&of.default, &nf.default) {
                (Some(a), Some(b)) if same_value(a, b) => {}
                (None, None) => {}
                (_, b) => self.push(
                    "field-default-changed",
                    Class::Safe,
                    format!("the default of {what} changed"),
                    Some(b.as_ref().map_or(nf.span, |v| v.span)),
                    Some(of.default.as_ref().map_or(of.span, |v| v.span)),
                ),
            }
        }
        for nf in new.1 {
            let known = old
                .1
                .iter()
                .any(|f| f.id == nf.id || f.name.name == nf.name.name);
            if known {
                continue;
            }
            let what = format!("{noun} `{}` (id {}) of `{name}`", nf.name.name, nf.id);
            let (class, why) = match owner {
                Owner::Struct if nf.requiredness == Requiredness::Required => {
                    (Class::Wire, ": old writers do not send it")
                }
                Owner::Struct => (Class::Safe, ""),
                Owner::Params => (
                    Class::Source,
                    ": the generated method takes one more argument (old clients do not send it)",
                ),
                Owner::Throws => (
                    Class::Wire,
                    ": old clients cannot read it when it is thrown",
                ),
            };
            self.push(
                "field-added",
                class,
                format!("{what} added{why}"),
                Some(nf.span),
                None,
            );
        }
    }

    fn service(&mut self, o: DefId, os: &Service, n: DefId, ns: &Service) {
        let name = &ns.name.name;
        let parent = |program: &Program, id: DefId, s: &Service| {
            let (_, p) = program.parent_service(id, s)?;
            Some(p.name.name.clone())
        };
        let (op, np) = (parent(self.old, o, os), parent(self.new, n, ns));
        let extends_changed = op != np;
        if extends_changed {
            self.push(
                "service-extends-changed",
                Class::Source,
                format!(
                    "`{name}` extends {} instead of {}",
                    np.map_or("nothing".into(), |p| format!("`{p}`")),
                    op.map_or("nothing".into(), |p| format!("`{p}`"))
                ),
                Some(ns.name.span),
                Some(os.name.span),
            );
        }
        let old_functions = functions(self.old, o, os);
        let new_functions = functions(self.new, n, ns);
        for (fname, &(ofile, of, own)) in &old_functions {
            let Some(&(nfile, nf, _)) = new_functions.get(fname) else {
                // An inherited function is reported where it is declared, unless the service
                // no longer extends the one that declares it.
                if own || extends_changed {
                    self.push(
                        "function-removed",
                        Class::Wire,
                        format!("function `{name}.{fname}` removed: old clients' calls fail"),
                        Some(ns.name.span),
                        Some(of.name.span),
                    );
                }
                continue;
            };
            if !own {
                continue;
            }
            let what = format!("`{name}.{fname}`");
            if of.oneway != nf.oneway {
                self.push(
                    "function-oneway-changed",
                    Class::Wire,
                    format!(
                        "{what} is {}oneway now: old {} wait for a reply that never comes, or ignore one",
                        if nf.oneway { "" } else { "not " },
                        if nf.oneway { "clients" } else { "servers" }
                    ),
                    Some(nf.name.span),
                    Some(of.name.span),
                );
            }
            match (&of.return_type, &nf.return_type) {
                (Some(a), Some(b)) => {
                    let b_span = b.span;
                    self.types(
                        "function-return-changed",
                        true,
                        &format!("the result of {what}"),
                        (ofile, a),
                        (nfile, b),
                        b_span,
                        a.span,
                    );
                }
                (None, None) => {}
                (a, b) => self.push(
                    "function-return-changed",
                    Class::Wire,
                    format!(
                        "{what} returns {} instead of {}",
                        if b.is_some() { "a value" } else { "void" },
                        if a.is_some() { "a value" } else { "void" }
                    ),
                    Some(nf.name.span),
                    Some(of.name.span),
                ),
            }
            let label = format!("{name}.{fname}");
            self.fields(
                Owner::Params,
                &label,
                (ofile, &of.params),
                (nfile, &nf.params),
                nf.name.span,
            );
            self.fields(
                Owner::Throws,
                &label,
                (ofile, &of.throws),
                (nfile, &nf.throws),
                nf.name.span,
            );
        }
        for (fname, &(_, nf, own)) in &new_functions {
            if own && !old_functions.contains_key(fname) {
                self.push(
                    "function-added",
                    Class::Safe,
                    format!("function `{name}.{fname}` added"),
                    Some(nf.name.span),
                    None,
                );
            }
        }
    }
}

/// A service's functions by name, its own and inherited: (file, function, its own).
fn functions<'p>(
    program: &'p Program,
    id: DefId,
    s: &'p Service,
) -> BTreeMap<String, (FileId, &'p Function, bool)> {
    let mut out = BTreeMap::new();
    let mut current = Some((id, s));
    let mut own = true;
    for _ in 0..1000 {
        let Some((declaring, s)) = current else {
            break;
        };
        for f in &s.functions {
            out.entry(f.name.name.clone())
                .or_insert((declaring.file, f, own));
        }
        own = false;
        current = program.parent_service(declaring, s);
    }
    out
}

fn field_rust_name(f: &Field) -> String {
    ident::explicit_name(&f.annotations)
        .map_or_else(|| ident::field_name(&f.name.name), str::to_owned)
}

fn requiredness(r: Requiredness) -> &'static str {
    match r {
        Requiredness::Required => "required",
        Requiredness::Optional => "optional",
        Requiredness::Default => "default requiredness",
    }
}

/// Whether two const values are the same, spans aside.
fn same_value(a: &ConstValue, b: &ConstValue) -> bool {
    use thrift_idl_parser::ast::ConstValueKind as K;
    match (&a.kind, &b.kind) {
        (K::List(x), K::List(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same_value(a, b))
        }
        (K::Map(x), K::Map(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y)
                    .all(|((ak, av), (bk, bv))| same_value(ak, bk) && same_value(av, bv))
        }
        (K::Double(x), K::Double(y)) => x.to_bits() == y.to_bits(),
        (x, y) => x == y,
    }
}
