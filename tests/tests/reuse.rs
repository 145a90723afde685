//! `ThriftRead::decode_into`: decoding into a used value gives what a fresh decode gives, and
//! decoding a message shaped like the one before allocates nothing. Checked on Parquet footers
//! written by pyarrow and by the `parquet` crate, in both protocols. (The golden fixtures'
//! types are checked the same way on every fuzz input and seed: `thrift_tests::fuzz::decode`.)

use thrift_runtime::{Binary, Compact, Protocol, ThriftRead, ThriftWrite};
use thrift_tests::alloc::{Counting, allocations};

use thrift_tests::parquet_full::parquet::FileMetaData;
use thrift_tests::samples::parquet_footers as footers;

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Every footer decoded into every other one (more columns, fewer, other statistics) is the
/// footer decoded fresh.
fn into_every_other<P: Protocol>() {
    let footers: Vec<(&str, Vec<u8>)> = footers()
        .into_iter()
        .map(|(name, compact)| {
            let value = FileMetaData::decode::<Compact>(&compact).unwrap();
            (name, value.encode_to_vec::<P>().unwrap())
        })
        .collect();
    for (name, bytes) in &footers {
        let fresh = FileMetaData::decode::<P>(bytes).unwrap();
        for (other, previous) in &footers {
            let mut value = FileMetaData::decode::<P>(previous).unwrap();
            FileMetaData::decode_into::<P>(bytes, &mut value).unwrap();
            assert_eq!(value, fresh, "{name} decoded into {other}");
        }
    }
}

#[test]
fn a_footer_decoded_into_a_used_one_is_the_fresh_decode() {
    into_every_other::<Compact>();
    into_every_other::<Binary>();
}

/// The footer with other numbers and shorter strings: a message shaped like it.
fn similar(footer: &FileMetaData) -> FileMetaData {
    let mut next = footer.clone();
    next.num_rows += 1;
    for group in &mut next.row_groups {
        group.num_rows += 1;
        for column in &mut group.columns {
            column.file_offset += 7;
            if let Some(path) = &mut column.file_path {
                path.pop();
            }
        }
    }
    for kv in next.key_value_metadata.iter_mut().flatten() {
        kv.key.pop();
    }
    next
}

fn steady<P: Protocol>(name: &str, footer: &FileMetaData) {
    again_into::<_, P>(&format!("{name}: the same footer again"), footer, footer);
    let next = similar(footer);
    again_into::<_, P>(&format!("{name}: a footer shaped like it"), footer, &next);
    // A fresh decode allocates (the control: the counter sees this thread's allocations).
    let bytes = footer.encode_to_vec::<P>().unwrap();
    let (_, fresh) = allocations(|| FileMetaData::decode::<P>(&bytes).unwrap());
    assert!(fresh > 0, "{name}: {fresh} allocations for a fresh decode");
}

#[test]
fn decoding_a_footer_shaped_like_the_last_allocates_nothing() {
    for (name, compact) in footers() {
        let footer = FileMetaData::decode::<Compact>(&compact).unwrap();
        steady::<Compact>(name, &footer);
        steady::<Binary>(name, &footer);
    }
}

/// Decodes `first`, then `second` into it: what a fresh decode of `second` gives, with no
/// allocation (`second` is shaped like `first`); `what` names the case in a failure.
fn again_into<T, P>(what: &str, first: &T, second: &T)
where
    T: for<'de> ThriftRead<'de> + ThriftWrite + PartialEq + std::fmt::Debug,
    P: Protocol,
{
    again_into_allocating::<T, P>(what, first, second, 0);
}

/// [`again_into`], expecting `expected` allocations.
fn again_into_allocating<T, P>(what: &str, first: &T, second: &T, expected: u64)
where
    T: for<'de> ThriftRead<'de> + ThriftWrite + PartialEq + std::fmt::Debug,
    P: Protocol,
{
    let mut value = T::decode::<P>(&first.encode_to_vec::<P>().unwrap()).unwrap();
    let bytes = second.encode_to_vec::<P>().unwrap();
    let (result, count) = allocations(|| T::decode_into::<P>(&bytes, &mut value));
    result.unwrap();
    assert_eq!(&value, second, "{what}");
    assert_eq!(count, expected, "{what}: allocations");
}

