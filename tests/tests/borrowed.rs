//! Borrowing forms (`FooRef<'de>`) and allocation counts.
//!
//! - Owned value → bytes → `FooRef` → owned again gives the value back, and the borrowing form
//!   re-encodes to the same bytes (both protocols).
//! - Allocations, counted per thread by a global allocator: encoding into a vector with enough
//!   capacity allocates nothing, `encode_to_vec` allocates exactly once, decoding an owned value
//!   allocates once per non-empty `String`/`Vec`/`Box`, and decoding a borrowing form of
//!   scalars, strings, binaries and nested structs allocates nothing.

use proptest::prelude::*;
use thrift_runtime::{Binary, Compact, Protocol, ReadLimits, SliceInput, ThriftRead, ThriftWrite};
use thrift_tests::alloc::{Counting, allocations};
use thrift_tests::golden::fixture_base_types::base_types::{
    BaseTypes, BaseTypesRef, Nested, NestedRef, OutOfOrder, Requiredness,
};
use thrift_tests::golden::fixture_base_types_bytes::base_types::BaseTypes as SharedBaseTypes;
use thrift_tests::golden::fixture_base_types_compact::base_types::{
    BaseTypes as CompactBaseTypes, Requiredness as CompactRequiredness,
};
use thrift_tests::golden::fixture_containers::containers::{Containers, ContainersRef};
use thrift_tests::golden::fixture_containers_hash::containers::Containers as HashContainers;
use thrift_tests::golden::fixture_containers_hasher::containers::Containers as HasherContainers;
use thrift_tests::golden::fixture_exceptions::exceptions::{NotFound, NotFoundRef};
use thrift_tests::golden::fixture_namespaced::org::example::api::{Request, RequestRef};
use thrift_tests::golden::fixture_namespaced::org::example::common::Header;
use thrift_tests::golden::fixture_recursion::recursion::{Node, Tree};
use thrift_tests::golden::fixture_unions::unions::{Point, Shape, ShapeRef};

#[global_allocator]
static GLOBAL: Counting = Counting;

fn base_types() -> BaseTypes {
    BaseTypes {
        a_bool: true,
        a_byte: -1,
        an_i8: 7,
        an_i16: -300,
        an_i32: 1 << 20,
        an_i64: i64::MIN,
        a_double: 2.5,
        a_string: "héllo".into(),
        a_binary: vec![0, 1, 2, 255],
        a_uuid: [9; 16],
    }
}

fn request() -> Request {
    Request {
        header: Header {
            trace_id: "abc-123".into(),
        },
    }
}

