//! The JSON protocol: Apache's text byte for byte, what other Apache writers write, hostile
//! input, borrowing, sizes.

use proptest::prelude::*;

use super::assert_kind;
use crate::unknown::Value;
use crate::{
    ApplicationException, ApplicationExceptionKind, ErrorKind, IoInput, Json, JsonReader,
    JsonWriter, Limit, MessageType, Protocol, ProtocolReader, ProtocolSize, ProtocolWriter,
    ReadLimits, Result, SliceInput, TType, ThriftRead, ThriftWrite,
};

fn json(f: impl FnOnce(&mut JsonWriter<Vec<u8>>) -> Result<()>) -> Vec<u8> {
    let mut w = JsonWriter::new(Vec::new());
    f(&mut w).unwrap();
    w.into_output()
}

fn reader(bytes: &[u8]) -> JsonReader<SliceInput<'_>> {
    JsonReader::new(SliceInput::new(bytes))
}

/// A message with every kind of value, written with the protocol API.
fn sample<W: ProtocolWriter>(w: &mut W) -> Result<()> {
    w.write_message_begin("echo", MessageType::Call, 7)?;
    let t = w.write_struct_begin()?;
    w.write_field_begin(TType::Bool, 1)?;
    w.write_bool(true)?;
    w.write_field_end()?;
    w.write_field_begin(TType::I8, 2)?;
    w.write_i8(-128)?;
    w.write_field_end()?;
    w.write_field_begin(TType::Double, 3)?;
    w.write_double(0.1)?;
    w.write_field_end()?;
    w.write_field_begin(TType::String, 4)?;
    w.write_string("a\"\\\n\t\u{e9}/")?;
    w.write_field_end()?;
    w.write_field_begin(TType::String, 5)?;
    w.write_binary(&[0x00, 0xff, 0x10, 0x20])?;
    w.write_field_end()?;
    w.write_field_begin(TType::Uuid, 6)?;
    w.write_uuid(&[
        0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee,
        0xff,
    ])?;
    w.write_field_end()?;
    w.write_field_begin(TType::List, 7)?;
    w.write_list_begin(TType::I64, 3)?;
    for v in [1, -2, i64::MAX] {
        w.write_i64(v)?;
    }
    w.write_list_end()?;
    w.write_field_end()?;
    w.write_field_begin(TType::Map, -8)?;
    w.write_map_begin(TType::I32, TType::Double, 2)?;
    w.write_i32(1)?;
    w.write_double(1.5)?;
    w.write_i32(-3)?;
    w.write_double(1e300)?;
    w.write_map_end()?;
    w.write_field_end()?;
    w.write_field_begin(TType::Map, 9)?;
    w.write_map_begin(TType::String, TType::Set, 1)?;
    w.write_string("k")?;
    w.write_set_begin(TType::Bool, 2)?;
    w.write_bool(false)?;
    w.write_bool(true)?;
    w.write_set_end()?;
    w.write_map_end()?;
    w.write_field_end()?;
    w.write_field_begin(TType::Struct, 10)?;
    let inner = w.write_struct_begin()?;
    w.write_field_stop()?;
    w.write_struct_end(inner)?;
    w.write_field_end()?;
    w.write_field_begin(TType::Map, 11)?;
    w.write_map_begin(TType::Double, TType::I16, 1)?;
    w.write_double(-0.5)?;
    w.write_i16(300)?;
    w.write_map_end()?;
    w.write_field_end()?;
    w.write_field_stop()?;
    w.write_struct_end(t)?;
    w.write_message_end()
}

/// What Apache's Python `TJSONProtocol` writes for [`sample`] (the same calls, run with
/// thrift 0.25), and C++'s but for the base64 padding.
const APACHE: &str = concat!(
    r#"[1,"echo",1,7,{"1":{"tf":1},"2":{"i8":-128},"3":{"dbl":0.10000000000000001},"#,
    r#""4":{"str":"a\"\\\n\té/"},"5":{"str":"AP8QIA=="},"#,
    r#""6":{"uid":"00112233-4455-6677-8899-aabbccddeeff"},"#,
    r#""7":{"lst":["i64",3,1,-2,9223372036854775807]},"#,
    r#""-8":{"map":["i32","dbl",2,{"1":1.5,"-3":1.0000000000000001e+300}]},"#,
    r#""9":{"map":["str","set",1,{"k":["tf",2,0,1]}]},"10":{"rec":{}},"#,
    r#""11":{"map":["dbl","i16",1,{"-0.5":300}]}}]"#
);

