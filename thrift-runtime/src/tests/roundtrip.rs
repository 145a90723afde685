//! Property tests: arbitrary value trees round-trip through both protocols
//! (slice and io paths), and the `ProtocolSize` functions predict the
//! number of bytes written exactly.

use proptest::prelude::*;

use crate::varint::{
    read_varint_u32, read_varint_u64, unzigzag32, unzigzag64, varint_len_u32, varint_len_u64,
    write_varint_u32, write_varint_u64, zigzag32, zigzag64,
};
use crate::{
    Binary, BinaryReader, BinaryWriter, Compact, CompactReader, CompactWriter, Input, IoInput,
    IoOutput, MessageType, ProtocolReader, ProtocolSize, ProtocolWriter, Result, SliceInput, TType,
};

#[derive(Clone, Debug)]
enum Value {
    Bool(bool),
    I8(i8),
    I16(i16),
    I32(i32),
    I64(i64),
    Double(f64),
    Uuid([u8; 16]),
    Str(String),
    Bin(Vec<u8>),
    BoolList(Vec<bool>),
    I64Set(Vec<i64>),
    Map(Vec<(String, f64)>),
    Struct(Vec<(i16, Value)>),
}

impl Value {
    fn ttype(&self) -> TType {
        match self {
            Value::Bool(_) => TType::Bool,
            Value::I8(_) => TType::I8,
            Value::I16(_) => TType::I16,
            Value::I32(_) => TType::I32,
            Value::I64(_) => TType::I64,
            Value::Double(_) => TType::Double,
            Value::Uuid(_) => TType::Uuid,
            Value::Str(_) | Value::Bin(_) => TType::String,
            Value::BoolList(_) => TType::List,
            Value::I64Set(_) => TType::Set,
            Value::Map(_) => TType::Map,
            Value::Struct(_) => TType::Struct,
        }
    }
}

fn arb_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        any::<bool>().prop_map(Value::Bool),
        any::<i8>().prop_map(Value::I8),
        any::<i16>().prop_map(Value::I16),
        any::<i32>().prop_map(Value::I32),
        any::<i64>().prop_map(Value::I64),
        any::<f64>().prop_map(Value::Double),
        any::<[u8; 16]>().prop_map(Value::Uuid),
        ".{0,20}".prop_map(Value::Str),
        prop::collection::vec(any::<u8>(), 0..40).prop_map(Value::Bin),
        prop::collection::vec(any::<bool>(), 0..20).prop_map(Value::BoolList),
        prop::collection::vec(any::<i64>(), 0..20).prop_map(Value::I64Set),
        prop::collection::vec((".{0,5}", any::<f64>()), 0..5).prop_map(Value::Map),
    ];
    leaf.prop_recursive(4, 64, 8, |inner| {
        prop::collection::vec((any::<i16>(), inner), 0..8).prop_map(Value::Struct)
    })
}

fn write_value<W: ProtocolWriter>(w: &mut W, v: &Value) -> Result<()> {
    match v {
        Value::Bool(b) => w.write_bool(*b),
        Value::I8(x) => w.write_i8(*x),
        Value::I16(x) => w.write_i16(*x),
        Value::I32(x) => w.write_i32(*x),
        Value::I64(x) => w.write_i64(*x),
        Value::Double(x) => w.write_double(*x),
        Value::Uuid(x) => w.write_uuid(x),
        Value::Str(s) => w.write_string(s),
        Value::Bin(b) => w.write_binary(b),
        Value::BoolList(l) => {
            w.write_list_begin(TType::Bool, l.len())?;
            l.iter().try_for_each(|b| w.write_bool(*b))?;
            w.write_list_end()
        }
        Value::I64Set(l) => {
            w.write_set_begin(TType::I64, l.len())?;
            l.iter().try_for_each(|x| w.write_i64(*x))?;
            w.write_set_end()
        }
        Value::Map(m) => {
            w.write_map_begin(TType::String, TType::Double, m.len())?;
            for (k, x) in m {
                w.write_string(k)?;
                w.write_double(*x)?;
            }
            w.write_map_end()
        }
        Value::Struct(fields) => {
            let t = w.write_struct_begin()?;
            for (id, f) in fields {
                w.write_field_begin(f.ttype(), *id)?;
                write_value(w, f)?;
                w.write_field_end()?;
            }
            w.write_field_stop()?;
            w.write_struct_end(t)
        }
    }
}

