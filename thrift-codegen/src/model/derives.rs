//! Which of `Eq`, `Hash`, `PartialOrd`, `Ord` and `Default` each struct, union and exception
//! can derive: a trait is derived when every field's type allows it. `Debug`, `Clone` and
//! `PartialEq` are always derived; `PartialOrd` unless a field holds a `HashSet`/`HashMap`
//! ([`crate::options::Collections::Hash`]).

use std::collections::HashMap;

use thrift_idl_parser::ast::{BaseType, Definition, Requiredness, StructKind, Type};
use thrift_idl_parser::{DefId, FileId};

use super::{Mapping, Model, Resolved};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Derives {
    pub eq: bool,
    pub hash: bool,
    pub partial_ord: bool,
    pub ord: bool,
    pub default: bool,
}

impl Default for Derives {
    fn default() -> Derives {
        Derives::ALL
    }
}

impl Derives {
    pub const ALL: Derives = Derives {
        eq: true,
        hash: true,
        partial_ord: true,
        ord: true,
        default: true,
    };

    /// Nothing beyond `Debug`, `Clone` and `PartialEq` (the args and result structs).
    pub const NONE: Derives = Derives {
        eq: false,
        hash: false,
        partial_ord: false,
        ord: false,
        default: false,
    };

    /// What a `HashSet`/`HashMap` allows on top of its elements: no `Hash`, no ordering.
    const HASHED: Derives = Derives {
        eq: true,
        hash: false,
        partial_ord: false,
        ord: false,
        default: true,
    };

    fn with_default(self) -> Derives {
        Derives {
            default: true,
            ..self
        }
    }

    fn and(self, other: Derives) -> Derives {
        Derives {
            eq: self.eq && other.eq,
            hash: self.hash && other.hash,
            partial_ord: self.partial_ord && other.partial_ord,
            ord: self.ord && other.ord,
            default: self.default && other.default,
        }
    }
}

pub fn compute(model: &Model<'_>) -> HashMap<DefId, Derives> {
    let mut derives: HashMap<DefId, Derives> = HashMap::new();
    let mut structs = Vec::new();
    for file in model.program.files() {
        for (index, definition) in file.document.definitions.iter().enumerate() {
            if let Definition::Struct(s) = definition {
                let id = DefId {
                    file: file.id,
                    index,
                };
                derives.insert(id, Derives::ALL);
                structs.push((id, s));
            }
        }
    }
    // Greatest fixed point: start from "everything", remove what a field forbids, repeat.
    loop {
        let mut changed = false;
        for &(id, s) in &structs {
            let mut result = Derives::ALL;
            for (index, field) in s.fields.iter().enumerate() {
                let mapping = model
                    .field_mapping(id, index)
                    .unwrap_or_else(|| model.global_mapping());
                let key = model.is_key_struct(id);
                let mut allows = type_allows(model, mapping, &derives, id.file, &field.ty, key);
                let boxed = model.is_boxed(id, index);
                let optional =
                    s.kind != StructKind::Union && field.requiredness == Requiredness::Optional;
                // A default-requiredness field whose type has no default value is held as an
                // `Option` (see `Model::holds_as_option`).
                let wrapped_in_option = optional
                    || (s.kind != StructKind::Union
                        && field.requiredness == Requiredness::Default
                        && (boxed || !allows.default));
                if wrapped_in_option {
                    allows.default = true;
                } else if boxed {
                    // A required recursive field has no finite default value.
                    allows.default = false;
                }
                if s.kind == StructKind::Union {
                    // A union defaults to its first variant.
                    if index > 0 {
                        allows.default = true;
                    } else if boxed {
                        allows.default = false;
                    }
                }
                result = result.and(allows);
            }
            if s.kind == StructKind::Union && s.fields.is_empty() {
                result.default = false;
            }
            if derives[&id] != result {
                derives.insert(id, result);
                changed = true;
            }
        }
        if !changed {
            return derives;
        }
    }
}

/// What a field of this type allows. `in_key`: inside a set element or map key, where doubles
/// are wrapped in the ordered float type.
pub fn type_allows(
    model: &Model<'_>,
    mapping: Mapping,
    derives: &HashMap<DefId, Derives>,
    file: FileId,
    ty: &Type,
    in_key: bool,
) -> Derives {
    // A container allows what its elements allow (less `Hash` and the orderings when it is a
    // `HashSet`/`HashMap`).
    let (elements, hashed) = match model.resolve(file, ty) {
        Resolved::Base(BaseType::Double) if !in_key => {
            return Derives {
                eq: false,
                hash: false,
                partial_ord: true,
                ord: false,
                default: true,
            };
        }
        Resolved::Base(_) | Resolved::Enum(_) | Resolved::Senum => return Derives::ALL,
        Resolved::Struct(id, _) => return derives.get(&id).copied().unwrap_or(Derives::ALL),
        Resolved::List(f, e) => (type_allows(model, mapping, derives, f, e, in_key), false),
        Resolved::Set(f, e) => (
            type_allows(model, mapping, derives, f, e, true),
            mapping.hashed(in_key),
        ),
        Resolved::Map(f, k, v) => (
            type_allows(model, mapping, derives, f, k, true)
                .and(type_allows(model, mapping, derives, f, v, in_key)),
            mapping.hashed(in_key),
        ),
    };
    let container = if hashed {
        elements.and(Derives::HASHED)
    } else {
        elements
    };
    // Every container is `Default` (empty), whatever its elements are.
    container.with_default()
}
