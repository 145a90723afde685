//! Generated readers try each field in declared order first (`ProtocolReader::read_field_after`)
//! and fall back to the general loop. These tests write the fields of a struct in every kind of
//! order, with unknown fields and repeated fields mixed in, and check that the owned and the
//! borrowing decoders both give the value Apache's rules give: every field read wherever it is,
//! unknown fields skipped, the last of a repeated field kept.

use proptest::collection::vec;
use proptest::prelude::*;
use thrift_runtime::{
    Binary, BinaryWriter, Compact, CompactWriter, Protocol, ProtocolWriter, TType, ThriftRead,
};
use thrift_tests::golden::fixture_base_types::base_types::{BaseTypes, BaseTypesRef, OutOfOrder};

mod support;

/// What to write, in order: a field of `BaseTypes` by id (1..=10), or an unknown field.
#[derive(Clone, Debug)]
enum Item {
    Field(i16),
    Unknown(i16),
}

fn write_field<W: ProtocolWriter>(w: &mut W, v: &BaseTypes, id: i16) {
    match id {
        1 => {
            w.write_field_begin(TType::Bool, 1).unwrap();
            w.write_bool(v.a_bool).unwrap();
        }
        2 => {
            w.write_field_begin(TType::I8, 2).unwrap();
            w.write_i8(v.a_byte).unwrap();
        }
        3 => {
            w.write_field_begin(TType::I8, 3).unwrap();
            w.write_i8(v.an_i8).unwrap();
        }
        4 => {
            w.write_field_begin(TType::I16, 4).unwrap();
            w.write_i16(v.an_i16).unwrap();
        }
        5 => {
            w.write_field_begin(TType::I32, 5).unwrap();
            w.write_i32(v.an_i32).unwrap();
        }
        6 => {
            w.write_field_begin(TType::I64, 6).unwrap();
            w.write_i64(v.an_i64).unwrap();
        }
        7 => {
            w.write_field_begin(TType::Double, 7).unwrap();
            w.write_double(v.a_double).unwrap();
        }
        8 => {
            w.write_field_begin(TType::String, 8).unwrap();
            w.write_string(&v.a_string).unwrap();
        }
        9 => {
            w.write_field_begin(TType::String, 9).unwrap();
            w.write_binary(&v.a_binary).unwrap();
        }
        10 => {
            w.write_field_begin(TType::Uuid, 10).unwrap();
            w.write_uuid(&v.a_uuid).unwrap();
        }
        _ => unreachable!("BaseTypes has fields 1..=10"),
    }
    w.write_field_end().unwrap();
}

fn encode<W: ProtocolWriter>(mut w: W, v: &BaseTypes, items: &[Item]) {
    let token = w.write_struct_begin().unwrap();
    for item in items {
        match *item {
            Item::Field(id) => write_field(&mut w, v, id),
            Item::Unknown(id) => {
                // An id no field has, or a known id with the wrong wire type: skipped.
                w.write_field_begin(TType::Bool, id).unwrap();
                w.write_bool(true).unwrap();
                w.write_field_end().unwrap();
            }
        }
    }
    w.write_field_stop().unwrap();
    w.write_struct_end(token).unwrap();
}

/// The value the reader must produce: the fields written (the last occurrence wins, which
/// for a repeated field is the same value), defaults for the others.
fn expected(v: &BaseTypes, items: &[Item]) -> BaseTypes {
    let mut e = BaseTypes::default();
    for item in items {
        if let Item::Field(id) = *item {
            match id {
                1 => e.a_bool = v.a_bool,
                2 => e.a_byte = v.a_byte,
                3 => e.an_i8 = v.an_i8,
                4 => e.an_i16 = v.an_i16,
                5 => e.an_i32 = v.an_i32,
                6 => e.an_i64 = v.an_i64,
                7 => e.a_double = v.a_double,
                8 => e.a_string.clone_from(&v.a_string),
                9 => e.a_binary.clone_from(&v.a_binary),
                10 => e.a_uuid = v.a_uuid,
                _ => unreachable!(),
            }
        }
    }
    e
}

