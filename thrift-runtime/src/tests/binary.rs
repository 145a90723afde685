//! Binary protocol byte vectors derived from thrift-binary-protocol.md.

use super::{assert_kind, bin, bin_reader};
use crate::{ErrorKind, MessageType, ProtocolReader, ProtocolWriter, TType};

#[test]
fn strict_message_header() {
    let bytes = bin(|w| w.write_message_begin("ping", MessageType::Call, 7));
    assert_eq!(
        bytes,
        [
            0x80, 0x01, 0x00, 0x01, 0, 0, 0, 4, b'p', b'i', b'n', b'g', 0, 0, 0, 7
        ]
    );
    let h = bin_reader(&bytes).read_message_begin().unwrap();
    assert_eq!(
        (h.name.as_ref(), h.kind, h.seq),
        ("ping", MessageType::Call, 7)
    );
    assert!(matches!(h.name, std::borrow::Cow::Borrowed(_)));

    let bytes = bin(|w| w.write_message_begin("", MessageType::Oneway, -1));
    assert_eq!(
        bytes,
        [0x80, 0x01, 0x00, 0x04, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff]
    );
}

#[test]
fn old_style_message_header() {
    let bytes = [0, 0, 0, 2, b'h', b'i', 2, 0, 0, 1, 0];
    let h = bin_reader(&bytes).read_message_begin().unwrap();
    assert_eq!(
        (h.name.as_ref(), h.kind, h.seq),
        ("hi", MessageType::Reply, 256)
    );
    assert_kind!(
        bin_reader(&bytes).strict_read(true).read_message_begin(),
        ErrorKind::InvalidData
    );
}

#[test]
fn bad_message_headers() {
    // Wrong version.
    assert_kind!(
        bin_reader(&[0x80, 0x02, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0]).read_message_begin(),
        ErrorKind::InvalidData
    );
    // Unknown message type 5, and 0.
    assert_kind!(
        bin_reader(&[0x80, 0x01, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0]).read_message_begin(),
        ErrorKind::UnknownMessageType
    );
    assert_kind!(
        bin_reader(&[0, 0, 0, 0, 0, 0, 0, 0, 0]).read_message_begin(),
        ErrorKind::UnknownMessageType
    );
}

#[test]
fn field_headers() {
    let bytes = bin(|w| {
        w.write_field_begin(TType::I32, 1)?;
        w.write_field_begin(TType::String, -1)?;
        w.write_field_begin(TType::Uuid, 0x1234)?;
        w.write_field_stop()
    });
    assert_eq!(bytes, [8, 0, 1, 11, 0xff, 0xff, 16, 0x12, 0x34, 0]);
    let mut r = bin_reader(&bytes);
    let ids: Vec<_> = (0..4).map(|_| r.read_field_begin().unwrap()).collect();
    assert_eq!(ids[0].ttype, TType::I32);
    assert_eq!(ids[1].id, -1);
    assert_eq!((ids[2].ttype, ids[2].id), (TType::Uuid, 0x1234));
    assert!(ids[3].is_stop());
    // Unknown type ids.
    for t in [1u8, 5, 7, 9, 17, 0xff] {
        assert_kind!(
            bin_reader(&[t, 0, 1]).read_field_begin(),
            ErrorKind::InvalidData
        );
    }
}

#[test]
fn container_headers() {
    let bytes = bin(|w| {
        w.write_list_begin(TType::I32, 3)?;
        w.write_set_begin(TType::Bool, 0)?;
        w.write_map_begin(TType::String, TType::I64, 2)
    });
    assert_eq!(bytes, [8, 0, 0, 0, 3, 2, 0, 0, 0, 0, 11, 10, 0, 0, 0, 2]);
    // Pad so the remaining-input check passes.
    let mut padded = bytes.clone();
    padded.extend([0; 16]);
    let mut r = bin_reader(&padded);
    let l = r.read_list_begin().unwrap();
    assert_eq!((l.elem, l.len), (TType::I32, 3));
    let s = r.read_set_begin().unwrap();
    assert_eq!((s.elem, s.len), (TType::Bool, 0));
    let m = r.read_map_begin().unwrap();
    assert_eq!((m.key, m.value, m.len), (TType::String, TType::I64, 2));
    assert_kind!(
        bin_reader(&[8, 0xff, 0xff, 0xff, 0xff]).read_list_begin(),
        ErrorKind::NegativeSize
    );
}

