//! Per-path mappings (`rust.type`, `Builder::strings_for`, `Builder::collections_for`; the
//! `mappings` golden fixture): the generated fields have the types asked for (checked by the
//! compiler below), and values round-trip in both protocols, owned and through the borrowing
//! form, typedef'd fields, defaults and constants included.

use std::collections::{BTreeMap, HashMap, HashSet};

use thrift_runtime::{
    Binary, ByteString, Bytes, Compact, CompactString, Protocol, ThriftRead, ThriftWrite,
};
use thrift_tests::golden::fixture_mappings::mappings::{
    AllHashed, ByBuilder, Choice, EXAMPLE, Inner, Keys, Mixed, MixedRef,
};

fn mixed() -> Mixed {
    Mixed {
        plain: BTreeMap::from([("p".into(), 1)]),
        hashed: HashMap::from([("h".into(), 2), ("i".into(), 3)]),
        hashed_set: HashSet::from([4, 5]),
        aliased: HashMap::from([("a".into(), 6)]),
        text: "text".into(),
        shared: ByteString::from("shared"),
        payload: Bytes::from_static(b"\x00\xffpayload"),
        alias: CompactString::from("alias"),
        nested: vec![HashMap::from([("n".into(), HashSet::from([7]))])],
        with_default: ByteString::from("not the default"),
        with_default_map: HashMap::new(),
        inner: Some(Inner {
            counts: BTreeMap::from([("c".into(), 8)]),
        }),
        names: vec![CompactString::from("x"), CompactString::from("y")],
    }
}

fn round_trip<P: Protocol, T>(value: &T)
where
    T: for<'de> ThriftRead<'de> + ThriftWrite + PartialEq + std::fmt::Debug,
{
    let bytes = value.encode_to_vec::<P>().unwrap();
    assert_eq!(bytes.len(), value.encoded_len::<P>());
    assert_eq!(&T::decode::<P>(&bytes).unwrap(), value);
}

#[test]
fn fields_have_the_types_asked_for_and_round_trip() {
    let value = mixed();
    // The types, as the annotations and the builder ask (a mismatch does not compile).
    let _: &HashMap<String, i32> = &value.hashed;
    let _: &BTreeMap<String, i32> = &value.plain;
    let _: &ByteString = &value.shared;
    let _: &Bytes = &value.payload;
    let _: &CompactString = &value.alias;
    let _: &String = &value.text;
    round_trip::<Binary, _>(&value);
    round_trip::<Compact, _>(&value);

    let bytes = value.encode_to_vec::<Compact>().unwrap();
    let view = MixedRef::decode::<Compact>(&bytes).unwrap();
    assert_eq!(view.shared, "shared");
    assert_eq!(Mixed::from(&view), value);

    let all = AllHashed {
        a: HashMap::from([(1, "one".into())]),
        b: HashSet::from(["b".into()]),
    };
    round_trip::<Binary, _>(&all);
    round_trip::<Compact, _>(&all);
    let by_builder = ByBuilder {
        a: HashMap::from([(1, 2)]),
        b: vec![HashSet::from([3, 4])],
    };
    round_trip::<Compact, _>(&by_builder);
    // `Inner` sits in a set element: its map is a `BTreeMap`, so that it is `Ord`.
    let keys = Keys {
        inners: [Inner::default()].into_iter().collect(),
    };
    round_trip::<Binary, _>(&keys);
    for choice in [
        Choice::Counts(HashMap::from([("k".into(), 1)])),
        Choice::Text(CompactString::from("t")),
    ] {
        round_trip::<Compact, _>(&choice);
    }
}

#[test]
fn defaults_and_constants_use_the_fields_types() {
    let value = Mixed::default();
    assert_eq!(value.with_default, "d");
    assert_eq!(value.with_default_map, HashMap::from([("a".into(), 1)]));
    // Absent on the wire: the defaults, in the fields' types.
    let empty = Mixed::decode::<Compact>(&[0]).unwrap();
    assert_eq!(empty, value);
    assert_eq!(EXAMPLE.hashed, HashMap::from([("x".into(), 1)]));
    assert_eq!(EXAMPLE.shared, "s");
    assert_eq!(&EXAMPLE.payload[..], b"p");
    round_trip::<Binary, _>(&*EXAMPLE);
}
