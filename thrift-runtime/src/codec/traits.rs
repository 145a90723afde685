//! The traits generated types implement ([`ThriftWrite`], [`ThriftRead`], [`ThriftReadOwned`]),
//! with the encode/decode entry points they provide, and [`read_into_option`], the in-place
//! read of an optional field.

use std::io::{BufRead, BufReader, Read, Write};

use bytes::Bytes;

use crate::error::Result;
use crate::input::{BytesInput, IoInput, SliceInput};
use crate::limits::ReadLimits;
use crate::output::IoOutput;
use crate::protocol::{Protocol, ProtocolReader, ProtocolSize, ProtocolWriter};

/// A value that can be encoded with any protocol.
///
/// Generated code implements `write` and `encoded_len`; the provided
/// methods are the entry points for users.
pub trait ThriftWrite {
    /// Writes the value (for structs: `write_struct_begin`, fields,
    /// `write_field_stop`, `write_struct_end`).
    fn write<W: ProtocolWriter>(&self, w: &mut W) -> Result<()>;

    /// Number of bytes `write` produces with protocol `P`: exact for binary and compact, a
    /// lower bound for JSON ([`ProtocolSize::EXACT`]).
    fn encoded_len<P: ProtocolSize>(&self) -> usize;

    /// Appends the encoding to `out`: into a reused buffer as fast as [`ThriftWrite::write`]
    /// (no size computation while it has room to spare); into a new or full one after
    /// reserving the exact size (one allocation).
    fn encode<P: Protocol>(&self, out: &mut Vec<u8>) -> Result<()> {
        // A buffer with room to spare (one being reused) is written straight away, growing as
        // a `Vec` grows if the value does not fit; only a full one (a new `Vec`) first
        // reserves the exact size, one traversal for one allocation.
        if out.capacity() == out.len() {
            out.reserve(self.encoded_len::<P>());
        }
        self.write(&mut P::writer(out))
    }

    /// Encodes into a new vector allocated once with the exact size (for JSON, with the
    /// lower bound, grown if the text is longer).
    fn encode_to_vec<P: Protocol>(&self) -> Result<Vec<u8>> {
        let len = self.encoded_len::<P>();
        let mut out = Vec::with_capacity(len);
        self.write(&mut P::writer(&mut out))?;
        debug_assert!(
            if P::EXACT {
                out.len() == len
            } else {
                out.len() >= len
            },
            "encoded_len disagrees with write: {len} for {} bytes",
            out.len()
        );
        Ok(out)
    }

    /// Encodes to an `io::Write` (wrap unbuffered sinks in a `BufWriter`).
    fn encode_to_writer<P: Protocol, W: Write>(&self, writer: W) -> Result<()> {
        self.write(&mut P::writer(IoOutput::new(writer)))
    }
}

