//! Unknown fields kept (`Builder::keep_unknown_fields`, the `unknown_fields` golden fixture):
//! a message from a "newer peer", with fields the reading type does not declare between and
//! after the ones it does, re-encodes byte for byte in both protocols, through the owned form,
//! `read_into` a used value, the borrowing form and the conversion from it; a value read with
//! one protocol writes the same fields with the other; `encoded_len` is exact. Apache's
//! vectors are checked the same way by the interop run (`UNKNOWN=1 interop/run.sh`).

use thrift_runtime::unknown::Value;
use thrift_runtime::{
    Binary, Compact, OrderedF64, Protocol, ReadLimits, SliceInput, TType, ThriftRead, ThriftWrite,
    UnknownFields,
};
use thrift_tests::golden::fixture_unknown_fields::unknown_fields::{
    Choice, Clash, Inner, Kept, KeptRef, Nothing,
};

/// The newer peer's `Kept`: ids 1, 3, 5 and 9 are `Kept`'s (7 and 11, optional, are absent);
/// 2, 4, 6, 10 and 100 are not, and -1 comes first.
fn newer_peer() -> Nothing {
    let mut fields = UnknownFields::new();
    let inner = |name: &str| Value::Struct(vec![(1, Value::Binary(name.as_bytes().to_vec()))]);
    fields.push(-1, Value::I16(-7));
    fields.push(1, Value::I32(42));
    fields.push(2, Value::Binary(b"new in v2".to_vec()));
    fields.push(3, Value::Binary(b"label".to_vec()));
    fields.push(
        4,
        Value::List(TType::Bool, vec![Value::Bool(true), Value::Bool(false)]),
    );
    fields.push(5, Value::Bool(true));
    fields.push(6, Value::Double(OrderedF64(f64::NAN)));
    fields.push(9, Value::List(TType::Struct, vec![inner("a"), inner("b")]));
    fields.push(
        10,
        Value::Map(
            TType::String,
            TType::Set,
            vec![
                (
                    Value::Binary(b"z".to_vec()),
                    Value::Set(TType::I64, vec![Value::I64(3), Value::I64(1)]),
                ),
                (Value::Binary(b"a".to_vec()), Value::Set(TType::I64, vec![])),
            ],
        ),
    );
    fields.push(100, Value::Uuid([9; 16]));
    Nothing {
        unknown_fields: fields,
    }
}

fn reencodes<P: Protocol>() {
    let wire = newer_peer().encode_to_vec::<P>().unwrap();

    let kept = Kept::decode::<P>(&wire).unwrap();
    assert_eq!(kept.id, 42);
    assert_eq!(kept.label.as_deref(), Some("label"));
    assert!(kept.flag);
    let inner = |name: &str| Inner {
        name: name.into(),
        ..Inner::default()
    };
    assert_eq!(kept.inners, [inner("a"), inner("b")]);
    let ids: Vec<i16> = kept.unknown_fields.iter().map(|(id, _)| id).collect();
    assert_eq!(ids, [-1, 2, 4, 6, 10, 100]);
    assert_eq!(kept.encoded_len::<P>(), wire.len());
    assert_eq!(kept.encode_to_vec::<P>().unwrap(), wire);

    // Into a used value: its old unknown fields are replaced.
    let mut used = Kept::default();
    used.unknown_fields.push(77, Value::I8(1));
    let mut r = P::reader(SliceInput::new(&wire), ReadLimits::default());
    Kept::read_into(&mut r, &mut used).unwrap();
    assert_eq!(used, kept);

    let view = KeptRef::decode::<P>(&wire).unwrap();
    assert_eq!(view.label, Some("label"));
    assert_eq!(view.encode_to_vec::<P>().unwrap(), wire);
    assert_eq!(Kept::from(&view), kept);

    // Everything unknown: the whole message is kept.
    let all = Nothing::decode::<P>(&wire).unwrap();
    assert_eq!(all.unknown_fields.len(), 10);
    assert_eq!(all.encode_to_vec::<P>().unwrap(), wire);
}

#[test]
fn a_newer_peers_message_reencodes_byte_for_byte() {
    reencodes::<Binary>();
    reencodes::<Compact>();
}

