//! The traits generated types implement ([`ThriftWrite`], [`ThriftRead`])
//! and the encode/decode entry points built on them.

use std::io::{BufRead, BufReader, Read, Write};

use crate::application::{ApplicationException, ApplicationExceptionKind};
use crate::error::Result;
use bytes::Bytes;
pub use smallvec::SmallVec;

use crate::input::{BytesInput, IoInput, SliceInput};
use crate::limits::ReadLimits;
use crate::output::IoOutput;
use crate::protocol::{Protocol, ProtocolReader, ProtocolSize, ProtocolWriter};
use crate::wire::TType;

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
    /// ([`read_into_option`], [`read_element`]), so a nested struct is decoded in its final
    /// place instead of being moved up through the `Result` of every enclosing read (those
    /// moves were a large share of a Parquet footer's decode: BENCHMARKS.md).
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

/// The most memory one container header may reserve before its elements
/// are read: 1 MiB. Larger containers start there and grow as their
/// elements arrive.
pub const MAX_PREALLOCATION: usize = 1024 * 1024;

/// A safe `Vec::with_capacity` argument for a container of `len` elements
/// of `T` announced by a header: the whole container when it takes at most
/// [`MAX_PREALLOCATION`] bytes, else that much, so a hostile count cannot
/// force a huge allocation (the vector still grows to the real size as
/// elements are read). Readers have already checked `len` against the
/// remaining input (every element takes at least one byte on the wire).
///
/// The bound was 64 KiB until the Parquet footer benchmark showed the
/// cost: a row group's `Vec<ColumnChunk>` (120 columns of 624-680 bytes each) was
/// reserved at 96 elements and then reallocated and copied.
pub const fn capacity_hint<T>(len: usize) -> usize {
    let size = if std::mem::size_of::<T>() == 0 {
        1
    } else {
        std::mem::size_of::<T>()
    };
    let max = MAX_PREALLOCATION / size;
    if len < max { len } else { max }
}

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

/// The vectors generated code decodes containers into: `Vec<T>`, and the [`SmallVec`]s that
/// the borrowing forms hold short containers of small elements in (inline room for a few
/// elements, so that decoding one allocates nothing).
pub trait ListItems<T>: Sized {
    /// Adds `item` at the end.
    fn push(&mut self, item: T);
    /// Adds `T::default()` at the end and returns it.
    fn push_default(&mut self) -> &mut T
    where
        T: Default;
    /// Removes every element and makes room for `additional` (a [`capacity_hint`]).
    fn refill(&mut self, additional: usize);
    /// Adds `n` copies of `T::default()` at the end and returns them, for a list of numbers
    /// read many at a time ([`read_scalar_list`]).
    fn extend_default(&mut self, n: usize) -> &mut [T]
    where
        T: Copy + Default;
}

/// [`ListItems`] that can start empty on their own (a `Vec`, a [`SmallVec`]; not a vector in
/// an arena, which needs its arena): what [`read_list`] and [`read_scalar_list`] build.
pub trait NewItems<T>: ListItems<T> {
    /// An empty vector with room for `capacity` elements (a [`capacity_hint`]).
    fn with_capacity(capacity: usize) -> Self;
}

impl<T> NewItems<T> for Vec<T> {
    #[inline]
    fn with_capacity(capacity: usize) -> Self {
        Vec::with_capacity(capacity)
    }
}

impl<A: smallvec::Array> NewItems<A::Item> for SmallVec<A> {
    #[inline]
    fn with_capacity(capacity: usize) -> Self {
        SmallVec::with_capacity(capacity)
    }
}

impl<T> ListItems<T> for Vec<T> {
    #[inline]
    fn push(&mut self, item: T) {
        Vec::push(self, item)
    }

