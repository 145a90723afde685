//! Arena mode (`Builder::arena`): borrowing forms whose lists, sets, maps and optional structs
//! live in a `thrift_runtime::Arena` (`decode_in`).
//!
//! - The golden fixtures' values and the Parquet footers decode in an arena, in both protocols,
//!   to what the owned forms decode (converted with `From`), and write the same bytes back.
//! - Decoding a footer into an arena that has grown to hold it (reset between decodes)
//!   allocates nothing on the heap; a fresh arena allocates a few blocks, not one per list.
//! - A decoded footer takes fewer bytes in an arena than the default borrowing form does.
//! - Without an arena, an arena form fails with `BorrowUnsupported` at its first container;
//!   a hostile list count fails without allocating for it.

use thrift_runtime::{
    Arena, Binary, Compact, ErrorKind, Protocol, ProtocolWriter, TType, ThriftRead, ThriftWrite,
};
use thrift_tests::alloc::{Counting, allocated_bytes, allocations};
use thrift_tests::golden::fixture_containers_arena::containers::{Containers, ContainersRef};
use thrift_tests::golden::fixture_recursion_arena::recursion::{Node, NodeRef, Tree, TreeRef};
use thrift_tests::golden::fixture_unions_arena::unions::{HasUnion, HasUnionRef};
use thrift_tests::parquet_arena::parquet::{FileMetaData, FileMetaDataRef};
use thrift_tests::samples::parquet_footers as footers;

#[global_allocator]
static GLOBAL: Counting = Counting;

/// `bytes` decoded as the arena form `A` converts to `T`'s decode and writes the same bytes.
fn same_as_owned<'a, A, T, P>(what: &str, bytes: &'a [u8], arena: &'a Arena)
where
    A: ThriftRead<'a> + ThriftWrite + 'a,
    T: for<'de> ThriftRead<'de> + ThriftWrite + PartialEq + std::fmt::Debug + for<'b> From<&'b A>,
    P: Protocol,
{
    let owned = T::decode::<P>(bytes).unwrap_or_else(|e| panic!("{what}: owned: {e}"));
    let view = A::decode_in::<P>(bytes, arena).unwrap_or_else(|e| panic!("{what}: arena: {e}"));
    assert_eq!(T::from(&view), owned, "{what}");
    let written = view.encode_to_vec::<P>().unwrap();
    assert_eq!(
        written.len(),
        view.encoded_len::<P>(),
        "{what}: encoded_len"
    );
    assert_eq!(
        written,
        owned.encode_to_vec::<P>().unwrap(),
        "{what}: bytes"
    );
}

fn fixtures<P: Protocol>() {
    let arena = Arena::new();
    let containers = Containers {
        matrix: vec![vec![1, 2, 3], vec![], vec![-7]],
        tags: ["a".to_string(), "b".to_string()].into(),
        nested: [("k".to_string(), [(7, vec!["v".to_string()])].into())].into(),
        doubles: [1.5.into(), 2.5.into()].into(),
        by_double: [(2.0.into(), 3.0)].into(),
        sets_of_doubles: vec![[1.0.into()].into(), Default::default()],
        by_bytes: [(vec![1, 2, 3], true), (vec![], false)].into(),
        flags: Some(vec![true, false, true]),
        blobs: vec![vec![0; 9], vec![]],
        nested_doubles: [vec![1.0.into(), 2.0.into()]].into(),
    };
    let bytes = containers.encode_to_vec::<P>().unwrap();
    same_as_owned::<ContainersRef<'_>, Containers, P>("Containers", &bytes, &arena);

    let node = Node {
        value: 3,
        next: Some(Box::new(Node {
            value: 4,
            next: Some(Box::new(Node::default())),
        })),
    };
    let bytes = node.encode_to_vec::<P>().unwrap();
    same_as_owned::<NodeRef<'_>, Node, P>("Node", &bytes, &arena);
    let view = NodeRef::decode_in::<P>(&bytes, &arena).unwrap();
    // `next` is a reference into the arena.
    let next: &NodeRef<'_> = view.next.expect("next is set");
    assert_eq!(next.value, 4);

    let tree = Tree {
        children: vec![
            Tree {
                children: vec![Tree::default()],
            },
            Tree::default(),
        ],
    };
    let bytes = tree.encode_to_vec::<P>().unwrap();
    same_as_owned::<TreeRef<'_>, Tree, P>("Tree", &bytes, &arena);

    use thrift_tests::golden::fixture_unions_arena::unions::{Expr, Point, Shape};
    let has_union = HasUnion {
        shape: Shape::Polygon(vec![Point { x: 1, y: -1 }, Point { x: 300, y: 7 }]),
        expr: Some(Expr::Sum(vec![
            Expr::Literal(5),
            Expr::Negate(Box::new(Expr::Literal(-9))),
        ])),
    };
    let bytes = has_union.encode_to_vec::<P>().unwrap();
    same_as_owned::<HasUnionRef<'_>, HasUnion, P>("HasUnion", &bytes, &arena);
}

