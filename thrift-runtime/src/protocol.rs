//! The traits generated code is generic over: [`ProtocolReader`],
//! [`ProtocolWriter`], [`ProtocolSize`] and the [`Protocol`] marker trait.

use bytes::Bytes;
use bytestring::ByteString;

use crate::error::{Error, Result};
use crate::input::Input;
use crate::limits::ReadLimits;
use crate::output::Output;
use crate::wire::{
    FieldHeader, ListHeader, MapHeader, MessageHeader, MessageType, StructToken, TType,
};

/// Decodes Thrift values from an input. Implemented by
/// [`BinaryReader`](crate::BinaryReader), [`CompactReader`](crate::CompactReader) and
/// [`JsonReader`](crate::JsonReader).
///
/// Calls must follow the structure of the data, as in Apache Thrift:
///
/// ```text
/// let t = r.read_struct_begin()?;
/// loop {
///     let f = r.read_field_begin()?;
///     if f.is_stop() { break; }
///     match (f.id, f.ttype) { /* read value */ _ => r.skip(f.ttype)? }
///     r.read_field_end()?;
/// }
/// r.read_struct_end(t)?;
/// ```
///
/// Every `*_begin` of a struct or container must be matched by its `*_end`
/// (they count nesting depth against [`ReadLimits::max_depth`]).
pub trait ProtocolReader<'de> {
    /// Reads a message header.
    fn read_message_begin(&mut self) -> Result<MessageHeader<'de>>;
    /// Ends a message.
    #[inline]
    fn read_message_end(&mut self) -> Result<()> {
        Ok(())
    }
    /// Starts a struct; fails with `LimitExceeded(Limit::Depth)` when nested too deep.
    fn read_struct_begin(&mut self) -> Result<StructToken>;
    /// Ends a struct, restoring the state saved by `read_struct_begin`.
    fn read_struct_end(&mut self, token: StructToken) -> Result<()>;
    /// Reads a field header; `ttype == TType::Stop` ends the struct.
    fn read_field_begin(&mut self) -> Result<FieldHeader>;
    /// Reads the next field header only if it is exactly field `id` of wire type `ttype`,
    /// and returns whether it did; otherwise reads nothing. Generated code calls it for each
    /// field in declared order before its general `read_field_begin` loop, so a struct whose
    /// fields arrive in that order (what every Thrift writer does) is read by comparing each
    /// header with a constant instead of decoding it and dispatching on it.
    ///
    /// Readers that cannot look ahead cheaply return `false` (the default); that is always
    /// correct, only slower.
    #[inline]
    fn read_field_if(&mut self, ttype: TType, id: i16) -> bool {
        let _ = (ttype, id);
        false
    }
    /// [`read_field_if`](Self::read_field_if), where `prev` is the id of the field the
    /// caller expects to have been read just before (0 for a struct's first field): the same
    /// result, and faster when `prev` is a constant and right. Generated code passes the
    /// previous field of its in-order sequence; the compact protocol then compares the header
    /// with a constant byte (its field headers are deltas to the previous id).
    #[inline]
    fn read_field_after(&mut self, ttype: TType, id: i16, prev: i16) -> bool {
        let _ = prev;
        self.read_field_if(ttype, id)
    }
    /// Ends a field.
    #[inline]
    fn read_field_end(&mut self) -> Result<()> {
        Ok(())
    }
    /// Starts a list; fails with `LimitExceeded(Limit::Depth)` when nested too deep.
    fn read_list_begin(&mut self) -> Result<ListHeader>;
    /// Ends a list.
    fn read_list_end(&mut self) -> Result<()>;
    /// Starts a set; fails with `LimitExceeded(Limit::Depth)` when nested too deep.
    fn read_set_begin(&mut self) -> Result<ListHeader>;
    /// Ends a set.
    fn read_set_end(&mut self) -> Result<()>;
    /// Starts a map; fails with `LimitExceeded(Limit::Depth)` when nested too deep.
    fn read_map_begin(&mut self) -> Result<MapHeader>;
    /// Ends a map.
    fn read_map_end(&mut self) -> Result<()>;
    /// Reads a `bool` (field value or element).
    fn read_bool(&mut self) -> Result<bool>;
    /// Reads an `i8`.
    fn read_i8(&mut self) -> Result<i8>;
    /// Reads an `i16`.
    fn read_i16(&mut self) -> Result<i16>;
    /// Reads an `i32` (also enums).
    fn read_i32(&mut self) -> Result<i32>;
    /// Reads an `i64`.
    fn read_i64(&mut self) -> Result<i64>;
    /// Reads a `double`.
    fn read_double(&mut self) -> Result<f64>;
    /// Reads a `uuid` (16 raw bytes, big-endian/network order).
    fn read_uuid(&mut self) -> Result<[u8; 16]>;
    /// Reads `out.len()` `i32` elements of a list or set (after its header) into `out`. The
    /// provided method calls [`read_i32`](Self::read_i32) for each; the binary and compact
    /// readers over a slice read them in one loop over the input's bytes.
    #[inline]
    fn read_i32_elements(&mut self, out: &mut [i32]) -> Result<()> {
        for item in out {
            *item = self.read_i32()?;
        }
        Ok(())
    }
    /// Reads `out.len()` `i64` elements of a list or set into `out`, as
    /// [`read_i32_elements`](Self::read_i32_elements) does.
    #[inline]
    fn read_i64_elements(&mut self, out: &mut [i64]) -> Result<()> {
        for item in out {
            *item = self.read_i64()?;
        }
        Ok(())
    }
    /// Reads `out.len()` `double` elements of a list or set into `out`, as
    /// [`read_i32_elements`](Self::read_i32_elements) does.
    #[inline]
    fn read_double_elements(&mut self, out: &mut [f64]) -> Result<()> {
        for item in out {
            *item = self.read_double()?;
        }
        Ok(())
    }
    /// Reads a `string` into an owned, UTF-8 validated `String`.
    fn read_string(&mut self) -> Result<String>;
    /// Reads a `binary` into an owned `Vec<u8>`.
    fn read_binary(&mut self) -> Result<Vec<u8>>;
    /// Reads a `string` borrowed from the input (zero-copy). Only slice
    /// input can lend; other inputs give `BorrowUnsupported`.
    fn read_str(&mut self) -> Result<&'de str>;
    /// Reads a `binary` borrowed from the input (zero-copy). Only slice
    /// input can lend; other inputs give `BorrowUnsupported`.
    fn read_bytes(&mut self) -> Result<&'de [u8]>;
    /// Reads a `string` as a [`ByteString`]: a slice of the input's buffer when decoding from a
    /// [`Bytes`] ([`crate::BytesInput`]), otherwise a copy. UTF-8 validated.
    fn read_byte_string(&mut self) -> Result<ByteString>;
    /// Reads a `binary` as [`Bytes`]: a slice of the input's buffer when decoding from a
    /// [`Bytes`] ([`crate::BytesInput`]), otherwise a copy.
    fn read_shared_bytes(&mut self) -> Result<Bytes>;
    /// Reads a `string` as a [`CompactString`](crate::CompactString): stored inline when it is
    /// at most 24 bytes (no allocation), on the heap otherwise. UTF-8 validated. The provided
    /// method goes through [`ProtocolReader::read_string`]; this crate's readers copy straight
    /// from the input. Feature `compact_str`.
    #[cfg(feature = "compact_str")]
    #[inline]
    fn read_compact_string(&mut self) -> Result<::compact_str::CompactString> {
        self.read_string().map(::compact_str::CompactString::from)
    }
    /// Reads a `string` into `out`, replacing its contents and keeping its buffer when the
    /// buffer is large enough (no allocation when decoding over a previous value). Generated
    /// code reads `String` fields and list elements through it. The provided method assigns
    /// [`ProtocolReader::read_string`]; this crate's readers copy straight from the input.
    #[inline]
    fn read_string_into(&mut self, out: &mut String) -> Result<()> {
        *out = self.read_string()?;
        Ok(())
    }
    /// Reads a `string` into a [`CompactString`](crate::CompactString), replacing its
    /// contents: written where `out` lives (inline up to 24 bytes) instead of built and moved
    /// there. Generated code reads `CompactString` fields and list elements through it. The
    /// provided method assigns [`ProtocolReader::read_compact_string`]. Feature `compact_str`.
    #[cfg(feature = "compact_str")]
    #[inline]
    fn read_compact_string_into(&mut self, out: &mut ::compact_str::CompactString) -> Result<()> {
        *out = self.read_compact_string()?;
        Ok(())
    }
    /// Reads a `string` into a [`ByteString`], replacing it: stored where `out` lives instead of
    /// returned and moved there (a returned `ByteString` comes back through memory, and moving
    /// it reads the freshly stored words back: a store-forwarding stall per string). Generated
    /// code reads `ByteString` fields and list elements through it. The provided method assigns
    /// [`ProtocolReader::read_byte_string`]. Always inlined, as `read_byte_string` is: the
    /// inliner left it out of line in the generated readers of structs with several string
    /// fields.
    #[inline(always)]
    fn read_byte_string_into(&mut self, out: &mut ByteString) -> Result<()> {
        *out = self.read_byte_string()?;
        Ok(())
    }
    /// Reads a `binary` into `out`, replacing its contents and keeping its buffer when the
    /// buffer is large enough, as [`ProtocolReader::read_string_into`] does for strings.
    /// The provided method assigns [`ProtocolReader::read_binary`].
    #[inline]
    fn read_binary_into(&mut self, out: &mut Vec<u8>) -> Result<()> {
        *out = self.read_binary()?;
        Ok(())
    }
    /// Reads a `binary` into a [`Bytes`], replacing it where it lives, as
    /// [`ProtocolReader::read_byte_string_into`] does for strings. The provided method assigns
    /// [`ProtocolReader::read_shared_bytes`]. Always inlined, as `read_byte_string_into` is.
    #[inline(always)]
    fn read_shared_bytes_into(&mut self, out: &mut Bytes) -> Result<()> {
        *out = self.read_shared_bytes()?;
        Ok(())
    }
    /// Skips a `string`/`binary` without allocating.
    fn skip_binary(&mut self) -> Result<()>;
    /// Reads the next `string` or `binary` only if its bytes are `expected`, and says whether
    /// it did: on `true` it has been read (nothing allocated), on `false` nothing has been
    /// read and the caller reads it as usual. Decoding into a used value
    /// ([`ThriftRead::decode_into`](crate::ThriftRead::decode_into)) compares map keys and set
    /// elements with the old ones this way, so that a map with the same keys is read where it
    /// lives. The binary and compact readers compare when their input is a slice (or
    /// [`Bytes`]); the provided method, and the other inputs, answer `false`.
    #[inline]
    fn read_binary_if_eq(&mut self, expected: &[u8]) -> Result<bool> {
        let _ = expected;
        Ok(false)
    }

    /// The arena of the input ([`Input::arena`]): where the borrowing
    /// forms of code generated with `Builder::arena` allocate their lists, sets, maps and
    /// optional structs (feature `arena`). The binary, compact and JSON readers give their
    /// input's; the provided method gives `None`, and those forms then fail to decode with
    /// [`ErrorKind::BorrowUnsupported`](crate::ErrorKind::BorrowUnsupported).
    #[cfg(feature = "arena")]
    #[inline]
    fn arena(&self) -> Option<&'de crate::arena::Arena> {
        None
    }
    /// Reads a `string` or `binary` whose kind the reader does not know (an unknown field
    /// kept by [`UnknownFields`](crate::UnknownFields)), as [`ProtocolWriter::write_raw_string`]
    /// writes it back: its bytes in the binary and compact protocols (the default,
    /// [`ProtocolReader::read_binary`]); in JSON, where a binary is base64 text and a string is
    /// not, its text.
    #[inline]
    fn read_raw_string(&mut self) -> Result<Vec<u8>> {
        self.read_binary()
    }
    /// Skips one value of type `ttype` (unknown fields), recursively,
    /// within the depth limit.
    #[inline]
    fn skip(&mut self, ttype: TType) -> Result<()>
    where
        Self: Sized,
    {
        skip_value(self, ttype)
    }
}

