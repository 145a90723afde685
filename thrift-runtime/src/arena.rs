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
    pub(crate) bump: bumpalo::Bump,
}

impl Arena {
    /// An empty arena; it allocates its first block when a value needs one.
    pub fn new() -> Arena {
        Arena::default()
    }

    /// An arena with room for about `bytes` bytes before it allocates again.
    ///
    /// On Linux, a block of [`PREFAULT_FROM`] bytes or more whose pages the process has not
    /// touched yet (fresh from the system, as a large block in a new process is) is faulted in
    /// at once, with one `madvise(MADV_POPULATE_WRITE)`, instead of one page fault per 4 KiB
    /// page as the decode first writes it: measured, about half the cost (in the benchmark's
    /// cold state, a Parquet footer's 230 faults). A block the allocator hands back from
    /// memory already in use is left alone: one `mincore` call tells them apart.
    pub fn with_capacity(bytes: usize) -> Arena {
        let mut bump = bumpalo::Bump::with_capacity(bytes);
        if bytes >= PREFAULT_FROM {
            let (start, end) = block(&mut bump);
            pages::populate_if_fresh(start, end);
        }
        Arena { bump }
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
            // Not prefaulted as `with_capacity` does: the block is as large as all the old
            // ones, more than the values took (each block was twice the last), so the next
            // decode may leave its last pages untouched.
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

/// The addresses of the free room of `bump`'s block, `[start, end)`, in a new arena. Found
/// with one byte allocated at its end (bumpalo allocates downwards, from the end of a block)
/// and given back by a reset, which keeps the block.
pub(crate) fn block(bump: &mut bumpalo::Bump) -> (usize, usize) {
    let room = bump.chunk_capacity();
    let end = std::ptr::from_mut(bump.alloc(0u8)) as usize + 1;
    bump.reset();
    (end - room, end)
}

/// The smallest block [`Arena::with_capacity`] prefaults: 128 KiB, the size from which glibc's
/// allocator starts by mapping fresh pages for a block. Under it, the `mincore` call that tells
/// whether the pages are fresh would cost more than the faults it could save.
pub const PREFAULT_FROM: usize = 128 * 1024;

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

/// Faulting in an arena's block at once (Linux), the one place of the arena that calls the
/// system.
#[cfg(target_os = "linux")]
#[allow(unsafe_code)]
pub(crate) mod pages {
    use std::ffi::c_void;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// The system's page size, asked once.
    fn page_size() -> usize {
        static PAGE: AtomicUsize = AtomicUsize::new(0);
        match PAGE.load(Ordering::Relaxed) {
            0 => {
                // SAFETY: sysconf reads a system constant; it has no memory argument.
                let page = usize::try_from(unsafe { libc::sysconf(libc::_SC_PAGESIZE) })
                    .ok()
                    .filter(|page| page.is_power_of_two())
                    .unwrap_or(4096);
                PAGE.store(page, Ordering::Relaxed);
                page
            }
            page => page,
        }
    }

    /// Whether the page holding `at` is in memory (`None` if the system cannot tell).
    pub(crate) fn resident(at: usize) -> Option<bool> {
        let page = page_size();
        let start = at - at % page;
        let mut vec = 0u8;
        // SAFETY: mincore reads the page tables of one page, the one holding `at`, and writes
        // one byte (one page's state) to `vec`, a byte of ours. It reads and changes no memory
        // of that page: `at` need not even be mapped (then it fails with ENOMEM).
        let rc = unsafe { libc::mincore(start as *mut c_void, page, &mut vec) };
        (rc == 0).then_some(vec & 1 == 1)
    }

    /// Faults in the whole pages of `[start, end)`, a block the caller owns, if the page in its
    /// middle is not in memory yet (then the block is fresh from the system: the allocator
    /// wrote only its own header and the arena its footer, at the two ends).
    pub(crate) fn populate_if_fresh(start: usize, end: usize) {
        let page = page_size();
        let first = start.next_multiple_of(page);
        let last = end - end % page;
        if last <= first {
            return;
        }
        if resident(first + (last - first) / 2) != Some(false) {
            return;
        }
        // SAFETY: `[first, last)` is whole pages inside the caller's block, memory it owns and
        // nothing else refers to. MADV_POPULATE_WRITE (Linux 5.14) maps each page writable as
        // a first write to it would, and changes no byte of it; on an older kernel it fails
        // with EINVAL and nothing happens, which is why its result is not looked at.
        unsafe {
            libc::madvise(first as *mut c_void, last - first, libc::MADV_POPULATE_WRITE);
        }
    }
}

/// Elsewhere the pages are faulted one by one as the decode writes them.
#[cfg(not(target_os = "linux"))]
pub(crate) mod pages {
    pub(crate) fn populate_if_fresh(_start: usize, _end: usize) {}
}

/// A vector being built in an arena: a list, set or map while it is decoded, then a slice.
pub type ArenaVec<'a, T> = bumpalo::collections::Vec<'a, T>;
