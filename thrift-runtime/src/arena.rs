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
//!
//! The arena is a bump allocator of its own (it was bumpalo's `Bump` before): its blocks are
//! exactly the size asked for, where bumpalo rounds a block up to whole 4 KiB pages (a 16 KiB
//! Parquet footer took a 20 KiB block), and it knows where its blocks are, so that
//! [`Arena::with_capacity`] can fault a fresh one in at once. This module and
//! its `pages` module are the runtime's only `unsafe` code beside two measured spots of the
//! readers and writers; its tests run under Miri with the runtime's others (`scripts/miri.sh`).

use std::alloc::{self, Layout};
use std::cell::{Cell, RefCell};
use std::fmt;
use std::marker::PhantomData;
use std::mem::{self, ManuallyDrop};
use std::ops::{Deref, DerefMut};
use std::ptr::{self, NonNull};

/// The alignment of every block (no Thrift type needs more; a value that does is aligned
/// inside its block).
const BLOCK_ALIGN: usize = 16;
/// The first block of an arena made with [`Arena::new`]; each next one is twice the last.
const FIRST_BLOCK: usize = 1024;

/// One block of an arena, from the global allocator.
#[derive(Clone, Copy)]
struct Block {
    start: NonNull<u8>,
    size: usize,
}

/// Where the lists, sets, maps and optional structs of arena-decoded values live: a bump
/// allocator. Values decoded in it borrow it ([`ThriftRead::decode_in`](crate::ThriftRead::decode_in));
/// [`Arena::reset`] frees them all at once and keeps the memory.
pub struct Arena {
    /// The next free byte of the current block (a dangling address when there is none).
    next: Cell<*mut u8>,
    /// The end of the current block.
    end: Cell<*mut u8>,
    /// The current block (not in `full`, so that an arena of one block makes one allocation).
    current: Cell<Option<Block>>,
    /// The blocks before the current one.
    full: RefCell<Vec<Block>>,
}

// SAFETY: an `Arena` owns its blocks alone: every value in them borrows the arena, so while
// one exists the arena cannot be moved to another thread, and once none does, nothing else
// points into the blocks. (It is not `Sync`: its cells are not.)
#[allow(unsafe_code)]
unsafe impl Send for Arena {}

impl Default for Arena {
    fn default() -> Arena {
        let none = ptr::dangling_mut::<u8>();
        Arena {
            next: Cell::new(none),
            end: Cell::new(none),
            current: Cell::new(None),
            full: RefCell::new(Vec::new()),
        }
    }
}

impl Arena {
    /// An empty arena; it allocates its first block when a value needs one.
    pub fn new() -> Arena {
        Arena::default()
    }

    /// An arena with room for `bytes` bytes (one block of exactly that size) before it
    /// allocates again.
    ///
    /// On Linux, a block of [`PREFAULT_FROM`] bytes or more whose pages the process has not
    /// touched yet (fresh from the system, as a large block in a new process is) is faulted in
    /// at once, with one `madvise(MADV_POPULATE_WRITE)`, instead of one page fault per 4 KiB
    /// page as the decode first writes it: measured, about half the cost (in the benchmark's
    /// cold state, a Parquet footer's 230 faults). A block the allocator hands back from
    /// memory already in use is left alone: one `mincore` call tells them apart.
    pub fn with_capacity(bytes: usize) -> Arena {
        let arena = Arena::new();
        if bytes > 0 {
            arena.push_block(bytes);
        }
        #[cfg(not(miri))]
        if bytes >= PREFAULT_FROM {
            let (start, end) = arena.block();
            pages::populate_if_fresh(start, end);
        }
        arena
    }

    /// Frees every value decoded in the arena (the borrow checker has ended their lives
    /// already) and keeps its memory for the next ones, as one block: when the values took
    /// several blocks (the arena grows a block at a time, each twice the last), they are
    /// replaced by one as large as all of them, so that a message like the last one is decoded
    /// without allocating.
    pub fn reset(&mut self) {
        match (self.current.get(), self.full.get_mut().is_empty()) {
            (None, _) => {}
            (Some(block), true) => self.next.set(block.start.as_ptr()),
            (Some(_), false) => {
                // Not prefaulted as `with_capacity` does: the block is as large as all the
                // old ones, more than the values took (each block was twice the last), so the
                // next decode may leave its last pages untouched.
                let total = self.allocated_bytes();
                self.free_blocks();
                self.push_block(total);
            }
        }
    }