#[test]
fn integers_are_big_endian() {
    let bytes = bin(|w| {
        w.write_i8(-2)?;
        w.write_i16(0x0102)?;
        w.write_i32(-2)?;
        w.write_i64(0x0102_0304_0506_0708)
    });
    assert_eq!(
        bytes,
        [0xfe, 1, 2, 0xff, 0xff, 0xff, 0xfe, 1, 2, 3, 4, 5, 6, 7, 8]
    );
    let mut r = bin_reader(&bytes);
    assert_eq!(r.read_i8().unwrap(), -2);
    assert_eq!(r.read_i16().unwrap(), 0x0102);
    assert_eq!(r.read_i32().unwrap(), -2);
    assert_eq!(r.read_i64().unwrap(), 0x0102_0304_0506_0708);
    for v in [i64::MIN, i64::MAX] {
        let b = bin(|w| w.write_i64(v));
        assert_eq!(bin_reader(&b).read_i64().unwrap(), v);
    }
}

#[test]
fn doubles_are_big_endian() {
    let cases: [(f64, [u8; 8]); 5] = [
        (1.0, [0x3f, 0xf0, 0, 0, 0, 0, 0, 0]),
        (-0.0, [0x80, 0, 0, 0, 0, 0, 0, 0]),
        (f64::INFINITY, [0x7f, 0xf0, 0, 0, 0, 0, 0, 0]),
        (f64::NEG_INFINITY, [0xff, 0xf0, 0, 0, 0, 0, 0, 0]),
        (f64::NAN, f64::NAN.to_bits().to_be_bytes()),
    ];
    for (v, expected) in cases {
        let bytes = bin(|w| w.write_double(v));
        assert_eq!(bytes, expected);
        assert_eq!(
            bin_reader(&bytes).read_double().unwrap().to_bits(),
            v.to_bits()
        );
    }
}

#[test]
fn bool_string_binary_uuid() {
    let uuid: [u8; 16] = std::array::from_fn(|i| i as u8 * 17);
    let bytes = bin(|w| {
        w.write_bool(true)?;
        w.write_bool(false)?;
        w.write_string("hé")?;
        w.write_binary(&[0, 255])?;
        w.write_uuid(&uuid)
    });
    let mut expected = vec![1, 0, 0, 0, 0, 3, b'h', 0xc3, 0xa9, 0, 0, 0, 2, 0, 255];
    expected.extend(uuid);
    assert_eq!(bytes, expected);
    let mut r = bin_reader(&bytes);
    assert!(r.read_bool().unwrap());
    assert!(!r.read_bool().unwrap());
    assert_eq!(r.read_str().unwrap(), "hé");
    assert_eq!(r.read_bytes().unwrap(), [0, 255]);
    assert_eq!(r.read_uuid().unwrap(), uuid);
    let mut r = bin_reader(&bytes[2..]);
    assert_eq!(r.read_string().unwrap(), "hé");
    assert_eq!(r.read_binary().unwrap(), vec![0, 255]);
}

#[test]
fn invalid_utf8() {
    let bytes = [0, 0, 0, 2, 0xc3, 0x28];
    assert_kind!(bin_reader(&bytes).read_string(), ErrorKind::InvalidUtf8);
    assert_kind!(bin_reader(&bytes).read_str(), ErrorKind::InvalidUtf8);
    assert_eq!(bin_reader(&bytes).read_binary().unwrap(), [0xc3, 0x28]);
}