/// Predicted size; `in_field` selects the bool-field form.
fn value_len<P: ProtocolSize>(v: &Value, in_field: bool) -> usize {
    match v {
        Value::Bool(b) if in_field => {
            let _ = b;
            P::bool_field_value_len()
        }
        Value::Bool(b) => P::bool_len(*b),
        Value::I8(x) => P::i8_len(*x),
        Value::I16(x) => P::i16_len(*x),
        Value::I32(x) => P::i32_len(*x),
        Value::I64(x) => P::i64_len(*x),
        Value::Double(x) => P::double_len(*x),
        Value::Uuid(x) => P::uuid_len(x),
        Value::Str(s) => P::string_len(s.len()),
        Value::Bin(b) => P::binary_len(b.len()),
        Value::BoolList(l) => {
            P::list_begin_len(TType::Bool, l.len())
                + l.iter().map(|b| P::bool_len(*b)).sum::<usize>()
        }
        Value::I64Set(l) => {
            P::set_begin_len(TType::I64, l.len()) + l.iter().map(|x| P::i64_len(*x)).sum::<usize>()
        }
        Value::Map(m) => {
            P::map_begin_len(TType::String, TType::Double, m.len())
                + m.iter()
                    .map(|(k, x)| P::string_len(k.len()) + P::double_len(*x))
                    .sum::<usize>()
        }
        Value::Struct(fields) => {
            let mut n = P::struct_begin_len();
            let mut prev = 0;
            for (id, f) in fields {
                n += P::field_begin_len(f.ttype(), *id, prev) + value_len::<P>(f, true);
                prev = *id;
            }
            n + P::field_stop_len() + P::struct_end_len()
        }
    }
}

/// Reads a value of the expected shape and asserts it equals `v`.
fn check_value<'de, R: ProtocolReader<'de>>(r: &mut R, v: &Value) -> Result<()> {
    match v {
        Value::Bool(b) => assert_eq!(r.read_bool()?, *b),
        Value::I8(x) => assert_eq!(r.read_i8()?, *x),
        Value::I16(x) => assert_eq!(r.read_i16()?, *x),
        Value::I32(x) => assert_eq!(r.read_i32()?, *x),
        Value::I64(x) => assert_eq!(r.read_i64()?, *x),
        Value::Double(x) => assert_eq!(r.read_double()?.to_bits(), x.to_bits()),
        Value::Uuid(x) => assert_eq!(&r.read_uuid()?, x),
        Value::Str(s) => assert_eq!(&r.read_string()?, s),
        Value::Bin(b) => assert_eq!(&r.read_binary()?, b),
        Value::BoolList(l) => {
            let h = r.read_list_begin()?;
            assert_eq!((h.elem, h.len), (TType::Bool, l.len()));
            for b in l {
                assert_eq!(r.read_bool()?, *b);
            }
            r.read_list_end()?;
        }
        Value::I64Set(l) => {
            let h = r.read_set_begin()?;
            assert_eq!((h.elem, h.len), (TType::I64, l.len()));
            for x in l {
                assert_eq!(r.read_i64()?, *x);
            }
            r.read_set_end()?;
        }
        Value::Map(m) => {
            let h = r.read_map_begin()?;
            assert_eq!(h.len, m.len());
            if !m.is_empty() {
                assert_eq!((h.key, h.value), (TType::String, TType::Double));
            }
            for (k, x) in m {
                assert_eq!(&r.read_string()?, k);
                assert_eq!(r.read_double()?.to_bits(), x.to_bits());
            }
            r.read_map_end()?;
        }
        Value::Struct(fields) => {
            let t = r.read_struct_begin()?;
            for (id, f) in fields {
                let h = r.read_field_begin()?;
                assert_eq!((h.ttype, h.id), (f.ttype(), *id));
                check_value(r, f)?;
                r.read_field_end()?;
            }
            assert!(r.read_field_begin()?.is_stop());
            r.read_struct_end(t)?;
        }
    }
    Ok(())
}

/// The value inside a message, as a generated RPC call would send it.
fn write_message<W: ProtocolWriter>(w: &mut W, v: &Value) -> Result<()> {
    w.write_message_begin("m", MessageType::Call, -9)?;
    write_value(w, v)?;
    w.write_message_end()
}