/// A value that can be decoded with any protocol, possibly borrowing from
/// input that lives for `'de`.
///
/// Owned types implement it for every `'de`
/// (`impl<'de> ThriftRead<'de> for Foo`), which makes them
/// [`ThriftReadOwned`]; types holding `&'de str` / `&'de [u8]` implement it
/// only for their own lifetime and can only be decoded from slices.
pub trait ThriftRead<'de>: Sized {
    /// Reads the value.
    fn read<R: ProtocolReader<'de>>(r: &mut R) -> Result<Self>;

    /// Reads the value into `out`, replacing all of it: afterwards `*out` equals what
    /// [`ThriftRead::read`] returns, fields absent from the input included. On error `out`
    /// holds a partly read value. The provided method is `*out = Self::read(r)?`.
    ///
    /// Generated structs whose `Default` allocates nothing override it to read each field
    /// where it lives, and read their nested structs and struct list elements the same way
    /// ([`read_into_option`], [`read_element`](super::read_element)), so a nested struct is
    /// decoded in its final place instead of being moved up through the `Result` of every
    /// enclosing read (those moves were a large share of a Parquet footer's decode:
    /// BENCHMARKS.md).
    #[inline]
    fn read_into<R: ProtocolReader<'de>>(r: &mut R, out: &mut Self) -> Result<()> {
        *out = Self::read(r)?;
        Ok(())
    }

    /// Decodes from a byte slice (the fast path) with default limits.
    /// Trailing bytes after the value are ignored.
    #[inline]
    fn decode<P: Protocol>(bytes: &'de [u8]) -> Result<Self> {
        Self::decode_with_limits::<P>(bytes, ReadLimits::default())
    }

    /// Decodes from a byte slice with the given limits.
    fn decode_with_limits<P: Protocol>(bytes: &'de [u8], limits: ReadLimits) -> Result<Self> {
        let mut r = P::reader(SliceInput::new(bytes), limits);
        Self::read(&mut r)
    }

    /// Decodes from a byte slice into `out`, reusing what it holds, with default limits:
    /// afterwards `*out` equals what [`ThriftRead::decode`] gives. For a stream of similar
    /// messages this is the call that stops allocating: generated structs read each field
    /// where it lives, strings and binaries into their old buffers, lists over their old
    /// elements (nested structs, strings and lists keep their allocations too), so decoding a
    /// message shaped like the previous one allocates nothing (optional boxed structs keep
    /// their box). Sets and maps are built again, their entries read over the old ones (string
    /// keys and elements into their buffers, values as above), so that only the collection's
    /// own B-tree nodes or hash table are allocated again. What is not reused: unions, and
    /// structs whose owned form has IDL defaults or a required boxed field (those are read
    /// whole, as [`ThriftRead::read_into`]'s default does). On error `out` holds a partly
    /// read value.
    ///
    /// ```
    /// # use thrift_runtime::{Compact, ThriftRead, ThriftWrite};
    /// # fn main() -> thrift_runtime::Result<()> {
    /// // A generated struct is used the same way: `Foo::decode_into::<Compact>(&bytes, &mut foo)`.
    /// let mut name = String::new();
    /// for sent in ["first", "second"] {
    ///     let bytes = sent.encode_to_vec::<Compact>()?;
    ///     String::decode_into::<Compact>(&bytes, &mut name)?;
    ///     assert_eq!(name, sent);
    /// }
    /// # Ok(())
    /// # }
    /// ```
    #[inline]
    fn decode_into<P: Protocol>(bytes: &'de [u8], out: &mut Self) -> Result<()> {
        Self::decode_into_with_limits::<P>(bytes, out, ReadLimits::default())
    }

    /// [`ThriftRead::decode_into`] with the given limits.
    fn decode_into_with_limits<P: Protocol>(
        bytes: &'de [u8],
        out: &mut Self,
        limits: ReadLimits,
    ) -> Result<()> {
        let mut r = P::reader(SliceInput::new(bytes), limits);
        Self::read_into(&mut r, out)
    }

    /// Decodes from a byte slice with default limits, allocating the lists, sets, maps and
    /// optional structs of the value in `arena`: how the borrowing forms of code generated
    /// with `Builder::arena` are decoded (feature `arena`; see [`crate::arena`]). Any other
    /// type decodes as with [`ThriftRead::decode`], the arena unused.
    #[cfg(feature = "arena")]
    #[inline]
    fn decode_in<P: Protocol>(bytes: &'de [u8], arena: &'de crate::arena::Arena) -> Result<Self> {
        Self::decode_in_with_limits::<P>(bytes, arena, ReadLimits::default())
    }

    /// [`ThriftRead::decode_in`] with the given limits.
    #[cfg(feature = "arena")]
    fn decode_in_with_limits<P: Protocol>(
        bytes: &'de [u8],
        arena: &'de crate::arena::Arena,
        limits: ReadLimits,
    ) -> Result<Self> {
        let mut r = P::reader(crate::input::ArenaInput::new(bytes, arena), limits);
        Self::read(&mut r)
    }

    /// Decodes from a shared [`Bytes`] buffer with default limits: like
    /// [`ThriftRead::decode`], and the `ByteString`/`Bytes` fields of types generated with
    /// `Strings::Bytes` become slices of `bytes` (no copy, no allocation per field).
    #[inline]
    fn decode_bytes<P: Protocol>(bytes: &'de Bytes) -> Result<Self> {
        let mut r = P::reader(BytesInput::new(bytes), ReadLimits::default());
        Self::read(&mut r)
    }
}

/// Types that own all their data and can be decoded from any reader
/// (`T: for<'de> ThriftRead<'de>`), like serde's `DeserializeOwned`.
///
/// This is the compile-time guard that keeps borrowing types away from io
/// input: a type that borrows from the input implements `ThriftRead<'de>`
/// only for its own lifetime, so it is not `ThriftReadOwned`:
///
/// ```compile_fail
/// use thrift_runtime::{Compact, ProtocolReader, Result, ThriftRead, ThriftReadOwned};
///
/// struct View<'a>(&'a str);
///
/// impl<'de> ThriftRead<'de> for View<'de> {
///     fn read<R: ProtocolReader<'de>>(r: &mut R) -> Result<Self> {
///         Ok(View(r.read_str()?))
///     }
/// }
///
/// // error: `View<'_>` is not `ThriftReadOwned`
/// let _ = View::decode_from_reader::<Compact, _>(&b"\x01a"[..]);
/// ```
pub trait ThriftReadOwned: for<'de> ThriftRead<'de> {
    /// Decodes from an `io::Read` with default limits. The reader is
    /// wrapped in a `BufReader`, which may read ahead past the value; to
    /// decode several values from one stream use
    /// [`ThriftReadOwned::decode_from_buf_read`] with `&mut BufReader`.
    fn decode_from_reader<P: Protocol, R: Read>(reader: R) -> Result<Self> {
        Self::decode_from_buf_read::<P, _>(BufReader::new(reader), ReadLimits::default())
    }

    /// Decodes from a `BufRead`, consuming exactly the value's bytes.
    fn decode_from_buf_read<P: Protocol, R: BufRead>(
        reader: R,
        limits: ReadLimits,
    ) -> Result<Self> {
        let mut r = P::reader(IoInput::new(reader), limits);
        <Self as ThriftRead<'_>>::read(&mut r)
    }
}

impl<T: for<'de> ThriftRead<'de>> ThriftReadOwned for T {}

/// Reads a `T` into an optional field in place ([`ThriftRead::read_into`]): into the value
/// already there, or into a `T::default()` put there first. Called by generated code.
#[inline]
pub fn read_into_option<'de, T, R>(r: &mut R, slot: &mut Option<T>) -> Result<()>
where
    T: ThriftRead<'de> + Default,
    R: ProtocolReader<'de>,
{
    T::read_into(r, slot.get_or_insert_with(T::default))
}
