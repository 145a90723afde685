//! `IoInput`, `IoOutput` and `SliceOutput` adapters.

use std::io::{self, BufReader, Read, Write};

use super::codec::sample_person;
use super::{assert_kind, bin};
use crate::{
    Binary, BinaryWriter, Compact, CompactReader, CompactWriter, ErrorKind, IoInput, IoOutput,
    ProtocolReader, ProtocolWriter, ReadLimits, SliceOutput, TType, ThriftReadOwned, ThriftWrite,
};

use super::codec::Person;

#[test]
fn io_output_matches_vec_output() {
    let p = sample_person();
    let expected = p.encode_to_vec::<Compact>().unwrap();
    let mut w = CompactWriter::new(IoOutput::new(io::BufWriter::new(Vec::new())));
    p.write(&mut w).unwrap();
    let mut out = w.into_output();
    out.flush().unwrap();
    let bytes = out.into_inner().into_inner().unwrap();
    assert_eq!(bytes, expected);
}

#[test]
fn io_input_across_tiny_buffers() {
    // A 1-byte BufReader forces every multi-byte read across refills.
    let p = sample_person();
    for cap in [1, 2, 3, 7, 64] {
        let bytes = p.encode_to_vec::<Binary>().unwrap();
        let r = BufReader::with_capacity(cap, &bytes[..]);
        let got = Person::decode_from_buf_read::<Binary, _>(r, ReadLimits::default()).unwrap();
        assert_eq!(got, p);
        let bytes = p.encode_to_vec::<Compact>().unwrap();
        let r = BufReader::with_capacity(cap, &bytes[..]);
        let got = Person::decode_from_buf_read::<Compact, _>(r, ReadLimits::default()).unwrap();
        assert_eq!(got, p);
    }
}

#[test]
fn several_values_from_one_stream() {
    let a = sample_person();
    let b = Person {
        name: "second".into(),
        ..Person::default()
    };
    let mut stream = Vec::new();
    a.encode::<Compact>(&mut stream).unwrap();
    b.encode::<Compact>(&mut stream).unwrap();
    stream.push(0x42);
    let mut reader = BufReader::with_capacity(16, &stream[..]);
    let got_a =
        Person::decode_from_buf_read::<Compact, _>(&mut reader, ReadLimits::default()).unwrap();
    let got_b =
        Person::decode_from_buf_read::<Compact, _>(&mut reader, ReadLimits::default()).unwrap();
    assert_eq!((got_a, got_b), (a, b));
    let mut rest = Vec::new();
    reader.read_to_end(&mut rest).unwrap();
    assert_eq!(rest, [0x42]);
}

/// A reader that returns `Interrupted` before every real read, then fails.
struct Flaky<'a> {
    data: &'a [u8],
    interrupt: bool,
}

impl Read for Flaky<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.interrupt = !self.interrupt;
        if self.interrupt {
            return Err(io::ErrorKind::Interrupted.into());
        }
        if self.data.is_empty() {
            return Err(io::Error::new(io::ErrorKind::ConnectionReset, "reset"));
        }
        let n = self.data.len().min(buf.len()).min(3);
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

#[test]
fn io_errors_are_kept_and_interrupts_retried() {
    let p = sample_person();
    let bytes = p.encode_to_vec::<Compact>().unwrap();
    let flaky = Flaky {
        data: &bytes,
        interrupt: false,
    };
    let got = Person::decode_from_reader::<Compact, _>(flaky).unwrap();
    assert_eq!(got, p);

    let flaky = Flaky {
        data: &bytes[..10],
        interrupt: false,
    };
    let err = Person::decode_from_reader::<Compact, _>(flaky).unwrap_err();
    // A reset is a closed connection; the I/O error stays reachable.
    assert!(matches!(err.kind(), ErrorKind::Closed), "{err:?}");
    assert_eq!(
        err.io_error().map(io::Error::kind),
        Some(io::ErrorKind::ConnectionReset)
    );

    struct Broken;
    impl Write for Broken {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(io::Error::other("disk full"))
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }
    assert_kind!(p.encode_to_writer::<Binary, _>(Broken), ErrorKind::Io(_));
}

