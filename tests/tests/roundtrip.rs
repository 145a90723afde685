//! Property tests over generated types covering every field kind (base types, requiredness,
//! nested containers, doubles in sets and map keys, enums with unknown values, unions,
//! recursive boxed types): for both protocols, write → read gives the same value and
//! `encoded_len` equals the number of bytes written.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Debug;

use proptest::collection::{btree_map, btree_set, vec};
use proptest::prelude::*;
use thrift_runtime::{
    Binary, Compact, OrderedF64, Protocol, ThriftRead, ThriftReadOwned, ThriftWrite,
};
use thrift_tests::golden::fixture_base_types::base_types::{
    BaseTypes, Empty, Nested, OutOfOrder, Requiredness,
};
use thrift_tests::golden::fixture_base_types_bytes::base_types::BaseTypes as SharedBaseTypes;
use thrift_tests::golden::fixture_base_types_compact::base_types::BaseTypes as CompactBaseTypes;
use thrift_tests::golden::fixture_containers::containers::Containers;
use thrift_tests::golden::fixture_containers_bytes::containers::Containers as SharedContainers;
use thrift_tests::golden::fixture_containers_compact::containers::Containers as CompactContainers;
use thrift_tests::golden::fixture_containers_hash::containers::Containers as HashContainers;
use thrift_tests::golden::fixture_containers_hasher::containers::Containers as HasherContainers;
use thrift_tests::golden::fixture_enums::enums::{Color, Signed, UsesEnums};
use thrift_tests::golden::fixture_recursion::recursion::{Node, Tree, Wrapper};
use thrift_tests::golden::fixture_unions::unions::{Expr, HasUnion, Point, Shape};

mod support;

/// Encodes with `P`, checks the size, decodes, re-encodes: same bytes, and the same value
/// when the value equals itself (NaN does not).
fn round_trip<T, P>(value: &T)
where
    T: for<'de> ThriftRead<'de> + ThriftWrite + PartialEq + Debug,
    P: Protocol,
{
    let bytes = value.encode_to_vec::<P>().expect("encode");
    assert_eq!(
        bytes.len(),
        value.encoded_len::<P>(),
        "encoded_len of {value:?}"
    );
    // `encode` (into a new vector, and appended to a used one) and `write` give the same
    // bytes as `encode_to_vec`.
    let mut appended = vec![0xAA; 3];
    value.encode::<P>(&mut appended).expect("encode");
    assert_eq!(appended[..3], [0xAA; 3]);
    assert_eq!(appended[3..], bytes[..]);
    let mut written = Vec::new();
    value.write(&mut P::writer(&mut written)).expect("write");
    assert_eq!(written, bytes);
    let decoded = T::decode::<P>(&bytes).expect("decode");
    // A value holding a NaN is not equal to itself; the byte comparison below covers it.
    let reflexive = {
        let copy = value;
        copy.eq(value)
    };
    if reflexive {
        assert_eq!(&decoded, value);
    }
    assert_eq!(decoded.encode_to_vec::<P>().expect("re-encode"), bytes);
}

fn both<T>(value: &T)
where
    T: for<'de> ThriftRead<'de> + ThriftWrite + PartialEq + Debug,
{
    round_trip::<T, Binary>(value);
    round_trip::<T, Compact>(value);
}

/// The same value in another generated form (another string mapping): its encoding decoded.
fn to<T: ThriftReadOwned>(value: &impl ThriftWrite) -> T {
    T::decode::<Binary>(&value.encode_to_vec::<Binary>().expect("encode")).expect("decode")
}

/// `decode_into` (`read_into`) over `previous` (a value with other fields set, other list
/// lengths, other options present) gives what `decode` gives: generated structs read in
/// place, lists over their old elements, and fields absent from the input must not keep
/// `previous`'s values.
fn replaces<T>(value: &T, previous: &T)
where
    T: for<'de> ThriftRead<'de> + ThriftWrite + Clone + PartialEq + Debug,
{
    fn with<T, P>(value: &T, previous: &T)
    where
        T: for<'de> ThriftRead<'de> + ThriftWrite + Clone + PartialEq + Debug,
        P: Protocol,
    {
        let bytes = value.encode_to_vec::<P>().expect("encode");
        let mut out = previous.clone();
        T::decode_into::<P>(&bytes, &mut out).expect("decode_into");
        assert_eq!(
            out.encode_to_vec::<P>().expect("re-encode"),
            bytes,
            "{out:?} read over {previous:?}"
        );
    }
    with::<T, Binary>(value, previous);
    with::<T, Compact>(value, previous);
}