fn check_protocol<P: Protocol>() {
    // Writes: nothing allocated into a vector with enough capacity, one allocation otherwise.
    let value = base_types();
    let mut buffer = Vec::with_capacity(value.encoded_len::<P>());
    let ((), count) = allocations(|| value.encode::<P>(&mut buffer).unwrap());
    assert_eq!(count, 0, "encode into a pre-sized vector");
    let (bytes, count) = allocations(|| value.encode_to_vec::<P>().unwrap());
    assert_eq!(count, 1, "encode_to_vec");
    assert_eq!(bytes, buffer);
    // A reused buffer (cleared, its capacity kept): nothing allocated, same bytes.
    buffer.clear();
    let ((), count) = allocations(|| value.encode::<P>(&mut buffer).unwrap());
    assert_eq!(count, 0, "encode into a reused vector");
    assert_eq!(bytes, buffer);
    // A new vector: one allocation of the exact size.
    let mut fresh = Vec::new();
    let ((), count) = allocations(|| value.encode::<P>(&mut fresh).unwrap());
    assert_eq!(count, 1, "encode into a new vector");
    assert_eq!(fresh.capacity(), bytes.len());

    // Owned decoding: one allocation per non-empty String / Vec.
    let (decoded, count) = allocations(|| BaseTypes::decode::<P>(&bytes).unwrap());
    assert_eq!(decoded, value);
    assert_eq!(count, 2, "a_string and a_binary");

    // Borrowed decoding: nothing.
    let (borrowed, count) = allocations(|| BaseTypesRef::decode::<P>(&bytes).unwrap());
    assert_eq!(count, 0, "BaseTypesRef");
    assert_eq!(borrowed.a_string, "héllo");
    assert_eq!(borrowed.a_binary, &[0, 1, 2, 255]);
    assert_eq!(BaseTypes::from(&borrowed), value);

    // Nested structs inline, across modules: still nothing.
    let bytes = request().encode_to_vec::<P>().unwrap();
    let (borrowed, count) = allocations(|| RequestRef::decode::<P>(&bytes).unwrap());
    assert_eq!(count, 0, "RequestRef");
    assert_eq!(borrowed.header.trace_id, "abc-123");
    assert_eq!(Request::from(borrowed), request());

    let bytes = NotFound {
        message: "gone".into(),
        code: 410,
    }
    .encode_to_vec::<P>()
    .unwrap();
    let (borrowed, count) = allocations(|| NotFoundRef::decode::<P>(&bytes).unwrap());
    assert_eq!(count, 0);
    assert_eq!((borrowed.message, borrowed.code), ("gone", 410));

    // Structs nested in every position are read in place: the list is the one allocation,
    // and `read_into` over another value gives what `decode` gives, both ways round.
    let inner = Requiredness {
        req: 1,
        req_string: "inner".into(),
        opt_string: Some("set".into()),
        ..Requiredness::default()
    };
    let nested = Nested {
        base: base_types(),
        inner: Some(inner.clone()),
        items: vec![inner.clone(), Requiredness::default()],
        plain: OutOfOrder {
            a: 1,
            b: Some(2),
            c: 3,
        },
    };
    let bytes = nested.encode_to_vec::<P>().unwrap();
    let (borrowed, count) = allocations(|| NestedRef::decode::<P>(&bytes).unwrap());
    assert_eq!(count, 1, "NestedRef: the vector of items");
    assert_eq!(Nested::from(&borrowed), nested);
    let sparse = Nested {
        inner: None,
        ..Nested::default()
    }
    .encode_to_vec::<P>()
    .unwrap();
    for (first, second) in [(&sparse, &bytes), (&bytes, &sparse)] {
        let mut value = NestedRef::decode::<P>(first).unwrap();
        let mut r = P::reader(SliceInput::new(second), ReadLimits::default());
        NestedRef::read_into(&mut r, &mut value).unwrap();
        assert_eq!(value, NestedRef::decode::<P>(second).unwrap());
    }
}

/// Owned decoding allocates once per `Box` and per non-empty `Vec`, nothing else: a linked list
/// of five nodes (four boxes) and a tree of lists (one vector per node with children).
fn boxes_and_vectors_allocate_once<P: Protocol>() {
    let list = (1..5).rev().fold(
        Node {
            value: 5,
            next: None,
        },
        |next, value| Node {
            value,
            next: Some(Box::new(next)),
        },
    );
    let bytes = list.encode_to_vec::<P>().unwrap();
    let (decoded, count) = allocations(|| Node::decode::<P>(&bytes).unwrap());
    assert_eq!(decoded, list);
    assert_eq!(count, 4, "one per boxed node");

    let leaf = || Tree { children: vec![] };
    let tree = Tree {
        children: vec![
            Tree {
                children: vec![leaf(), leaf(), leaf()],
            },
            leaf(),
            Tree {
                children: vec![leaf()],
            },
        ],
    };
    let bytes = tree.encode_to_vec::<P>().unwrap();
    let (decoded, count) = allocations(|| Tree::decode::<P>(&bytes).unwrap());
    assert_eq!(decoded, tree);
    assert_eq!(
        count, 3,
        "the root's children and two non-empty child lists"
    );
}