/// Skips one value of type `ttype`. Structs and containers go through the
/// reader's `*_begin` methods, which enforce the depth limit, so hostile
/// nesting ends in `LimitExceeded(Limit::Depth)` long before the stack is at risk.
pub fn skip_value<'de, R: ProtocolReader<'de>>(r: &mut R, ttype: TType) -> Result<()> {
    match ttype {
        TType::Bool => r.read_bool().map(drop),
        TType::I8 => r.read_i8().map(drop),
        TType::I16 => r.read_i16().map(drop),
        TType::I32 => r.read_i32().map(drop),
        TType::I64 => r.read_i64().map(drop),
        TType::Double => r.read_double().map(drop),
        TType::Uuid => r.read_uuid().map(drop),
        TType::String => r.skip_binary(),
        TType::Struct => {
            let token = r.read_struct_begin()?;
            loop {
                let field = r.read_field_begin()?;
                if field.is_stop() {
                    break;
                }
                skip_value(r, field.ttype)?;
                r.read_field_end()?;
            }
            r.read_struct_end(token)
        }
        TType::List => {
            let h = r.read_list_begin()?;
            for _ in 0..h.len {
                skip_value(r, h.elem)?;
            }
            r.read_list_end()
        }
        TType::Set => {
            let h = r.read_set_begin()?;
            for _ in 0..h.len {
                skip_value(r, h.elem)?;
            }
            r.read_set_end()
        }
        TType::Map => {
            let h = r.read_map_begin()?;
            for _ in 0..h.len {
                skip_value(r, h.key)?;
                skip_value(r, h.value)?;
            }
            r.read_map_end()
        }
        TType::Stop => Err(Error::invalid_data("cannot skip a value of type stop")),
    }
}

