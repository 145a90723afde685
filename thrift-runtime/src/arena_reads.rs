//! What generated arena forms call (`Builder::arena`, feature `arena`): the lists, sets, maps
//! and structs of a value read into the reader's [`Arena`]. Above the protocols and codecs,
//! which name the arena type ([`crate::arena`], below them).

use crate::arena::{Arena, ArenaVec};
use crate::codec::{ListItems, Scalar, ThriftRead, capacity_hint, read_scalars};
use crate::error::{Error, ErrorKind, Result};
use crate::protocol::{ProtocolReader, check_element_type};
use crate::wire::{ListHeader, TType};

impl<T> ListItems<T> for ArenaVec<'_, T> {
    #[inline]
    fn push(&mut self, item: T) {
        ArenaVec::push(self, item)
    }

    #[inline]
    fn push_default(&mut self) -> &mut T
    where
        T: Default,
    {
        ArenaVec::push(self, T::default());
        let last = self.len() - 1;
        &mut self[last]
    }

    #[inline]
    fn refill(&mut self, additional: usize) {
        self.clear();
        self.reserve(additional);
    }

    #[inline]
    fn extend_default(&mut self, n: usize) -> &mut [T]
    where
        T: Copy + Default,
    {
        self.extend_copies(n, T::default())
    }
}

/// The arena the reader decodes into, or the error that tells the caller to give one.
#[inline]
pub fn arena<'de, R: ProtocolReader<'de>>(r: &R) -> Result<&'de Arena> {
    match r.arena() {
        Some(arena) => Ok(arena),
        None => Err(no_arena()),
    }
}

#[cold]
#[inline(never)]
fn no_arena() -> Error {
    Error::new(
        ErrorKind::BorrowUnsupported,
        "this type holds its lists, sets, maps and optional structs in an arena: decode it \
         with `decode_in`",
    )
}

/// Moves `value` into the reader's arena (an optional or boxed struct of an arena form read
/// whole: a union, or a struct that is not read in place).
#[inline]
pub fn arena_value<'de, T, R: ProtocolReader<'de>>(r: &R, value: T) -> Result<&'de T> {
    Ok(arena(r)?.alloc(value))
}

/// Reads a struct in place in the reader's arena ([`ThriftRead::read_into`] into a
/// `T::default()` put there first): an optional struct of an arena form.
#[inline]
pub fn arena_read<'de, T, R>(r: &mut R) -> Result<&'de T>
where
    T: ThriftRead<'de> + Default,
    R: ProtocolReader<'de>,
{
    let slot = arena(r)?.alloc(T::default());
    T::read_into(r, slot)?;
    Ok(slot)
}

/// Reads a list into the reader's arena: its header, checked against the element type
/// `elem`; each element with `add` (which pushes it, or reads it in place in its slot:
/// [`read_element`](crate::codec::read_element)); the end. The vector starts with room for
/// the whole list ([`capacity_hint`]: a hostile count cannot reserve more than 1 MiB) and
/// grows past that as elements arrive.
#[inline(always)]
pub fn arena_list<'de, T, R>(
    r: &mut R,
    elem: TType,
    add: impl FnMut(&mut R, &mut ArenaVec<'de, T>) -> Result<()>,
) -> Result<&'de [T]>
where
    R: ProtocolReader<'de>,
{
    let header = r.read_list_begin()?;
    let items = arena_items(r, header, elem, add)?;
    r.read_list_end()?;
    Ok(items)
}

/// [`arena_list`] for a set (arena forms hold sets as slices, in the input's order).
#[inline(always)]
pub fn arena_set<'de, T, R>(
    r: &mut R,
    elem: TType,
    add: impl FnMut(&mut R, &mut ArenaVec<'de, T>) -> Result<()>,
) -> Result<&'de [T]>
where
    R: ProtocolReader<'de>,
{
    let header = r.read_set_begin()?;
    let items = arena_items(r, header, elem, add)?;
    r.read_set_end()?;
    Ok(items)
}

#[inline(always)]
fn arena_items<'de, T, R>(
    r: &mut R,
    header: ListHeader,
    elem: TType,
    mut add: impl FnMut(&mut R, &mut ArenaVec<'de, T>) -> Result<()>,
) -> Result<&'de [T]>
where
    R: ProtocolReader<'de>,
{
    check_element_type(header.elem, elem, header.len)?;
    let arena = arena(r)?;
    let mut items = ArenaVec::with_capacity_in(capacity_hint::<T>(header.len), arena);
    for _ in 0..header.len {
        add(r, &mut items)?;
    }
    Ok(items.into_slice())
}

/// Reads a map into the reader's arena as a slice of `(key, value)` pairs, in the input's
/// order: its header, checked against `key` and `value`; each entry with `add` (which reads
/// the key and the value and pushes the pair); the end.
#[inline(always)]
pub fn arena_map<'de, K, V, R>(
    r: &mut R,
    key: TType,
    value: TType,
    mut add: impl FnMut(&mut R, &mut ArenaVec<'de, (K, V)>) -> Result<()>,
) -> Result<&'de [(K, V)]>
where
    R: ProtocolReader<'de>,
{
    let header = r.read_map_begin()?;
    check_element_type(header.key, key, header.len)?;
    check_element_type(header.value, value, header.len)?;
    let arena = arena(r)?;
    let mut items = ArenaVec::with_capacity_in(capacity_hint::<(K, V)>(header.len), arena);
    for _ in 0..header.len {
        add(r, &mut items)?;
    }
    r.read_map_end()?;
    Ok(items.into_slice())
}

/// Reads a list of numbers into the reader's arena, many at a time
/// ([`read_scalar_list`](crate::codec::read_scalar_list)'s loop).
#[inline(always)]
pub fn arena_scalar_list<'de, T, R>(r: &mut R) -> Result<&'de [T]>
where
    T: Scalar,
    R: ProtocolReader<'de>,
{
    let header = r.read_list_begin()?;
    let items = arena_scalars(r, header)?;
    r.read_list_end()?;
    Ok(items)
}

/// [`arena_scalar_list`] for a set.
#[inline(always)]
pub fn arena_scalar_set<'de, T, R>(r: &mut R) -> Result<&'de [T]>
where
    T: Scalar,
    R: ProtocolReader<'de>,
{
    let header = r.read_set_begin()?;
    let items = arena_scalars(r, header)?;
    r.read_set_end()?;
    Ok(items)
}

#[inline(always)]
fn arena_scalars<'de, T, R>(r: &mut R, header: ListHeader) -> Result<&'de [T]>
where
    T: Scalar,
    R: ProtocolReader<'de>,
{
    check_element_type(header.elem, T::TTYPE, header.len)?;
    let arena = arena(r)?;
    let mut items = ArenaVec::with_capacity_in(capacity_hint::<T>(header.len), arena);
    read_scalars(r, header.len, &mut items)?;
    Ok(items.into_slice())
}