#[test]
fn io_input_read_helpers() {
    let bytes = crate::tests::cpt(|w| {
        w.write_string("héllo")?;
        w.write_binary(&[1, 2, 3])?;
        w.write_i64(-77)?;
        w.write_uuid(&[9; 16])?;
        w.write_string("skipped")?;
        w.write_double(0.25)
    });
    let mut r = CompactReader::new(IoInput::new(BufReader::with_capacity(2, &bytes[..])));
    assert_eq!(r.read_string().unwrap(), "héllo");
    assert_eq!(r.read_binary().unwrap(), [1, 2, 3]);
    assert_eq!(r.read_i64().unwrap(), -77);
    assert_eq!(r.read_uuid().unwrap(), [9; 16]);
    r.skip(TType::String).unwrap();
    assert_eq!(r.read_double().unwrap(), 0.25);
    assert_kind!(r.read_i8(), ErrorKind::UnexpectedEof);
    let inner = r.into_input().into_inner();
    assert!(inner.buffer().is_empty());
    let h = {
        let msg = crate::tests::bin(|w| {
            w.write_message_begin("call_me", crate::wire::MessageType::Call, 1)
        });
        let mut r = crate::binary::BinaryReader::new(IoInput::new(&msg[..]));
        r.read_message_begin().unwrap().name.into_owned()
    };
    assert_eq!(h, "call_me");
}

#[test]
fn slice_output() {
    let mut buf = [0u8; 8];
    let mut w = BinaryWriter::new(SliceOutput::new(&mut buf));
    w.write_i32(1).unwrap();
    w.write_i16(2).unwrap();
    assert_kind!(w.write_i32(3), ErrorKind::SizeLimit);
    w.write_i8(4).unwrap();
    w.write_i8(5).unwrap();
    assert_kind!(w.write_i8(6), ErrorKind::SizeLimit);
    assert_eq!(w.output().written(), [0, 0, 0, 1, 0, 2, 4, 5]);
    assert_eq!(w.output().position(), 8);
}

#[test]
fn writer_rejects_oversized_lengths() {
    let mut w = BinaryWriter::new(Vec::new());
    assert_kind!(w.write_list_begin(TType::I8, 1 << 31), ErrorKind::SizeLimit);
    let mut w = CompactWriter::new(Vec::new());
    assert_kind!(
        w.write_map_begin(TType::I8, TType::I8, usize::MAX),
        ErrorKind::SizeLimit
    );
}

#[test]
fn bytes_input_shares_the_buffer() {
    use crate::{BinaryReader, Bytes, BytesInput, SliceInput};
    for compact in [false, true] {
        let write = |w: &mut dyn ProtocolWriter| {
            w.write_string("héllo").unwrap();
            w.write_binary(&[1, 2, 3]).unwrap();
            w.write_string("").unwrap();
        };
        let bytes = if compact {
            let mut w = CompactWriter::new(Vec::new());
            write(&mut w);
            w.into_output()
        } else {
            let mut w = BinaryWriter::new(Vec::new());
            write(&mut w);
            w.into_output()
        };
        let buffer = Bytes::from(bytes.clone());
        let range = buffer.as_ptr_range();
        let check =
            |r: &mut dyn FnMut() -> (::bytestring::ByteString, Bytes, ::bytestring::ByteString)| {
                let (s, b, empty) = r();
                assert_eq!((&*s, &b[..], &*empty), ("héllo", &[1u8, 2, 3][..], ""));
                (s, b)
            };
        // From a `Bytes`: slices of the same allocation.
        let (s, b) = if compact {
            let mut r = CompactReader::new(BytesInput::new(&buffer));
            check(&mut || {
                (
                    r.read_byte_string().unwrap(),
                    r.read_shared_bytes().unwrap(),
                    r.read_byte_string().unwrap(),
                )
            })
        } else {
            let mut r = BinaryReader::new(BytesInput::new(&buffer));
            check(&mut || {
                (
                    r.read_byte_string().unwrap(),
                    r.read_shared_bytes().unwrap(),
                    r.read_byte_string().unwrap(),
                )
            })
        };
        assert!(range.contains(&s.as_bytes().as_ptr()), "string not shared");
        assert!(range.contains(&b.as_ptr()), "binary not shared");
        // From a slice: copies, same values.
        let (s, b) = if compact {
            let mut r = CompactReader::new(SliceInput::new(&bytes));
            check(&mut || {
                (
                    r.read_byte_string().unwrap(),
                    r.read_shared_bytes().unwrap(),
                    r.read_byte_string().unwrap(),
                )
            })
        } else {
            let mut r = BinaryReader::new(SliceInput::new(&bytes));
            check(&mut || {
                (
                    r.read_byte_string().unwrap(),
                    r.read_shared_bytes().unwrap(),
                    r.read_byte_string().unwrap(),
                )
            })
        };
        assert!(!range.contains(&s.as_bytes().as_ptr()));
        assert!(!range.contains(&b.as_ptr()));
    }
}