#[test]
fn fixtures_decode_in_an_arena_to_the_owned_values() {
    fixtures::<Binary>();
    fixtures::<Compact>();
}

#[test]
fn footers_decode_in_an_arena_to_the_owned_values() {
    for (name, compact) in footers() {
        let arena = Arena::new();
        same_as_owned::<FileMetaDataRef<'_>, FileMetaData, Compact>(name, &compact, &arena);
        let binary = FileMetaData::decode::<Compact>(&compact)
            .unwrap()
            .encode_to_vec::<Binary>()
            .unwrap();
        same_as_owned::<FileMetaDataRef<'_>, FileMetaData, Binary>(name, &binary, &arena);
    }
}

/// With `ColumnChunk.meta_data` and `ColumnMetaData.statistics` inline
/// (`Builder::arena_inline`), the footers decode to the same values in both protocols, in
/// fewer arena bytes than with every optional struct by reference.
#[test]
fn footers_decode_with_optional_structs_inline_in_fewer_bytes() {
    use thrift_tests::parquet_arena_inline::parquet::{
        FileMetaData as Owned, FileMetaDataRef as InlineRef,
    };
    for (name, compact) in footers() {
        let arena = Arena::new();
        same_as_owned::<InlineRef<'_>, Owned, Compact>(name, &compact, &arena);
        let binary = Owned::decode::<Compact>(&compact)
            .unwrap()
            .encode_to_vec::<Binary>()
            .unwrap();
        same_as_owned::<InlineRef<'_>, Owned, Binary>(name, &binary, &arena);
        // The value's own bytes: decoded again after a reset, into one block (a fresh arena
        // also counts the ends of the blocks it grew through).
        let mut by_reference = Arena::new();
        let _ = FileMetaDataRef::decode_in::<Compact>(&compact, &by_reference).unwrap();
        by_reference.reset();
        let _ = FileMetaDataRef::decode_in::<Compact>(&compact, &by_reference).unwrap();
        let mut inline = Arena::new();
        let _ = InlineRef::decode_in::<Compact>(&compact, &inline).unwrap();
        inline.reset();
        let _ = InlineRef::decode_in::<Compact>(&compact, &inline).unwrap();
        assert!(
            inline.used_bytes() < by_reference.used_bytes(),
            "{name}: inline {} bytes, by reference {}",
            inline.used_bytes(),
            by_reference.used_bytes()
        );
    }
}

#[test]
fn a_reset_arena_decodes_the_next_footer_without_allocating() {
    for (name, compact) in footers() {
        let mut arena = Arena::new();
        // A fresh arena takes its blocks from the allocator: a few, not one per list.
        let (columns, fresh) = allocations(|| {
            let meta = FileMetaDataRef::decode_in::<Compact>(&compact, &arena).unwrap();
            meta.row_groups
                .iter()
                .map(|g| g.columns.len())
                .sum::<usize>()
        });
        assert!(columns > 0, "{name}");
        assert!(
            (1..=16).contains(&fresh),
            "{name}: {fresh} allocations into a fresh arena ({columns} column chunks)"
        );
        // Reset, the arena keeps its largest block: the next decode fits in it.
        for round in 0..3 {
            arena.reset();
            let (meta, count) =
                allocations(|| FileMetaDataRef::decode_in::<Compact>(&compact, &arena).unwrap());
            assert_eq!(count, 0, "{name}: round {round}");
            assert_eq!(
                meta.row_groups
                    .iter()
                    .map(|g| g.columns.len())
                    .sum::<usize>(),
                columns
            );
        }
    }
}