    #[inline]
    fn push_default(&mut self) -> &mut T
    where
        T: Default,
    {
        // `resize_with` makes room first and then builds the value in its slot; `push`
        // builds it first (its argument) and copies it in after the capacity check, a
        // `memcpy` of the whole struct per element (a `ColumnChunkRef` per column of a
        // Parquet footer's borrowed decode).
        let index = self.len();
        self.resize_with(index + 1, T::default);
        &mut self[index]
    }

    #[inline]
    fn refill(&mut self, additional: usize) {
        self.clear();
        make_room(self, additional);
    }

    #[inline]
    fn extend_default(&mut self, n: usize) -> &mut [T]
    where
        T: Copy + Default,
    {
        let start = self.len();
        self.resize(start + n, T::default());
        &mut self[start..]
    }
}

impl<A: smallvec::Array> ListItems<A::Item> for SmallVec<A> {
    #[inline]
    fn push(&mut self, item: A::Item) {
        SmallVec::push(self, item)
    }

    #[inline]
    fn push_default(&mut self) -> &mut A::Item
    where
        A::Item: Default,
    {
        let index = self.len();
        SmallVec::push(self, A::Item::default());
        &mut self[index]
    }

    #[inline]
    fn refill(&mut self, additional: usize) {
        self.clear();
        self.reserve(additional);
    }

    #[inline]
    fn extend_default(&mut self, n: usize) -> &mut [A::Item]
    where
        A::Item: Copy + Default,
    {
        let start = self.len();
        self.resize(start + n, A::Item::default());
        &mut self[start..]
    }
}

/// Reads one more element of a list in place ([`ThriftRead::read_into`]): pushes
/// `T::default()` and reads into it. Called by generated code for lists of structs.
#[inline]
pub fn read_element<'de, T, R>(r: &mut R, items: &mut impl ListItems<T>) -> Result<()>
where
    T: ThriftRead<'de> + Default,
    R: ProtocolReader<'de>,
{
    T::read_into(r, push_default(items))
}

/// Reads a whole list into a `Vec`: its header, checked against the element type `elem`,
/// then each element with `add` (which pushes it onto the vector, or reads it in place
/// there), then the end. Generated code calls it for every list, so that the loop is written
/// once; it is inlined, so the closure costs nothing.
#[inline(always)]
pub fn read_list<'de, T, R>(
    r: &mut R,
    elem: crate::wire::TType,
    add: impl FnMut(&mut R, &mut Vec<T>) -> Result<()>,
) -> Result<Vec<T>>
where
    R: ProtocolReader<'de>,
{
    read_items(r, elem, add)
}

/// [`read_list`] into a [`SmallVec`], for the borrowing forms' lists of small elements:
/// a list that fits the inline room (`A`'s length) is read without allocating.
#[inline(always)]
pub fn read_small_list<'de, A, R>(
    r: &mut R,
    elem: crate::wire::TType,
    add: impl FnMut(&mut R, &mut SmallVec<A>) -> Result<()>,
) -> Result<SmallVec<A>>
where
    A: smallvec::Array,
    R: ProtocolReader<'de>,
{
    read_items(r, elem, add)
}

/// [`read_small_list`] into the vector `items` where it lives (a field of the value being read
/// in place), replacing its elements: no new vector is built and moved there.
#[inline(always)]
pub fn read_small_list_into<'de, A, R>(
    r: &mut R,
    elem: crate::wire::TType,
    items: &mut SmallVec<A>,
    mut add: impl FnMut(&mut R, &mut SmallVec<A>) -> Result<()>,
) -> Result<()>
where
    A: smallvec::Array,
    R: ProtocolReader<'de>,
{
    let header = r.read_list_begin()?;
    crate::protocol::check_element_type(header.elem, elem, header.len)?;
    items.refill(capacity_hint::<A::Item>(header.len));
    for _ in 0..header.len {
        add(r, items)?;
    }
    r.read_list_end()
}