fn double() -> impl Strategy<Value = f64> {
    prop_oneof![
        any::<f64>(),
        Just(f64::NAN),
        Just(-0.0),
        Just(f64::INFINITY),
        Just(f64::NEG_INFINITY),
        Just(f64::MIN_POSITIVE)
    ]
}

/// Any `BaseTypes`, its double often a special value ([`double`]).
fn base_types() -> impl Strategy<Value = BaseTypes> {
    support::base_types(double(), ".{0,40}", vec(any::<u8>(), 0..64))
}

fn requiredness() -> impl Strategy<Value = Requiredness> {
    (
        (
            any::<i32>(),
            any::<Option<i32>>(),
            any::<i32>(),
            "\\PC{0,10}",
        ),
        (
            proptest::option::of("\\PC{0,10}"),
            "\\PC{0,10}",
            any::<Option<bool>>(),
            any::<bool>(),
        ),
    )
        .prop_map(
            |((req, opt, plain, req_string), (opt_string, plain_string, opt_bool, req_bool))| {
                Requiredness {
                    req,
                    opt,
                    plain,
                    req_string,
                    opt_string,
                    plain_string,
                    opt_bool,
                    req_bool,
                }
            },
        )
}

fn nested() -> impl Strategy<Value = Nested> {
    (
        base_types(),
        proptest::option::of(requiredness()),
        vec(requiredness(), 0..4),
        (any::<i32>(), any::<Option<i32>>(), any::<i32>()),
    )
        .prop_map(|(base, inner, items, (a, b, c))| Nested {
            base,
            inner,
            items,
            plain: OutOfOrder { a, b, c },
        })
}

fn ordered() -> impl Strategy<Value = OrderedF64> {
    double().prop_map(OrderedF64)
}

fn containers() -> impl Strategy<Value = Containers> {
    (
        (
            vec(vec(any::<i32>(), 0..4), 0..4),
            btree_set(".{0,8}", 0..4),
            btree_map(
                ".{0,4}",
                btree_map(any::<i32>(), vec(".{0,4}", 0..3), 0..3),
                0..3,
            ),
            btree_set(ordered(), 0..4),
            btree_map(ordered(), double(), 0..4),
        ),
        (
            vec(btree_set(ordered(), 0..3), 0..3),
            btree_map(vec(any::<u8>(), 0..8), any::<bool>(), 0..4),
            proptest::option::of(vec(any::<bool>(), 0..20)),
            vec(vec(any::<u8>(), 0..16), 0..4),
            btree_set(vec(ordered(), 0..3), 0..3),
        ),
    )
        .prop_map(
            |(
                (matrix, tags, nested, doubles, by_double),
                (sets_of_doubles, by_bytes, flags, blobs, nested_doubles),
            )| {
                Containers {
                    matrix,
                    tags,
                    nested,
                    doubles,
                    by_double,
                    sets_of_doubles,
                    by_bytes,
                    flags,
                    blobs,
                    nested_doubles,
                }
            },
        )
}

/// The ordered form of a `Collections::Hash` value, to compare through deterministic bytes.
fn ordered_form(h: &HashContainers) -> Containers {
    Containers {
        matrix: h.matrix.clone(),
        tags: h.tags.iter().cloned().collect(),
        nested: h
            .nested
            .iter()
            .map(|(k, v)| (k.clone(), v.clone().into_iter().collect()))
            .collect(),
        doubles: h.doubles.iter().copied().collect(),
        by_double: h.by_double.iter().map(|(k, v)| (*k, *v)).collect(),
        sets_of_doubles: h
            .sets_of_doubles
            .iter()
            .map(|s| s.iter().copied().collect())
            .collect(),
        by_bytes: h.by_bytes.clone().into_iter().collect(),
        flags: h.flags.clone(),
        blobs: h.blobs.clone(),
        nested_doubles: h.nested_doubles.iter().cloned().collect(),
    }
}

/// `Collections::Hash` types read and write the same bytes as the ordered ones: decode the
/// ordered form's bytes into the hash form and back; encode the hash form (its own entry
/// order) and decode that into the ordered form.
fn hash_round_trip<P: Protocol>(value: &Containers) {
    let bytes = value.encode_to_vec::<P>().unwrap();
    let hashed = HashContainers::decode::<P>(&bytes).unwrap();
    assert_eq!(ordered_form(&hashed).encode_to_vec::<P>().unwrap(), bytes);
    let hashed_bytes = hashed.encode_to_vec::<P>().unwrap();
    assert_eq!(hashed_bytes.len(), hashed.encoded_len::<P>());
    assert_eq!(hashed_bytes.len(), bytes.len());
    let back = Containers::decode::<P>(&hashed_bytes).unwrap();
    assert_eq!(back.encode_to_vec::<P>().unwrap(), bytes);
}