    /// The bytes of the blocks the arena holds (what it took from the allocator, used or
    /// not, less the allocator's own bookkeeping).
    pub fn allocated_bytes(&self) -> usize {
        let current = self.current.get().map_or(0, |b| b.size);
        current + self.full.borrow().iter().map(|b| b.size).sum::<usize>()
    }

    /// The bytes the arena has given out since it was made or last reset: what the values
    /// decoded in it take, with the padding between them and, when it had to move to a larger
    /// block, the unused end of the last one.
    pub fn used_bytes(&self) -> usize {
        self.allocated_bytes() - (self.end.get() as usize - self.next.get() as usize)
    }

    /// Moves `value` into the arena. It is never dropped (what generated code puts here
    /// needs no drop).
    #[inline]
    #[allow(unsafe_code)]
    // A `&mut` from `&self`, as every arena's `alloc`: each call gives a slot no other
    // reference points to.
    #[allow(clippy::mut_from_ref)]
    pub(crate) fn alloc<T>(&self, value: T) -> &mut T {
        let slot = self.alloc_layout(Layout::new::<T>()).cast::<T>();
        // SAFETY: `slot` is aligned for `T` and has room for one (`alloc_layout`), in a block
        // that lives as long as `&self` (blocks are freed only by `reset` and `drop`, which
        // take the arena whole), and no other reference points to it: it was just given out.
        unsafe {
            slot.as_ptr().write(value);
            &mut *slot.as_ptr()
        }
    }

    /// Room for a value of `layout`, aligned, in the current block or a new one.
    #[inline(always)]
    #[allow(unsafe_code)]
    fn alloc_layout(&self, layout: Layout) -> NonNull<u8> {
        let next = self.next.get();
        let pad = (next as usize).wrapping_neg() & (layout.align() - 1);
        let room = self.end.get() as usize - next as usize;
        if pad <= room && layout.size() <= room - pad {
            let at = next.wrapping_add(pad);
            self.next.set(at.wrapping_add(layout.size()));
            // SAFETY: `at` is at least `next`, which is a block's address or the dangling
            // address 1 of an arena without a block: never null.
            return unsafe { NonNull::new_unchecked(at) };
        }
        self.alloc_slow(layout)
    }

    /// A new block for a value that does not fit in the current one: twice the last block, or
    /// the value's size if it is larger. A zero-sized value needs none.
    #[cold]
    #[inline(never)]
    fn alloc_slow(&self, layout: Layout) -> NonNull<u8> {
        if layout.size() == 0 {
            return NonNull::new(ptr::without_provenance_mut(layout.align()))
                .unwrap_or(NonNull::dangling());
        }
        let last = self.current.get().map_or(0, |b| b.size);
        let need = layout
            .size()
            .checked_add(layout.align())
            .unwrap_or_else(|| capacity_overflow());
        self.push_block(need.max(last.saturating_mul(2)).max(FIRST_BLOCK));
        self.alloc_layout(layout)
    }

    /// Allocates a block of `size` bytes and makes it the current one.
    #[allow(unsafe_code)]
    fn push_block(&self, size: usize) {
        let layout =
            Layout::from_size_align(size, BLOCK_ALIGN).unwrap_or_else(|_| capacity_overflow());
        // SAFETY: `layout` has a non-zero size (every caller asks for at least one byte).
        let start = unsafe { alloc::alloc(layout) };
        let Some(start) = NonNull::new(start) else {
            alloc::handle_alloc_error(layout)
        };
        self.next.set(start.as_ptr());
        self.end.set(start.as_ptr().wrapping_add(size));
        if let Some(full) = self.current.replace(Some(Block { start, size })) {
            self.full.borrow_mut().push(full);
        }
    }