#[test]
fn boxes_and_vectors_allocate_once_binary() {
    boxes_and_vectors_allocate_once::<Binary>();
}

#[test]
fn boxes_and_vectors_allocate_once_compact() {
    boxes_and_vectors_allocate_once::<Compact>();
}

/// Each decoded set and map of `value` is allocated once: `value` holds a matrix of two rows,
/// a set of doubles and a map (with `Collections::Hash`, sized from their headers: 300 doubles
/// and 500 entries).
fn collections_allocate_once<T, P>(value: T)
where
    T: for<'de> ThriftRead<'de> + ThriftWrite + PartialEq + std::fmt::Debug,
    P: Protocol,
{
    let bytes = value.encode_to_vec::<P>().unwrap();
    let (decoded, count) = allocations(|| T::decode::<P>(&bytes).unwrap());
    assert_eq!(decoded, value);
    assert_eq!(count, 5, "matrix, its two rows, doubles, by_double");
}

/// The value of `collections_allocate_once` in either hash mapping (std's hasher or another).
macro_rules! hashed_containers {
    ($ty:ident) => {
        $ty {
            matrix: vec![vec![1, 2], vec![3]],
            doubles: (0..300).map(|i| f64::from(i).into()).collect(),
            by_double: (0..500).map(|i| (f64::from(i).into(), 0.5)).collect(),
            ..Default::default()
        }
    };
}

fn hash_collections_allocate_once<P: Protocol>() {
    collections_allocate_once::<_, P>(hashed_containers!(HashContainers));
}

/// The same with a hasher of the user's choice (`Builder::hasher`).
fn hasher_collections_allocate_once<P: Protocol>() {
    collections_allocate_once::<_, P>(hashed_containers!(HasherContainers));
}

/// With the default B-tree mapping, a set or map of up to 11 entries (one B-tree leaf) is one
/// allocation too; larger ones allocate a node per 11 entries or so, plus the vector their
/// entries are collected in before the tree is built in bulk.
fn small_btree_collections_allocate_once<P: Protocol>() {
    let value = Containers {
        matrix: vec![vec![1, 2], vec![3]],
        doubles: (0..11).map(|i| f64::from(i).into()).collect(),
        by_double: (0..11).map(|i| (f64::from(i).into(), 0.5)).collect(),
        ..Default::default()
    };
    collections_allocate_once::<_, P>(value);
    let bytes = Containers {
        doubles: (0..12).map(|i| f64::from(i).into()).collect(),
        ..Default::default()
    }
    .encode_to_vec::<P>()
    .unwrap();
    let (_, count) = allocations(|| Containers::decode::<P>(&bytes).unwrap());
    assert_eq!(
        count, 4,
        "twelve doubles: the vector, then two leaves and a root"
    );
}

#[test]
fn small_btree_collections_allocate_once_binary() {
    small_btree_collections_allocate_once::<Binary>();
}

#[test]
fn small_btree_collections_allocate_once_compact() {
    small_btree_collections_allocate_once::<Compact>();
}

#[test]
fn hasher_collections_allocate_once_binary() {
    hasher_collections_allocate_once::<Binary>();
}

#[test]
fn hasher_collections_allocate_once_compact() {
    hasher_collections_allocate_once::<Compact>();
}

#[test]
fn hash_collections_allocate_once_binary() {
    hash_collections_allocate_once::<Binary>();
}

#[test]
fn hash_collections_allocate_once_compact() {
    hash_collections_allocate_once::<Compact>();
}