fn message_len<P: ProtocolSize>(v: &Value) -> usize {
    P::message_begin_len("m", MessageType::Call, -9) + value_len::<P>(v, false)
}

fn check_message<'de, R: ProtocolReader<'de>>(r: &mut R, v: &Value) -> Result<()> {
    let h = r.read_message_begin()?;
    assert_eq!(
        (h.name.as_ref(), h.kind, h.seq),
        ("m", MessageType::Call, -9)
    );
    check_value(r, v)?;
    r.read_message_end()
}

/// A value as a message in one protocol: written, its size predicted exactly, read back from
/// a slice and from an `io::Read`, skipped exactly, and written the same through `IoOutput`.
macro_rules! protocol_round_trip {
    ($v:expr, $Writer:ident, $Reader:ident, $Protocol:ty) => {{
        let v = $v;
        let mut w = $Writer::new(Vec::new());
        write_message(&mut w, &v).unwrap();
        let bytes = w.into_output();
        prop_assert_eq!(bytes.len(), message_len::<$Protocol>(&v));
        let mut r = $Reader::new(SliceInput::new(&bytes));
        check_message(&mut r, &v).unwrap();
        prop_assert!(r.input().rest().is_empty());
        let mut r = $Reader::new(IoInput::new(&bytes[..]));
        check_message(&mut r, &v).unwrap();
        // Skipping consumes exactly the value.
        let mut r = $Reader::new(SliceInput::new(&bytes));
        r.read_message_begin().unwrap();
        r.skip(v.ttype()).unwrap();
        prop_assert!(r.input().rest().is_empty());
        // Io output writes the same bytes.
        let mut w = $Writer::new(IoOutput::new(Vec::new()));
        write_message(&mut w, &v).unwrap();
        prop_assert_eq!(w.into_output().into_inner(), bytes);
    }};
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn binary_round_trip(v in arb_value()) {
        protocol_round_trip!(v, BinaryWriter, BinaryReader, Binary);
    }

    #[test]
    fn compact_round_trip(v in arb_value()) {
        protocol_round_trip!(v, CompactWriter, CompactReader, Compact);
    }

    #[test]
    fn varints_round_trip(a in any::<u32>(), b in any::<u64>(), c in any::<i32>(), d in any::<i64>()) {
        let mut out = Vec::new();
        write_varint_u32(&mut out, a).unwrap();
        prop_assert_eq!(out.len(), varint_len_u32(a));
        write_varint_u64(&mut out, b).unwrap();
        prop_assert_eq!(out.len(), varint_len_u32(a) + varint_len_u64(b));
        let mut input = SliceInput::new(&out);
        prop_assert_eq!(read_varint_u32(&mut input).unwrap(), a);
        prop_assert_eq!(read_varint_u64(&mut input).unwrap(), b);
        prop_assert_eq!(unzigzag32(zigzag32(c)), c);
        prop_assert_eq!(unzigzag64(zigzag64(d)), d);
        // Zigzag keeps small magnitudes small.
        prop_assert!(zigzag64(d) / 2 <= d.unsigned_abs());
    }

    /// The varint readers that decode ten visible bytes in place (`SliceInput`) agree with the
    /// byte-at-a-time ones (`IoInput`, which shows no bytes ahead) on any bytes: the same value
    /// and the same bytes left, or both an error. The first `long` bytes get a continuation
    /// bit, so every length, 10-byte values and overlong ones come up; `sparse` clears most
    /// payload bits, so that overlong spellings of small values do too.
    #[test]
    fn varint_readers_agree(
        mut bytes in prop::collection::vec(any::<u8>(), 12..16),
        long in 0usize..12,
        sparse in any::<bool>(),
    ) {
        for b in &mut bytes[..long] {
            *b |= 0x80;
        }
        if sparse {
            // Mostly zero payload bits: small values spelled with too many bytes.
            for b in &mut bytes {
                *b &= 0x81;
            }
        }
        let rest_of_io = |mut input: IoInput<&[u8]>| {
            let mut rest = Vec::new();
            while let Ok(b) = input.read_u8() {
                rest.push(b);
            }
            rest
        };
        // Both readers on the same bytes: (value, bytes left) each, or the errors.
        let (mut fast, mut slow) = (SliceInput::new(&bytes), IoInput::new(&bytes[..]));
        let u64s = (read_varint_u64(&mut fast), read_varint_u64(&mut slow));
        let left64 = (fast.rest().to_vec(), rest_of_io(slow));
        let (mut fast, mut slow) = (SliceInput::new(&bytes), IoInput::new(&bytes[..]));
        let u32s = (
            read_varint_u32(&mut fast).map(u64::from),
            read_varint_u32(&mut slow).map(u64::from),
        );
        let left32 = (fast.rest().to_vec(), rest_of_io(slow));
        for ((a, b), (left_a, left_b)) in [(u64s, left64), (u32s, left32)] {
            match (a, b) {
                (Ok(a), Ok(b)) => {
                    prop_assert_eq!(a, b);
                    prop_assert_eq!(left_a, left_b);
                }
                (a, b) => prop_assert!(a.is_err() && b.is_err(), "{:?} {:?}", a, b),
            }
        }
    }

    #[test]
    fn field_header_sizes(ids in prop::collection::vec(any::<i16>(), 1..30)) {
        // Arbitrary id sequences (not sorted) exercise every delta case.
        let mut w = CompactWriter::new(Vec::new());
        let t = w.write_struct_begin().unwrap();
        let mut expected = 0;
        let mut prev = 0;
        for id in &ids {
            w.write_field_begin(TType::I8, *id).unwrap();
            w.write_i8(0).unwrap();
            expected += Compact::field_begin_len(TType::I8, *id, prev) + 1;
            prev = *id;
        }
        w.write_field_stop().unwrap();
        w.write_struct_end(t).unwrap();
        let bytes = w.into_output();
        prop_assert_eq!(bytes.len(), expected + 1);
        let mut r = CompactReader::new(SliceInput::new(&bytes));
        let t = r.read_struct_begin().unwrap();
        for id in &ids {
            let h = r.read_field_begin().unwrap();
            prop_assert_eq!((h.ttype, h.id), (TType::I8, *id));
            r.read_i8().unwrap();
        }
        prop_assert!(r.read_field_begin().unwrap().is_stop());
        r.read_struct_end(t).unwrap();
    }
}