    /// Gives every block back to the global allocator.
    #[allow(unsafe_code)]
    fn free_blocks(&mut self) {
        let current = self.current.take();
        for block in self.full.get_mut().drain(..).chain(current) {
            // SAFETY: the block was allocated by `push_block` with this size and alignment,
            // and nothing borrows the arena (`&mut self`), so nothing points into it.
            unsafe {
                alloc::dealloc(
                    block.start.as_ptr(),
                    Layout::from_size_align_unchecked(block.size, BLOCK_ALIGN),
                );
            }
        }
        let none = ptr::dangling_mut::<u8>();
        self.next.set(none);
        self.end.set(none);
    }

    /// The addresses of the current block's free room, `[next, end)`.
    pub(crate) fn block(&self) -> (usize, usize) {
        (self.next.get() as usize, self.end.get() as usize)
    }
}

impl Drop for Arena {
    fn drop(&mut self) {
        self.free_blocks();
    }
}

impl fmt::Debug for Arena {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Arena")
            .field("allocated_bytes", &self.allocated_bytes())
            .field("used_bytes", &self.used_bytes())
            .finish()
    }
}

#[cold]
#[inline(never)]
fn capacity_overflow() -> ! {
    panic!("arena capacity overflow")
}

/// The smallest block [`Arena::with_capacity`] prefaults: 128 KiB, the size from which glibc's
/// allocator starts by mapping fresh pages for a block. Under it, the `mincore` call that tells
/// whether the pages are fresh would cost more than the faults it could save (measured with
/// 4 KiB: the 16 KiB Parquet footers decoded 15% slower hot and no faster cold).
pub const PREFAULT_FROM: usize = 128 * 1024;

/// A vector being built in an arena: a list, set or map while it is decoded, then a slice
/// ([`ArenaVec::into_slice`]). It grows in place while it is the arena's last allocation, and
/// otherwise by moving to a new room twice as large (the old one is not reused before a
/// reset). Its elements are dropped with it, not once it is a slice.
pub struct ArenaVec<'a, T> {
    arena: &'a Arena,
    ptr: NonNull<T>,
    len: usize,
    cap: usize,
    owns: PhantomData<T>,
}

#[allow(unsafe_code)]
impl<'a, T> ArenaVec<'a, T> {
    /// An empty vector in `arena`, with room for `capacity` elements.
    #[inline]
    pub fn with_capacity_in(capacity: usize, arena: &'a Arena) -> Self {
        let mut items = ArenaVec {
            arena,
            ptr: NonNull::dangling(),
            len: 0,
            cap: if mem::size_of::<T>() == 0 {
                usize::MAX
            } else {
                0
            },
            owns: PhantomData,
        };
        if capacity > 0 && items.cap == 0 {
            items.ptr = items.room(capacity);
            items.cap = capacity;
        }
        items
    }

    /// Whether the vector's room ends where the arena's free room starts (nothing was
    /// allocated after it): then it can grow in place, or give back what it did not fill.
    #[inline]
    fn room_is_last(&self) -> bool {
        let end = self.ptr.as_ptr().wrapping_add(self.cap).cast::<u8>();
        self.cap > 0 && end as usize == self.arena.block().0
    }

    /// Room for `n` elements in the arena.
    #[inline]
    fn room(&self, n: usize) -> NonNull<T> {
        let layout = Layout::array::<T>(n).unwrap_or_else(|_| capacity_overflow());
        self.arena.alloc_layout(layout).cast()
    }

    /// Adds `value` at the end.
    #[inline]
    pub fn push(&mut self, value: T) {
        if self.len == self.cap {
            self.grow(1);
        }
        // SAFETY: `len < cap`: slot `len` is in the vector's room, and holds no element.
        unsafe { self.ptr.as_ptr().add(self.len).write(value) };
        self.len += 1;
    }

    /// Makes room for `additional` more elements.
    #[inline]
    pub fn reserve(&mut self, additional: usize) {
        if self.cap - self.len < additional {
            self.grow(additional);
        }
    }

