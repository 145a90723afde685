//! Which struct fields must be boxed: a field whose type (through typedefs, not through
//! containers, which already allocate) is a struct of the same strongly connected component
//! of the "contains inline" graph; and a field that would nest structs inline deeper than
//! [`MAX_INLINE_DEPTH`].

use std::collections::{BTreeSet, HashMap};

use thrift_idl_parser::DefId;
use thrift_idl_parser::ast::Definition;

use super::{Model, Resolved};

pub fn boxed_fields(model: &Model<'_>) -> BTreeSet<(DefId, usize)> {
    // Edges: struct -> (field index, struct it contains inline).
    let mut edges: HashMap<DefId, Vec<(usize, DefId)>> = HashMap::new();
    let mut nodes = Vec::new();
    for file in model.program.files() {
        for (index, definition) in file.document.definitions.iter().enumerate() {
            let Definition::Struct(s) = definition else {
                continue;
            };
            let id = DefId {
                file: file.id,
                index,
            };
            nodes.push(id);
            let out = edges.entry(id).or_default();
            for (field_index, field) in s.fields.iter().enumerate() {
                if let Resolved::Struct(target, _) = model.resolve(file.id, &field.ty) {
                    out.push((field_index, target));
                }
            }
        }
    }
    let component = strongly_connected(&nodes, &edges);
    let mut boxed = BTreeSet::new();
    for (from, out) in &edges {
        for &(field, to) in out {
            if component[from] == component[&to] {
                boxed.insert((*from, field));
            }
        }
    }
    box_deep_chains(&nodes, &edges, &component, &mut boxed);
    boxed
}

/// How many types deep a struct may hold other structs inline, counting each struct and
/// each `Option` around one as a level. rustc computes a type's layout (and proves its auto
/// traits) one query level per type it holds inline, and stops at `recursion_limit` (128 by
/// default): generated code for `RecursionDepthTest.thrift`'s 65 nested optional structs
/// (130 levels) did not compile. Half the limit leaves room for the args, result and future
/// types around a struct, and keeps 32 optional structs nested inline, more than real IDL
/// nests.
const MAX_INLINE_DEPTH: usize = 64;

/// Boxes the fields through which a struct would hold others inline deeper than
/// [`MAX_INLINE_DEPTH`] (a `Box` is one level whatever it points to). Every field costs two
/// levels (the struct and an `Option`: borrowing forms hold fields with IDL defaults as
/// `Option`s, and the count must hold for both forms).
fn box_deep_chains(
    nodes: &[DefId],
    edges: &HashMap<DefId, Vec<(usize, DefId)>>,
    component: &HashMap<DefId, usize>,
    boxed: &mut BTreeSet<(DefId, usize)>,
) {
    // Tarjan numbers a component after every component it reaches, and the edges left
    // unboxed join different components: in this order a struct's targets come first.
    let mut order: Vec<DefId> = nodes.to_vec();
    order.sort_by_key(|id| (component[id], *id));
    let mut depth: HashMap<DefId, usize> = HashMap::new();
    for id in order {
        let mut own = 1;
        for &(field, target) in edges.get(&id).map_or(&[][..], Vec::as_slice) {
            if boxed.contains(&(id, field)) {
                continue;
            }
            let through = 2 + depth.get(&target).copied().unwrap_or(1);
            if through > MAX_INLINE_DEPTH {
                boxed.insert((id, field));
            } else {
                own = own.max(through);
            }
        }
        depth.insert(id, own);
    }
}

/// Tarjan's algorithm, iterative (IDL type graphs can be deep); returns a component number per
/// node.
fn strongly_connected(
    nodes: &[DefId],
    edges: &HashMap<DefId, Vec<(usize, DefId)>>,
) -> HashMap<DefId, usize> {
    let mut index: HashMap<DefId, usize> = HashMap::new();
    let mut low: HashMap<DefId, usize> = HashMap::new();
    let mut on_stack: BTreeSet<DefId> = BTreeSet::new();
    let mut stack: Vec<DefId> = Vec::new();
    let mut component: HashMap<DefId, usize> = HashMap::new();
    let mut next_index = 0;
    let mut next_component = 0;
    let empty = Vec::new();

    for &root in nodes {
        if index.contains_key(&root) {
            continue;
        }
        // (node, position in its edge list)
        let mut work: Vec<(DefId, usize)> = vec![(root, 0)];
        index.insert(root, next_index);
        low.insert(root, next_index);
        next_index += 1;
        stack.push(root);
        on_stack.insert(root);
        while let Some(&mut (node, ref mut position)) = work.last_mut() {
            let out = edges.get(&node).unwrap_or(&empty);
            if *position < out.len() {
                let (_, next) = out[*position];
                *position += 1;
                if let std::collections::hash_map::Entry::Vacant(slot) = index.entry(next) {
                    slot.insert(next_index);
                    low.insert(next, next_index);
                    next_index += 1;
                    stack.push(next);
                    on_stack.insert(next);
                    work.push((next, 0));
                } else if on_stack.contains(&next) {
                    let l = low[&node].min(index[&next]);
                    low.insert(node, l);
                }
            } else {
                work.pop();
                if let Some(&(parent, _)) = work.last() {
                    let l = low[&parent].min(low[&node]);
                    low.insert(parent, l);
                }
                if low[&node] == index[&node] {
                    loop {
                        let member = stack.pop().expect("node is on the stack");
                        on_stack.remove(&member);
                        component.insert(member, next_component);
                        if member == node {
                            break;
                        }
                    }
                    next_component += 1;
                }
            }
        }
    }
    component
}
