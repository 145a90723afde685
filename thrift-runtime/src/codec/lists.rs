//! Reading lists: the vectors generated code fills ([`ListItems`], [`NewItems`]), the bound on
//! what a container header may reserve ([`capacity_hint`]), and the list readers generated code
//! calls, into new vectors ([`read_list`], [`read_small_list`]) or over the ones a value being
//! read in place already holds ([`read_list_into`], [`read_list_reusing`], [`read_list_refill`],
//! [`read_small_list_into`]).

use smallvec::SmallVec;

use super::traits::ThriftRead;
use crate::error::Result;
use crate::protocol::ProtocolReader;

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
    /// read many at a time ([`read_scalar_list`](super::read_scalar_list)).
    fn extend_default(&mut self, n: usize) -> &mut [T]
    where
        T: Copy + Default;
}

/// [`ListItems`] that can start empty on their own (a `Vec`, a [`SmallVec`]; not a vector in
/// an arena, which needs its arena): what [`read_list`] and
/// [`read_scalar_list`](super::read_scalar_list) build.
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

/// Pushes `T::default()` onto `items` and returns it, for generated code to read the element
/// in place (string and binary list elements through [`ProtocolReader::read_string_into`]
/// and the other `read_*_into` methods).
#[inline]
pub fn push_default<T: Default>(items: &mut impl ListItems<T>) -> &mut T {
    items.push_default()
}
