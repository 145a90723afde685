//! Compact protocol byte vectors derived from thrift-compact-protocol.md.

use super::{assert_kind, cpt, cpt_reader};
use crate::{ErrorKind, MessageType, ProtocolReader, ProtocolWriter, TType};

#[test]
fn message_header() {
    let bytes = cpt(|w| w.write_message_begin("ping", MessageType::Call, 7));
    assert_eq!(bytes, [0x82, 0x21, 7, 4, b'p', b'i', b'n', b'g']);
    let h = cpt_reader(&bytes).read_message_begin().unwrap();
    assert_eq!(
        (h.name.as_ref(), h.kind, h.seq),
        ("ping", MessageType::Call, 7)
    );

    // Type in the high 3 bits; seq is a plain (not zigzag) varint.
    let bytes = cpt(|w| w.write_message_begin("", MessageType::Oneway, -1));
    assert_eq!(bytes, [0x82, 0x81, 0xff, 0xff, 0xff, 0xff, 0x0f, 0]);
    let h = cpt_reader(&bytes).read_message_begin().unwrap();
    assert_eq!((h.kind, h.seq), (MessageType::Oneway, -1));
    let bytes = cpt(|w| w.write_message_begin("x", MessageType::Exception, 300));
    assert_eq!(bytes, [0x82, 0x61, 0xac, 0x02, 1, b'x']);

    assert_kind!(
        cpt_reader(&[0x81, 0x21, 0, 0]).read_message_begin(),
        ErrorKind::InvalidData
    );
    assert_kind!(
        cpt_reader(&[0x82, 0x22, 0, 0]).read_message_begin(),
        ErrorKind::InvalidData
    );
    assert_kind!(
        cpt_reader(&[0x82, 0xa1, 0, 0]).read_message_begin(),
        ErrorKind::UnknownMessageType
    );
}

#[test]
fn field_header_deltas_and_long_form() {
    let bytes = cpt(|w| {
        let t = w.write_struct_begin()?;
        w.write_field_begin(TType::I32, 1)?; // delta 1
        w.write_i32(0)?;
        w.write_field_begin(TType::I64, 16)?; // delta 15
        w.write_i64(0)?;
        w.write_field_begin(TType::I8, 32)?; // delta 16: long form
        w.write_i8(0)?;
        w.write_field_begin(TType::String, 31)?; // negative delta: long form
        w.write_string("")?;
        w.write_field_begin(TType::Double, -1)?; // negative id
        w.write_double(0.0)?;
        w.write_field_begin(TType::Struct, 0)?; // delta 1 from -1 is short form
        let inner = w.write_struct_begin()?;
        w.write_field_begin(TType::List, 3)?; // inner struct starts from 0
        w.write_list_begin(TType::I16, 0)?;
        w.write_field_stop()?;
        w.write_struct_end(inner)?;
        w.write_field_begin(TType::Map, 2)?; // restored: delta 2 from 0
        w.write_map_begin(TType::I32, TType::I32, 0)?;
        w.write_field_begin(TType::Set, 2)?; // delta 0: long form
        w.write_set_begin(TType::Uuid, 0)?;
        w.write_field_begin(TType::Uuid, 3)?;
        w.write_uuid(&[0; 16])?;
        w.write_field_stop()?;
        w.write_struct_end(t)
    });
    let mut expected = vec![
        0x15, 0, // i32 field 1
        0xf6, 0, // i64 field 16
        0x03, 0x40, 0, // i8 field 32, zigzag(32) = 64
        0x08, 0x3e, 0, // string field 31, zigzag(31) = 62
        0x07, 0x01, 0, 0, 0, 0, 0, 0, 0, 0,    // double field -1
        0x1c, // struct field 0
        0x39, 0x04, 0x00, // inner list field 3, empty list of i16, stop
        0x2b, 0x00, // map field 2, empty map
        0x0a, 0x04, 0x0d, // set field 2 (long form), empty set of uuid
        0x1d, // uuid field 3
    ];
    expected.extend([0; 16]);
    expected.push(0);
    assert_eq!(bytes, expected);

    let mut r = cpt_reader(&bytes);
    let t = r.read_struct_begin().unwrap();
    let mut seen = Vec::new();
    loop {
        let f = r.read_field_begin().unwrap();
        if f.is_stop() {
            break;
        }
        seen.push((f.ttype, f.id));
        r.skip(f.ttype).unwrap();
    }
    r.read_struct_end(t).unwrap();
    assert_eq!(
        seen,
        [
            (TType::I32, 1),
            (TType::I64, 16),
            (TType::I8, 32),
            (TType::String, 31),
            (TType::Double, -1),
            (TType::Struct, 0),
            (TType::Map, 2),
            (TType::Set, 2),
            (TType::Uuid, 3),
        ]
    );
    assert!(r.input().rest().is_empty());
}

