//! The comparison of two versions: the changes found so far, and what the comparisons of every
//! kind of definition share (types, const values).

use thrift_idl_parser::ast::{ConstValue, Type};
use thrift_idl_parser::{FileId, Program, Span};

use super::change::{Change, Class};
use super::shape::Shape;

pub(super) struct Compare<'a> {
    pub(super) old: &'a Program,
    pub(super) new: &'a Program,
    pub(super) changes: Vec<Change>,
}

impl Compare<'_> {
    pub(super) fn push(
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

    /// Compares two types; `on_wire`: whether values of it are sent (a const's are not).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn types(
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
}

/// Whether two const values are the same, spans aside.
pub(super) fn same_value(a: &ConstValue, b: &ConstValue) -> bool {
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
