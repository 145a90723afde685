//! Which struct fields must be boxed: a field whose type (through typedefs, not through
//! containers, which already allocate) is a struct of the same strongly connected component
//! of the "contains inline" graph.

use std::collections::{BTreeSet, HashMap};

use thrift_idl_parser::ast::Definition;
use thrift_idl_parser::DefId;

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
    boxed
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