/// The same with a hasher (`Builder::hasher`): the bytes of the ordered form decode into the
/// hasher form, whose own bytes decode back to the same value in both forms.
fn hasher_round_trip<P: Protocol>(value: &Containers) {
    let bytes = value.encode_to_vec::<P>().unwrap();
    let hashed = HasherContainers::decode::<P>(&bytes).unwrap();
    let hashed_bytes = hashed.encode_to_vec::<P>().unwrap();
    assert_eq!(hashed_bytes.len(), hashed.encoded_len::<P>());
    assert_eq!(hashed_bytes.len(), bytes.len());
    let again = HasherContainers::decode::<P>(&hashed_bytes).unwrap();
    assert_eq!(again.encode_to_vec::<P>().unwrap().len(), bytes.len());
    let back = Containers::decode::<P>(&hashed_bytes).unwrap();
    assert_eq!(back.encode_to_vec::<P>().unwrap(), bytes);
}

/// `Strings::Bytes` types read and write the same bytes as the `String`/`Vec<u8>` ones,
/// decoded from a `Bytes` (shared) or from a slice (copied).
fn shared_round_trip<T, P>(bytes: &[u8])
where
    T: for<'de> ThriftRead<'de> + ThriftWrite + Debug,
    P: Protocol,
{
    let buffer = thrift_runtime::Bytes::copy_from_slice(bytes);
    let shared = T::decode_bytes::<P>(&buffer).unwrap();
    assert_eq!(shared.encode_to_vec::<P>().unwrap(), bytes, "{shared:?}");
    assert_eq!(shared.encoded_len::<P>(), bytes.len());
    let copied = T::decode::<P>(bytes).unwrap();
    assert_eq!(copied.encode_to_vec::<P>().unwrap(), bytes);
}

fn color() -> impl Strategy<Value = Color> {
    // Named values and numbers the IDL does not name: both must survive.
    prop_oneof![
        prop::sample::select(Color::KNOWN.to_vec()),
        any::<i32>().prop_map(Color)
    ]
}

fn uses_enums() -> impl Strategy<Value = UsesEnums> {
    (
        color(),
        proptest::option::of(any::<i32>().prop_map(Signed)),
        vec(color(), 0..5),
        btree_map(color(), ".{0,5}", 0..4),
    )
        .prop_map(|(color, signed, colors, names)| UsesEnums {
            color,
            signed,
            colors,
            names,
        })
}

fn point() -> impl Strategy<Value = Point> {
    (any::<i32>(), any::<i32>()).prop_map(|(x, y)| Point { x, y })
}

fn shape() -> impl Strategy<Value = Shape> {
    prop_oneof![
        point().prop_map(Shape::Point),
        vec(point(), 0..4).prop_map(Shape::Polygon),
        ".{0,10}".prop_map(Shape::Label),
        any::<bool>().prop_map(Shape::Flag),
    ]
}

fn expr() -> impl Strategy<Value = Expr> {
    let leaf = any::<i64>().prop_map(Expr::Literal);
    leaf.prop_recursive(4, 32, 4, |inner| {
        prop_oneof![
            inner.clone().prop_map(|e| Expr::Negate(Box::new(e))),
            vec(inner, 0..4).prop_map(Expr::Sum),
        ]
    })
}

fn node() -> impl Strategy<Value = Node> {
    vec(any::<i32>(), 1..20).prop_map(|values| {
        let mut next = None;
        for value in values.into_iter().rev() {
            next = Some(Box::new(Node { value, next }));
        }
        *next.expect("at least one value")
    })
}

fn tree() -> impl Strategy<Value = Tree> {
    Just(Tree {
        children: Vec::new(),
    })
    .prop_recursive(3, 20, 3, |inner| {
        vec(inner, 0..3).prop_map(|children| Tree { children })
    })
}

fn wrapper() -> impl Strategy<Value = Wrapper> {
    any::<i32>()
        .prop_map(Wrapper::Leaf)
        .prop_recursive(5, 5, 1, |inner| {
            inner.prop_map(|w| Wrapper::Inner(Box::new(w)))
        })
}

