//! serde (`Builder::serde(true)`, the `serde` golden fixture): serde_json round trips of every
//! construct (base types, binaries, uuids, enums named, unnamed and aliased, sets of doubles,
//! maps keyed by numbers, strings, enums, bools, structs, doubles and binaries, unions,
//! recursion, exceptions, defaults), the JSON they give, the same JSON from the
//! `Strings::Bytes`, `Strings::Compact` and `Collections::Hash` mappings, and the borrowing
//! forms' `Serialize`.

use std::collections::BTreeMap;

use serde_json::{Value, json};
use thrift_runtime::{Compact, OrderedF64, ThriftRead, ThriftWrite};
use thrift_tests::golden::fixture_serde::serde::{
    Color, Defaults, Everything, EverythingRef, Oops, Point, Shape, Tree, TreeRef,
};
use thrift_tests::golden::fixture_serde_bytes::serde::Everything as BytesEverything;
use thrift_tests::golden::fixture_serde_compact::serde::Everything as CompactEverything;
use thrift_tests::golden::fixture_serde_hash::serde::Everything as HashEverything;

fn point(x: f64, y: f64) -> Point {
    Point {
        x: OrderedF64(x),
        y: OrderedF64(y),
    }
}

fn everything() -> Everything {
    thrift_tests::samples::serde_everything()
}

#[test]
fn every_construct_round_trips_through_json() {
    let value = everything();
    let text = serde_json::to_string(&value).unwrap();
    let back: Everything = serde_json::from_str(&text).unwrap();
    assert_eq!(back, value);
}

#[test]
fn the_json_has_the_idl_names_and_shapes() {
    let json = serde_json::to_value(everything()).unwrap();
    let expected = json!({
        "aBool": true,
        "aByte": -8,
        "anI16": 16,
        "anI32": -32,
        "anI64": 1_i64 << 40,
        "aDouble": 2.5,
        "aString": "héllo",
        "aBinary": [0, 1, 255],
        "anUuid": [7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7],
        // Named values by name (an alias by the first name), others by number.
        "color": "GREEN",
        "colors": ["RED", 12345, "NEGATIVE"],
        "doubles": [-1.5, 0.25],
        "byNumber": {"-2": "minus two", "1": "one"},
        "byName": {"a": [1, 2]},
        "byColor": {"RED": true, "99": false},
        "byBool": {"false": 0, "true": 1},
        // Keys that cannot be object keys: pairs.
        "byPoint": [[{"x": 1.0, "y": 2.0}, "p"]],
        "labels": [[{"x": 0.0, "y": 0.0}, "origin"]],
        "byDouble": [[0.5, "half"]],
        "byBinary": [[[1, 2], "bytes"]],
        "nested": [{"3": {"x": 3.0, "y": 4.0}}, {}],
        "shape": {"counts": [[{"x": 5.0, "y": 6.0}, 2]]},
        "type": "a keyword",
    });
    assert_eq!(json, expected);
}

#[test]
fn enums_read_from_names_aliases_and_numbers() {
    let read = |text: &str| serde_json::from_str::<Color>(text);
    assert_eq!(read("\"GREEN\"").unwrap(), Color::GREEN);
    assert_eq!(read("\"CRIMSON\"").unwrap(), Color::RED);
    assert_eq!(read("\"NEGATIVE\"").unwrap(), Color(-5));
    assert_eq!(read("2").unwrap(), Color::GREEN);
    assert_eq!(read("-77").unwrap(), Color(-77));
    let unknown = read("\"PURPLE\"").unwrap_err().to_string();
    assert!(
        unknown.contains("PURPLE") && unknown.contains("Color"),
        "{unknown}"
    );
    assert!(read("4294967296").is_err());
    assert!(read("true").is_err());
}