#[test]
fn bytes_input_checks_utf8_and_lengths() {
    use crate::{BinaryReader, Bytes, BytesInput};
    // Invalid UTF-8 as a string: error; the same bytes as a binary: fine.
    let bytes = Bytes::from(bin(|w| w.write_binary(&[0xff, 0xfe])));
    assert_kind!(
        BinaryReader::new(BytesInput::new(&bytes)).read_byte_string(),
        ErrorKind::InvalidUtf8
    );
    assert!(
        BinaryReader::new(BytesInput::new(&bytes))
            .read_shared_bytes()
            .is_ok()
    );
    // A length prefix beyond the input: an error, nothing allocated for it.
    let bytes = Bytes::from(vec![0x7f, 0xff, 0xff, 0xff, b'a']);
    assert!(
        BinaryReader::new(BytesInput::new(&bytes))
            .read_shared_bytes()
            .is_err()
    );
    let mut r = CompactReader::new(BytesInput::new(&bytes));
    assert!(r.read_byte_string().is_err());
}

/// `read_compact_string` from slices and from io input (the owned path), both protocols:
/// short strings inline, long ones on the heap, invalid UTF-8 an error.
#[cfg(feature = "compact_str")]
#[test]
fn compact_strings_from_slices_and_io() {
    use crate::{BinaryReader, CompactReader, ErrorKind, IoInput, ProtocolReader};
    for s in ["", "short", "a string of more than twenty-four bytes"] {
        let bytes = bin(|w| w.write_string(s));
        let from_slice = super::bin_reader(&bytes).read_compact_string().unwrap();
        assert_eq!(from_slice, s);
        assert_eq!(from_slice.is_heap_allocated(), s.len() > 24);
        let mut io = BinaryReader::new(IoInput::new(&bytes[..]));
        assert_eq!(io.read_compact_string().unwrap(), s);
        let bytes = super::cpt(|w| w.write_string(s));
        assert_eq!(super::cpt_reader(&bytes).read_compact_string().unwrap(), s);
        let mut io = CompactReader::new(IoInput::new(&bytes[..]));
        assert_eq!(io.read_compact_string().unwrap(), s);
    }
    let bytes = bin(|w| w.write_binary(&[b'a', 0xff]));
    assert_kind!(
        super::bin_reader(&bytes).read_compact_string(),
        ErrorKind::InvalidUtf8
    );
    let mut io = BinaryReader::new(IoInput::new(&bytes[..]));
    assert_kind!(io.read_compact_string(), ErrorKind::InvalidUtf8);
}