/// Sets and maps whose keys differ from the last ones: their string elements and keys and
/// their values (strings, lists, maps) are read over the old ones, so a value shaped like the
/// last allocates only the nodes of the collections whose keys changed: one B-tree leaf for
/// each of the three here (the two inner maps keep their keys, 1 and 2, and their leaves),
/// where a fresh decode makes 16 allocations (five leaves, eight strings, two string lists,
/// one binary).
#[test]
fn sets_and_maps_with_other_keys_decoded_again_allocate_only_their_nodes() {
    use thrift_tests::golden::fixture_containers::containers::Containers;
    let value = |s: &str| Containers {
        tags: [format!("a{s}"), format!("bb{s}"), format!("ccc{s}")].into(),
        nested: [
            (
                format!("x{s}"),
                [(1, vec![format!("p{s}"), format!("q{s}")])].into(),
            ),
            (format!("y{s}"), [(2, vec![format!("r{s}")])].into()),
        ]
        .into(),
        by_bytes: [(format!("k{s}").into_bytes(), true)].into(),
        ..Default::default()
    };
    let (first, second) = (value("1"), value("2"));
    let bytes = second.encode_to_vec::<Compact>().unwrap();
    let (_, fresh) = allocations(|| Containers::decode::<Compact>(&bytes).unwrap());
    assert_eq!(fresh, 16, "a fresh decode's allocations");
    again_into_allocating::<Containers, Compact>("containers, compact", &first, &second, 3);
    again_into_allocating::<Containers, Binary>("containers, binary", &first, &second, 3);
}

/// Sets and maps with the keys of the last ones (other values) are read where they live: a
/// B-tree meets its old keys in order, compared on the input's bytes, and its nodes are
/// kept. Nothing is allocated, in either protocol. Also when only some keys are the old ones:
/// the ones that differ are read over the old ones left, into the nodes there are.
#[test]
fn sets_and_maps_with_the_same_keys_decoded_again_allocate_nothing() {
    use thrift_runtime::OrderedF64;
    use thrift_tests::golden::fixture_containers::containers::Containers;
    let value = |tags: [&str; 3], s: &str| Containers {
        tags: tags.map(String::from).into(),
        nested: [
            (
                "x".to_owned(),
                [(1, vec![format!("p{s}"), format!("q{s}")])].into(),
            ),
            ("y".to_owned(), [(2, vec![format!("r{s}")])].into()),
        ]
        .into(),
        by_bytes: [(b"k".to_vec(), s == "1")].into(),
        doubles: [OrderedF64(0.5), OrderedF64(-0.0)].into(),
        by_double: [(OrderedF64(1.5), s.len() as f64)].into(),
        ..Default::default()
    };
    let (first, second) = (
        value(["a", "bb", "ccc"], "1"),
        value(["a", "bb", "ccc"], "2"),
    );
    again_into::<Containers, Compact>("same keys, compact", &first, &second);
    again_into::<Containers, Binary>("same keys, binary", &first, &second);
    let third = value(["a", "bb", "cd"], "3");
    again_into::<Containers, Compact>("the last element other, compact", &first, &third);
    again_into::<Containers, Binary>("the last element other, binary", &first, &third);
}

/// Recursive values: an optional boxed struct keeps its box (`Node.next`), a list of structs
/// its elements (`Tree.children`).
#[test]
fn recursive_values_decoded_again_allocate_nothing() {
    use thrift_tests::golden::fixture_recursion::recursion::{Node, Tree};
    let chain = |base: i32| {
        (0..5)
            .rev()
            .fold(None, |next, i| {
                Some(Box::new(Node {
                    value: base + i,
                    next,
                }))
            })
            .map(|node| *node)
            .unwrap()
    };
    let tree = |leaves: usize| Tree {
        children: vec![
            Tree {
                children: vec![Tree::default(); leaves]
            };
            3
        ],
    };
    again_into::<Node, Compact>("a chain, compact", &chain(0), &chain(10));
    again_into::<Node, Binary>("a chain, binary", &chain(0), &chain(10));
    again_into::<Tree, Compact>("a tree, compact", &tree(4), &tree(2));
    again_into::<Tree, Binary>("a tree, binary", &tree(4), &tree(4));
}