#[test]
fn bool_fields_fold_value_into_header() {
    let bytes = cpt(|w| {
        let t = w.write_struct_begin()?;
        w.write_field_begin(TType::Bool, 1)?;
        w.write_bool(true)?;
        w.write_field_end()?;
        w.write_field_begin(TType::Bool, 2)?;
        w.write_bool(false)?;
        w.write_field_begin(TType::Bool, 40)?;
        w.write_bool(true)?;
        w.write_field_begin(TType::List, 41)?;
        w.write_list_begin(TType::Bool, 2)?;
        w.write_bool(true)?;
        w.write_bool(false)?;
        w.write_field_stop()?;
        w.write_struct_end(t)
    });
    assert_eq!(
        bytes,
        [0x11, 0x12, 0x01, 0x50, 0x19, 0x21, 0x01, 0x02, 0x00]
    );

    let mut r = cpt_reader(&bytes);
    let t = r.read_struct_begin().unwrap();
    let f = r.read_field_begin().unwrap();
    assert_eq!((f.ttype, f.id), (TType::Bool, 1));
    assert!(r.read_bool().unwrap());
    let f = r.read_field_begin().unwrap();
    assert_eq!((f.ttype, f.id), (TType::Bool, 2));
    assert!(!r.read_bool().unwrap());
    let f = r.read_field_begin().unwrap();
    assert_eq!((f.ttype, f.id), (TType::Bool, 40));
    assert!(r.read_bool().unwrap());
    let f = r.read_field_begin().unwrap();
    assert_eq!((f.ttype, f.id), (TType::List, 41));
    let l = r.read_list_begin().unwrap();
    assert_eq!((l.elem, l.len), (TType::Bool, 2));
    assert!(r.read_bool().unwrap());
    assert!(!r.read_bool().unwrap());
    r.read_list_end().unwrap();
    assert!(r.read_field_begin().unwrap().is_stop());
    r.read_struct_end(t).unwrap();

    // Element bools: both 1/2 and 0 are accepted; list elem type 2 is Bool too.
    let mut r = cpt_reader(&[0x12, 0x00]);
    let l = r.read_list_begin().unwrap();
    assert_eq!((l.elem, l.len), (TType::Bool, 1));
    assert!(!r.read_bool().unwrap());
    assert_kind!(cpt_reader(&[3]).read_bool(), ErrorKind::InvalidData);
}

#[test]
fn list_and_map_headers() {
    let bytes = cpt(|w| {
        w.write_list_begin(TType::I32, 3)?;
        w.write_list_begin(TType::String, 14)?;
        w.write_set_begin(TType::Struct, 15)?;
        w.write_list_begin(TType::I8, 300)?;
        w.write_map_begin(TType::String, TType::I32, 0)?;
        w.write_map_begin(TType::String, TType::Double, 1)?;
        w.write_map_begin(TType::Bool, TType::Map, 200)
    });
    assert_eq!(
        bytes,
        [
            0x35, 0xe8, 0xfc, 0x0f, 0xf3, 0xac, 0x02, 0x00, 0x01, 0x87, 0xc8, 0x01, 0x1b
        ]
    );
    let mut padded = bytes.clone();
    padded.extend([0; 1000]);
    let mut r = cpt_reader(&padded);
    let h = r.read_list_begin().unwrap();
    assert_eq!((h.elem, h.len), (TType::I32, 3));
    let h = r.read_list_begin().unwrap();
    assert_eq!((h.elem, h.len), (TType::String, 14));
    let h = r.read_set_begin().unwrap();
    assert_eq!((h.elem, h.len), (TType::Struct, 15));
    let h = r.read_list_begin().unwrap();
    assert_eq!((h.elem, h.len), (TType::I8, 300));
    let m = r.read_map_begin().unwrap();
    assert_eq!((m.key, m.value, m.len), (TType::Stop, TType::Stop, 0));
    let m = r.read_map_begin().unwrap();
    assert_eq!((m.key, m.value, m.len), (TType::String, TType::Double, 1));
    let m = r.read_map_begin().unwrap();
    assert_eq!((m.key, m.value, m.len), (TType::Bool, TType::Map, 200));
    // Unknown compact type ids.
    assert_kind!(
        cpt_reader(&[0x1e, 0]).read_list_begin(),
        ErrorKind::InvalidData
    );
    assert_kind!(
        cpt_reader(&[0x01, 0xe5, 0]).read_map_begin(),
        ErrorKind::InvalidData
    );
    assert_kind!(
        cpt_reader(&[0x1f]).read_field_begin(),
        ErrorKind::InvalidData
    );
}

