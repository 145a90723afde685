//! The Rust names of everything generated for services, decided once for the whole program so
//! that no two items of a module share a name.
//!
//! IDL definitions keep the names [`Model::assign_names`](super::Model) gave them; the items
//! generated per service (`FooClient`, `FooGetArgs`, `dispatch_foo`…) take the next free name
//! when theirs is taken (`FooClient2`), in declaration order. Method names are unique along an
//! `extends` chain: a function of a child service whose Rust name a parent already uses
//! (`getFoo` under a parent's `get_foo`) gets a suffix (`get_foo_2`), so that calls on a handler
//! or a client are never ambiguous.

use std::collections::HashMap;

use thrift_idl_parser::ast::{
    Definition, Field, FieldIdKind, Function, Ident, Requiredness, Service, Struct, StructKind,
};
use thrift_idl_parser::{DefId, FileId};

use super::Model;
use crate::ident;

/// Names of the inherent methods every generated client and processor has.
const RESERVED_METHODS: &[&str] = &["new", "channel", "channel_mut", "into_channel", "handler"];

/// The Rust names of the items generated for one service.
#[derive(Debug, Clone)]
pub struct ServiceNames {
    pub async_trait: String,
    pub client: String,
    pub async_client: String,
    pub processor: String,
    pub async_processor: String,
    pub dispatch: String,
    pub dispatch_async: String,
    /// Per function of the service itself, in declaration order.
    pub functions: Vec<FunctionNames>,
}

/// The Rust names generated for one IDL function.
#[derive(Debug, Clone)]
pub struct FunctionNames {
    /// The method of the handler traits and clients.
    pub method: String,
    /// `{prefix}Args`, `{prefix}Result` and `{prefix}Error` are its items.
    pub prefix: String,
    /// Its args struct (see [`Model::message`]).
    pub args: DefId,
    /// Its result struct; `None` for a `oneway` function, which has none.
    pub result: Option<DefId>,
}

/// The names of every service's items, and the args and result structs of every function (by
/// ids after their file's own definitions).
pub fn assign(model: &Model<'_>) -> (HashMap<DefId, ServiceNames>, HashMap<DefId, Struct>) {
    let mut all = HashMap::new();
    let mut messages = HashMap::new();
    for file in model.program.files() {
        let mut next = file.document.definitions.len();
        let mut add = |message: Struct| {
            let id = DefId {
                file: file.id,
                index: next,
            };
            next += 1;
            messages.insert(id, message);
            id
        };
        let mut types = ident::Scope::new();
        let mut values = ident::Scope::new();
        for index in 0..file.document.definitions.len() {
            let id = DefId {
                file: file.id,
                index,
            };
            types.reserve(model.name(id));
            if model.is_borrowing(id) {
                types.reserve(model.ref_name(id));
            }
        }
        // Consts are the module's other values; their SCREAMING names cannot clash with the
        // snake-case dispatch functions, but reserve them all the same.
        for (index, definition) in file.document.definitions.iter().enumerate() {
            if let Definition::Const(_) = definition {
                values.reserve(model.name(DefId {
                    file: file.id,
                    index,
                }));
            }
        }
        for (index, definition) in file.document.definitions.iter().enumerate() {
            let Definition::Service(s) = definition else {
                continue;
            };
            let id = DefId {
                file: file.id,
                index,
            };
            let name = model.name(id).to_owned();
            let methods = method_names(model, id, s);
            let mut functions = Vec::with_capacity(s.functions.len());
            for (function, method) in s.functions.iter().zip(methods) {
                let base = format!("{name}{}", ident::type_name(&function.name.name));
                let prefix = free_prefix(&mut types, &base, &["Args", "Result", "Error"]);
                let args = add(args_struct(model, file.id, function));
                let result = (!function.oneway).then(|| add(result_struct(function)));
                functions.push(FunctionNames {
                    method,
                    prefix,
                    args,
                    result,
                });
            }
            let snake = ident::field_name(&name);
            let snake = snake.trim_start_matches("r#");
            let dispatch = free_prefix(&mut values, &format!("dispatch_{snake}"), &["", "_async"]);
            all.insert(
                id,
                ServiceNames {
                    async_trait: types.unique_camel(format!("{name}Async")),
                    client: types.unique_camel(format!("{name}Client")),
                    async_client: types.unique_camel(format!("{name}AsyncClient")),
                    processor: types.unique_camel(format!("{name}Processor")),
                    async_processor: types.unique_camel(format!("{name}AsyncProcessor")),
                    dispatch_async: format!("{dispatch}_async"),
                    dispatch,
                    functions,
                },
            );
        }
    }
    (all, messages)
}