/// `read_string_into` and `read_compact_string_into` from slices and from io input (the
/// owned path), both protocols, over previous values shorter and longer than the string read:
/// the result is the string read; invalid UTF-8 is an error.
#[test]
fn strings_read_into_a_previous_value() {
    use crate::{BinaryReader, CompactReader, ErrorKind, IoInput, ProtocolReader};
    let strings = ["", "short", "a string of more than twenty-four bytes"];
    for s in strings {
        for previous in strings {
            let bytes = bin(|w| w.write_string(s));
            let mut out = previous.to_owned();
            super::bin_reader(&bytes)
                .read_string_into(&mut out)
                .unwrap();
            assert_eq!(out, s);
            let mut out = previous.to_owned();
            let mut io = BinaryReader::new(IoInput::new(&bytes[..]));
            io.read_string_into(&mut out).unwrap();
            assert_eq!(out, s);
            let bytes = super::cpt(|w| w.write_string(s));
            let mut out = previous.to_owned();
            super::cpt_reader(&bytes)
                .read_string_into(&mut out)
                .unwrap();
            assert_eq!(out, s);
            let mut out = previous.to_owned();
            let mut io = CompactReader::new(IoInput::new(&bytes[..]));
            io.read_string_into(&mut out).unwrap();
            assert_eq!(out, s);
            #[cfg(feature = "compact_str")]
            {
                let mut out = ::compact_str::CompactString::from(previous);
                super::cpt_reader(&bytes)
                    .read_compact_string_into(&mut out)
                    .unwrap();
                assert_eq!(out, s);
                let mut out = ::compact_str::CompactString::from(previous);
                let mut io = CompactReader::new(IoInput::new(&bytes[..]));
                io.read_compact_string_into(&mut out).unwrap();
                assert_eq!(out, s);
                let bytes = bin(|w| w.write_string(s));
                let mut out = ::compact_str::CompactString::from(previous);
                super::bin_reader(&bytes)
                    .read_compact_string_into(&mut out)
                    .unwrap();
                assert_eq!(out, s);
            }
        }
    }
    let bytes = bin(|w| w.write_binary(&[b'a', 0xff]));
    let mut out = String::from("previous");
    assert_kind!(
        super::bin_reader(&bytes).read_string_into(&mut out),
        ErrorKind::InvalidUtf8
    );
    let mut io = BinaryReader::new(IoInput::new(&bytes[..]));
    assert_kind!(io.read_string_into(&mut out), ErrorKind::InvalidUtf8);
    #[cfg(feature = "compact_str")]
    {
        let mut out = ::compact_str::CompactString::default();
        assert_kind!(
            super::bin_reader(&bytes).read_compact_string_into(&mut out),
            ErrorKind::InvalidUtf8
        );
    }
}

/// `read_binary_into`, `read_shared_bytes_into` and `read_byte_string_into` from slices, io
/// input and a shared `Bytes` buffer, both protocols, over previous values shorter and longer
/// than the value read: the result is the value read; a `Vec` with room keeps its buffer; from
/// a `Bytes` buffer the result is a slice of it (no copy); invalid UTF-8 is an error for the
/// string and not for the binaries.
#[test]
fn bytes_read_into_a_previous_value() {
    use crate::{
        BinaryReader, ByteString, Bytes, BytesInput, CompactReader, ErrorKind, IoInput,
        ProtocolReader,
    };
    fn check<'de, R: ProtocolReader<'de>>(
        mut reader: impl FnMut() -> R,
        value: &str,
        previous: &str,
        lends: bool,
        shared_from: Option<&Bytes>,
    ) {
        let mut out = previous.as_bytes().to_vec();
        let (pointer, capacity) = (out.as_ptr(), out.capacity());
        reader().read_binary_into(&mut out).unwrap();
        assert_eq!(out, value.as_bytes());
        // Input that lends its bytes (not io input, which reads into a new buffer anyway).
        if lends && capacity >= value.len() && capacity > 0 {
            assert_eq!(
                out.as_ptr(),
                pointer,
                "buffer kept: {previous:?} -> {value:?}"
            );
        }
        let mut out = Bytes::copy_from_slice(previous.as_bytes());
        reader().read_shared_bytes_into(&mut out).unwrap();
        assert_eq!(out, value.as_bytes());
        let mut string = ByteString::from(previous);
        reader().read_byte_string_into(&mut string).unwrap();
        assert_eq!(&*string, value);
        if let (Some(buffer), false) = (shared_from, value.is_empty()) {
            let range = buffer.as_ptr_range();
            assert!(range.contains(&out.as_ptr()), "a slice of the input");
            assert!(
                range.contains(&string.as_bytes().as_ptr()),
                "a slice of the input"
            );
        }
    }
    let values = ["", "short", "a string of more than twenty-four bytes"];
    for value in values {
        for previous in values {
            let bytes = bin(|w| w.write_string(value));
            let shared = Bytes::from(bytes.clone());
            check(|| super::bin_reader(&bytes), value, previous, true, None);
            check(
                || BinaryReader::new(IoInput::new(&bytes[..])),
                value,
                previous,
                false,
                None,
            );
            check(
                || BinaryReader::new(BytesInput::new(&shared)),
                value,
                previous,
                true,
                Some(&shared),
            );
            let bytes = super::cpt(|w| w.write_string(value));
            let shared = Bytes::from(bytes.clone());
            check(|| super::cpt_reader(&bytes), value, previous, true, None);
            check(
                || CompactReader::new(IoInput::new(&bytes[..])),
                value,
                previous,
                false,
                None,
            );
            check(
                || CompactReader::new(BytesInput::new(&shared)),
                value,
                previous,
                true,
                Some(&shared),
            );
        }
    }
    // Not UTF-8: an error as a string, read as it is as a binary.
    let invalid = [b'a', 0xff];
    let bytes = bin(|w| w.write_binary(&invalid));
    let shared = Bytes::from(bytes.clone());
    let mut string = ByteString::from("previous");
    assert_kind!(
        BinaryReader::new(BytesInput::new(&shared)).read_byte_string_into(&mut string),
        ErrorKind::InvalidUtf8
    );
    let mut out = Vec::new();
    super::bin_reader(&bytes)
        .read_binary_into(&mut out)
        .unwrap();
    assert_eq!(out, invalid);
    let bytes = super::cpt(|w| w.write_binary(&invalid));
    let shared = Bytes::from(bytes.clone());
    assert_kind!(
        CompactReader::new(BytesInput::new(&shared)).read_byte_string_into(&mut string),
        ErrorKind::InvalidUtf8
    );
    let mut out = Bytes::new();
    super::cpt_reader(&bytes)
        .read_shared_bytes_into(&mut out)
        .unwrap();
    assert_eq!(out, &invalid[..]);
}

