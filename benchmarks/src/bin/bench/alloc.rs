//! A counting global allocator (a wrapper around `System`) and peak-RSS probes.
//!
//! Counting is off while timing (one relaxed load and a branch per call) and on while the
//! harness measures allocations per operation, so the counters do not skew the timings.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};

pub struct Counting;

static ENABLED: AtomicBool = AtomicBool::new(false);
static ALLOCS: AtomicU64 = AtomicU64::new(0);
static BYTES: AtomicU64 = AtomicU64::new(0);
static LIVE: AtomicU64 = AtomicU64::new(0);
static PEAK: AtomicU64 = AtomicU64::new(0);

#[inline]
fn on_alloc(size: usize) {
    ALLOCS.fetch_add(1, Relaxed);
    BYTES.fetch_add(size as u64, Relaxed);
    let live = LIVE.fetch_add(size as u64, Relaxed) + size as u64;
    if live > PEAK.load(Relaxed) {
        PEAK.store(live, Relaxed);
    }
}

#[inline]
fn on_dealloc(size: usize) {
    // Saturating: blocks allocated before counting started may be freed while it is on.
    let live = LIVE.load(Relaxed);
    LIVE.store(live.saturating_sub(size as u64), Relaxed);
}

unsafe impl GlobalAlloc for Counting {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if ENABLED.load(Relaxed) {
            on_alloc(layout.size());
        }
        System.alloc(layout)
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if ENABLED.load(Relaxed) {
            on_alloc(layout.size());
        }
        System.alloc_zeroed(layout)
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if ENABLED.load(Relaxed) {
            on_dealloc(layout.size());
        }
        System.dealloc(ptr, layout)
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if ENABLED.load(Relaxed) {
            // A realloc counts as one allocation of the new size.
            on_dealloc(layout.size());
            on_alloc(new_size);
        }
        System.realloc(ptr, layout, new_size)
    }
}

/// What `f` allocated: number of allocations, bytes allocated, and the peak of live heap
/// bytes above the level at the start.
#[derive(Debug, Clone, Copy, Default)]
pub struct AllocStats {
    pub allocs: u64,
    pub bytes: u64,
    pub peak_live: u64,
}

pub fn count<R>(f: impl FnOnce() -> R) -> (R, AllocStats) {
    ALLOCS.store(0, Relaxed);
    BYTES.store(0, Relaxed);
    LIVE.store(0, Relaxed);
    PEAK.store(0, Relaxed);
    ENABLED.store(true, Relaxed);
    let r = f();
    ENABLED.store(false, Relaxed);
    let stats = AllocStats {
        allocs: ALLOCS.load(Relaxed),
        bytes: BYTES.load(Relaxed),
        peak_live: PEAK.load(Relaxed),
    };
    (r, stats)
}

fn status_kib(field: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with(field))?;
    line[field.len()..]
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()
}

/// Peak RSS growth caused by `f`, in KiB: resets the kernel's high-water mark (`VmHWM`) with
/// `/proc/self/clear_refs` (Linux 4.0+) after `malloc_trim(0)` (glibc), runs `f`, and returns `VmHWM` minus the `VmRSS` before.
/// `None` where that is not available.
pub fn peak_rss_growth_kib(f: impl FnOnce()) -> Option<u64> {
    // Hand free heap pages back to the kernel first, so that what `f` allocates shows up as
    // new resident pages instead of reusing pages the allocator already holds.
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        extern "C" {
            fn malloc_trim(pad: usize) -> i32;
        }
        // SAFETY: glibc's malloc_trim has no preconditions.
        unsafe {
            malloc_trim(0);
        }
    }
    std::fs::write("/proc/self/clear_refs", "5").ok()?;
    let before = status_kib("VmRSS:")?;
    f();
    let peak = status_kib("VmHWM:")?;
    Some(peak.saturating_sub(before))
}

/// The process's peak RSS so far, in KiB.
pub fn peak_rss_kib() -> Option<u64> {
    status_kib("VmHWM:")
}
