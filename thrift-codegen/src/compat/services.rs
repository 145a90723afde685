//! Services compared: `extends`, and functions by name (inherited ones included).

use std::collections::BTreeMap;

use thrift_idl_parser::ast::{Function, Service};
use thrift_idl_parser::{DefId, FileId, Program};

use super::change::Class;
use super::comparison::Compare;
use super::fields::Owner;

impl Compare<'_> {
    pub(super) fn service(&mut self, o: DefId, os: &Service, n: DefId, ns: &Service) {
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
