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

mod change;
mod comparison;
mod definitions;
mod fields;
mod matching;
mod services;
mod shape;

use std::collections::HashSet;

use thrift_idl_parser::Program;

use comparison::Compare;
use matching::{definitions, matching};

pub use change::{Change, Class};

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
