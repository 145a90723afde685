//! The types of `common.thrift`, generated once, for other crates to share.

include!(concat!(env!("OUT_DIR"), "/thrift.rs"));

/// A function of this crate taking its own type: a value decoded by `thrift-extern-user`
/// must be accepted as it is.
pub fn norm(point: &common::Point) -> i64 {
    i64::from(point.x).abs() + i64::from(point.y).abs()
}