/// Reads [`sample`] back, checking every value.
fn read_sample<'de, R: ProtocolReader<'de>>(r: &mut R) -> Result<()> {
    fn check(ok: bool) -> Result<()> {
        if ok {
            Ok(())
        } else {
            Err(crate::error::Error::invalid_data("not what was written"))
        }
    }
    let h = r.read_message_begin()?;
    check(h.name == "echo" && h.kind == MessageType::Call && h.seq == 7)?;
    let t = r.read_struct_begin()?;
    let field = |r: &mut R, ttype, id| -> Result<()> {
        let f = r.read_field_begin()?;
        check(f.ttype == ttype && f.id == id)
    };
    field(r, TType::Bool, 1)?;
    check(r.read_bool()?)?;
    r.read_field_end()?;
    field(r, TType::I8, 2)?;
    check(r.read_i8()? == -128)?;
    r.read_field_end()?;
    field(r, TType::Double, 3)?;
    check(r.read_double()? == 0.1)?;
    r.read_field_end()?;
    field(r, TType::String, 4)?;
    check(r.read_string()? == "a\"\\\n\t\u{e9}/")?;
    r.read_field_end()?;
    field(r, TType::String, 5)?;
    check(r.read_binary()? == [0x00, 0xff, 0x10, 0x20])?;
    r.read_field_end()?;
    field(r, TType::Uuid, 6)?;
    check(r.read_uuid()?[15] == 0xff)?;
    r.read_field_end()?;
    field(r, TType::List, 7)?;
    let l = r.read_list_begin()?;
    check(l.elem == TType::I64 && l.len == 3)?;
    check(r.read_i64()? == 1 && r.read_i64()? == -2 && r.read_i64()? == i64::MAX)?;
    r.read_list_end()?;
    r.read_field_end()?;
    field(r, TType::Map, -8)?;
    let m = r.read_map_begin()?;
    check(m.key == TType::I32 && m.value == TType::Double && m.len == 2)?;
    check(r.read_i32()? == 1 && r.read_double()? == 1.5)?;
    check(r.read_i32()? == -3 && r.read_double()? == 1e300)?;
    r.read_map_end()?;
    r.read_field_end()?;
    field(r, TType::Map, 9)?;
    let m = r.read_map_begin()?;
    check(m.len == 1 && r.read_string()? == "k")?;
    let s = r.read_set_begin()?;
    check(s.len == 2 && !r.read_bool()? && r.read_bool()?)?;
    r.read_set_end()?;
    r.read_map_end()?;
    r.read_field_end()?;
    field(r, TType::Struct, 10)?;
    let inner = r.read_struct_begin()?;
    check(r.read_field_begin()?.is_stop())?;
    r.read_struct_end(inner)?;
    r.read_field_end()?;
    field(r, TType::Map, 11)?;
    r.read_map_begin()?;
    check(r.read_double()? == -0.5 && r.read_i16()? == 300)?;
    r.read_map_end()?;
    r.read_field_end()?;
    check(r.read_field_begin()?.is_stop())?;
    r.read_struct_end(t)?;
    r.read_message_end()
}

#[test]
fn writes_what_apache_writes_and_reads_it_back() {
    let bytes = json(sample);
    assert_eq!(std::str::from_utf8(&bytes).unwrap(), APACHE);
    read_sample(&mut reader(&bytes)).unwrap();
    read_sample(&mut JsonReader::new(IoInput::new(&bytes[..]))).unwrap();
    // The generic skip walks it too.
    let mut r = reader(&bytes);
    r.read_message_begin().unwrap();
    r.skip(TType::Struct).unwrap();
    r.read_message_end().unwrap();
    assert_eq!(r.input().position(), bytes.len());
}