#[test]
fn missing_fields_are_read_as_thrift_reads_them() {
    let defaults: Defaults = serde_json::from_str(r#"{"needed": 3}"#).unwrap();
    assert_eq!(defaults.needed, 3);
    assert_eq!(defaults.maybe, None);
    // Unset, though the IDL has a default: as a decoder leaves it when the field is absent.
    assert_eq!(defaults.maybe_with_default, None);
    assert_eq!(defaults.named, "default name");
    assert_eq!(defaults.numbers, [1, 2]);
    assert_eq!(defaults.zero, 0);
    assert_eq!(defaults.color, Color::GREEN);
    // The same as decoding a Thrift struct that has only `needed`.
    let only_needed = Defaults {
        maybe_with_default: None,
        ..Defaults::new(3)
    };
    let decoded = Defaults::decode::<Compact>(&only_needed.encode_to_vec::<Compact>().unwrap());
    assert_eq!(decoded.unwrap().named, defaults.named);

    let missing = serde_json::from_str::<Defaults>("{}")
        .unwrap_err()
        .to_string();
    assert!(missing.contains("needed"), "{missing}");
    // Unset optional fields are left out.
    let json = serde_json::to_value(&defaults).unwrap();
    assert_eq!(
        json,
        json!({"needed": 3, "named": "default name", "numbers": [1, 2], "zero": 0, "color": "GREEN"})
    );
    assert_eq!(serde_json::from_value::<Defaults>(json).unwrap(), defaults);
}

#[test]
fn unions_recursion_and_exceptions_round_trip() {
    for shape in [
        Shape::Point(point(1.0, -1.0)),
        Shape::Radius(3.5),
        Shape::Counts(BTreeMap::new()),
        Shape::Label("x".into()),
    ] {
        let text = serde_json::to_string(&shape).unwrap();
        assert_eq!(serde_json::from_str::<Shape>(&text).unwrap(), shape);
    }
    assert_eq!(
        serde_json::to_value(Shape::Radius(3.5)).unwrap(),
        json!({"radius": 3.5})
    );
    let tree = Tree {
        name: "root".into(),
        children: vec![Tree {
            name: "leaf".into(),
            ..Tree::default()
        }],
        parent: Some(Box::new(Tree {
            name: "up".into(),
            ..Tree::default()
        })),
    };
    let text = serde_json::to_string(&tree).unwrap();
    assert_eq!(serde_json::from_str::<Tree>(&text).unwrap(), tree);
    let oops: Oops = serde_json::from_str(r#"{"message": "bad"}"#).unwrap();
    assert_eq!(oops.code, 500);
    assert_eq!(
        serde_json::from_str::<Oops>(&serde_json::to_string(&oops).unwrap()).unwrap(),
        oops
    );
}

/// The same value in another mapping, through the Thrift encoding.
fn converted<T: for<'de> ThriftRead<'de>>() -> T {
    T::decode::<Compact>(&everything().encode_to_vec::<Compact>().unwrap()).unwrap()
}

#[test]
fn the_other_mappings_give_the_same_json() {
    let expected = serde_json::to_value(everything()).unwrap();
    let bytes: BytesEverything = converted();
    let json = serde_json::to_value(&bytes).unwrap();
    assert_eq!(json, expected);
    assert_eq!(
        serde_json::from_value::<BytesEverything>(json).unwrap(),
        bytes
    );
    let compact: CompactEverything = converted();
    let json = serde_json::to_value(&compact).unwrap();
    assert_eq!(json, expected);
    assert_eq!(
        serde_json::from_value::<CompactEverything>(json).unwrap(),
        compact
    );
    // Hash maps and sets: objects compare as maps, but sets and pairs are arrays in hash
    // order, so compare through the value read back.
    let hash: HashEverything = converted();
    let json = serde_json::to_value(&hash).unwrap();
    assert_eq!(json["byNumber"], expected["byNumber"]);
    assert_eq!(
        serde_json::from_value::<HashEverything>(json).unwrap(),
        hash
    );
}

#[test]
fn borrowing_forms_serialize() {
    let tree = Tree {
        name: "root".into(),
        children: vec![Tree::default()],
        parent: None,
    };
    let bytes = tree.encode_to_vec::<Compact>().unwrap();
    let view = TreeRef::decode::<Compact>(&bytes).unwrap();
    assert_eq!(
        serde_json::to_value(&view).unwrap(),
        serde_json::to_value(&tree).unwrap()
    );
    // Maps are vectors of pairs in a borrowing form, and serialize as such.
    let bytes = everything().encode_to_vec::<Compact>().unwrap();
    let view = EverythingRef::decode::<Compact>(&bytes).unwrap();
    let json: Value = serde_json::to_value(&view).unwrap();
    assert_eq!(json["aString"], "héllo");
    assert_eq!(json["byNumber"], json!([[-2, "minus two"], [1, "one"]]));
    assert_eq!(json["color"], "GREEN");
}

#[test]
fn kept_unknown_fields_are_not_serialized() {
    use thrift_runtime::unknown::Value as Unknown;
    use thrift_tests::golden::fixture_unknown_fields_serde::unknown_fields::Inner;
    let mut inner = Inner {
        name: "n".into(),
        ..Inner::default()
    };
    inner.unknown_fields.push(9, Unknown::I8(1));
    let json = serde_json::to_value(&inner).unwrap();
    assert_eq!(json, json!({"name": "n"}));
    let back: Inner = serde_json::from_value(json).unwrap();
    assert!(back.unknown_fields.is_empty());
}
