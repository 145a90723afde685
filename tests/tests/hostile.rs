//! Hostile bytes into generated decoders: truncated, mutated and random input gives
//! `Err`, never a panic, for owned and borrowing forms (and the `Collections::Hash` and
//! `Strings::Bytes` mappings), both protocols; nesting deeper than the
//! limit is an error, not a stack overflow.

use proptest::prelude::*;
use thrift_runtime::{Binary, Compact, ErrorKind, Limit, Protocol, ThriftRead, ThriftWrite};
use thrift_tests::golden::fixture_base_types::base_types::{BaseTypes, BaseTypesRef};
use thrift_tests::golden::fixture_base_types_bytes::base_types::BaseTypes as SharedBaseTypes;
use thrift_tests::golden::fixture_containers::containers::{Containers, ContainersRef};
use thrift_tests::golden::fixture_containers_bytes::containers::Containers as SharedContainers;
use thrift_tests::golden::fixture_containers_hash::containers::Containers as HashContainers;
use thrift_tests::golden::fixture_recursion::recursion::{Node, Tree};
use thrift_tests::golden::fixture_unions::unions::{Expr, HasUnion, HasUnionRef, Point, Shape};

/// Runs every decoder over `bytes`; only panics fail the test.
fn decode_everything(bytes: &[u8]) {
    fn each<P: Protocol>(bytes: &[u8]) {
        let _ = BaseTypes::decode::<P>(bytes);
        let _ = BaseTypesRef::decode::<P>(bytes);
        let _ = Containers::decode::<P>(bytes);
        let _ = ContainersRef::decode::<P>(bytes);
        let _ = HasUnion::decode::<P>(bytes);
        let _ = HasUnionRef::decode::<P>(bytes);
        let _ = Node::decode::<P>(bytes);
        let _ = Tree::decode::<P>(bytes);
        let _ = Expr::decode::<P>(bytes);
        // The other mappings: hash collections, and shared strings from a `Bytes`.
        let _ = HashContainers::decode::<P>(bytes);
        let buffer = thrift_runtime::Bytes::copy_from_slice(bytes);
        let _ = SharedBaseTypes::decode_bytes::<P>(&buffer);
        let _ = SharedContainers::decode_bytes::<P>(&buffer);
    }
    each::<Binary>(bytes);
    each::<Compact>(bytes);
}

fn samples() -> Vec<Vec<u8>> {
    let has_union = HasUnion {
        shape: Shape::Polygon(vec![Point { x: 1, y: -1 }, Point { x: 300, y: 70000 }]),
        expr: Some(Expr::Sum(vec![
            Expr::Literal(5),
            Expr::Negate(Box::new(Expr::Literal(-9))),
        ])),
    };
    let containers = Containers {
        matrix: vec![vec![1, 2], vec![]],
        tags: ["a".to_string(), "é".to_string()].into(),
        nested: [("k".to_string(), [(7, vec!["v".to_string()])].into())].into(),
        by_bytes: [(vec![1, 2, 3], true)].into(),
        flags: Some(vec![true, false]),
        ..Containers::default()
    };
    let mut out = Vec::new();
    for bytes in [
        has_union.encode_to_vec::<Binary>(),
        has_union.encode_to_vec::<Compact>(),
        containers.encode_to_vec::<Binary>(),
        containers.encode_to_vec::<Compact>(),
    ] {
        out.push(bytes.unwrap());
    }
    out
}

#[test]
fn every_truncation_is_an_error_not_a_panic() {
    for bytes in samples() {
        for end in 0..bytes.len() {
            decode_everything(&bytes[..end]);
        }
    }
}

#[test]
fn nesting_beyond_the_limit_is_an_error() {
    // `Expr::Negate` 10,000 deep: a union field 2 holding a union, and so on.
    let depth = 10_000;
    for compact in [false, true] {
        let mut bytes = Vec::new();
        for _ in 0..depth {
            if compact {
                bytes.push(0x2c); // delta 2, type struct
            } else {
                bytes.extend_from_slice(&[12, 0, 2]); // struct, field 2
            }
        }
        bytes.extend(std::iter::repeat_n(0u8, depth + 1));
        let error = if compact {
            Expr::decode::<Compact>(&bytes)
        } else {
            Expr::decode::<Binary>(&bytes)
        }
        .unwrap_err();
        assert!(
            matches!(error.kind(), ErrorKind::LimitExceeded(Limit::Depth)),
            "{error}"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, .. ProptestConfig::default() })]

    #[test]
    fn mutated_encodings(which in 0usize..4, flips in prop::collection::vec((any::<usize>(), any::<u8>()), 1..6)) {
        let mut bytes = samples().swap_remove(which);
        for (at, value) in flips {
            let len = bytes.len();
            bytes[at % len] = value;
        }
        decode_everything(&bytes);
    }

    #[test]
    fn random_bytes(bytes in prop::collection::vec(any::<u8>(), 0..256)) {
        decode_everything(&bytes);
    }
}