/// `Vec`'s `write_data` (short copies as two words) appends exactly the bytes given, for every
/// length around the 16-byte cut-off, with and without room to spare, after any prefix.
#[test]
fn vec_write_data_appends_exactly() {
    use crate::output::Output;
    let source: Vec<u8> = (1..=40).collect();
    for len in 0..=source.len() {
        for prefix in [0, 1, 7] {
            for spare in [0, 1, 15, 16, 17, 64] {
                let mut out = Vec::with_capacity(prefix + len + spare);
                out.extend(std::iter::repeat_n(0xaa, prefix));
                let capacity = out.capacity();
                out.write_data(&source[..len]).unwrap();
                let mut expected = vec![0xaa; prefix];
                expected.extend_from_slice(&source[..len]);
                assert_eq!(out, expected, "len {len}, prefix {prefix}, spare {spare}");
                if spare >= 16 {
                    assert_eq!(out.capacity(), capacity, "no reallocation with room");
                }
            }
        }
    }
}

/// `Vec`'s `write_small` and `write_prefixed_data` (one capacity check, two 8-byte stores into
/// the spare capacity, then the length set to the bytes meant) append exactly the bytes meant:
/// every length, prefix length, existing content and spare room around the 16-byte cut-off,
/// with garbage in the bytes of the words beyond the length, and no reallocation when the
/// bytes fit.
#[test]
fn vec_write_small_and_prefixed_data_append_exactly() {
    use crate::output::Output;
    let garbage = u128::MAX;
    let source: Vec<u8> = (1..=40).collect();
    for before in [0, 1, 7] {
        for spare in [0, 1, 8, 15, 16, 17, 64] {
            for len in 0..=16 {
                let bytes = u128::from_le_bytes(source[..16].try_into().unwrap());
                let bytes = if len < 16 {
                    bytes & ((1 << (8 * len)) - 1) | garbage << (8 * len)
                } else {
                    bytes
                };
                let mut out = Vec::with_capacity(before + spare);
                out.extend(std::iter::repeat_n(0xaa, before));
                let capacity = out.capacity();
                out.write_small(bytes, len).unwrap();
                let mut expected = vec![0xaa; before];
                expected.extend_from_slice(&source[..len]);
                assert_eq!(
                    out, expected,
                    "write_small: len {len}, before {before}, spare {spare}"
                );
                if spare >= len {
                    assert_eq!(out.capacity(), capacity, "no reallocation with room");
                }
            }
            for prefix_len in 0..=8 {
                for len in 0..=source.len() {
                    let prefix =
                        u64::from_le_bytes([0xf1, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7, 0xf8]);
                    let mut out = Vec::with_capacity(before + spare);
                    out.extend(std::iter::repeat_n(0xaa, before));
                    let capacity = out.capacity();
                    out.write_prefixed_data(prefix, prefix_len, &source[..len])
                        .unwrap();
                    let mut expected = vec![0xaa; before];
                    expected.extend_from_slice(&prefix.to_le_bytes()[..prefix_len]);
                    expected.extend_from_slice(&source[..len]);
                    assert_eq!(
                        out, expected,
                        "write_prefixed_data: prefix {prefix_len}, len {len}, before {before}, spare {spare}"
                    );
                    if spare >= prefix_len + len {
                        assert_eq!(out.capacity(), capacity, "no reallocation with room");
                    }
                }
            }
        }
    }
}