#[test]
fn every_compact_type_id_in_list_and_map_headers() {
    // The ids of thrift-compact-protocol.md; 2 (boolean false) reads as `Bool` too.
    let expected = [
        None, // 0: stop, not an element type of a non-empty list
        Some(TType::Bool),
        Some(TType::Bool),
        Some(TType::I8),
        Some(TType::I16),
        Some(TType::I32),
        Some(TType::I64),
        Some(TType::Double),
        Some(TType::String),
        Some(TType::List),
        Some(TType::Set),
        Some(TType::Map),
        Some(TType::Struct),
        Some(TType::Uuid),
        None,
        None,
    ];
    for (id, ttype) in (0u8..).zip(expected) {
        let list = [0x10 | id, 0];
        let map = [0x01, id << 4 | 5, 0];
        match ttype {
            Some(ttype) => {
                assert_eq!(cpt_reader(&list).read_list_begin().unwrap().elem, ttype);
                assert_eq!(cpt_reader(&map).read_map_begin().unwrap().key, ttype);
                if id != 2 {
                    let written = cpt(|w| w.write_list_begin(ttype, 1));
                    assert_eq!(written, [0x10 | id], "{ttype:?}");
                }
            }
            None => {
                assert_kind!(cpt_reader(&list).read_list_begin(), ErrorKind::InvalidData);
                assert_kind!(cpt_reader(&map).read_map_begin(), ErrorKind::InvalidData);
            }
        }
    }
}

/// Varint bytes of `f(w)`, checked against `expected`, and read back by `g`.
fn zigzag_case<T: PartialEq + std::fmt::Debug + Copy>(
    v: T,
    expected: &[u8],
    write: impl Fn(&mut crate::compact::CompactWriter<Vec<u8>>, T) -> crate::error::Result<()>,
    read: impl Fn(
        &mut crate::compact::CompactReader<crate::input::SliceInput<'_>>,
    ) -> crate::error::Result<T>,
) {
    let bytes = cpt(|w| write(w, v));
    assert_eq!(bytes, expected, "encoding {v:?}");
    let mut r = cpt_reader(&bytes);
    assert_eq!(read(&mut r).unwrap(), v);
    assert!(r.input().rest().is_empty());
}

#[test]
fn zigzag_varint_edges() {
    let w16 = |w: &mut crate::compact::CompactWriter<Vec<u8>>, v| w.write_i16(v);
    let r16 = |r: &mut crate::compact::CompactReader<crate::input::SliceInput<'_>>| r.read_i16();
    zigzag_case(0i16, &[0], w16, r16);
    zigzag_case(-1i16, &[1], w16, r16);
    zigzag_case(1i16, &[2], w16, r16);
    zigzag_case(-64i16, &[0x7f], w16, r16);
    zigzag_case(64i16, &[0x80, 0x01], w16, r16);
    zigzag_case(i16::MAX, &[0xfe, 0xff, 0x03], w16, r16);
    zigzag_case(i16::MIN, &[0xff, 0xff, 0x03], w16, r16);

    let w32 = |w: &mut crate::compact::CompactWriter<Vec<u8>>, v| w.write_i32(v);
    let r32 = |r: &mut crate::compact::CompactReader<crate::input::SliceInput<'_>>| r.read_i32();
    // The spec's example: 50399 = zigzag(-25200) -> DF 89 03.
    zigzag_case(-25200i32, &[0xdf, 0x89, 0x03], w32, r32);
    zigzag_case(i32::MAX, &[0xfe, 0xff, 0xff, 0xff, 0x0f], w32, r32);
    zigzag_case(i32::MIN, &[0xff, 0xff, 0xff, 0xff, 0x0f], w32, r32);

    let w64 = |w: &mut crate::compact::CompactWriter<Vec<u8>>, v| w.write_i64(v);
    let r64 = |r: &mut crate::compact::CompactReader<crate::input::SliceInput<'_>>| r.read_i64();
    zigzag_case(0i64, &[0], w64, r64);
    zigzag_case(-2i64, &[3], w64, r64);
    zigzag_case(
        i64::MAX,
        &[0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01],
        w64,
        r64,
    );
    zigzag_case(
        i64::MIN,
        &[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01],
        w64,
        r64,
    );
}

