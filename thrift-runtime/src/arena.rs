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
//! generated arena form asserts `!needs_drop` at compile time), so nothing leaks either.

use std::fmt;

/// Where the lists, sets, maps and optional structs of arena-decoded values live: a bump
/// allocator (bumpalo's `Bump`). Values decoded in it borrow it ([`ThriftRead::decode_in`](crate::ThriftRead::decode_in));
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

impl Arena {
    /// The bump allocator, for the readers that allocate in the arena.
    pub(crate) fn bump(&self) -> &bumpalo::Bump {
        &self.bump
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