/// Reads a whole list into the vector `items` where it lives, reusing it: the header,
/// checked against the element type `elem`; then as many elements as `items` holds (up to the
/// list's length) read over the old ones with `over` (which keeps their strings', vectors' and
/// nested structs' allocations), the others added with `add` (as in [`read_list`]); then the
/// end. Old elements past the list's length are dropped first. Generated code calls it for the
/// list fields of structs read in place, and for lists nested in such lists.
#[inline(always)]
pub fn read_list_into<'de, T, R>(
    r: &mut R,
    elem: crate::wire::TType,
    items: &mut Vec<T>,
    mut over: impl FnMut(&mut R, &mut T) -> Result<()>,
    mut add: impl FnMut(&mut R, &mut Vec<T>) -> Result<()>,
) -> Result<()>
where
    R: ProtocolReader<'de>,
{
    let header = r.read_list_begin()?;
    crate::protocol::check_element_type(header.elem, elem, header.len)?;
    items.truncate(header.len);
    let reused = items.len();
    for item in items.iter_mut() {
        over(r, item)?;
    }
    let more = header.len - reused;
    if more > 0 {
        // As `read_list` does: the header's count was checked against the input left, and
        // the reservation is bounded by `capacity_hint`.
        make_room(items, capacity_hint::<T>(more));
        for _ in 0..more {
            add(r, items)?;
        }
    }
    r.read_list_end()
}

/// [`read_list_into`] for elements that read themselves in place ([`ThriftRead::read_into`]:
/// generated structs read in place, `String`): each old element is read over, each new one
/// pushed as `T::default()` and read into. One function per element type, called from every
/// list field of that type, instead of two closures at each.
#[inline]
pub fn read_list_reusing<'de, T, R>(
    r: &mut R,
    elem: crate::wire::TType,
    items: &mut Vec<T>,
) -> Result<()>
where
    T: ThriftRead<'de> + Default,
    R: ProtocolReader<'de>,
{
    read_list_into(
        r,
        elem,
        items,
        |r, item| T::read_into(r, item),
        |r, items| T::read_into(r, push_default(items)),
    )
}

/// `items.reserve(additional)`, as one allocation when `items` has none (a fresh decode):
/// `Vec::reserve` takes its out-of-line growth path even then, measurably slower than
/// `Vec::with_capacity` on footers of thousands of lists (BENCHMARKS.md, "Heap states,
/// `decode_into`, and Apache 0.25 as the anchor").
#[inline(always)]
fn make_room<T>(items: &mut Vec<T>, additional: usize) {
    if items.capacity() == 0 {
        // Nothing to drop: no capacity, so no elements (a zero-sized `T` never has 0).
        std::mem::forget(std::mem::replace(items, Vec::with_capacity(additional)));
    } else {
        items.reserve(additional);
    }
}

/// [`read_list`] into the vector `items` where it lives, for elements with no allocations
/// worth keeping (numbers, enums, sets, maps, unions): `items` is cleared and refilled with
/// `add`, keeping its capacity.
#[inline(always)]
pub fn read_list_refill<'de, T, R>(
    r: &mut R,
    elem: crate::wire::TType,
    items: &mut Vec<T>,
    mut add: impl FnMut(&mut R, &mut Vec<T>) -> Result<()>,
) -> Result<()>
where
    R: ProtocolReader<'de>,
{
    let header = r.read_list_begin()?;
    crate::protocol::check_element_type(header.elem, elem, header.len)?;
    items.refill(capacity_hint::<T>(header.len));
    for _ in 0..header.len {
        add(r, items)?;
    }
    r.read_list_end()
}

#[inline(always)]
fn read_items<'de, T, C, R>(
    r: &mut R,
    elem: crate::wire::TType,
    mut add: impl FnMut(&mut R, &mut C) -> Result<()>,
) -> Result<C>
where
    C: NewItems<T>,
    R: ProtocolReader<'de>,
{
    let header = r.read_list_begin()?;
    crate::protocol::check_element_type(header.elem, elem, header.len)?;
    let mut items = C::with_capacity(capacity_hint::<T>(header.len));
    for _ in 0..header.len {
        add(r, &mut items)?;
    }
    r.read_list_end()?;
    Ok(items)
}

