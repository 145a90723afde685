//! `ThriftRead` / `ThriftWrite` as generated code would implement them.

use std::collections::BTreeMap;

use super::assert_kind;
use crate::{
    Binary, Compact, Error, ErrorKind, Limit, Protocol, ProtocolReader, ProtocolSize,
    ProtocolWriter, Result, TType, ThriftRead, ThriftReadOwned, ThriftWrite, capacity_hint,
};

/// struct Person {
///   1: required string name
///   2: optional i32 age
///   3: bool active
///   4: list<string> tags
///   5: map<string, i64> scores
///   6: optional Person friend
///   7: binary blob
///   8: uuid id
///   20: double height
/// }
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Person {
    pub name: String,
    pub age: Option<i32>,
    pub active: bool,
    pub tags: Vec<String>,
    pub scores: BTreeMap<String, i64>,
    pub friend: Option<Box<Person>>,
    pub blob: Vec<u8>,
    pub id: [u8; 16],
    pub height: f64,
}

impl ThriftWrite for Person {
    fn write<W: ProtocolWriter>(&self, w: &mut W) -> Result<()> {
        let t = w.write_struct_begin()?;
        w.write_field_begin(TType::String, 1)?;
        w.write_string(&self.name)?;
        w.write_field_end()?;
        if let Some(age) = self.age {
            w.write_field_begin(TType::I32, 2)?;
            w.write_i32(age)?;
            w.write_field_end()?;
        }
        w.write_field_begin(TType::Bool, 3)?;
        w.write_bool(self.active)?;
        w.write_field_end()?;
        w.write_field_begin(TType::List, 4)?;
        w.write_list_begin(TType::String, self.tags.len())?;
        for tag in &self.tags {
            w.write_string(tag)?;
        }
        w.write_list_end()?;
        w.write_field_end()?;
        w.write_field_begin(TType::Map, 5)?;
        w.write_map_begin(TType::String, TType::I64, self.scores.len())?;
        for (k, v) in &self.scores {
            w.write_string(k)?;
            w.write_i64(*v)?;
        }
        w.write_map_end()?;
        w.write_field_end()?;
        if let Some(friend) = &self.friend {
            w.write_field_begin(TType::Struct, 6)?;
            friend.write(w)?;
            w.write_field_end()?;
        }
        w.write_field_begin(TType::String, 7)?;
        w.write_binary(&self.blob)?;
        w.write_field_end()?;
        w.write_field_begin(TType::Uuid, 8)?;
        w.write_uuid(&self.id)?;
        w.write_field_end()?;
        w.write_field_begin(TType::Double, 20)?;
        w.write_double(self.height)?;
        w.write_field_end()?;
        w.write_field_stop()?;
        w.write_struct_end(t)
    }

    fn encoded_len<P: ProtocolSize>(&self) -> usize {
        let mut n = P::struct_begin_len();
        n += P::field_begin_len(TType::String, 1, 0) + P::string_len(self.name.len());
        let mut prev = 1;
        if let Some(age) = self.age {
            n += P::field_begin_len(TType::I32, 2, prev) + P::i32_len(age);
            prev = 2;
        }
        n += P::field_begin_len(TType::Bool, 3, prev) + P::bool_field_value_len();
        n += P::field_begin_len(TType::List, 4, 3)
            + P::list_begin_len(TType::String, self.tags.len());
        n += self
            .tags
            .iter()
            .map(|t| P::string_len(t.len()))
            .sum::<usize>();
        n += P::field_begin_len(TType::Map, 5, 4)
            + P::map_begin_len(TType::String, TType::I64, self.scores.len());
        n += self
            .scores
            .iter()
            .map(|(k, v)| P::string_len(k.len()) + P::i64_len(*v))
            .sum::<usize>();
        prev = 5;
        if let Some(friend) = &self.friend {
            n += P::field_begin_len(TType::Struct, 6, prev) + friend.encoded_len::<P>();
            prev = 6;
        }
        n += P::field_begin_len(TType::String, 7, prev) + P::binary_len(self.blob.len());
        n += P::field_begin_len(TType::Uuid, 8, 7) + P::uuid_len(&self.id);
        n += P::field_begin_len(TType::Double, 20, 8) + P::double_len(self.height);
        n + P::field_stop_len() + P::struct_end_len()
    }
}

