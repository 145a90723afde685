//! Fields compared by id: those of structs, a function's parameters and its `throws`.

use thrift_idl_parser::ast::{Field, Requiredness};
use thrift_idl_parser::{FileId, Span};

use super::change::Class;
use super::comparison::{Compare, same_value};
use crate::ident;

/// What a list of fields belongs to, for messages and for the rules that differ.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Owner {
    /// A struct, union or exception's fields.
    Struct,
    /// A function's parameters.
    Params,
    /// A function's `throws`.
    Throws,
}

impl Compare<'_> {
    pub(super) fn fields(
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