/// With `Strings::Bytes`, decoding from a `Bytes` shares it: no allocation per string or
/// binary (the buffer's first clone turns a `Vec`-backed `Bytes` into a shared one, which
/// allocates once; a buffer that is already shared does not).
fn shared_strings_allocate_nothing<P: Protocol>() {
    let bytes = thrift_runtime::Bytes::from(base_types().encode_to_vec::<P>().unwrap());
    let shared = bytes.clone();
    let (decoded, count) = allocations(|| SharedBaseTypes::decode_bytes::<P>(&shared).unwrap());
    assert_eq!(count, 0, "SharedBaseTypes::decode_bytes");
    assert_eq!(&*decoded.a_string, "héllo");
    assert_eq!(&decoded.a_binary[..], &[0, 1, 2, 255]);
    assert!(shared.as_ptr_range().contains(&decoded.a_string.as_ptr()));
    // From a plain slice: one copy each, like `String`/`Vec<u8>`.
    let (copied, count) = allocations(|| SharedBaseTypes::decode::<P>(&bytes).unwrap());
    assert_eq!(count, 2, "a_string and a_binary copied");
    assert_eq!(copied, decoded);
}

/// With `Strings::Compact`, strings of up to 24 bytes are stored inline: decoding `BaseTypes`
/// from a `Bytes` allocates nothing (its binary is a slice), from a `&[u8]` only the binary's
/// copy; a longer string is one allocation.
fn compact_strings_allocate_inline<P: Protocol>() {
    let bytes = thrift_runtime::Bytes::from(base_types().encode_to_vec::<P>().unwrap());
    // Already shared, as in `shared_strings_allocate_nothing`.
    let bytes = bytes.clone();
    let (decoded, count) = allocations(|| CompactBaseTypes::decode_bytes::<P>(&bytes).unwrap());
    assert_eq!(count, 0, "CompactBaseTypes::decode_bytes");
    assert_eq!(decoded.a_string, "héllo");
    assert!(!decoded.a_string.is_heap_allocated());
    let (copied, count) = allocations(|| CompactBaseTypes::decode::<P>(&bytes).unwrap());
    assert_eq!(count, 1, "a_binary copied");
    assert_eq!(copied, decoded);
    let long = "a string of more than twenty-four bytes";
    let bytes = BaseTypes {
        a_string: long.into(),
        ..BaseTypes::default()
    }
    .encode_to_vec::<P>()
    .unwrap();
    let (decoded, count) = allocations(|| CompactBaseTypes::decode::<P>(&bytes).unwrap());
    assert_eq!(count, 1, "the long string");
    assert_eq!(decoded.a_string, long);
}

#[test]
fn compact_strings_allocate_inline_binary() {
    compact_strings_allocate_inline::<Binary>();
}

#[test]
fn compact_strings_allocate_inline_compact() {
    compact_strings_allocate_inline::<Compact>();
}

#[test]
fn shared_strings_allocate_nothing_binary() {
    shared_strings_allocate_nothing::<Binary>();
}

#[test]
fn shared_strings_allocate_nothing_compact() {
    shared_strings_allocate_nothing::<Compact>();
}

#[test]
fn allocation_counts_binary() {
    check_protocol::<Binary>();
}

#[test]
fn allocation_counts_compact() {
    check_protocol::<Compact>();
}

#[test]
fn borrowed_strings_are_checked_utf8() {
    let mut bytes = base_types().encode_to_vec::<Binary>().unwrap();
    let at = bytes
        .windows(6)
        .position(|w| w == "héllo".as_bytes())
        .unwrap();
    bytes[at + 1] = 0xff;
    assert!(BaseTypesRef::decode::<Binary>(&bytes).is_err());
}

fn round_trip<P: Protocol>(owned_bytes: &[u8]) {
    let borrowed = ContainersRef::decode::<P>(owned_bytes).unwrap();
    let owned = Containers::decode::<P>(owned_bytes).unwrap();
    let converted = Containers::from(&borrowed);
    assert_eq!(converted.encode_to_vec::<P>().unwrap(), owned_bytes);
    assert_eq!(borrowed.encode_to_vec::<P>().unwrap(), owned_bytes);
    assert_eq!(borrowed.encoded_len::<P>(), owned_bytes.len());
    assert_eq!(owned.encode_to_vec::<P>().unwrap(), owned_bytes);
}

