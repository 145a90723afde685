//! Which structs can be inside a set element or a map key (through fields, containers and
//! typedefs): they must be `Ord`, so their doubles use the ordered representation.

use std::collections::BTreeSet;

use thrift_idl_parser::ast::{BaseType, Definition, Type, TypeKind};
use thrift_idl_parser::{DefId, FileId};

use super::{Model, Resolved};

pub fn key_structs(model: &Model<'_>) -> BTreeSet<DefId> {
    let mut keys = BTreeSet::new();
    let mut work: Vec<(FileId, &Type)> = Vec::new();
    // Every key position written anywhere: field, typedef, const, argument and result types.
    for file in model.program.files() {
        let mut types: Vec<&Type> = Vec::new();
        for definition in &file.document.definitions {
            match definition {
                Definition::Const(c) => types.push(&c.ty),
                Definition::Typedef(t) => types.push(&t.ty),
                Definition::Struct(s) => types.extend(s.fields.iter().map(|f| &f.ty)),
                Definition::Service(s) => {
                    for function in &s.functions {
                        types.extend(function.return_type.iter());
                        types.extend(
                            function
                                .params
                                .iter()
                                .chain(&function.throws)
                                .map(|f| &f.ty),
                        );
                    }
                }
                Definition::Enum(_) | Definition::Senum(_) => {}
            }
        }
        for ty in types {
            collect_key_positions(file.id, ty, &mut work);
        }
    }
    // Everything reachable from a key position is in key position.
    while let Some((file, ty)) = work.pop() {
        match model.resolve(file, ty) {
            Resolved::Struct(id, s) => {
                if keys.insert(id) {
                    work.extend(s.fields.iter().map(|f| (id.file, &f.ty)));
                }
            }
            Resolved::List(f, e) | Resolved::Set(f, e) => work.push((f, e)),
            Resolved::Map(f, k, v) => {
                work.push((f, k));
                work.push((f, v));
            }
            Resolved::Base(_) | Resolved::Enum(_) | Resolved::Senum => {}
        }
    }
    keys
}

/// Pushes the set elements and map keys written inside `ty` (not following names: typedefs
/// are visited as definitions of their own).
fn collect_key_positions<'p>(file: FileId, ty: &'p Type, out: &mut Vec<(FileId, &'p Type)>) {
    match &ty.kind {
        TypeKind::Base(_) | TypeKind::Named(_) => {}
        TypeKind::List { element, .. } => collect_key_positions(file, element, out),
        TypeKind::Set { element, .. } => {
            out.push((file, element));
            collect_key_positions(file, element, out);
        }
        TypeKind::Map { key, value, .. } => {
            out.push((file, key));
            collect_key_positions(file, key, out);
            collect_key_positions(file, value, out);
        }
    }
}

/// Structs (and unions, exceptions) that hold a string or binary, directly or through fields,
/// containers and typedefs: the ones whose borrowing form differs from the owned one.
/// The structs that get a borrowing form: those holding strings or binaries (transitively),
/// or, given `roots`, those of them that the roots are or hold.
pub fn borrowing_structs(model: &Model<'_>, roots: Option<&[DefId]>) -> BTreeSet<DefId> {
    let all = all_borrowing_structs(model);
    let Some(roots) = roots else {
        return all;
    };
    let mut chosen = BTreeSet::new();
    let mut work: Vec<DefId> = roots
        .iter()
        .copied()
        .filter(|id| all.contains(id))
        .collect();
    while let Some(id) = work.pop() {
        if !chosen.insert(id) {
            continue;
        }
        if let Definition::Struct(s) = model.program.definition(id) {
            for field in &s.fields {
                held_structs(model, id.file, &field.ty, &mut |held| {
                    if all.contains(&held) && !chosen.contains(&held) {
                        work.push(held);
                    }
                });
            }
        }
    }
    chosen
}

