//! Any bytes through the generated decoders of the golden fixtures (every field kind,
//! recursion, unions, the type-mapping options), owned and borrowed, binary and compact, and
//! through `skip`. Whatever decodes must encode and decode again to the same value.
#![no_main]

use libfuzzer_sys::fuzz_target;
use thrift_runtime::{
    Binary, Compact, Protocol, ReadLimits, SliceInput, TType, ThriftRead, ThriftWrite,
};
use thrift_tests::golden::fixture_base_types::base_types::{BaseTypes, BaseTypesRef};
use thrift_tests::golden::fixture_containers::containers::{Containers, ContainersRef};
use thrift_tests::golden::fixture_containers_bytes::containers::Containers as BytesContainers;
use thrift_tests::golden::fixture_containers_hash::containers::Containers as HashContainers;
use thrift_tests::golden::fixture_recursion::recursion::{Node, Tree};
use thrift_tests::golden::fixture_unions::unions::{HasUnion, Shape};

/// Decodes as `T`; when that works, encode → decode gives the same value.
fn owned<T, P>(data: &[u8])
where
    T: for<'de> ThriftRead<'de> + ThriftWrite + PartialEq + std::fmt::Debug,
    P: Protocol,
{
    if let Ok(value) = T::decode::<P>(data) {
        let bytes = value.encode_to_vec::<P>().expect("a decoded value encodes");
        assert_eq!(bytes.len(), value.encoded_len::<P>());
        let again = T::decode::<P>(&bytes).expect("our own encoding decodes");
        // NaN is not equal to itself; the bytes then must be.
        if value == value {
            assert_eq!(again, value);
        } else {
            assert_eq!(again.encode_to_vec::<P>().unwrap(), bytes);
        }
    }
}

fn borrowed<'a, T: ThriftRead<'a>, P: Protocol>(data: &'a [u8]) {
    let _ = T::decode::<P>(data);
}

fn each<P: Protocol>(data: &[u8]) {
    owned::<BaseTypes, P>(data);
    owned::<Containers, P>(data);
    owned::<HashContainers, P>(data);
    owned::<Node, P>(data);
    owned::<Tree, P>(data);
    owned::<Shape, P>(data);
    owned::<HasUnion, P>(data);
    let _ = BytesContainers::decode::<P>(data);
    borrowed::<BaseTypesRef<'_>, P>(data);
    borrowed::<ContainersRef<'_>, P>(data);
}

/// `skip` of a struct (which nests every other type) from the start of the input.
fn skip<P: Protocol>(data: &[u8]) {
    let mut reader = P::reader(SliceInput::new(data), ReadLimits::default());
    let _ = thrift_runtime::skip_value(&mut reader, TType::Struct);
}

fuzz_target!(|data: &[u8]| {
    each::<Binary>(data);
    each::<Compact>(data);
    skip::<Binary>(data);
    skip::<Compact>(data);
});