/// Numbers that lists and sets hold and that readers read many at a time
/// ([`ProtocolReader::read_i64_elements`] and the like): `i8`, `i16`, `i32`, `i64`, `f64`.
pub trait Scalar: Copy + Default {
    /// The element type on the wire.
    const TTYPE: TType;
    /// Reads one element.
    fn read_one<'de, R: ProtocolReader<'de>>(r: &mut R) -> Result<Self>;
    /// Reads `out.len()` elements into `out`; the provided method reads them one at a time.
    #[inline(always)]
    fn read_elements<'de, R: ProtocolReader<'de>>(r: &mut R, out: &mut [Self]) -> Result<()> {
        for item in out {
            *item = Self::read_one(r)?;
        }
        Ok(())
    }
}

macro_rules! scalar_elements {
    ($ty:ty, $ttype:ident, $read:ident $(, $read_all:ident)?) => {
        impl Scalar for $ty {
            const TTYPE: TType = TType::$ttype;

            #[inline(always)]
            fn read_one<'de, R: ProtocolReader<'de>>(r: &mut R) -> Result<Self> {
                r.$read()
            }

            $(
                #[inline(always)]
                fn read_elements<'de, R: ProtocolReader<'de>>(
                    r: &mut R,
                    out: &mut [Self],
                ) -> Result<()> {
                    r.$read_all(out)
                }
            )?
        }
    };
}

scalar_elements!(i8, I8, read_i8);
scalar_elements!(i16, I16, read_i16);
scalar_elements!(i32, I32, read_i32, read_i32_elements);
scalar_elements!(i64, I64, read_i64, read_i64_elements);
scalar_elements!(f64, Double, read_double, read_double_elements);

/// Lists shorter than this are read one element at a time: for one to three numbers (a Parquet
/// column's level histograms) the batch's set-up costs more than it saves (`parquet-wide`,
/// 2,256 such lists per footer: +5% instructions read in batches).
const SCALAR_BATCH_MIN: usize = 4;

/// Reads `len` elements of `T` onto the end of `items`, many at a time: the vector grows by at
/// most a [`capacity_hint`] before each batch is read, so that a hostile count (already
/// checked against the input left, one byte per element) cannot force a large allocation.
#[inline(always)]
pub(crate) fn read_scalars<'de, T, C, R>(r: &mut R, len: usize, items: &mut C) -> Result<()>
where
    T: Scalar,
    C: ListItems<T>,
    R: ProtocolReader<'de>,
{
    if len < SCALAR_BATCH_MIN {
        for _ in 0..len {
            items.push(T::read_one(r)?);
        }
        return Ok(());
    }
    let mut left = len;
    while left > 0 {
        let n = capacity_hint::<T>(left);
        T::read_elements(r, items.extend_default(n))?;
        left -= n;
    }
    Ok(())
}

/// [`read_list`] for a list of numbers ([`Scalar`]), into a `Vec` or a [`SmallVec`] (`C`):
/// the elements are read many at a time ([`ProtocolReader::read_i64_elements`] and the like)
/// instead of pushed one by one. Generated code calls it for lists of `byte`, `i16`, `i32`,
/// `i64` and `double`.
#[inline(always)]
pub fn read_scalar_list<'de, C, T, R>(r: &mut R) -> Result<C>
where
    C: NewItems<T>,
    T: Scalar,
    R: ProtocolReader<'de>,
{
    let header = r.read_list_begin()?;
    let items = read_new_scalars(r, header)?;
    r.read_list_end()?;
    Ok(items)
}

