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

/// Sets and maps: their string elements and keys and their values (strings, lists, maps) are
/// read over the old ones, so a value shaped like the last allocates only the collections'
/// own nodes: one B-tree leaf for each of the five sets and maps here, where a fresh decode
/// makes 16 allocations (the leaves, eight strings, two string lists, one binary).
#[test]
fn sets_and_maps_decoded_again_allocate_only_their_nodes() {
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
    again_into_allocating::<Containers, Compact>("containers, compact", &first, &second, 5);
    again_into_allocating::<Containers, Binary>("containers, binary", &first, &second, 5);
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