mod keys_in_part {
    //! `decode_into` over a value whose sets and maps share some keys with the input's (keys
    //! from a small alphabet, so that two draws share most): the in-place walk, the keys
    //! that differ after it, fewer and more entries, in both protocols, and the input's keys
    //! out of order (written from hash maps).
    use std::collections::{BTreeMap, BTreeSet};

    use proptest::prelude::*;
    use thrift_runtime::{Binary, Compact, OrderedF64, Protocol, ThriftRead, ThriftWrite};
    use thrift_tests::golden::fixture_containers::containers::Containers;
    use thrift_tests::golden::fixture_containers_hash::containers::Containers as HashContainers;

    type Nested = BTreeMap<String, BTreeMap<i32, Vec<String>>>;

    fn key() -> impl Strategy<Value = String> {
        "[a-c]{1,2}"
    }

    fn containers() -> impl Strategy<Value = Containers> {
        (
            proptest::collection::btree_set(key(), 0..8),
            proptest::collection::btree_map(
                key(),
                proptest::collection::btree_map(
                    0..4i32,
                    proptest::collection::vec("[x-z]{0,3}", 0..3),
                    0..4,
                ),
                0..14,
            ),
            proptest::collection::btree_map(
                proptest::collection::vec(0..3u8, 0..2),
                any::<bool>(),
                0..6,
            ),
            proptest::collection::btree_set(
                prop_oneof![Just(0.0), Just(-0.0), Just(1.5), Just(f64::NAN)].prop_map(OrderedF64),
                0..4,
            ),
        )
            .prop_map(
                |(tags, nested, by_bytes, doubles): (_, Nested, _, BTreeSet<_>)| Containers {
                    tags,
                    nested,
                    by_bytes,
                    doubles,
                    ..Default::default()
                },
            )
    }

    /// `value` as the hash maps' fixture writes it: its entries in hash order.
    fn hash_ordered<P: Protocol>(value: &Containers) -> Vec<u8> {
        let hashed = HashContainers {
            tags: value.tags.iter().cloned().collect(),
            nested: value
                .nested
                .iter()
                .map(|(k, v)| (k.clone(), v.clone().into_iter().collect()))
                .collect(),
            by_bytes: value.by_bytes.clone().into_iter().collect(),
            doubles: value.doubles.iter().copied().collect(),
            ..Default::default()
        };
        hashed.encode_to_vec::<P>().unwrap()
    }

    fn check<P: Protocol>(first: &Containers, bytes: &[u8]) -> Result<(), TestCaseError> {
        let fresh = Containers::decode::<P>(bytes).unwrap();
        let mut value = Containers::decode::<P>(&first.encode_to_vec::<P>().unwrap()).unwrap();
        Containers::decode_into::<P>(bytes, &mut value).unwrap();
        // Equal bits for the doubles too: the old `-0.0` is not kept for a `0.0`.
        prop_assert_eq!(format!("{value:?}"), format!("{fresh:?}"));
        prop_assert_eq!(value, fresh);
        Ok(())
    }

    proptest! {
        #[test]
        fn decoded_into_a_value_with_some_of_its_keys(
            first in containers(),
            second in containers(),
        ) {
            check::<Compact>(&first, &second.encode_to_vec::<Compact>().unwrap())?;
            check::<Binary>(&first, &second.encode_to_vec::<Binary>().unwrap())?;
            check::<Compact>(&first, &hash_ordered::<Compact>(&second))?;
            check::<Binary>(&first, &hash_ordered::<Binary>(&second))?;
            // Into itself and into a value it was derived from.
            check::<Compact>(&second, &second.encode_to_vec::<Compact>().unwrap())?;
        }
    }
}