/// [`read_scalar_list`] for a set (the borrowing forms hold sets as vectors).
#[inline(always)]
pub fn read_scalar_set<'de, C, T, R>(r: &mut R) -> Result<C>
where
    C: NewItems<T>,
    T: Scalar,
    R: ProtocolReader<'de>,
{
    let header = r.read_set_begin()?;
    let items = read_new_scalars(r, header)?;
    r.read_set_end()?;
    Ok(items)
}

/// The elements of a list or set of numbers whose `header` was just read, into a new vector:
/// the body [`read_scalar_list`] and [`read_scalar_set`] share.
#[inline(always)]
fn read_new_scalars<'de, C, T, R>(r: &mut R, header: crate::wire::ListHeader) -> Result<C>
where
    C: NewItems<T>,
    T: Scalar,
    R: ProtocolReader<'de>,
{
    crate::protocol::check_element_type(header.elem, T::TTYPE, header.len)?;
    let mut items = C::with_capacity(capacity_hint::<T>(header.len));
    read_scalars(r, header.len, &mut items)?;
    Ok(items)
}

/// [`read_scalar_list`] into the vector `items` where it lives, replacing its elements and
/// keeping its capacity (a field of a value read in place, [`ThriftRead::read_into`]).
#[inline(always)]
pub fn read_scalar_list_into<'de, C, T, R>(r: &mut R, items: &mut C) -> Result<()>
where
    C: ListItems<T>,
    T: Scalar,
    R: ProtocolReader<'de>,
{
    let header = r.read_list_begin()?;
    crate::protocol::check_element_type(header.elem, T::TTYPE, header.len)?;
    items.refill(capacity_hint::<T>(header.len));
    read_scalars(r, header.len, items)?;
    r.read_list_end()
}

/// Pushes `T::default()` onto `items` and returns it, for generated code to read the element
/// in place (string and binary list elements through [`ProtocolReader::read_string_into`]
/// and the other `read_*_into` methods).
#[inline]
pub fn push_default<T: Default>(items: &mut impl ListItems<T>) -> &mut T {
    items.push_default()
}

macro_rules! scalar {
    ($ty:ty, $read:ident, $write:ident, $len:ident) => {
        impl ThriftWrite for $ty {
            #[inline]
            fn write<W: ProtocolWriter>(&self, w: &mut W) -> Result<()> {
                w.$write(*self)
            }

            #[inline]
            fn encoded_len<P: ProtocolSize>(&self) -> usize {
                P::$len(*self)
            }
        }

        impl<'de> ThriftRead<'de> for $ty {
            #[inline]
            fn read<R: ProtocolReader<'de>>(r: &mut R) -> Result<Self> {
                r.$read()
            }
        }
    };
}

scalar!(bool, read_bool, write_bool, bool_len);
scalar!(i8, read_i8, write_i8, i8_len);
scalar!(i16, read_i16, write_i16, i16_len);
scalar!(i32, read_i32, write_i32, i32_len);
scalar!(i64, read_i64, write_i64, i64_len);
scalar!(f64, read_double, write_double, double_len);

/// `uuid`.
impl ThriftWrite for [u8; 16] {
    #[inline]
    fn write<W: ProtocolWriter>(&self, w: &mut W) -> Result<()> {
        w.write_uuid(self)
    }

    #[inline]
    fn encoded_len<P: ProtocolSize>(&self) -> usize {
        P::uuid_len(self)
    }
}

/// `uuid`.
impl<'de> ThriftRead<'de> for [u8; 16] {
    #[inline]
    fn read<R: ProtocolReader<'de>>(r: &mut R) -> Result<Self> {
        r.read_uuid()
    }
}

impl ThriftWrite for str {
    #[inline]
    fn write<W: ProtocolWriter>(&self, w: &mut W) -> Result<()> {
        w.write_string(self)
    }

    #[inline]
    fn encoded_len<P: ProtocolSize>(&self) -> usize {
        P::string_len(self.len())
    }
}