#[test]
fn reads_what_other_apache_writers_write() {
    // C++ and Java: base64 without padding, NaN and infinities as strings; Python: bare
    // nan/inf; anyone: whitespace, quoted numbers, `\/`, `\u` escapes with surrogate pairs.
    let text = concat!(
        "[ 1 , \"echo\" , 1 , 7 , { \"1\" : { \"tf\" : \"1\" } ,\n",
        "\"2\":{\"dbl\":\"NaN\"},\"3\":{\"dbl\":-Infinity},\"4\":{\"dbl\":nan},",
        "\"5\":{\"dbl\":-inf},\"6\":{\"str\":\"AP8QIA\"},",
        "\"7\":{\"str\":\"\\/\\u00e9\\ud83d\\ude00\\u0001\"},",
        "\"8\":{\"uid\":\"00112233-4455-6677-8899-AABBCCDDEEFF\"} } ]"
    );
    let mut r = reader(text.as_bytes());
    r.read_message_begin().unwrap();
    let t = r.read_struct_begin().unwrap();
    r.read_field_begin().unwrap();
    assert!(r.read_bool().unwrap());
    r.read_field_end().unwrap();
    r.read_field_begin().unwrap();
    assert!(r.read_double().unwrap().is_nan());
    r.read_field_end().unwrap();
    r.read_field_begin().unwrap();
    assert_eq!(r.read_double().unwrap(), f64::NEG_INFINITY);
    r.read_field_end().unwrap();
    r.read_field_begin().unwrap();
    assert!(r.read_double().unwrap().is_nan());
    r.read_field_end().unwrap();
    r.read_field_begin().unwrap();
    assert_eq!(r.read_double().unwrap(), f64::NEG_INFINITY);
    r.read_field_end().unwrap();
    r.read_field_begin().unwrap();
    assert_eq!(r.read_binary().unwrap(), [0x00, 0xff, 0x10, 0x20]);
    r.read_field_end().unwrap();
    r.read_field_begin().unwrap();
    assert_eq!(r.read_string().unwrap(), "/\u{e9}\u{1f600}\u{1}");
    r.read_field_end().unwrap();
    r.read_field_begin().unwrap();
    assert_eq!(r.read_uuid().unwrap()[10], 0xaa);
    r.read_field_end().unwrap();
    assert!(r.read_field_begin().unwrap().is_stop());
    r.read_struct_end(t).unwrap();
    r.read_message_end().unwrap();
}

#[test]
fn non_finite_doubles_and_control_characters_are_written_as_cpp_writes_them() {
    let bytes = json(|w| {
        w.write_list_begin(TType::Double, 3)?;
        for v in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            w.write_double(v)?;
        }
        w.write_list_end()?;
        w.write_map_begin(TType::Double, TType::String, 1)?;
        w.write_double(f64::INFINITY)?;
        w.write_string("\u{0}\u{1f}\u{8}\u{c}\r\u{7f}")?;
        w.write_map_end()
    });
    assert_eq!(
        std::str::from_utf8(&bytes).unwrap(),
        r#"["dbl",3,"NaN","Infinity","-Infinity"]["dbl","str",1,{"Infinity":"\u0000\u001f\b\f\r"#
            .to_owned()
            + "\u{7f}\"}]"
    );
}

#[test]
fn strings_without_escapes_are_lent_and_others_decoded() {
    let bytes = json(|w| {
        w.write_list_begin(TType::String, 3)?;
        w.write_string("plain")?;
        w.write_string("esc\"aped")?;
        w.write_binary(b"bin")?;
        w.write_list_end()
    });
    let mut r = reader(&bytes);
    r.read_list_begin().unwrap();
    let plain = r.read_str().unwrap();
    assert_eq!(plain, "plain");
    let range = bytes.as_ptr_range();
    assert!(range.contains(&plain.as_ptr()), "lent from the input");
    assert_kind!(r.read_str(), ErrorKind::BorrowUnsupported);
    assert_kind!(r.read_bytes(), ErrorKind::BorrowUnsupported);
    r.read_list_end().unwrap();
    // Owned and shared reads take all of them.
    let buffer = ::bytes::Bytes::from(bytes.clone());
    let mut r = JsonReader::new(crate::input::BytesInput::new(&buffer));
    r.read_list_begin().unwrap();
    let shared = r.read_byte_string().unwrap();
    assert_eq!(&*shared, "plain");
    assert!(
        buffer.as_ptr_range().contains(&shared.as_ptr()),
        "a slice of the buffer"
    );
    assert_eq!(&*r.read_byte_string().unwrap(), "esc\"aped");
    assert_eq!(&r.read_shared_bytes().unwrap()[..], b"bin");
}