impl<'de> ThriftRead<'de> for Person {
    fn read<R: ProtocolReader<'de>>(r: &mut R) -> Result<Self> {
        let t = r.read_struct_begin()?;
        let mut p = Person::default();
        let mut name = None;
        loop {
            let f = r.read_field_begin()?;
            match (f.id, f.ttype) {
                (_, TType::Stop) => break,
                (1, TType::String) => name = Some(r.read_string()?),
                (2, TType::I32) => p.age = Some(r.read_i32()?),
                (3, TType::Bool) => p.active = r.read_bool()?,
                (4, TType::List) => {
                    let h = r.read_list_begin()?;
                    let mut tags = Vec::with_capacity(capacity_hint::<String>(h.len));
                    for _ in 0..h.len {
                        tags.push(r.read_string()?);
                    }
                    r.read_list_end()?;
                    p.tags = tags;
                }
                (5, TType::Map) => {
                    let h = r.read_map_begin()?;
                    for _ in 0..h.len {
                        let k = r.read_string()?;
                        let v = r.read_i64()?;
                        p.scores.insert(k, v);
                    }
                    r.read_map_end()?;
                }
                (6, TType::Struct) => p.friend = Some(ThriftRead::read(r)?),
                (7, TType::String) => p.blob = r.read_binary()?,
                (8, TType::Uuid) => p.id = r.read_uuid()?,
                (20, TType::Double) => p.height = r.read_double()?,
                (_, ttype) => r.skip(ttype)?,
            }
            r.read_field_end()?;
        }
        r.read_struct_end(t)?;
        p.name = name.ok_or_else(|| Error::missing_required_field("Person", "name"))?;
        Ok(p)
    }
}

pub(crate) fn sample_person() -> Person {
    Person {
        name: "Ada".into(),
        age: Some(36),
        active: true,
        tags: (0..20).map(|i| format!("tag{i}")).collect(),
        scores: [("a".to_string(), -1), ("b".to_string(), i64::MAX)].into(),
        friend: Some(Box::new(Person {
            name: "Bob".into(),
            age: None,
            active: false,
            blob: vec![1, 2, 3],
            ..Person::default()
        })),
        blob: vec![0xff; 300],
        id: [0xab; 16],
        height: -0.0,
    }
}

fn round_trip<P: Protocol>(p: &Person) {
    let bytes = p.encode_to_vec::<P>().unwrap();
    assert_eq!(bytes.len(), p.encoded_len::<P>());
    assert_eq!(bytes.capacity(), bytes.len(), "one exact allocation");
    assert_eq!(&Person::decode::<P>(&bytes).unwrap(), p);
    assert_eq!(&Person::decode_from_reader::<P, _>(&bytes[..]).unwrap(), p);
    let mut appended = vec![9];
    p.encode::<P>(&mut appended).unwrap();
    assert_eq!(appended[1..], bytes[..]);
    let mut via_io = Vec::new();
    p.encode_to_writer::<P, _>(&mut via_io).unwrap();
    assert_eq!(via_io, bytes);
}

#[test]
fn struct_round_trips_and_sizes_match() {
    let p = sample_person();
    round_trip::<Binary>(&p);
    round_trip::<Compact>(&p);
    round_trip::<Binary>(&Person::default());
    round_trip::<Compact>(&Person::default());
}

#[test]
fn missing_required_field() {
    // An empty struct: just the stop field.
    for err in [
        Person::decode::<Compact>(&[0]).unwrap_err(),
        Person::decode::<Binary>(&[0]).unwrap_err(),
    ] {
        assert!(matches!(
            err.kind(),
            ErrorKind::MissingRequiredField {
                struct_name: "Person",
                field_name: "name"
            }
        ));
        assert_eq!(err.to_string(), "missing required field `Person.name`");
    }
}

#[test]
fn unknown_fields_are_skipped() {
    // Person with an extra field 99 (a list of structs) before field 1.
    let bytes = crate::tests::cpt(|w| {
        let t = w.write_struct_begin()?;
        w.write_field_begin(TType::List, 99)?;
        w.write_list_begin(TType::Struct, 1)?;
        sample_person().write(w)?;
        w.write_field_begin(TType::String, 1)?;
        w.write_string("x")?;
        w.write_field_stop()?;
        w.write_struct_end(t)
    });
    let p = Person::decode::<Compact>(&bytes).unwrap();
    assert_eq!(p.name, "x");
}

