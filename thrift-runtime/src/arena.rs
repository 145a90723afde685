//! Decoding into an arena (feature `arena`): the borrowing forms of code generated with
//! `Builder::arena` hold their lists, sets and maps as slices (`&'de [T]`, a map as
//! `&'de [(K, V)]`) and their optional structs as references (`Option<&'de T>`), all allocated
//! in one [`Arena`], while their strings and binaries point into the input as in every
//! borrowing form.
//!
//! A decoded value then takes about the bytes of its IDL and no more: no spare capacity, no
//! inline room left empty, no allocator header per list, and a struct the input leaves unset
//! costs one word. Decoding makes a few large allocations (the arena's blocks) instead of one
//! per list, and [`Arena::reset`] keeps them for the next message, so a reader of a stream of
//! messages stops allocating once the arena has grown to the largest one.
//!
//! ```rust,ignore
//! // Generated with `Builder::arena(true)` from parquet.thrift.
//! use thrift_runtime::{Arena, Compact, ThriftRead};
//!
//! let mut arena = Arena::new();
//! for footer in footers {
//!     let meta = FileMetaDataRef::decode_in::<Compact>(&footer, &arena)?;
//!     let columns: usize = meta.row_groups.iter().map(|g| g.columns.len()).sum();
//!     println!("{columns} column chunks");
//!     drop(meta);
//!     arena.reset(); // the values decoded in it are gone; its memory stays for the next
//! }
//! ```
//!
//! Nothing in an arena is dropped: the generated types hold nothing that needs it (every
//! generated arena form asserts `!needs_drop` at compile time), so nothing leaks either. The
//! functions below are what generated code calls.

use std::fmt;

use crate::codec::{ListItems, Scalar, ThriftRead, capacity_hint, read_scalars};
use crate::error::{Error, ErrorKind, Result};
use crate::protocol::{ProtocolReader, check_element_type};
use crate::wire::{ListHeader, TType};

/// Where the lists, sets, maps and optional structs of arena-decoded values live: a bump
/// allocator (bumpalo's `Bump`). Values decoded in it borrow it ([`ThriftRead::decode_in`]);
/// [`Arena::reset`] frees them all at once and keeps the memory.
#[derive(Default)]
pub struct Arena {
    bump: bumpalo::Bump,
}

impl Arena {
    /// An empty arena; it allocates its first block when a value needs one.
    pub fn new() -> Arena {
        Arena::default()
    }

    /// An arena with room for about `bytes` bytes before it allocates again.
    pub fn with_capacity(bytes: usize) -> Arena {
        Arena {
            bump: bumpalo::Bump::with_capacity(bytes),
        }
    }

    /// Frees every value decoded in the arena (the borrow checker has ended their lives
    /// already) and keeps its memory for the next ones, as one block: when the values took
    /// several blocks (the arena grows a block at a time, each twice the last), they are
    /// replaced by one as large as all of them, so that a message like the last one is decoded
    /// without allocating.
    pub fn reset(&mut self) {
        let used = self.bump.allocated_bytes();
        self.bump.reset();
        if self.bump.allocated_bytes() < used {
            self.bump = bumpalo::Bump::with_capacity(used);
        }
    }

    /// The bytes of the blocks the arena holds (what it took from the allocator, used or
    /// not, less the allocator's own bookkeeping).
    pub fn allocated_bytes(&self) -> usize {
        self.bump.allocated_bytes()
    }

    /// The bytes the arena has given out since it was made or last reset: what the values
    /// decoded in it take, with the padding between them and, when it had to move to a larger
    /// block, the unused end of the last one.
    pub fn used_bytes(&self) -> usize {
        self.bump.allocated_bytes() - self.bump.chunk_capacity()
    }
}

impl fmt::Debug for Arena {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Arena")
            .field("allocated_bytes", &self.allocated_bytes())
            .finish()
    }
}

/// A vector being built in an arena: a list, set or map while it is decoded, then a slice.
pub type ArenaVec<'a, T> = bumpalo::collections::Vec<'a, T>;

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
        let start = self.len();
        self.resize(start + n, T::default());
        &mut self[start..]
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
    Ok(arena(r)?.bump.alloc(value))
}

/// Reads a struct in place in the reader's arena ([`ThriftRead::read_into`] into a
/// `T::default()` put there first): an optional struct of an arena form.
#[inline]
pub fn arena_read<'de, T, R>(r: &mut R) -> Result<&'de T>
where
    T: ThriftRead<'de> + Default,
    R: ProtocolReader<'de>,
{
    let slot = arena(r)?.bump.alloc(T::default());
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
    let mut items = ArenaVec::with_capacity_in(capacity_hint::<T>(header.len), &arena.bump);
    for _ in 0..header.len {
        add(r, &mut items)?;
    }
    Ok(items.into_bump_slice())
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
    let mut items = ArenaVec::with_capacity_in(capacity_hint::<(K, V)>(header.len), &arena.bump);
    for _ in 0..header.len {
        add(r, &mut items)?;
    }
    r.read_map_end()?;
    Ok(items.into_bump_slice())
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
    let mut items = ArenaVec::with_capacity_in(capacity_hint::<T>(header.len), &arena.bump);
    read_scalars(r, header.len, &mut items)?;
    Ok(items.into_bump_slice())
}