/// Encodes Thrift values to an output. Implemented by
/// [`BinaryWriter`](crate::BinaryWriter), [`CompactWriter`](crate::CompactWriter) and
/// [`JsonWriter`](crate::JsonWriter).
///
/// Mirrors [`ProtocolReader`]. A `bool` field is written as
/// `write_field_begin(TType::Bool, id)` followed by `write_bool(v)`.
/// Lengths larger than `i32::MAX` give `SizeLimit`.
pub trait ProtocolWriter {
    /// Writes a message header.
    fn write_message_begin(&mut self, name: &str, kind: MessageType, seq: i32) -> Result<()>;
    /// Ends a message.
    #[inline]
    fn write_message_end(&mut self) -> Result<()> {
        Ok(())
    }
    /// Starts a struct; pass the token to `write_struct_end`.
    fn write_struct_begin(&mut self) -> Result<StructToken>;
    /// Ends a struct (writes nothing; the stop field is separate).
    fn write_struct_end(&mut self, token: StructToken) -> Result<()>;
    /// Writes a field header.
    fn write_field_begin(&mut self, ttype: TType, id: i16) -> Result<()>;
    /// Writes a field header when the caller knows the previous field written in this struct
    /// was `prev_id` (0: none), so that a compact header can be a constant. Generated code
    /// calls it where that is known when the code is generated; the default is
    /// [`ProtocolWriter::write_field_begin`].
    #[inline]
    fn write_field_begin_after(&mut self, ttype: TType, id: i16, prev_id: i16) -> Result<()> {
        let _ = prev_id;
        self.write_field_begin(ttype, id)
    }
    /// Ends a field.
    #[inline]
    fn write_field_end(&mut self) -> Result<()> {
        Ok(())
    }
    /// Writes the stop field that ends a struct.
    fn write_field_stop(&mut self) -> Result<()>;
    /// Writes a list header.
    fn write_list_begin(&mut self, elem: TType, len: usize) -> Result<()>;
    /// Ends a list.
    #[inline]
    fn write_list_end(&mut self) -> Result<()> {
        Ok(())
    }
    /// Writes a set header.
    fn write_set_begin(&mut self, elem: TType, len: usize) -> Result<()>;
    /// Ends a set.
    #[inline]
    fn write_set_end(&mut self) -> Result<()> {
        Ok(())
    }
    /// Writes a map header.
    fn write_map_begin(&mut self, key: TType, value: TType, len: usize) -> Result<()>;
    /// Ends a map.
    #[inline]
    fn write_map_end(&mut self) -> Result<()> {
        Ok(())
    }
    /// Writes a `bool` (field value or element).
    fn write_bool(&mut self, v: bool) -> Result<()>;
    /// Writes an `i8`.
    fn write_i8(&mut self, v: i8) -> Result<()>;
    /// Writes an `i16`.
    fn write_i16(&mut self, v: i16) -> Result<()>;
    /// Writes an `i32`.
    fn write_i32(&mut self, v: i32) -> Result<()>;
    /// Writes an `i64`.
    fn write_i64(&mut self, v: i64) -> Result<()>;
    /// Writes a `double`.
    fn write_double(&mut self, v: f64) -> Result<()>;
    /// Writes a `uuid` (16 raw bytes).
    fn write_uuid(&mut self, v: &[u8; 16]) -> Result<()>;
    /// Writes a `string`.
    #[inline]
    fn write_string(&mut self, v: &str) -> Result<()> {
        self.write_binary(v.as_bytes())
    }
    /// Writes a `binary`.
    fn write_binary(&mut self, v: &[u8]) -> Result<()>;
    /// Writes back what [`ProtocolReader::read_raw_string`] read (the default,
    /// [`ProtocolWriter::write_binary`]; JSON writes the text as a string).
    #[inline]
    fn write_raw_string(&mut self, v: &[u8]) -> Result<()> {
        self.write_binary(v)
    }