/// `read_into` writes string fields where they live: over a value whose strings have room,
/// decoding allocates nothing (`String` buffers are kept, `CompactString`s written inline),
/// and the result is what a fresh decode gives.
fn strings_read_in_place<P: Protocol>() {
    let value = Requiredness {
        req: 1,
        req_string: "required".into(),
        opt_string: Some("optional".into()),
        plain_string: "plain".into(),
        ..Requiredness::default()
    };
    let bytes = value.encode_to_vec::<P>().unwrap();
    let mut out = Requiredness {
        req_string: "a longer previous string".into(),
        opt_string: Some("another longer one".into()),
        plain_string: "previous".into(),
        ..Requiredness::default()
    };
    let buffer = out.req_string.as_ptr();
    let mut r = P::reader(SliceInput::new(&bytes), ReadLimits::default());
    let ((), count) = allocations(|| Requiredness::read_into(&mut r, &mut out).unwrap());
    assert_eq!(count, 0, "Requiredness::read_into over strings with room");
    assert_eq!(out, value);
    assert_eq!(out.req_string.as_ptr(), buffer, "the old buffer is reused");

    // Over strings without room: one allocation each, as a fresh decode makes.
    let mut out = Requiredness::default();
    let mut r = P::reader(SliceInput::new(&bytes), ReadLimits::default());
    let ((), count) = allocations(|| Requiredness::read_into(&mut r, &mut out).unwrap());
    assert_eq!(count, 3, "req_string, opt_string, plain_string");
    assert_eq!(out, value);

    // CompactString: inline, so nothing to allocate, fresh or not; a long one in a heap
    // buffer with room is kept.
    let mut out = CompactRequiredness::default();
    let mut r = P::reader(SliceInput::new(&bytes), ReadLimits::default());
    let ((), count) = allocations(|| CompactRequiredness::read_into(&mut r, &mut out).unwrap());
    assert_eq!(count, 0, "CompactRequiredness::read_into");
    assert_eq!(out.encode_to_vec::<P>().unwrap(), bytes);
    let long = "a string of more than twenty-four bytes";
    let long_value = Requiredness {
        req_string: long.into(),
        ..value.clone()
    };
    let long_bytes = long_value.encode_to_vec::<P>().unwrap();
    let mut r = P::reader(SliceInput::new(&long_bytes), ReadLimits::default());
    let ((), count) = allocations(|| CompactRequiredness::read_into(&mut r, &mut out).unwrap());
    assert_eq!(count, 1, "the long string");
    assert!(out.req_string.is_heap_allocated());
    let buffer = out.req_string.as_ptr();
    let mut r = P::reader(SliceInput::new(&long_bytes), ReadLimits::default());
    let ((), count) = allocations(|| CompactRequiredness::read_into(&mut r, &mut out).unwrap());
    assert_eq!(count, 0, "the long string's buffer reused");
    assert_eq!(out.req_string.as_ptr(), buffer);
    assert_eq!(out.encode_to_vec::<P>().unwrap(), long_bytes);
    // Back to short strings over a heap one: still the right value.
    let mut r = P::reader(SliceInput::new(&bytes), ReadLimits::default());
    CompactRequiredness::read_into(&mut r, &mut out).unwrap();
    assert_eq!(out.encode_to_vec::<P>().unwrap(), bytes);
}

#[test]
fn strings_read_in_place_binary() {
    strings_read_in_place::<Binary>();
}

#[test]
fn strings_read_in_place_compact() {
    strings_read_in_place::<Compact>();
}