    /// Removes (and drops) every element; the room stays.
    pub fn clear(&mut self) {
        let len = mem::replace(&mut self.len, 0);
        // SAFETY: the first `len` slots hold elements, no longer reachable (`len` is 0).
        unsafe { ptr::drop_in_place(ptr::slice_from_raw_parts_mut(self.ptr.as_ptr(), len)) };
    }

    /// Adds `n` copies of `value` at the end and returns them.
    pub fn extend_copies(&mut self, n: usize, value: T) -> &mut [T]
    where
        T: Copy,
    {
        self.reserve(n);
        let start = self.len;
        for i in start..start + n {
            // SAFETY: `i < cap` after the reserve; the slot holds no element.
            unsafe { self.ptr.as_ptr().add(i).write(value) };
        }
        self.len += n;
        &mut self[start..]
    }

    /// Room for at least `len + additional` elements: twice the old room, or more if asked.
    #[cold]
    #[inline(never)]
    fn grow(&mut self, additional: usize) {
        let need = self
            .len
            .checked_add(additional)
            .unwrap_or_else(|| capacity_overflow());
        let cap = need.max(self.cap.saturating_mul(2)).max(4);
        let size = mem::size_of::<T>();
        // In place, when the room is the arena's last allocation and the block has enough.
        if self.room_is_last() {
            let (next, block_end) = self.arena.block();
            if let Some(extra) = (cap - self.cap).checked_mul(size) {
                if extra <= block_end - next {
                    self.arena
                        .next
                        .set(self.arena.next.get().wrapping_add(extra));
                    self.cap = cap;
                    return;
                }
            }
        }
        let room = self.room(cap);
        // SAFETY: the old room holds `len` elements; the new one has room for `cap >= len`
        // and is a fresh allocation, apart from the old one. The old slots are not read again.
        unsafe { ptr::copy_nonoverlapping(self.ptr.as_ptr(), room.as_ptr(), self.len) };
        self.ptr = room;
        self.cap = cap;
    }

    /// The elements as a slice that lives as long as the arena's borrow; room the vector did
    /// not fill goes back to the arena when nothing was allocated after it. The elements are
    /// never dropped.
    #[inline]
    pub fn into_slice(self) -> &'a [T] {
        let items = ManuallyDrop::new(self);
        if items.cap > items.len && mem::size_of::<T>() != 0 && items.room_is_last() {
            let filled = items.ptr.as_ptr().wrapping_add(items.len).cast::<u8>();
            items.arena.next.set(filled);
        }
        // SAFETY: the first `len` slots hold elements, in a block that lives as long as the
        // arena's borrow `'a`; the vector is gone (not dropped), so the slice is their only
        // owner, and the room after them is no longer the vector's.
        unsafe { std::slice::from_raw_parts(items.ptr.as_ptr(), items.len) }
    }
}

impl<T> Deref for ArenaVec<'_, T> {
    type Target = [T];

    #[inline]
    #[allow(unsafe_code)]
    fn deref(&self) -> &[T] {
        // SAFETY: the first `len` slots hold elements (a dangling, aligned pointer when 0).
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl<T> DerefMut for ArenaVec<'_, T> {
    #[inline]
    #[allow(unsafe_code)]
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as in `deref`, and `&mut self` is the only way to them.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }
}

impl<T> Drop for ArenaVec<'_, T> {
    fn drop(&mut self) {
        if mem::needs_drop::<T>() {
            self.clear();
        }
    }
}

impl<T: fmt::Debug> fmt::Debug for ArenaVec<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// Faulting in an arena's block at once (Linux), the one place of the arena that calls the
/// system.
#[cfg(target_os = "linux")]
#[cfg_attr(miri, allow(dead_code))]
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
            libc::madvise(
                first as *mut c_void,
                last - first,
                libc::MADV_POPULATE_WRITE,
            );
        }
    }
}

/// Elsewhere the pages are faulted one by one as the decode writes them.
#[cfg(not(target_os = "linux"))]
pub(crate) mod pages {
    pub(crate) fn populate_if_fresh(_start: usize, _end: usize) {}
}