    // Whole fields in one call: header, value and field end, so that a writer can build the
    // header and the value (or the length of a string, or a container's header) together and
    // store them at once. `prev_id` is the previous field written in this struct when known
    // at generation time (`Some(0)`: none), as for `write_field_begin_after`; `None` when it
    // depends on which optional fields are set. Generated code calls these; the defaults are
    // the separate calls.

    /// Writes an `i32` field (also an enum's value): header, value and field end.
    #[inline]
    fn write_i32_field(&mut self, id: i16, prev_id: Option<i16>, v: i32) -> Result<()> {
        field_begin(self, TType::I32, id, prev_id)?;
        self.write_i32(v)?;
        self.write_field_end()
    }
    /// Writes an `i64` field: header, value and field end.
    #[inline]
    fn write_i64_field(&mut self, id: i16, prev_id: Option<i16>, v: i64) -> Result<()> {
        field_begin(self, TType::I64, id, prev_id)?;
        self.write_i64(v)?;
        self.write_field_end()
    }
    /// Writes a `double` field: header, value and field end.
    #[inline]
    fn write_double_field(&mut self, id: i16, prev_id: Option<i16>, v: f64) -> Result<()> {
        field_begin(self, TType::Double, id, prev_id)?;
        self.write_double(v)?;
        self.write_field_end()
    }
    /// Writes a `string` field: header, value and field end.
    #[inline]
    fn write_string_field(&mut self, id: i16, prev_id: Option<i16>, v: &str) -> Result<()> {
        field_begin(self, TType::String, id, prev_id)?;
        self.write_string(v)?;
        self.write_field_end()
    }
    /// Writes a `binary` field: header, value and field end.
    #[inline]
    fn write_binary_field(&mut self, id: i16, prev_id: Option<i16>, v: &[u8]) -> Result<()> {
        field_begin(self, TType::String, id, prev_id)?;
        self.write_binary(v)?;
        self.write_field_end()
    }
    /// Starts a `list` field: its header and the list header. The elements, `write_list_end`
    /// and `write_field_end` follow.
    #[inline]
    fn write_list_field_begin(
        &mut self,
        id: i16,
        prev_id: Option<i16>,
        elem: TType,
        len: usize,
    ) -> Result<()> {
        field_begin(self, TType::List, id, prev_id)?;
        self.write_list_begin(elem, len)
    }
    /// Starts a `set` field: its header and the set header. The elements, `write_set_end` and
    /// `write_field_end` follow.
    #[inline]
    fn write_set_field_begin(
        &mut self,
        id: i16,
        prev_id: Option<i16>,
        elem: TType,
        len: usize,
    ) -> Result<()> {
        field_begin(self, TType::Set, id, prev_id)?;
        self.write_set_begin(elem, len)
    }
    /// Starts a `map` field: its header and the map header. The entries, `write_map_end` and
    /// `write_field_end` follow.
    #[inline]
    fn write_map_field_begin(
        &mut self,
        id: i16,
        prev_id: Option<i16>,
        key: TType,
        value: TType,
        len: usize,
    ) -> Result<()> {
        field_begin(self, TType::Map, id, prev_id)?;
        self.write_map_begin(key, value, len)
    }
}

