//! Hostile input: truncation, huge length prefixes, deep nesting, limits,
//! random bytes. Every case must give `Err`, never panic or over-allocate.

use proptest::prelude::*;

use super::{assert_kind, bin, bin_reader, cpt, cpt_reader};
use crate::{
    BinaryReader, CompactReader, ErrorKind, Input, IoInput, Limit, MessageType, ProtocolReader,
    ProtocolWriter, ReadLimits, SliceInput, TType,
};

/// A message exercising every kind of value.
fn sample_message<W: ProtocolWriter>(w: &mut W) -> crate::error::Result<()> {
    w.write_message_begin("method", MessageType::Reply, 42)?;
    let t = w.write_struct_begin()?;
    w.write_field_begin(TType::Bool, 1)?;
    w.write_bool(true)?;
    w.write_field_begin(TType::I64, 2)?;
    w.write_i64(-1_000_000_000_000)?;
    w.write_field_begin(TType::String, 3)?;
    w.write_string("hello")?;
    w.write_field_begin(TType::Double, 30)?;
    w.write_double(2.5)?;
    w.write_field_begin(TType::Uuid, 31)?;
    w.write_uuid(&[7; 16])?;
    w.write_field_begin(TType::List, 32)?;
    w.write_list_begin(TType::Struct, 2)?;
    for i in 0..2 {
        let inner = w.write_struct_begin()?;
        w.write_field_begin(TType::I16, 1)?;
        w.write_i16(i)?;
        w.write_field_stop()?;
        w.write_struct_end(inner)?;
    }
    w.write_field_begin(TType::Map, 33)?;
    w.write_map_begin(TType::I32, TType::Set, 1)?;
    w.write_i32(9)?;
    w.write_set_begin(TType::Bool, 2)?;
    w.write_bool(false)?;
    w.write_bool(true)?;
    w.write_field_begin(TType::I8, 34)?;
    w.write_i8(-5)?;
    w.write_field_stop()?;
    w.write_struct_end(t)?;
    w.write_message_end()
}

fn read_message<'de, R: ProtocolReader<'de>>(r: &mut R) -> crate::error::Result<()> {
    let h = r.read_message_begin()?;
    if h.name != "method" || h.kind != MessageType::Reply || h.seq != 42 {
        return Err(crate::error::Error::invalid_data("unexpected header"));
    }
    r.skip(TType::Struct)?;
    r.read_message_end()
}

#[test]
fn every_truncation_is_an_error() {
    let b = bin(sample_message);
    let c = cpt(sample_message);
    read_message(&mut bin_reader(&b)).unwrap();
    read_message(&mut cpt_reader(&c)).unwrap();
    for n in 0..b.len() {
        assert!(
            read_message(&mut bin_reader(&b[..n])).is_err(),
            "binary prefix {n}"
        );
        let mut io = BinaryReader::new(IoInput::new(&b[..n]));
        assert!(read_message(&mut io).is_err(), "binary io prefix {n}");
    }
    for n in 0..c.len() {
        assert!(
            read_message(&mut cpt_reader(&c[..n])).is_err(),
            "compact prefix {n}"
        );
        let mut io = CompactReader::new(IoInput::new(&c[..n]));
        assert!(read_message(&mut io).is_err(), "compact io prefix {n}");
    }
}