#[test]
fn bad_varints() {
    // i32: more than 5 bytes, or overflowing the 5th byte.
    assert_kind!(
        cpt_reader(&[0x80, 0x80, 0x80, 0x80, 0x80, 0x00]).read_i32(),
        ErrorKind::InvalidData
    );
    assert_kind!(
        cpt_reader(&[0xff, 0xff, 0xff, 0xff, 0x1f]).read_i32(),
        ErrorKind::InvalidData
    );
    // i64: more than 10 bytes, or overflowing the 10th.
    let mut long = vec![0x80; 10];
    long.push(0);
    assert_kind!(cpt_reader(&long).read_i64(), ErrorKind::InvalidData);
    let mut over = vec![0xff; 9];
    over.push(0x02);
    assert_kind!(cpt_reader(&over).read_i64(), ErrorKind::InvalidData);
    // i16 out of range: zigzag(32768) = 65536.
    assert_kind!(
        cpt_reader(&[0x80, 0x80, 0x04]).read_i16(),
        ErrorKind::InvalidData
    );
    // Non-minimal but in-range encodings are accepted.
    assert_eq!(cpt_reader(&[0x82, 0x00]).read_i32().unwrap(), 1);
    // Truncated varint.
    assert_kind!(
        cpt_reader(&[0x80, 0x80]).read_i64(),
        ErrorKind::UnexpectedEof
    );
}

#[test]
fn varints_with_ten_bytes_of_lookahead() {
    // The same cases with enough bytes after them that the reader decodes in place.
    let padded = |bytes: &[u8]| {
        let mut v = bytes.to_vec();
        v.extend_from_slice(&[0x05; 12]);
        v
    };
    let mut long = vec![0x80; 10];
    long.push(0);
    assert_kind!(
        cpt_reader(&padded(&long)).read_i64(),
        ErrorKind::InvalidData
    );
    let mut over = vec![0xff; 9];
    over.push(0x02);
    assert_kind!(
        cpt_reader(&padded(&over)).read_i64(),
        ErrorKind::InvalidData
    );
    let mut min = vec![0xff; 9];
    min.push(0x01);
    let min = padded(&min);
    let mut reader = cpt_reader(&min);
    assert_eq!(reader.read_i64().unwrap(), i64::MIN);
    // The next value starts right after the varint.
    assert_eq!(reader.read_i8().unwrap(), 0x05);
    let small = padded(&[0xac, 0x02]);
    let mut reader = cpt_reader(&small);
    assert_eq!(reader.read_i64().unwrap(), 150);
    assert_eq!(reader.read_i8().unwrap(), 0x05);
}

#[test]
fn doubles_are_little_endian() {
    let cases: [(f64, [u8; 8]); 5] = [
        (1.0, [0, 0, 0, 0, 0, 0, 0xf0, 0x3f]),
        (-0.0, [0, 0, 0, 0, 0, 0, 0, 0x80]),
        (f64::INFINITY, [0, 0, 0, 0, 0, 0, 0xf0, 0x7f]),
        (f64::MIN_POSITIVE, f64::MIN_POSITIVE.to_bits().to_le_bytes()),
        (f64::NAN, f64::NAN.to_bits().to_le_bytes()),
    ];
    for (v, expected) in cases {
        let bytes = cpt(|w| w.write_double(v));
        assert_eq!(bytes, expected);
        assert_eq!(
            cpt_reader(&bytes).read_double().unwrap().to_bits(),
            v.to_bits()
        );
    }
}

#[test]
fn strings_binary_uuid() {
    let uuid: [u8; 16] = std::array::from_fn(|i| 0xf0 | i as u8);
    let long = "x".repeat(200);
    let bytes = cpt(|w| {
        w.write_string("hé")?;
        w.write_binary(&[])?;
        w.write_string(&long)?;
        w.write_uuid(&uuid)?;
        w.write_i8(-128)
    });
    let mut expected = vec![3, b'h', 0xc3, 0xa9, 0, 0xc8, 0x01];
    expected.extend(long.as_bytes());
    expected.extend(uuid);
    expected.push(0x80);
    assert_eq!(bytes, expected);
    let mut r = cpt_reader(&bytes);
    assert_eq!(r.read_str().unwrap(), "hé");
    assert_eq!(r.read_binary().unwrap(), Vec::<u8>::new());
    assert_eq!(r.read_string().unwrap(), long);
    assert_eq!(r.read_uuid().unwrap(), uuid);
    assert_eq!(r.read_i8().unwrap(), -128);
    assert_kind!(
        cpt_reader(&[2, 0xff, 0xfe]).read_string(),
        ErrorKind::InvalidUtf8
    );
}