#[test]
fn fields_read_with_one_protocol_are_written_with_the_other() {
    let binary = newer_peer().encode_to_vec::<Binary>().unwrap();
    let compact = newer_peer().encode_to_vec::<Compact>().unwrap();
    let from_compact = Kept::decode::<Compact>(&compact).unwrap();
    assert_eq!(from_compact.encode_to_vec::<Binary>().unwrap(), binary);
    let from_binary = Kept::decode::<Binary>(&binary).unwrap();
    assert_eq!(from_binary.encode_to_vec::<Compact>().unwrap(), compact);
}

#[test]
fn unknown_fields_out_of_order_come_back_where_they_were() {
    // Known fields in descending id order, unknown ones between them: each unknown field is
    // written after the known fields that preceded it, so the known ones go back to id
    // order and every unknown field follows the same known field as before.
    let mut fields = UnknownFields::new();
    fields.push(9, Value::List(TType::Struct, vec![]));
    fields.push(8, Value::I8(8));
    fields.push(1, Value::I32(1));
    fields.push(0, Value::I8(0));
    let wire = Nothing {
        unknown_fields: fields,
    }
    .encode_to_vec::<Compact>()
    .unwrap();
    let kept = Kept::decode::<Compact>(&wire).unwrap();
    let again = Nothing::decode::<Compact>(&kept.encode_to_vec::<Compact>().unwrap()).unwrap();
    let ids: Vec<i16> = again.unknown_fields.iter().map(|(id, _)| id).collect();
    // 8 came after known field 9 (`after` = 5), 0 after known 1 (`after` = 1): written as
    // 1, 0, 5 (a default), 9, 8.
    assert_eq!(ids, [1, 0, 5, 9, 8]);
    assert_eq!(
        kept.encoded_len::<Compact>(),
        kept.encode_to_vec::<Compact>().unwrap().len()
    );
}

#[test]
fn new_values_write_their_unknown_fields_after_the_known_ones() {
    let mut kept = Kept::default();
    kept.unknown_fields.push(2, Value::Bool(true));
    let bytes = kept.encode_to_vec::<Binary>().unwrap();
    let all = Nothing::decode::<Binary>(&bytes).unwrap();
    let ids: Vec<i16> = all.unknown_fields.iter().map(|(id, _)| id).collect();
    assert_eq!(ids, [1, 5, 9, 2]);
    assert_eq!(kept.encoded_len::<Binary>(), bytes.len());
}

#[test]
fn a_field_named_like_the_member_renames_the_member() {
    let mut clash = Clash {
        unknown_fields: 5,
        ..Clash::default()
    };
    clash.unknown_fields_.push(2, Value::I64(6));
    let bytes = clash.encode_to_vec::<Compact>().unwrap();
    assert_eq!(Clash::decode::<Compact>(&bytes).unwrap(), clash);
}

#[test]
fn unions_drop_unknown_fields() {
    let mut fields = UnknownFields::new();
    fields.push(9, Value::I8(1));
    fields.push(1, Value::I32(3));
    let wire = Nothing {
        unknown_fields: fields,
    }
    .encode_to_vec::<Binary>()
    .unwrap();
    let choice = Choice::decode::<Binary>(&wire).unwrap();
    assert_eq!(choice, Choice::Number(3));
    assert_ne!(choice.encode_to_vec::<Binary>().unwrap(), wire);
}

#[test]
fn a_known_id_with_another_wire_type_is_skipped_not_kept() {
    // As Apache does: kept, it would be written back beside the known field of that id.
    let mut fields = UnknownFields::new();
    fields.push(1, Value::Binary(b"not an i32".to_vec()));
    fields.push(2, Value::I8(2));
    let wire = Nothing {
        unknown_fields: fields,
    }
    .encode_to_vec::<Compact>()
    .unwrap();
    let kept = Kept::decode::<Compact>(&wire).unwrap();
    assert_eq!(kept.id, 0);
    let ids: Vec<i16> = kept.unknown_fields.iter().map(|(id, _)| id).collect();
    assert_eq!(ids, [2]);
}