proptest! {
    #[test]
    fn base_types_round_trip(value in base_types()) { both(&value); }

    #[test]
    fn requiredness_round_trip(value in requiredness()) { both(&value); }

    #[test]
    fn containers_round_trip(value in containers()) { both(&value); }

    #[test]
    fn shared_strings_round_trip(value in base_types(), containers in containers()) {
        let bytes = value.encode_to_vec::<Binary>().unwrap();
        shared_round_trip::<SharedBaseTypes, Binary>(&bytes);
        let bytes = value.encode_to_vec::<Compact>().unwrap();
        shared_round_trip::<SharedBaseTypes, Compact>(&bytes);
        let bytes = containers.encode_to_vec::<Binary>().unwrap();
        shared_round_trip::<SharedContainers, Binary>(&bytes);
        let bytes = containers.encode_to_vec::<Compact>().unwrap();
        shared_round_trip::<SharedContainers, Compact>(&bytes);
    }

    #[test]
    fn compact_strings_round_trip(value in base_types(), containers in containers()) {
        let bytes = value.encode_to_vec::<Binary>().unwrap();
        shared_round_trip::<CompactBaseTypes, Binary>(&bytes);
        let bytes = value.encode_to_vec::<Compact>().unwrap();
        shared_round_trip::<CompactBaseTypes, Compact>(&bytes);
        let bytes = containers.encode_to_vec::<Binary>().unwrap();
        shared_round_trip::<CompactContainers, Binary>(&bytes);
        let bytes = containers.encode_to_vec::<Compact>().unwrap();
        shared_round_trip::<CompactContainers, Compact>(&bytes);
    }

    #[test]
    fn hash_collections_round_trip(value in containers()) {
        hash_round_trip::<Binary>(&value);
        hash_round_trip::<Compact>(&value);
        hasher_round_trip::<Binary>(&value);
        hasher_round_trip::<Compact>(&value);
    }

    #[test]
    fn enums_round_trip(value in uses_enums()) { both(&value); }

    #[test]
    fn unions_round_trip(shape in shape(), expr in proptest::option::of(expr())) {
        both(&shape);
        both(&HasUnion { shape, expr });
    }

    #[test]
    fn recursive_round_trip(node in node(), tree in tree(), wrapper in wrapper()) {
        both(&node);
        both(&tree);
        both(&wrapper);
    }

    #[test]
    fn read_into_replaces_the_previous_value(
        (base, base_before) in (base_types(), base_types()),
        (required, required_before) in (requiredness(), requiredness()),
        (containers, containers_before) in (containers(), containers()),
        (tree, tree_before) in (tree(), tree()),
        (node, node_before) in (node(), node()),
        (wrapper, wrapper_before) in (wrapper(), wrapper()),
        (nested, nested_before) in (nested(), nested()),
        (shape, shape_before) in (shape(), shape()),
    ) {
        replaces(&base, &base_before);
        replaces(&required, &required_before);
        replaces(&containers, &containers_before);
        replaces(&tree, &tree_before);
        replaces(&node, &node_before);
        replaces(&wrapper, &wrapper_before);
        replaces(&nested, &nested_before);
        replaces(&shape, &shape_before);
        // Strings::Compact: strings read into their slots.
        replaces(&to::<CompactBaseTypes>(&base), &to::<CompactBaseTypes>(&base_before));
        replaces(&to::<CompactContainers>(&containers), &to::<CompactContainers>(&containers_before));
    }

    #[test]
    fn nested_round_trip(value in nested()) { both(&value); }

    #[test]
    fn out_of_order_ids_round_trip(a in any::<i32>(), b in any::<Option<i32>>(), c in any::<i32>()) {
        both(&OutOfOrder { a, b, c });
    }
}

#[test]
fn empty_struct_and_defaults() {
    both(&Empty {});
    let defaults = thrift_tests::golden::fixture_base_types::base_types::Defaults::default();
    assert_eq!(defaults.number, 42);
    assert_eq!(defaults.text, "hello");
    assert_eq!(defaults.ratio, Some(0.5));
    assert_eq!(defaults.numbers, vec![1, 2, 3]);
    assert_eq!(defaults.big, i64::MIN);
    both(&defaults);
}

#[test]
fn missing_fields_take_defaults_or_fail() {
    // An empty struct on the wire (just the stop byte).
    let empty = [0u8];
    let defaults =
        thrift_tests::golden::fixture_base_types::base_types::Defaults::decode::<Binary>(&empty)
            .unwrap();
    assert_eq!(defaults.number, 42);
    assert_eq!(
        defaults.ratio, None,
        "an absent optional field is None, whatever its IDL default"
    );
    let error = Requiredness::decode::<Binary>(&empty).unwrap_err();
    assert!(
        error.to_string().contains("Requiredness") && error.to_string().contains("req"),
        "{error}"
    );
    let error = Shape::decode::<Compact>(&empty).unwrap_err();
    assert!(error.to_string().contains("no known field"), "{error}");
}