#[test]
fn every_truncation_is_an_error() {
    let bytes = json(sample);
    for n in 0..bytes.len() {
        assert!(read_sample(&mut reader(&bytes[..n])).is_err(), "prefix {n}");
        let mut io = JsonReader::new(IoInput::new(&bytes[..n]));
        assert!(read_sample(&mut io).is_err(), "io prefix {n}");
    }
}

#[test]
fn malformed_text_is_an_error() {
    for (text, what) in [
        (&br#""\ud83d""#[..], "a lone high surrogate"),
        (br#""\ude00""#, "a lone low surrogate"),
        (br#""\x""#, "an unknown escape"),
        (br#""\u12g4""#, "a bad \\u escape"),
        (br#"["i32",1,"7"x]"#, "junk after a quoted number"),
        (br#"["abc",0]"#, "an unknown type name"),
        (br#"["i32",-1]"#, "a negative count"),
        (br#"["i8",1,300]"#, "an i8 out of range"),
        (
            br#"["i32",1,99999999999999999999999]"#,
            "an integer too long",
        ),
        (br#"["dbl",1,1.0.0]"#, "not a number"),
        (br#"["dbl",1,Infinityx]"#, "not a number (words)"),
        (br#"["str",1,"*"]"#, "not base64"),
        (br#"["uid",1,"0011"]"#, "not a uuid"),
        (br#"["i32" 1]"#, "a missing comma"),
        (b"[\"str\",1,\"\xff\"]", "invalid UTF-8"),
    ] {
        let mut r = reader(text);
        let result = (|| -> Result<()> {
            if text.first() == Some(&b'"') {
                r.read_string()?;
                return Ok(());
            }
            let h = r.read_list_begin()?;
            for _ in 0..h.len {
                match h.elem {
                    TType::I8 => drop(r.read_i8()?),
                    TType::I32 => drop(r.read_i32()?),
                    TType::Double => drop(r.read_double()?),
                    TType::Uuid => drop(r.read_uuid()?),
                    _ if text.contains(&b'*') => drop(r.read_binary()?),
                    _ => drop(r.read_string()?),
                }
            }
            r.read_list_end()
        })();
        assert!(result.is_err(), "{what}: {result:?}");
    }
}

#[test]
fn limits_hold() {
    // Nesting: lists of lists, structs in structs.
    let deep = "[\"lst\",1,".repeat(10_000);
    assert_kind!(
        reader(deep.as_bytes()).skip(TType::List),
        ErrorKind::LimitExceeded(Limit::Depth)
    );
    let deep = "{\"1\":{\"rec\":".repeat(10_000);
    assert_kind!(
        reader(deep.as_bytes()).skip(TType::Struct),
        ErrorKind::LimitExceeded(Limit::Depth)
    );
    // A count the input cannot hold.
    assert_kind!(
        reader(br#"["i32",2000000000,1]"#).read_list_begin(),
        ErrorKind::SizeLimit
    );
    assert_kind!(
        reader(br#"["str","i32",2000000000,{"a":1}]"#).read_map_begin(),
        ErrorKind::SizeLimit
    );
    // A string longer than max_string_len, counted in input bytes, escaped or not.
    let limits = ReadLimits {
        max_string_len: 8,
        ..ReadLimits::default()
    };
    for text in [&br#""123456789""#[..], br#""\n\n\n\n\n""#] {
        let mut r = JsonReader::with_limits(SliceInput::new(text), limits);
        assert_kind!(r.read_string(), ErrorKind::LimitExceeded(Limit::StringLen));
        let mut r = JsonReader::with_limits(IoInput::new(text), limits);
        assert_kind!(r.read_string(), ErrorKind::LimitExceeded(Limit::StringLen));
    }
    // An unterminated string in a slice waits for more input (an EOF), whatever its size.
    assert_kind!(reader(br#""abc"#).read_string(), ErrorKind::UnexpectedEof);
}

#[test]
fn sizes_are_exact_without_escapes_and_a_lower_bound_with() {
    let e = ApplicationException::new(ApplicationExceptionKind::UNKNOWN_METHOD, "no such method");
    let bytes = e.encode_to_vec::<Json>().unwrap();
    assert_eq!(bytes.len(), e.encoded_len::<Json>());
    assert_eq!(ApplicationException::decode::<Json>(&bytes).unwrap(), e);
    let escaped = ApplicationException::new(ApplicationExceptionKind(3), "tab\there");
    let bytes = escaped.encode_to_vec::<Json>().unwrap();
    assert_eq!(bytes.len(), escaped.encoded_len::<Json>() + 1);
    // The message header's size.
    let mut out = Vec::new();
    crate::rpc::ProtocolKind::Json
        .write_message(&mut out, "method", MessageType::Reply, -12, &e)
        .unwrap();
    assert_eq!(
        out.len(),
        Json::message_begin_len("method", MessageType::Reply, -12) + e.encoded_len::<Json>()
    );
}

fn value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        any::<bool>().prop_map(Value::Bool),
        any::<i8>().prop_map(Value::I8),
        any::<i16>().prop_map(Value::I16),
        any::<i32>().prop_map(Value::I32),
        any::<i64>().prop_map(Value::I64),
        any::<f64>().prop_map(|v| Value::Double(v.into())),
        "[a-z\"\\\\\n\u{1}é😀]{0,12}".prop_map(|s| Value::Binary(s.into_bytes())),
        any::<[u8; 16]>().prop_map(Value::Uuid),
    ];
    leaf.prop_recursive(4, 32, 6, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..5).prop_map(|items| {
                // Elements of one type: the first's.
                let ttype = items.first().map_or(TType::I32, Value::ttype);
                Value::List(
                    ttype,
                    items.into_iter().filter(|v| v.ttype() == ttype).collect(),
                )
            }),
            proptest::collection::vec((any::<i16>(), inner), 0..5)
                .prop_map(|fields| Value::Struct(fields.into_iter().collect())),
        ]
    })
}

proptest! {
    /// Any value (as an unknown field keeps it) round trips, its size a lower bound of its
    /// text, exact unless a string needs escapes or a double is not finite.
    #[test]
    fn values_round_trip(v in value()) {
        let mut bytes = Vec::new();
        v.write(&mut JsonWriter::new(&mut bytes)).unwrap();
        let len = v.encoded_len::<Json>();
        prop_assert!(len <= bytes.len());
        let text = String::from_utf8(bytes.clone()).unwrap();
        if !text.contains('\\') && !text.contains("NaN") && !text.contains("Infinity") {
            prop_assert_eq!(len, bytes.len(), "{}", text);
        }
        let back = Value::read(&mut reader(&bytes), v.ttype()).unwrap();
        prop_assert_eq!(back, v);
    }

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..256)) {
        let _ = reader(&bytes).skip(TType::Struct);
        let _ = read_sample(&mut reader(&bytes));
        let _ = JsonReader::new(IoInput::new(&bytes[..])).skip(TType::Map);
        let _ = Json::reader(SliceInput::new(&bytes), ReadLimits::default()).skip(TType::List);
    }

    #[test]
    fn mutated_messages_never_panic(pos in any::<prop::sample::Index>(), byte in any::<u8>()) {
        let mut m = json(sample);
        let i = pos.index(m.len());
        m[i] = byte;
        let _ = read_sample(&mut reader(&m));
        let mut r = reader(&m);
        let _ = r.read_message_begin().and_then(|_| r.skip(TType::Struct));
    }
}

#[test]
fn struct_tokens_need_their_begin() {
    let mut w = JsonWriter::new(Vec::new());
    assert!(w.write_field_begin(TType::I32, 1).is_err());
    assert!(w.write_list_end().is_err());
    let mut r = reader(b"}");
    assert!(r.read_field_begin().is_err());
    assert!(r.read_struct_end(Default::default()).is_err());
    let _ = ThriftWrite::encoded_len::<Json>(&ApplicationException::default());
    let _ = <ApplicationException as ThriftRead>::read(&mut reader(b"{}")).unwrap();
}