#[test]
fn field_header_after_a_known_field_matches_the_plain_header() {
    use crate::{CompactWriter, ProtocolWriter, TType};
    // Short deltas, a long jump, a bool (value in the header), and the first field.
    let fields = [
        (TType::I32, 1, 0),
        (TType::String, 2, 1),
        (TType::Bool, 3, 2),
        (TType::I64, 40, 3),
        (TType::Struct, 41, 40),
    ];
    let write = |known: bool| {
        let mut w = CompactWriter::new(Vec::new());
        let token = w.write_struct_begin().unwrap();
        for (ttype, id, prev) in fields {
            if known {
                w.write_field_begin_after(ttype, id, prev).unwrap();
            } else {
                w.write_field_begin(ttype, id).unwrap();
            }
            match ttype {
                TType::Bool => w.write_bool(true).unwrap(),
                TType::Struct => {
                    let t = w.write_struct_begin().unwrap();
                    w.write_field_stop().unwrap();
                    w.write_struct_end(t).unwrap();
                }
                _ => w.write_i32(7).unwrap(),
            }
            w.write_field_end().unwrap();
        }
        w.write_field_stop().unwrap();
        w.write_struct_end(token).unwrap();
        w.into_output()
    };
    assert_eq!(write(true), write(false));
}

mod field_after {
    //! `read_field_after` gives what `read_field_if` gives, whatever `prev` is: right, wrong,
    //! or for a field that was absent, and leaves the reader in the same state.
    use proptest::prelude::*;

    use crate::tests::{cpt, cpt_reader};
    use crate::{ProtocolReader, ProtocolWriter, TType};

    const TYPES: [TType; 5] = [
        TType::Bool,
        TType::I32,
        TType::I64,
        TType::String,
        TType::Struct,
    ];

    fn write_value(
        w: &mut crate::compact::CompactWriter<Vec<u8>>,
        ttype: TType,
    ) -> crate::error::Result<()> {
        match ttype {
            TType::Bool => w.write_bool(false),
            TType::I32 => w.write_i32(-5),
            TType::I64 => w.write_i64(1 << 40),
            TType::String => w.write_string("abc"),
            _ => {
                let token = w.write_struct_begin()?;
                w.write_field_stop()?;
                w.write_struct_end(token)
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        #[test]
        fn same_answer_and_state_as_read_field_if(
            fields in prop::collection::vec((0usize..5, prop_oneof![1i16..40, any::<i16>()]), 0..8),
            asks in prop::collection::vec(
                (0usize..5, prop_oneof![1i16..40, any::<i16>()], prop_oneof![0i16..40, any::<i16>()]),
                8,
            ),
        ) {
            let bytes = cpt(|w| {
                let token = w.write_struct_begin()?;
                for &(t, id) in &fields {
                    w.write_field_begin(TYPES[t], id)?;
                    write_value(w, TYPES[t])?;
                    w.write_field_end()?;
                }
                w.write_field_stop()?;
                w.write_struct_end(token)
            });
            let (mut a, mut b) = (cpt_reader(&bytes), cpt_reader(&bytes));
            a.read_struct_begin().unwrap();
            b.read_struct_begin().unwrap();
            // Each step asks for a field (with a right or wrong `prev`); when the answer is
            // no, the field is read with `read_field_begin`. Both readers must agree.
            for (step, &(t, id, prev)) in asks.iter().enumerate() {
                // A third of the asks are for the next field with the id actually read before
                // (generated code, fields in order), a third for the next field with another
                // `prev` (the field before was absent), a third for any field.
                let (t, id, prev) = match (fields.get(step), step % 3) {
                    (Some(&(t, id)), 0) => {
                        (t, id, step.checked_sub(1).map_or(0, |before| fields[before].1))
                    }
                    (Some(&(t, id)), 1) => (t, id, prev),
                    _ => (t, id, prev),
                };
                let (ta, tb) = (a.read_field_if(TYPES[t], id), b.read_field_after(TYPES[t], id, prev));
                prop_assert_eq!(ta, tb);
                let ttype = if ta {
                    TYPES[t]
                } else {
                    let (fa, fb) = (a.read_field_begin(), b.read_field_begin());
                    prop_assert_eq!(format!("{fa:?}"), format!("{fb:?}"));
                    match fa {
                        Ok(f) if f.ttype != TType::Stop => f.ttype,
                        _ => break,
                    }
                };
                prop_assert_eq!(format!("{:?}", a.skip(ttype)), format!("{:?}", b.skip(ttype)));
                prop_assert_eq!(a.read_field_end().is_ok(), b.read_field_end().is_ok());
            }
            prop_assert_eq!(a.into_input().position(), b.into_input().position());
        }
    }
}