/// A reader that sizes its arena from the last footer (`Arena::with_capacity(used_bytes)`)
/// makes one allocation per footer, of exactly those bytes (no rounding up to pages).
#[test]
fn an_arena_sized_from_the_last_footer_is_one_allocation_of_its_bytes() {
    for (name, compact) in footers() {
        let mut arena = Arena::new();
        let _ = FileMetaDataRef::decode_in::<Compact>(&compact, &arena).unwrap();
        arena.reset();
        let _ = FileMetaDataRef::decode_in::<Compact>(&compact, &arena).unwrap();
        let size = arena.used_bytes();
        let (bytes, count) = allocations(|| {
            allocated_bytes(|| {
                let sized = Arena::with_capacity(size);
                let _ = FileMetaDataRef::decode_in::<Compact>(&compact, &sized).unwrap();
                assert_eq!(sized.allocated_bytes(), size, "{name}");
                assert_eq!(sized.used_bytes(), size, "{name}");
            })
        });
        assert_eq!((count, bytes), (1, size), "{name}");
    }
}

#[test]
fn a_footer_takes_fewer_bytes_in_an_arena_than_in_the_default_borrowing_form() {
    use thrift_tests::parquet_full::parquet::FileMetaDataRef as DefaultRef;
    for (name, compact) in footers() {
        let mut arena = Arena::new();
        let _ = FileMetaDataRef::decode_in::<Compact>(&compact, &arena).unwrap();
        arena.reset();
        // After a reset the arena is one block that holds a footer.
        let block = arena.allocated_bytes();
        let _ = FileMetaDataRef::decode_in::<Compact>(&compact, &arena).unwrap();
        assert_eq!(
            arena.allocated_bytes(),
            block,
            "{name}: fits in the reset arena"
        );
        let arena_bytes = arena.used_bytes();
        let default_bytes = allocated_bytes(|| {
            let _ = DefaultRef::decode::<Compact>(&compact).unwrap();
        });
        assert!(
            arena_bytes < default_bytes,
            "{name}: arena {arena_bytes} bytes, default borrowing form {default_bytes}"
        );
    }
}

#[test]
fn without_an_arena_an_arena_form_fails_at_its_first_container() {
    let compact = &footers()[0].1;
    let error = FileMetaDataRef::decode::<Compact>(compact).unwrap_err();
    assert!(
        matches!(error.kind(), ErrorKind::BorrowUnsupported),
        "{error:?}"
    );
    assert!(error.to_string().contains("decode_in"), "{error}");
    // A value with no container, set or optional struct needs none.
    let bytes = Node::default().encode_to_vec::<Compact>().unwrap();
    assert_eq!(NodeRef::decode::<Compact>(&bytes).unwrap().value, 0);
}

#[test]
fn a_hostile_list_count_is_refused_without_allocating_for_it() {
    // `Tree.children` announcing 2^31 - 1 elements, with four bytes of input after it.
    let mut bytes = Vec::new();
    {
        let mut w = Binary::writer(&mut bytes);
        let token = w.write_struct_begin().unwrap();
        w.write_field_begin(TType::List, 1).unwrap();
        w.write_list_begin(TType::Struct, i32::MAX as usize)
            .unwrap();
        w.write_field_stop().unwrap();
        w.write_struct_end(token).unwrap();
    }
    bytes.extend_from_slice(&[0, 0, 0]);
    let arena = Arena::new();
    let allocated = allocated_bytes(|| {
        assert!(TreeRef::decode_in::<Binary>(&bytes, &arena).is_err());
    });
    assert!(allocated < 4096, "{allocated} bytes allocated");
}