#[test]
fn unknown_enum_values_are_kept() {
    let value = UsesEnums {
        color: Color(12345),
        signed: Some(Signed(-7)),
        colors: vec![Color(-1)],
        names: BTreeMap::new(),
    };
    both(&value);
    assert_eq!(format!("{:?}", Color(12345)), "Color(12345)");
    assert_eq!(format!("{:?}", Color::RED), "RED");
    assert_eq!(Color::RED.name(), Some("RED"));
    let _: BTreeSet<Color> = Color::KNOWN.iter().copied().collect();
}

/// A map with a repeated key keeps the last value, and a set with a repeated element keeps
/// one, in every representation (insert one by one, bulk build, hash).
#[test]
fn repeated_keys_keep_the_last_value() {
    use thrift_runtime::{BinaryWriter, ProtocolWriter, TType};
    let mut bytes = Vec::new();
    let mut w = BinaryWriter::new(&mut bytes);
    let token = w.write_struct_begin().unwrap();
    // 2: set<string> tags = {"b", "a", "b"}
    w.write_field_begin(TType::Set, 2).unwrap();
    w.write_set_begin(TType::String, 3).unwrap();
    for s in ["b", "a", "b"] {
        w.write_string(s).unwrap();
    }
    w.write_set_end().unwrap();
    w.write_field_end().unwrap();
    // 7: map<binary, bool> by_bytes = {[1]: true, [0]: true, [1]: false}
    w.write_field_begin(TType::Map, 7).unwrap();
    w.write_map_begin(TType::String, TType::Bool, 3).unwrap();
    for (k, v) in [(1u8, true), (0, true), (1, false)] {
        w.write_binary(&[k]).unwrap();
        w.write_bool(v).unwrap();
    }
    w.write_map_end().unwrap();
    w.write_field_end().unwrap();
    w.write_field_stop().unwrap();
    w.write_struct_end(token).unwrap();

    let ordered = Containers::decode::<Binary>(&bytes).unwrap();
    assert_eq!(
        ordered.tags,
        BTreeSet::from(["a".to_string(), "b".to_string()])
    );
    assert_eq!(
        ordered.by_bytes,
        BTreeMap::from([(vec![0], true), (vec![1], false)])
    );
    let hashed = HashContainers::decode::<Binary>(&bytes).unwrap();
    assert_eq!(ordered_form(&hashed).tags, ordered.tags);
    assert_eq!(ordered_form(&hashed).by_bytes, ordered.by_bytes);
    let hasher = HasherContainers::decode::<Binary>(&bytes).unwrap();
    assert_eq!(hasher.tags.len(), 2);
    assert!(hasher.tags.contains("a") && hasher.tags.contains("b"));
    assert_eq!(hasher.by_bytes.len(), 2);
    assert_eq!(hasher.by_bytes.get(&vec![1]), Some(&false));
}

/// Constant sets and maps hold the same entries with std's hasher and with another one.
#[test]
fn constants_with_a_hasher() {
    use thrift_tests::golden::{fixture_consts_hash as std_hasher, fixture_consts_hasher as other};
    let same_entries = |a: Vec<String>, mut b: Vec<String>| {
        let mut a = a;
        a.sort();
        b.sort();
        assert_eq!(a, b);
    };
    same_entries(
        std_hasher::consts::PRIMES
            .iter()
            .map(|p| p.to_string())
            .collect(),
        other::consts::PRIMES
            .iter()
            .map(|p| p.to_string())
            .collect(),
    );
    same_entries(
        std_hasher::consts::LEVELS
            .iter()
            .map(|e| format!("{e:?}"))
            .collect(),
        other::consts::LEVELS
            .iter()
            .map(|e| format!("{e:?}"))
            .collect(),
    );
    same_entries(
        std_hasher::consts::NESTED
            .iter()
            .map(|e| format!("{e:?}"))
            .collect(),
        other::consts::NESTED
            .iter()
            .map(|e| format!("{e:?}"))
            .collect(),
    );
    assert!(other::consts::NO_LEVELS.is_empty() && other::consts::NO_IDS.is_empty());
    assert!(std_hasher::consts::NO_LEVELS.is_empty() && std_hasher::consts::NO_IDS.is_empty());
}
