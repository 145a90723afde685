//! Compiles the golden files of `thrift-codegen` (`thrift-codegen/tests/golden/*.rs`) as a
//! consuming crate would, so that rustc, clippy and rustdoc check the generated code; the
//! tests in `tests/` round-trip the generated types.

pub mod alloc;
pub mod fuzz;
pub mod samples;

/// One module per golden fixture.
pub mod golden {
    pub mod fixture_attributes {
        include!("../../thrift-codegen/tests/golden/attributes.rs");
    }
    pub mod fixture_base_types {
        include!("../../thrift-codegen/tests/golden/base_types.rs");
    }
    pub mod fixture_base_types_bytes {
        include!("../../thrift-codegen/tests/golden/base_types_bytes.rs");
    }
    pub mod fixture_base_types_compact {
        include!("../../thrift-codegen/tests/golden/base_types_compact.rs");
    }
    pub mod fixture_consts {
        include!("../../thrift-codegen/tests/golden/consts.rs");
    }
    pub mod fixture_consts_bytes {
        include!("../../thrift-codegen/tests/golden/consts_bytes.rs");
    }
    pub mod fixture_consts_compact {
        include!("../../thrift-codegen/tests/golden/consts_compact.rs");
    }
    pub mod fixture_consts_hash {
        include!("../../thrift-codegen/tests/golden/consts_hash.rs");
    }
    pub mod fixture_consts_hasher {
        include!("../../thrift-codegen/tests/golden/consts_hasher.rs");
    }
    pub mod fixture_containers {
        include!("../../thrift-codegen/tests/golden/containers.rs");
    }
    pub mod fixture_containers_bytes {
        include!("../../thrift-codegen/tests/golden/containers_bytes.rs");
    }
    pub mod fixture_containers_compact {
        include!("../../thrift-codegen/tests/golden/containers_compact.rs");
    }
    pub mod fixture_containers_hash {
        include!("../../thrift-codegen/tests/golden/containers_hash.rs");
    }
    pub mod fixture_containers_hasher {
        include!("../../thrift-codegen/tests/golden/containers_hasher.rs");
    }
    pub mod fixture_docs {
        include!("../../thrift-codegen/tests/golden/docs.rs");
    }
    pub mod fixture_enums {
        include!("../../thrift-codegen/tests/golden/enums.rs");
    }
    pub mod fixture_exceptions {
        include!("../../thrift-codegen/tests/golden/exceptions.rs");
    }
    pub mod fixture_included_const {
        include!("../../thrift-codegen/tests/golden/included_const.rs");
    }
    pub mod fixture_mappings {
        include!("../../thrift-codegen/tests/golden/mappings.rs");
    }
    pub mod fixture_names {
        include!("../../thrift-codegen/tests/golden/names.rs");
    }
    pub mod fixture_services {
        include!("../../thrift-codegen/tests/golden/services.rs");
    }
    pub mod fixture_services_base {
        include!("../../thrift-codegen/tests/golden/services_base.rs");
    }
    pub mod fixture_namespaced {
        include!("../../thrift-codegen/tests/golden/namespaced.rs");
    }
    pub mod fixture_namespaced_other {
        include!("../../thrift-codegen/tests/golden/namespaced_other.rs");
    }
    pub mod fixture_recursion {
        include!("../../thrift-codegen/tests/golden/recursion.rs");
    }
    pub mod fixture_typedefs {
        include!("../../thrift-codegen/tests/golden/typedefs.rs");
    }
    pub mod fixture_typedefs_hash {
        include!("../../thrift-codegen/tests/golden/typedefs_hash.rs");
    }
    pub mod fixture_serde {
        include!("../../thrift-codegen/tests/golden/serde.rs");
    }
    pub mod fixture_serde_bytes {
        include!("../../thrift-codegen/tests/golden/serde_bytes.rs");
    }
    pub mod fixture_serde_compact {
        include!("../../thrift-codegen/tests/golden/serde_compact.rs");
    }
    pub mod fixture_serde_hash {
        include!("../../thrift-codegen/tests/golden/serde_hash.rs");
    }
    pub mod fixture_unions {
        include!("../../thrift-codegen/tests/golden/unions.rs");
    }
    pub mod fixture_unknown_fields {
        include!("../../thrift-codegen/tests/golden/unknown_fields.rs");
    }
    pub mod fixture_unknown_fields_serde {
        include!("../../thrift-codegen/tests/golden/unknown_fields_serde.rs");
    }
}
