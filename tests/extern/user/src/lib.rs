//! `user.thrift`, with the types of `common.thrift` taken from `thrift-extern-common`.

include!(concat!(env!("OUT_DIR"), "/thrift.rs"));

/// The same IDL with everything generated in this crate, for comparison.
pub mod full {
    include!(concat!(env!("OUT_DIR"), "/full/thrift.rs"));
}