/// `SliceInput` keeps the whole slice and a position: every read moves the position by what it
/// took, and nothing past the end is taken or skipped, however large the length asked for.
#[test]
fn slice_input_position_and_bounds() {
    use crate::{Input, SliceInput};
    let data: Vec<u8> = (0..16).collect();
    let mut input = SliceInput::new(&data);
    assert_eq!(input.peek_ten(), Some(&[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]));
    assert_eq!(input.read_u8().unwrap(), 0);
    assert_eq!(input.read_array::<2>().unwrap(), [1, 2]);
    assert_eq!(input.read_borrowed(3).unwrap(), &[3, 4, 5]);
    input.skip(2).unwrap();
    assert_eq!(input.position(), 8);
    assert_eq!(input.rest(), &data[8..]);
    assert_eq!(input.remaining(), Some(8));
    // Fewer than ten bytes left: no lookahead, but the bytes are still readable.
    assert_eq!(input.peek_ten(), None);
    assert_eq!(
        input.peek_array::<8>(),
        Some([8, 9, 10, 11, 12, 13, 14, 15])
    );
    assert_eq!(input.peek_array::<9>(), None);
    // Too long (including lengths whose end would wrap around): an error, nothing consumed.
    for len in [9, usize::MAX, usize::MAX - 7] {
        assert_kind!(input.read_borrowed(len), ErrorKind::SizeLimit);
        assert_kind!(input.skip(len), ErrorKind::SizeLimit);
        assert_eq!(input.position(), 8);
    }
    assert_kind!(input.read_array::<9>(), ErrorKind::UnexpectedEof);
    assert_eq!(input.read_borrowed(8).unwrap(), &data[8..]);
    assert_kind!(input.read_u8(), ErrorKind::UnexpectedEof);
    assert_eq!(input.rest(), &[] as &[u8]);
    assert_eq!(input.position(), 16);
}

/// `set_max_message_size` hides the bytes beyond the cap (counted from the position), and
/// reading into them is a `MessageSize` limit error rather than an end of input.
#[test]
fn slice_input_message_size_cap() {
    use crate::limits::Limit;
    use crate::{Input, SliceInput};
    let data: Vec<u8> = (0..16).collect();
    let mut input = SliceInput::new(&data);
    input.skip(4).unwrap();
    input.set_max_message_size(5);
    assert_eq!(input.remaining(), Some(5));
    assert_eq!(input.rest(), &data[4..9]);
    // A larger cap later does not bring the hidden bytes back.
    input.set_max_message_size(100);
    assert_eq!(input.remaining(), Some(5));
    assert_eq!(input.read_borrowed(5).unwrap(), &data[4..9]);
    assert_eq!(input.position(), 9);
    assert_kind!(
        input.read_u8(),
        ErrorKind::LimitExceeded(Limit::MessageSize)
    );
    assert_kind!(
        input.read_borrowed(1),
        ErrorKind::LimitExceeded(Limit::MessageSize)
    );
}