/// A field header after `prev_id` when that is known, as the whole-field methods of
/// [`ProtocolWriter`] take it.
#[inline]
fn field_begin<W: ProtocolWriter + ?Sized>(
    w: &mut W,
    ttype: TType,
    id: i16,
    prev_id: Option<i16>,
) -> Result<()> {
    match prev_id {
        Some(prev) => w.write_field_begin_after(ttype, id, prev),
        None => w.write_field_begin(ttype, id),
    }
}

/// Encoded sizes, so generated `encoded_len` can reserve a buffer once: exact, byte for byte
/// with the writer's output, for the markers [`Binary`](crate::Binary) and
/// [`Compact`](crate::Compact); a lower bound for [`Json`](crate::Json) (exact unless a string
/// needs escapes or a double is not finite), which [`ProtocolSize::EXACT`] says.
///
/// Sizes of `*_end` calls other than the stop field are 0 in the binary and compact
/// protocols and have no function (a protocol that writes something there, as JSON does,
/// counts it in the matching `*_begin`).
pub trait ProtocolSize {
    /// Whether the sizes are exact (`true` unless the protocol says otherwise): when they are
    /// not, they are a lower bound.
    const EXACT: bool = true;

    /// Size of a message header.
    fn message_begin_len(name: &str, kind: MessageType, seq: i32) -> usize;
    /// Size of `write_struct_begin` (0).
    #[inline]
    fn struct_begin_len() -> usize {
        0
    }
    /// Size of `write_struct_end` (0).
    #[inline]
    fn struct_end_len() -> usize {
        0
    }
    /// Size of a field header for field `id` when the previous field
    /// written in the same struct was `prev_id` (0 for the first field).
    /// For the compact protocol and `TType::Bool` this includes the value.
    fn field_begin_len(ttype: TType, id: i16, prev_id: i16) -> usize;
    /// Size of the value of a `bool` *field*, written right after
    /// `write_field_begin(TType::Bool, _)`: 1 (binary) or 0 (compact).
    fn bool_field_value_len() -> usize;
    /// Size of the stop field (1).
    #[inline]
    fn field_stop_len() -> usize {
        1
    }
    /// Size of a `bool` written outside a field header (container element).
    fn bool_len(v: bool) -> usize;
    /// Size of an `i8` (1).
    #[inline]
    fn i8_len(_v: i8) -> usize {
        1
    }
    /// Size of an `i16`.
    fn i16_len(v: i16) -> usize;
    /// Size of an `i32`.
    fn i32_len(v: i32) -> usize;
    /// Size of an `i64`.
    fn i64_len(v: i64) -> usize;
    /// Size of a `double` (8).
    #[inline]
    fn double_len(_v: f64) -> usize {
        8
    }
    /// Size of a `uuid` (16).
    #[inline]
    fn uuid_len(_v: &[u8; 16]) -> usize {
        16
    }
    /// Size of a `string`/`binary` of `len` bytes, prefix included.
    fn binary_len(len: usize) -> usize;
    /// Size of what [`ProtocolWriter::write_raw_string`] writes for `len` bytes (the default,
    /// [`ProtocolSize::binary_len`]).
    #[inline]
    fn raw_string_len(len: usize) -> usize {
        Self::binary_len(len)
    }
    /// Size of a `string` (same as [`ProtocolSize::binary_len`]).
    #[inline]
    fn string_len(len: usize) -> usize {
        Self::binary_len(len)
    }
    /// Size of a list header.
    fn list_begin_len(elem: TType, len: usize) -> usize;
    /// Size of a set header.
    #[inline]
    fn set_begin_len(elem: TType, len: usize) -> usize {
        Self::list_begin_len(elem, len)
    }
    /// Size of a map header.
    fn map_begin_len(key: TType, value: TType, len: usize) -> usize;
}