/// The varint writer (three bytes and more without a branch per byte) against the textbook
/// loop, at every bit length and its neighbours.
#[test]
fn varint_writer_matches_the_loop() {
    fn reference(mut v: u64) -> Vec<u8> {
        let mut out = Vec::new();
        while v >= 0x80 {
            out.push((v as u8) | 0x80);
            v >>= 7;
        }
        out.push(v as u8);
        out
    }
    let mut values = vec![0, u64::MAX];
    for bits in 1..64 {
        let p = 1u64 << bits;
        values.extend([p - 1, p, p + 1, p | (p >> 1), p | 0x55]);
    }
    for v in values {
        let mut out = Vec::new();
        write_varint_u64(&mut out, v).unwrap();
        assert_eq!(out, reference(v), "{v:#x}");
        // Also into a buffer with no spare room (the exact-length copy).
        let mut tight = Vec::with_capacity(0);
        write_varint_u64(&mut tight, v).unwrap();
        assert_eq!(tight, out);
        assert_eq!(out.len(), varint_len_u64(v));
        assert_eq!(read_varint_u64(&mut SliceInput::new(&out)).unwrap(), v);
    }
}

/// `varint_len_u64`'s closed form against the definition, at every bit length.
#[test]
fn varint_len_is_bits_over_seven_rounded_up() {
    for bits in 1..=64u32 {
        let v = u64::MAX >> (64 - bits);
        assert_eq!(varint_len_u64(v), bits.div_ceil(7) as usize, "{bits} bits");
        assert_eq!(
            varint_len_u64(1 << (bits - 1)),
            bits.div_ceil(7) as usize,
            "{bits} bits"
        );
    }
    assert_eq!(varint_len_u64(0), 1);
}

#[test]
fn varint_len_boundaries() {
    assert_eq!(varint_len_u64(0), 1);
    assert_eq!(varint_len_u64(127), 1);
    assert_eq!(varint_len_u64(128), 2);
    assert_eq!(varint_len_u64(16383), 2);
    assert_eq!(varint_len_u64(16384), 3);
    assert_eq!(varint_len_u32(u32::MAX), 5);
    assert_eq!(varint_len_u64(u64::MAX), 10);
    assert_eq!(varint_len_u64(1 << 63), 10);
    assert_eq!(varint_len_u64((1 << 63) - 1), 9);
}