impl ThriftWrite for String {
    #[inline]
    fn write<W: ProtocolWriter>(&self, w: &mut W) -> Result<()> {
        w.write_string(self)
    }

    #[inline]
    fn encoded_len<P: ProtocolSize>(&self) -> usize {
        P::string_len(self.len())
    }
}

impl<'de> ThriftRead<'de> for String {
    #[inline]
    fn read<R: ProtocolReader<'de>>(r: &mut R) -> Result<Self> {
        r.read_string()
    }

    /// Into the old buffer.
    #[inline]
    fn read_into<R: ProtocolReader<'de>>(r: &mut R, out: &mut Self) -> Result<()> {
        r.read_string_into(out)
    }
}

/// Zero-copy `string` (slice input only).
impl<'de> ThriftRead<'de> for &'de str {
    #[inline]
    fn read<R: ProtocolReader<'de>>(r: &mut R) -> Result<Self> {
        r.read_str()
    }
}

impl<T: ThriftWrite + ?Sized> ThriftWrite for &T {
    #[inline]
    fn write<W: ProtocolWriter>(&self, w: &mut W) -> Result<()> {
        (**self).write(w)
    }

    #[inline]
    fn encoded_len<P: ProtocolSize>(&self) -> usize {
        (**self).encoded_len::<P>()
    }
}

/// For recursive types.
impl<T: ThriftWrite + ?Sized> ThriftWrite for Box<T> {
    #[inline]
    fn write<W: ProtocolWriter>(&self, w: &mut W) -> Result<()> {
        (**self).write(w)
    }

    #[inline]
    fn encoded_len<P: ProtocolSize>(&self) -> usize {
        (**self).encoded_len::<P>()
    }
}

/// For recursive types.
impl<'de, T: ThriftRead<'de>> ThriftRead<'de> for Box<T> {
    #[inline]
    fn read<R: ProtocolReader<'de>>(r: &mut R) -> Result<Self> {
        T::read(r).map(Box::new)
    }

    /// Into the boxed value (no new box).
    #[inline]
    fn read_into<R: ProtocolReader<'de>>(r: &mut R, out: &mut Self) -> Result<()> {
        T::read_into(r, out)
    }
}

// The struct a `TApplicationException` is on the wire (`thrift-rpc.md`, "Response struct"):
// `message` (1, a string) and `type` (2, an `i32`).

impl ThriftWrite for ApplicationException {
    fn write<W: ProtocolWriter>(&self, w: &mut W) -> Result<()> {
        let t = w.write_struct_begin()?;
        w.write_field_begin(TType::String, 1)?;
        w.write_string(&self.message)?;
        w.write_field_end()?;
        w.write_field_begin(TType::I32, 2)?;
        w.write_i32(self.kind.0)?;
        w.write_field_end()?;
        w.write_field_stop()?;
        w.write_struct_end(t)
    }

    fn encoded_len<P: ProtocolSize>(&self) -> usize {
        P::struct_begin_len()
            + P::field_begin_len(TType::String, 1, 0)
            + P::string_len(self.message.len())
            + P::field_begin_len(TType::I32, 2, 1)
            + P::i32_len(self.kind.0)
            + P::field_stop_len()
            + P::struct_end_len()
    }
}

impl<'de> ThriftRead<'de> for ApplicationException {
    fn read<R: ProtocolReader<'de>>(r: &mut R) -> Result<Self> {
        let t = r.read_struct_begin()?;
        let mut e = ApplicationException::default();
        loop {
            let f = r.read_field_begin()?;
            match (f.id, f.ttype) {
                (_, TType::Stop) => break,
                (1, TType::String) => e.message = r.read_string()?,
                (2, TType::I32) => e.kind = ApplicationExceptionKind(r.read_i32()?),
                (_, ttype) => r.skip(ttype)?,
            }
            r.read_field_end()?;
        }
        r.read_struct_end(t)?;
        Ok(e)
    }
}