/// A wire protocol, named by a zero-sized marker type
/// ([`Binary`](crate::Binary), [`Compact`](crate::Compact), [`Json`](crate::Json)) so that callers
/// can write `value.encode_to_vec::<Compact>()`.
pub trait Protocol: ProtocolSize {
    /// The bytes every message of this protocol starts with: how a server that accepts every
    /// protocol on one port tells which one a client speaks (strict binary `0x80 0x01`,
    /// compact `0x82`, JSON `[1,`).
    const MESSAGE_START: &'static [u8];
    /// The protocol's id in a THeader frame (`HeaderFormat.md`: binary 0, JSON 1, compact 2).
    const HEADER_PROTOCOL_ID: u64;
    /// The reader over input `I`.
    type Reader<'de, I: Input<'de>>: ProtocolReader<'de>;
    /// The writer over output `O`.
    type Writer<O: Output>: ProtocolWriter;
    /// Creates a reader.
    fn reader<'de, I: Input<'de>>(input: I, limits: ReadLimits) -> Self::Reader<'de, I>;
    /// Creates a writer.
    fn writer<O: Output>(output: O) -> Self::Writer<O>;
}

/// Converts a length to the wire's `i32`, or `SizeLimit`.
#[inline]
pub(crate) fn len_to_i32(len: usize) -> Result<i32> {
    match i32::try_from(len) {
        Ok(n) => Ok(n),
        Err(_) => Err(Error::size_limit("length larger than i32::MAX")),
    }
}

/// Checks the element (or key, or value) type of a container header against what generated
/// code expects: a non-empty container of another type cannot be read as this one, and is an
/// `InvalidData` error instead of being misread.
#[inline]
pub fn check_element_type(actual: TType, expected: TType, len: usize) -> Result<()> {
    if len == 0 || actual == expected {
        Ok(())
    } else {
        Err(crate::error::Error::invalid_data(
            "container element type does not match the schema",
        ))
    }
}