/// Every struct a value of `ty` holds directly (through containers and typedefs).
fn held_structs(model: &Model<'_>, file: FileId, ty: &Type, found: &mut dyn FnMut(DefId)) {
    match model.resolve(file, ty) {
        Resolved::Struct(id, _) => found(id),
        Resolved::List(f, e) | Resolved::Set(f, e) => held_structs(model, f, e, found),
        Resolved::Map(f, k, v) => {
            held_structs(model, f, k, found);
            held_structs(model, f, v, found);
        }
        Resolved::Base(_) | Resolved::Enum(_) | Resolved::Senum => {}
    }
}

fn all_borrowing_structs(model: &Model<'_>) -> BTreeSet<DefId> {
    let mut structs = Vec::new();
    for file in model.program.files() {
        for (index, definition) in file.document.definitions.iter().enumerate() {
            if let Definition::Struct(s) = definition {
                structs.push((
                    DefId {
                        file: file.id,
                        index,
                    },
                    s,
                ));
            }
        }
    }
    let mut borrowing = BTreeSet::new();
    loop {
        let mut changed = false;
        for &(id, s) in &structs {
            if !borrowing.contains(&id)
                && s.fields.iter().enumerate().any(|(index, f)| {
                    borrows(model, &borrowing, id.file, &f.ty) || by_reference(model, id, index)
                })
            {
                borrowing.insert(id);
                changed = true;
            }
        }
        if !changed {
            return borrowing;
        }
    }
}

/// Whether a field of `ty` makes its struct borrow. In arena mode (`Builder::arena`) every
/// container does too: it is a slice of the arena (see [`by_reference`] for the fields that
/// are references into it).
fn borrows(model: &Model<'_>, borrowing: &BTreeSet<DefId>, file: FileId, ty: &Type) -> bool {
    let arena = model.options.arena;
    match model.resolve(file, ty) {
        Resolved::Base(BaseType::String | BaseType::Binary | BaseType::Slist) | Resolved::Senum => {
            true
        }
        Resolved::Base(_) | Resolved::Enum(_) => false,
        Resolved::Struct(id, _) => borrowing.contains(&id),
        Resolved::List(..) | Resolved::Set(..) | Resolved::Map(..) if arena => true,
        Resolved::List(f, e) | Resolved::Set(f, e) => borrows(model, borrowing, f, e),
        Resolved::Map(f, k, v) => {
            borrows(model, borrowing, f, k) || borrows(model, borrowing, f, v)
        }
    }
}

/// Whether field `index` of struct `id` is a reference into the arena in the borrowing forms
/// of arena mode (`Builder::arena`): a struct-typed field that is boxed (it breaks a
/// recursion, or was asked for) or `optional` (an unset one then costs a word, not the
/// struct). Its struct borrows (the reference's lifetime), whatever the field's type holds.
pub fn by_reference(model: &Model<'_>, id: DefId, index: usize) -> bool {
    if !model.options.arena {
        return false;
    }
    let Some(s) = model.struct_def(id) else {
        return false;
    };
    let field = &s.fields[index];
    matches!(model.resolve(id.file, &field.ty), Resolved::Struct(..))
        && (model.is_boxed(id, index)
            || (optional_struct_field(model, id, index) && !model.is_inline(id, index)))
}

/// Whether field `index` of struct `id` is an `optional` field of a struct or exception (not
/// a union's variant) whose type is a struct, union or exception: held by reference in arena
/// mode unless `Builder::arena_inline` names it, which only such a field can be.
pub fn optional_struct_field(model: &Model<'_>, id: DefId, index: usize) -> bool {
    use thrift_idl_parser::ast::{Requiredness, StructKind};
    let Some(s) = model.struct_def(id) else {
        return false;
    };
    let field = &s.fields[index];
    s.kind != StructKind::Union
        && field.requiredness == Requiredness::Optional
        && matches!(model.resolve(id.file, &field.ty), Resolved::Struct(..))
}