/// The args struct of `f`, as Apache's generators define it: `{name}_args`, a field per
/// parameter, by its id. A parameter is held as its type (handlers and clients take it so);
/// one whose type has no `Default` to take when it is missing is `required` (missing is an
/// error; written the same).
fn args_struct(model: &Model<'_>, file: FileId, f: &Function) -> Struct {
    let params = f.params.iter().map(|p| {
        let mut field = message_field(p);
        if !model.has_default(file, &p.ty, false) {
            field.requiredness = Requiredness::Required;
        }
        field
    });
    message(f, "args", params.collect())
}

/// The result struct of `f`: `{name}_result`, with `success` (field 0) when it returns a
/// value, then the declared exceptions, all optional (one is set).
fn result_struct(f: &Function) -> Struct {
    let success = f.return_type.as_ref().map(|ty| Field {
        id: 0,
        id_kind: FieldIdKind::Explicit,
        requiredness: Requiredness::Optional,
        ty: ty.clone(),
        name: Ident {
            name: "success".to_owned(),
            span: ty.span,
        },
        default: None,
        reference: false,
        annotations: Vec::new(),
        doc: None,
        span: ty.span,
    });
    let throws = f.throws.iter().map(|t| Field {
        requiredness: Requiredness::Optional,
        ..message_field(t)
    });
    message(f, "result", success.into_iter().chain(throws).collect())
}

fn message(f: &Function, suffix: &str, fields: Vec<Field>) -> Struct {
    Struct {
        kind: StructKind::Struct,
        name: Ident {
            name: format!("{}_{suffix}", f.name.name),
            span: f.name.span,
        },
        fields,
        annotations: Vec::new(),
        doc: None,
        span: f.span,
    }
}

/// A parameter or exception as a message field. Its annotations are left behind: the
/// handler's and client's parameters do not read them (`rust.name` included), and the
/// field's name must be theirs.
fn message_field(field: &Field) -> Field {
    Field {
        annotations: Vec::new(),
        ..field.clone()
    }
}

/// The first of `base`, `base2`, `base3`… for which every `{prefix}{suffix}` is free; reserves
/// them all.
fn free_prefix(scope: &mut ident::Scope, base: &str, suffixes: &[&str]) -> String {
    let prefix = std::iter::once(base.to_owned())
        .chain((2..).map(|n| format!("{base}{n}")))
        .find(|p| suffixes.iter().all(|s| scope.is_free(&format!("{p}{s}"))))
        .expect("an unused suffix exists");
    for suffix in suffixes {
        scope.reserve(&format!("{prefix}{suffix}"));
    }
    prefix
}

/// The Rust method names of a service's own functions: unique, clear of the clients' and
/// processors' own methods and of every method the service inherits.
fn method_names(model: &Model<'_>, id: DefId, s: &Service) -> Vec<String> {
    let mut scope = ident::Scope::new();
    for name in RESERVED_METHODS {
        scope.reserve(name);
    }
    // Ancestors' names, computed the same way (the chain is acyclic: the checker requires a
    // service to be defined before it is extended; the bound guards against anything else).
    let mut ancestors = Vec::new();
    let mut current = model.program.parent_service(id, s);
    while let Some(p) = current {
        if ancestors.len() >= 1000 {
            break;
        }
        ancestors.push(p);
        current = model.program.parent_service(p.0, p.1);
    }
    for (_, p) in ancestors.iter().rev() {
        for function in &p.functions {
            scope.unique(ident::field_name(&function.name.name));
        }
    }
    s.functions
        .iter()
        .map(|f| scope.unique(ident::field_name(&f.name.name)))
        .collect()
}
