//! The ThriftTest types (Apache Thrift's `test/ThriftTest.thrift`), generated at build time.

#[allow(missing_docs)]
pub mod generated {
    include!(concat!(env!("OUT_DIR"), "/thrift.rs"));
}

pub use generated::thrift_test as types;

/// The same types generated with `Strings::Bytes` and `Collections::Hash`.
#[allow(missing_docs)]
pub mod generated_shared {
    include!(concat!(env!("OUT_DIR"), "/shared/thrift.rs"));
}

pub use generated_shared::thrift_test as shared_types;

/// The same types keeping the fields they do not declare (`Builder::keep_unknown_fields`),
/// without services and borrowing forms.
#[allow(missing_docs)]
pub mod generated_unknown {
    include!(concat!(env!("OUT_DIR"), "/unknown/thrift.rs"));
}

pub use generated_unknown::thrift_test as unknown_types;

/// The same types in arena mode (`Builder::arena`): borrowing forms whose lists, sets, maps
/// and optional structs live in a `thrift_runtime::Arena`.
#[allow(missing_docs)]
pub mod generated_arena {
    include!(concat!(env!("OUT_DIR"), "/arena/thrift.rs"));
}

pub use generated_arena::thrift_test as arena_types;

pub mod args;
pub mod checks;
pub mod handler;