#[test]
fn huge_length_prefixes() {
    // 2^31 - 1 bytes announced, 3 present: rejected before allocating.
    let bytes = [0x7f, 0xff, 0xff, 0xff, 1, 2, 3];
    assert_kind!(
        bin_reader(&bytes).read_binary(),
        ErrorKind::LimitExceeded(Limit::StringLen)
    );
    assert_kind!(
        bin_reader(&bytes).read_string(),
        ErrorKind::LimitExceeded(Limit::StringLen)
    );
    assert_kind!(
        bin_reader(&bytes).skip_binary(),
        ErrorKind::LimitExceeded(Limit::StringLen)
    );
    // Io input without size limits reads in bounded chunks and hits EOF.
    let mut r = BinaryReader::with_limits(IoInput::new(&bytes[..]), ReadLimits::UNLIMITED_SIZE);
    assert_kind!(r.read_binary(), ErrorKind::UnexpectedEof);
    // With default limits it is over max_string_len.
    let mut r = BinaryReader::new(IoInput::new(&bytes[..]));
    assert_kind!(r.read_binary(), ErrorKind::LimitExceeded(Limit::StringLen));
    // 2^31 is negative as i32.
    let bytes = [0x80, 0, 0, 0, 1];
    assert_kind!(bin_reader(&bytes).read_binary(), ErrorKind::NegativeSize);
    let bytes = [0x80, 0x80, 0x80, 0x80, 0x08, 1];
    assert_kind!(cpt_reader(&bytes).read_binary(), ErrorKind::NegativeSize);
    let bytes = [0xff, 0xff, 0xff, 0xff, 0x07, 1];
    assert_kind!(
        cpt_reader(&bytes).read_binary(),
        ErrorKind::LimitExceeded(Limit::StringLen)
    );
    // Container counts.
    assert_kind!(
        bin_reader(&[8, 0x7f, 0xff, 0xff, 0xff, 0]).read_list_begin(),
        ErrorKind::SizeLimit
    );
    assert_kind!(
        bin_reader(&[8, 8, 0x7f, 0xff, 0xff, 0xff]).read_map_begin(),
        ErrorKind::SizeLimit
    );
    assert_kind!(
        cpt_reader(&[0xf5, 0xff, 0xff, 0xff, 0xff, 0x07]).read_list_begin(),
        ErrorKind::SizeLimit
    );
    assert_kind!(
        cpt_reader(&[0xf5, 0x80, 0x80, 0x80, 0x80, 0x08]).read_set_begin(),
        ErrorKind::NegativeSize
    );
    assert_kind!(
        cpt_reader(&[0xff, 0xff, 0xff, 0xff, 0x07, 0x55]).read_map_begin(),
        ErrorKind::SizeLimit
    );
    // Skipping a list that claims 2^31-1 elements over io ends at EOF.
    let mut r = BinaryReader::new(IoInput::new(&[8u8, 0x7f, 0xff, 0xff, 0xff, 0, 0, 0, 1][..]));
    assert_kind!(r.skip(TType::List), ErrorKind::UnexpectedEof);
}

#[test]
fn configured_limits() {
    let limits = ReadLimits {
        max_string_len: 4,
        max_container_len: 2,
        ..ReadLimits::default()
    };
    let s = bin(|w| w.write_string("hello"));
    let mut r = BinaryReader::with_limits(SliceInput::new(&s), limits);
    assert_kind!(r.read_string(), ErrorKind::LimitExceeded(Limit::StringLen));
    let s = cpt(|w| w.write_string("hell"));
    let mut r = CompactReader::with_limits(SliceInput::new(&s), limits);
    assert_eq!(r.read_string().unwrap(), "hell");
    let l = cpt(|w| {
        w.write_list_begin(TType::I8, 3)?;
        w.output_mut().extend([1, 2, 3]);
        Ok(())
    });
    let mut r = CompactReader::with_limits(SliceInput::new(&l), limits);
    assert_kind!(
        r.read_list_begin(),
        ErrorKind::LimitExceeded(Limit::ContainerLen)
    );

    // max_message_size counts all bytes read, on slices and io.
    let limits = ReadLimits {
        max_message_size: 6,
        ..ReadLimits::default()
    };
    let s = bin(|w| w.write_string("hello"));
    let mut r = BinaryReader::with_limits(SliceInput::new(&s), limits);
    assert_kind!(
        r.read_string(),
        ErrorKind::LimitExceeded(Limit::MessageSize)
    );
    let mut r = BinaryReader::with_limits(IoInput::new(&s[..]), limits);
    assert_kind!(
        r.read_string(),
        ErrorKind::LimitExceeded(Limit::MessageSize)
    );
    let mut r = BinaryReader::with_limits(SliceInput::new(&s), limits);
    assert_eq!(r.read_i32().unwrap(), 5);
    assert_eq!(r.read_i8().unwrap(), b'h' as i8);
    assert_eq!(r.read_i8().unwrap(), b'e' as i8);
    assert_kind!(r.read_i8(), ErrorKind::LimitExceeded(Limit::MessageSize));
}

