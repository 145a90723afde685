//! Definitions compared as a whole: removed, moved, of another kind; structs' names and
//! kinds, enum values, typedefs and consts.

use thrift_idl_parser::ast::{Const, Definition, Enum, Struct, StructKind};
use thrift_idl_parser::{DefId, FileId, Span};

use super::change::Class;
use super::comparison::{Compare, same_value};
use super::fields::Owner;
use super::matching::{place, stem};
use crate::ident;

impl Compare<'_> {
    pub(super) fn removed_definition(&mut self, o: DefId) {
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

    pub(super) fn definition(&mut self, o: DefId, n: DefId) {
        let (od, nd) = (self.old.definition(o), self.new.definition(n));
        let name = &nd.name().name;
        self.moved(o, n);
        match (od, nd) {
            (Definition::Struct(os), Definition::Struct(ns)) => {
                self.structs(name, (o.file, os), (n.file, ns));
            }
            (Definition::Enum(oe), Definition::Enum(ne)) => self.enum_values(name, oe, ne),
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
                self.consts(name, (o.file, oc), (n.file, nc));
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

    /// A definition in another file, or in a file at another place: another Rust module.
    fn moved(&mut self, o: DefId, n: DefId) {
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
    }

    /// A struct, union or exception: its kind, its Rust name, its fields.
    fn structs(&mut self, name: &str, old: (FileId, &Struct), new: (FileId, &Struct)) {
        let ((old_file, os), (new_file, ns)) = (old, new);
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
            (old_file, &os.fields),
            (new_file, &ns.fields),
            ns.name.span,
        );
    }

    /// An enum's values, matched by name, then by number.
    fn enum_values(&mut self, name: &str, oe: &Enum, ne: &Enum) {
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
                        if ident::const_name(&nv.name.name) == ident::const_name(&ov.name.name) => {
                    }
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

    /// A const's type (not on the wire: consts are not sent) and value.
    fn consts(&mut self, name: &str, old: (FileId, &Const), new: (FileId, &Const)) {
        let ((old_file, oc), (new_file, nc)) = (old, new);
        self.types(
            "const-type-changed",
            false,
            &format!("const `{name}`"),
            (old_file, &oc.ty),
            (new_file, &nc.ty),
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
}