/// A borrowing type: `struct View { 1: string name, 2: binary data }`.
#[derive(Debug, PartialEq)]
struct View<'a> {
    name: &'a str,
    data: &'a [u8],
}

impl<'de> ThriftRead<'de> for View<'de> {
    fn read<R: ProtocolReader<'de>>(r: &mut R) -> Result<Self> {
        let t = r.read_struct_begin()?;
        let mut v = View {
            name: "",
            data: &[],
        };
        loop {
            let f = r.read_field_begin()?;
            match (f.id, f.ttype) {
                (_, TType::Stop) => break,
                (1, TType::String) => v.name = r.read_str()?,
                (7, TType::String) => v.data = r.read_bytes()?,
                (_, ttype) => r.skip(ttype)?,
            }
        }
        r.read_struct_end(t)?;
        Ok(v)
    }
}

#[test]
fn zero_copy_decoding() {
    let p = sample_person();
    for bytes in [
        p.encode_to_vec::<Binary>().unwrap(),
        p.encode_to_vec::<Compact>().unwrap(),
    ] {
        let is_binary = bytes[0] == TType::String as u8;
        let v = if is_binary {
            View::decode::<Binary>(&bytes).unwrap()
        } else {
            View::decode::<Compact>(&bytes).unwrap()
        };
        assert_eq!(v.name, "Ada");
        assert_eq!(v.data, &[0xff; 300][..]);
        // The strings point into the input buffer.
        let range = bytes.as_ptr_range();
        assert!(range.contains(&v.name.as_ptr()));
    }
}

#[test]
fn base_type_impls() {
    fn rt<T: ThriftWrite + for<'de> ThriftRead<'de> + PartialEq + std::fmt::Debug>(v: T) {
        let b = v.encode_to_vec::<Binary>().unwrap();
        assert_eq!(b.len(), v.encoded_len::<Binary>());
        assert_eq!(T::decode::<Binary>(&b).unwrap(), v);
        let c = v.encode_to_vec::<Compact>().unwrap();
        assert_eq!(c.len(), v.encoded_len::<Compact>());
        assert_eq!(T::decode::<Compact>(&c).unwrap(), v);
    }
    rt(true);
    rt(-3i8);
    rt(i16::MIN);
    rt(i32::MAX);
    rt(i64::MIN);
    rt(1.5f64);
    rt([3u8; 16]);
    rt(String::from("s"));
    rt(Box::new(7i32));
    let bytes = "zero".encode_to_vec::<Compact>().unwrap();
    assert_eq!(<&str>::decode::<Compact>(&bytes).unwrap(), "zero");
}

#[test]
fn error_display_and_source() {
    use std::error::Error as _;
    assert_eq!(Error::eof().to_string(), "unexpected end of input");
    assert_eq!(
        Error::invalid_data("bad varint").to_string(),
        "invalid data (bad varint)"
    );
    let io: Error = std::io::Error::other("boom").into();
    assert_eq!(io.to_string(), "i/o error: boom");
    assert!(io.source().is_some());
    assert!(Error::limit(Limit::Depth, "").source().is_none());
    assert_eq!(
        Error::limit(Limit::FrameSize, "frame larger than max_frame_size").to_string(),
        "limit exceeded: max_frame_size (frame larger than max_frame_size)"
    );
    assert_kind!(Err::<(), _>(Error::size_limit("x")), ErrorKind::SizeLimit);
    // One pointer, so that results come back in registers.
    assert_eq!(std::mem::size_of::<Error>(), 8);
    assert_eq!(std::mem::size_of::<crate::error::Result<()>>(), 8);
    assert_eq!(std::mem::size_of::<crate::error::Result<u64>>(), 16);
    assert_eq!(
        format!("{:?}", Error::limit(Limit::Depth, "")),
        "Error { kind: LimitExceeded(Depth) }"
    );
}

