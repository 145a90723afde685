//! The ThriftTest types (Apache Thrift's `test/ThriftTest.thrift`), generated at build time.

#[allow(missing_docs)]
pub mod generated {
    include!(concat!(env!("OUT_DIR"), "/thrift.rs"));
}

pub use generated::thrift_test as types;