proptest! {
    #[test]
    fn containers_through_borrowed_form(
        matrix in proptest::collection::vec(proptest::collection::vec(any::<i32>(), 0..3), 0..3),
        tags in proptest::collection::btree_set(".{0,6}", 0..4),
        blobs in proptest::collection::vec(proptest::collection::vec(any::<u8>(), 0..8), 0..3),
        doubles in proptest::collection::btree_set(any::<f64>().prop_map(thrift_runtime::OrderedF64), 0..4),
    ) {
        let value = Containers { matrix, tags, blobs, doubles, ..Containers::default() };
        round_trip::<Binary>(&value.encode_to_vec::<Binary>().unwrap());
        round_trip::<Compact>(&value.encode_to_vec::<Compact>().unwrap());
    }

    #[test]
    fn unions_through_borrowed_form(label in ".{0,10}", x in any::<i32>()) {
        for shape in [Shape::Label(label.clone()), Shape::Point(Point { x, y: -x }), Shape::Polygon(vec![Point { x, y: 0 }])] {
            let bytes = shape.encode_to_vec::<Compact>().unwrap();
            let borrowed = ShapeRef::decode::<Compact>(&bytes).unwrap();
            prop_assert_eq!(Shape::from(&borrowed), shape);
            prop_assert_eq!(borrowed.encode_to_vec::<Compact>().unwrap(), bytes);
        }
    }
}

/// A borrowing form holds a field's short list, set or map of small elements inline (a
/// `SmallVec`): decoding them allocates nothing. A longer one allocates once, as a `Vec`
/// would, and a container inside a container is a `Vec`.
fn short_borrowed_containers_allocate_nothing<P: Protocol>() {
    let value = Containers {
        tags: ["a", "b", "c"].map(String::from).into(),
        doubles: (0..6).map(|i| f64::from(i).into()).collect(),
        by_double: (0..3).map(|i| (f64::from(i).into(), 0.5)).collect(),
        by_bytes: [(vec![1], true), (vec![], false)].into(),
        flags: Some(vec![true; 16]),
        blobs: vec![vec![1, 2], vec![]],
        ..Default::default()
    };
    let bytes = value.encode_to_vec::<P>().unwrap();
    let (borrowed, count) = allocations(|| ContainersRef::decode::<P>(&bytes).unwrap());
    assert_eq!(count, 0, "every container fits its inline room");
    assert_eq!(Containers::from(&borrowed), value);
    assert_eq!(borrowed.tags.as_slice(), ["a", "b", "c"]);
    assert!(!borrowed.doubles.spilled());
    assert_eq!(borrowed.encode_to_vec::<P>().unwrap(), bytes);

    let longer = Containers {
        tags: ["a", "b", "c", "d"].map(String::from).into(),
        flags: Some(vec![false; 17]),
        matrix: vec![vec![1]],
        ..value.clone()
    };
    let bytes = longer.encode_to_vec::<P>().unwrap();
    let (borrowed, count) = allocations(|| ContainersRef::decode::<P>(&bytes).unwrap());
    assert_eq!(
        count, 4,
        "four tags and 17 flags spill, once each; the matrix and its row are `Vec`s"
    );
    assert!(borrowed.tags.spilled());
    assert_eq!(Containers::from(&borrowed), longer);
    assert_eq!(borrowed.encode_to_vec::<P>().unwrap(), bytes);

    // Reading in place over a used value replaces each inline list's elements, longer over
    // shorter and shorter over longer (spilled).
    let short = value.encode_to_vec::<P>().unwrap();
    for (first, second) in [(&short, &bytes), (&bytes, &short)] {
        let mut reused = ContainersRef::decode::<P>(first).unwrap();
        let mut r = P::reader(SliceInput::new(second), ReadLimits::default());
        ContainersRef::read_into(&mut r, &mut reused).unwrap();
        assert_eq!(reused, ContainersRef::decode::<P>(second).unwrap());
    }
}

#[test]
fn short_borrowed_containers_allocate_nothing_binary() {
    short_borrowed_containers_allocate_nothing::<Binary>();
}

#[test]
fn short_borrowed_containers_allocate_nothing_compact() {
    short_borrowed_containers_allocate_nothing::<Compact>();
}