#[test]
fn error_taxonomy() {
    use crate::{ApplicationException, ApplicationExceptionKind};
    use std::io;
    // Timeouts of sockets (blocking: WouldBlock on Unix) are TimedOut, not raw I/O.
    for kind in [io::ErrorKind::WouldBlock, io::ErrorKind::TimedOut] {
        let e = Error::from(io::Error::new(kind, "Resource temporarily unavailable"));
        assert!(
            e.is_timeout() && matches!(e.kind(), ErrorKind::TimedOut),
            "{e:?}"
        );
        assert_eq!(e.io_error().map(io::Error::kind), Some(kind));
        assert_eq!(
            e.to_string(),
            "timed out (Resource temporarily unavailable)"
        );
        assert!(std::error::Error::source(&e).is_some());
    }
    for kind in [
        io::ErrorKind::UnexpectedEof,
        io::ErrorKind::ConnectionReset,
        io::ErrorKind::BrokenPipe,
        io::ErrorKind::NotConnected,
    ] {
        let e = Error::from(io::Error::from(kind));
        assert!(
            matches!(e.kind(), ErrorKind::Closed) && e.is_disconnected(),
            "{e:?}"
        );
    }
    let refused = Error::connect(
        "db.example:9090",
        io::Error::from(io::ErrorKind::ConnectionRefused),
    );
    assert!(refused.is_disconnected() && !refused.is_timeout());
    assert_eq!(
        refused.to_string(),
        "cannot connect to db.example:9090: connection refused"
    );
    assert!(format!("{refused:?}").contains("db.example:9090"));
    // Other I/O errors stay I/O errors.
    let other = Error::from(io::Error::other("disk full"));
    assert!(matches!(other.kind(), ErrorKind::Io(_)) && !other.is_disconnected());
    // Exceptions print their kind's name; unknown kinds their number.
    let e = Error::from(ApplicationException::new(
        ApplicationExceptionKind::UNKNOWN_METHOD,
        "Invalid method name: 'nope'",
    ));
    assert_eq!(
        e.to_string(),
        "application exception UNKNOWN_METHOD: Invalid method name: 'nope'"
    );
    assert_eq!(
        e.application_exception().map(|a| a.kind),
        Some(ApplicationExceptionKind::UNKNOWN_METHOD)
    );
    assert!(format!("{e:?}").contains("kind: UNKNOWN_METHOD"));
    assert_eq!(
        format!("{:?}", ApplicationExceptionKind(42)),
        "ApplicationExceptionKind(42)"
    );
    assert_eq!(ApplicationExceptionKind(42).to_string(), "42");
    assert_eq!(
        format!("{:?}", Error::timed_out("x")),
        "Error { kind: TimedOut, context: \"x\" }"
    );
}

#[test]
fn application_exception() {
    use crate::{ApplicationException, ApplicationExceptionKind, MessageType, SliceInput};
    let e = ApplicationException::new(ApplicationExceptionKind::UNKNOWN_METHOD, "no such method");
    for bytes in [
        e.encode_to_vec::<Binary>().unwrap(),
        e.encode_to_vec::<Compact>().unwrap(),
    ] {
        let proto_is_compact = bytes[0] == 0x18;
        let got = if proto_is_compact {
            ApplicationException::decode::<Compact>(&bytes).unwrap()
        } else {
            ApplicationException::decode::<Binary>(&bytes).unwrap()
        };
        assert_eq!(got, e);
    }
    // Compact: field 1 string (0x18), len 2, "hi", field 2 i32 (0x15), zigzag(7)=14, stop.
    let bytes = [0x18, 2, b'h', b'i', 0x15, 14, 0];
    let got = ApplicationException::decode::<Compact>(&bytes).unwrap();
    assert_eq!(got.kind, ApplicationExceptionKind::PROTOCOL_ERROR);

    // An Exception reply as an RPC client would handle it.
    let msg = crate::tests::cpt(|w| {
        w.write_message_begin("m", MessageType::Exception, 3)?;
        e.write(w)?;
        w.write_message_end()
    });
    let mut r = crate::compact::CompactReader::new(SliceInput::new(&msg));
    let h = r.read_message_begin().unwrap();
    assert_eq!(h.kind, MessageType::Exception);
    let err: Error = ApplicationException::read(&mut r).unwrap().into();
    assert_eq!(
        err.to_string(),
        "application exception UNKNOWN_METHOD: no such method"
    );
    assert!(matches!(err.kind(), ErrorKind::Application(a) if **a == e));
    assert_eq!(r.input().position(), msg.len());
}
