//! A counting global allocator for the tests that measure allocations. A test binary
//! registers it (`#[global_allocator] static GLOBAL: Counting = Counting;`) and measures a
//! closure on the calling thread with [`allocations`] (how many calls) or [`allocated_bytes`]
//! (how many bytes, every allocation and every reallocation's new size added up), or counts
//! every thread's with [`process_allocations`] (a server's worker threads).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicU64, Ordering};

/// Counts the calling thread's allocations and their sizes; delegates to [`System`].
pub struct Counting;

thread_local! {
    static CALLS: Cell<u64> = const { Cell::new(0) };
    static BYTES: Cell<usize> = const { Cell::new(0) };
}

/// Every thread's allocations and reallocations, since the process started.
static PROCESS: AtomicU64 = AtomicU64::new(0);

/// How many allocations and reallocations every thread of the process has made so far (a
/// test binary that reads it runs its measurements one at a time).
pub fn process_allocations() -> u64 {
    PROCESS.load(Ordering::Relaxed)
}

fn count(bytes: usize) {
    PROCESS.fetch_add(1, Ordering::Relaxed);
    let _ = CALLS.try_with(|c| c.set(c.get() + 1));
    let _ = BYTES.try_with(|c| c.set(c.get().saturating_add(bytes)));
}

// SAFETY: delegates every call to `System` unchanged; only counts what the calling thread
// asks for (const-initialised thread locals that never allocate themselves).
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(layout.size());
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count(layout.size());
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count(new_size);
        // SAFETY: same contract as the caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

/// How many allocations and reallocations this thread has made so far (for code that cannot
/// be a closure, such as the `.await`s of a current-thread runtime's tasks).
pub fn thread_allocations() -> u64 {
    CALLS.with(Cell::get)
}

/// Runs `f`; returns its result and how many allocations (and reallocations) it made on this
/// thread. Counts only when [`Counting`] is the binary's global allocator.
pub fn allocations<T>(f: impl FnOnce() -> T) -> (T, u64) {
    let before = thread_allocations();
    let value = f();
    (value, thread_allocations() - before)
}

/// Runs `f`; returns the bytes it allocated on this thread in total.
pub fn allocated_bytes(f: impl FnOnce()) -> usize {
    let before = BYTES.with(Cell::get);
    f();
    BYTES.with(Cell::get) - before
}