fn check<P: Protocol>(bytes: &[u8], want: &BaseTypes) {
    let owned = BaseTypes::decode::<P>(bytes).expect("owned decode");
    assert_eq!(owned.a_double.to_bits(), want.a_double.to_bits());
    let mut same = owned.clone();
    same.a_double = want.a_double;
    assert_eq!(&same, want);
    let borrowed = BaseTypesRef::decode::<P>(bytes).expect("borrowed decode");
    assert_eq!(BaseTypes::from(&borrowed), owned);
}

/// Any `BaseTypes` (strings up to 20 characters, binaries up to 20 bytes).
fn value() -> impl Strategy<Value = BaseTypes> {
    support::base_types(any::<f64>(), ".{0,20}", vec(any::<u8>(), 0..20))
}

/// Any subset of the fields in any order, some repeated, with unknown fields (new ids, ids
/// far from the previous one so the compact protocol needs a long-form header, and known ids
/// with the wrong wire type) anywhere.
fn items() -> impl Strategy<Value = Vec<Item>> {
    vec(
        prop_oneof![
            4 => (1i16..=10).prop_map(Item::Field),
            1 => prop_oneof![Just(11i16), Just(40), Just(-3), Just(5), Just(i16::MAX)]
                .prop_map(Item::Unknown),
        ],
        0..16,
    )
}

fn both(v: &BaseTypes, items: &[Item]) {
    let want = expected(v, items);
    let mut bytes = Vec::new();
    encode(BinaryWriter::new(&mut bytes), v, items);
    check::<Binary>(&bytes, &want);
    let mut bytes = Vec::new();
    encode(CompactWriter::new(&mut bytes), v, items);
    check::<Compact>(&bytes, &want);
}

proptest! {
    #[test]
    fn fields_in_any_order_decode_the_same(v in value(), items in items()) {
        both(&v, &items);
    }
}

#[test]
fn declared_order_reverse_order_and_gaps() {
    let v = BaseTypes {
        a_bool: true,
        a_byte: -1,
        an_i8: 7,
        an_i16: 300,
        an_i32: -70_000,
        an_i64: 1 << 40,
        a_double: 2.5,
        a_string: "héllo".into(),
        a_binary: vec![0, 255],
        a_uuid: [9; 16],
    };
    let all: Vec<Item> = (1..=10).map(Item::Field).collect();
    both(&v, &all);
    both(&v, &all.iter().rev().cloned().collect::<Vec<_>>());
    // Every other field: the compact deltas are 2, not the 1 the fast path tries first.
    both(
        &v,
        &(1..=10).step_by(2).map(Item::Field).collect::<Vec<_>>(),
    );
    // A bool field false and then true: both compact header forms.
    for a_bool in [false, true] {
        both(
            &BaseTypes {
                a_bool,
                ..v.clone()
            },
            &all,
        );
    }
    both(&v, &[]);
}

#[test]
fn struct_declared_out_of_id_order() {
    // `OutOfOrder` declares 3, 1, 2; writers emit 1, 2, 3. Both orders decode.
    let v = OutOfOrder {
        c: 3,
        a: 1,
        b: Some(2),
    };
    for order in [[1i16, 2, 3], [3, 1, 2], [2, 3, 1]] {
        for compact in [false, true] {
            let mut bytes = Vec::new();
            let write = |w: &mut dyn FnMut(i16, i32)| {
                for id in order {
                    w(id, [v.a, v.b.unwrap(), v.c][id as usize - 1]);
                }
            };
            if compact {
                let mut w = CompactWriter::new(&mut bytes);
                let t = w.write_struct_begin().unwrap();
                write(&mut |id, x| {
                    w.write_field_begin(TType::I32, id).unwrap();
                    w.write_i32(x).unwrap();
                });
                w.write_field_stop().unwrap();
                w.write_struct_end(t).unwrap();
                assert_eq!(OutOfOrder::decode::<Compact>(&bytes).unwrap(), v);
            } else {
                let mut w = BinaryWriter::new(&mut bytes);
                let t = w.write_struct_begin().unwrap();
                write(&mut |id, x| {
                    w.write_field_begin(TType::I32, id).unwrap();
                    w.write_i32(x).unwrap();
                });
                w.write_field_stop().unwrap();
                w.write_struct_end(t).unwrap();
                assert_eq!(OutOfOrder::decode::<Binary>(&bytes).unwrap(), v);
            }
        }
    }
}