#[test]
fn deep_nesting_is_depth_limited() {
    const DEPTH: usize = 10_000;
    // Binary: list<list<list<...>>> with one element each.
    let mut b = Vec::new();
    for _ in 0..DEPTH {
        b.extend([15, 0, 0, 0, 1]);
    }
    assert_kind!(
        bin_reader(&b).skip(TType::List),
        ErrorKind::LimitExceeded(Limit::Depth)
    );
    let mut r = BinaryReader::new(IoInput::new(&b[..]));
    assert_kind!(r.skip(TType::List), ErrorKind::LimitExceeded(Limit::Depth));
    // Binary: struct { 1: struct { 1: struct ... } }.
    let mut b = Vec::new();
    for _ in 0..DEPTH {
        b.extend([12, 0, 1]);
    }
    assert_kind!(
        bin_reader(&b).skip(TType::Struct),
        ErrorKind::LimitExceeded(Limit::Depth)
    );
    // Compact: nested structs (field 1 of type struct = 0x1c) and maps.
    let c = vec![0x1c; DEPTH];
    assert_kind!(
        cpt_reader(&c).skip(TType::Struct),
        ErrorKind::LimitExceeded(Limit::Depth)
    );
    let mut c = Vec::new();
    for _ in 0..DEPTH {
        c.extend([0x01, 0x3b, 0x00]); // map<i8, map<...>> of size 1, key 0
    }
    assert_kind!(
        cpt_reader(&c).skip(TType::Map),
        ErrorKind::LimitExceeded(Limit::Depth)
    );

    // Exactly max_depth levels are fine; one more is not.
    let limits = ReadLimits {
        max_depth: 3,
        ..ReadLimits::default()
    };
    let ok = [0x1c, 0x1c, 0x00, 0x00, 0x00];
    let mut r = CompactReader::with_limits(SliceInput::new(&ok), limits);
    r.skip(TType::Struct).unwrap();
    let deep = [0x1c, 0x1c, 0x1c, 0x00, 0x00, 0x00, 0x00];
    let mut r = CompactReader::with_limits(SliceInput::new(&deep), limits);
    assert_kind!(
        r.skip(TType::Struct),
        ErrorKind::LimitExceeded(Limit::Depth)
    );
}

#[test]
fn borrowing_from_io_input_is_an_error() {
    let s = bin(|w| w.write_string("hi"));
    let mut r = BinaryReader::new(IoInput::new(&s[..]));
    assert_kind!(r.read_str(), ErrorKind::BorrowUnsupported);
    let mut input = IoInput::new(&s[..]);
    assert_kind!(
        Input::read_borrowed(&mut input, 1),
        ErrorKind::BorrowUnsupported
    );
}

#[test]
fn stop_is_not_a_value() {
    assert_kind!(bin_reader(&[0]).skip(TType::Stop), ErrorKind::InvalidData);
    assert_kind!(
        bin_reader(&[0, 0, 0, 0, 1, 0]).read_list_begin(),
        ErrorKind::InvalidData
    );
    assert_kind!(
        cpt_reader(&[0x10, 0]).read_list_begin(),
        ErrorKind::InvalidData
    );
}

proptest! {
    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..256)) {
        let _ = bin_reader(&bytes).skip(TType::Struct);
        let _ = cpt_reader(&bytes).skip(TType::Struct);
        let _ = read_message(&mut bin_reader(&bytes));
        let _ = read_message(&mut cpt_reader(&bytes));
        let _ = BinaryReader::new(IoInput::new(&bytes[..])).skip(TType::Map);
        let _ = CompactReader::new(IoInput::new(&bytes[..])).skip(TType::List);
    }

    #[test]
    fn mutated_messages_never_panic(pos in any::<prop::sample::Index>(), byte in any::<u8>()) {
        for mut m in [bin(sample_message), cpt(sample_message)] {
            let i = pos.index(m.len());
            m[i] = byte;
            let _ = read_message(&mut bin_reader(&m));
            let _ = read_message(&mut cpt_reader(&m));
        }
    }
}
