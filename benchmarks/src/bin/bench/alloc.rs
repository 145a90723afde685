//! A counting global allocator (a wrapper around `System`) and peak-RSS probes.
//!
//! Counting is off while timing (one relaxed load and a branch per call) and on while the
//! harness measures allocations per operation, so the counters do not skew the timings.

use std::alloc::{GlobalAlloc, Layout, System};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, Ordering::Relaxed};
use std::sync::Mutex;

pub struct Counting;

/// What the allocator watches: [`COUNTING`] and [`TRACING`] bits; 0 while timing.
static WATCHING: AtomicU8 = AtomicU8::new(0);
const COUNTING: u8 = 1;
const TRACING: u8 = 2;

fn watch(what: u8, on: bool) {
    if on {
        WATCHING.fetch_or(what, Relaxed);
    } else {
        WATCHING.fetch_and(!what, Relaxed);
    }
}

fn watching(what: u8) -> bool {
    WATCHING.load(Relaxed) & what != 0
}
static ALLOCS: AtomicU64 = AtomicU64::new(0);
static BYTES: AtomicU64 = AtomicU64::new(0);
static LIVE: AtomicU64 = AtomicU64::new(0);
static PEAK: AtomicU64 = AtomicU64::new(0);

/// One heap call seen while tracing, by address.
#[derive(Clone, Copy, Debug)]
enum Seen {
    Alloc { ptr: usize, layout: Layout },
    Free { ptr: usize },
    Realloc { old: usize, new: usize, size: usize },
}

static TRACE_FULL: AtomicBool = AtomicBool::new(false);
/// Filled within the capacity reserved before tracing starts, so recording never allocates.
static TRACE: Mutex<Vec<Seen>> = Mutex::new(Vec::new());

#[cold]
fn record(event: Seen) {
    if let Ok(mut trace) = TRACE.try_lock() {
        if trace.len() < trace.capacity() {
            trace.push(event);
            return;
        }
    }
    TRACE_FULL.store(true, Relaxed);
}

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
    // Off (while timing): one load and a branch, then straight to `System`. Counting and
    // tracing go through the cold functions below.
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if WATCHING.load(Relaxed) != 0 {
            return watched_alloc(layout, false);
        }
        System.alloc(layout)
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if WATCHING.load(Relaxed) != 0 {
            return watched_alloc(layout, true);
        }
        System.alloc_zeroed(layout)
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if WATCHING.load(Relaxed) != 0 {
            return watched_dealloc(ptr, layout);
        }
        System.dealloc(ptr, layout)
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if WATCHING.load(Relaxed) != 0 {
            return watched_realloc(ptr, layout, new_size);
        }
        System.realloc(ptr, layout, new_size)
    }
}

#[cold]
#[inline(never)]
unsafe fn watched_alloc(layout: Layout, zeroed: bool) -> *mut u8 {
    if watching(COUNTING) {
        on_alloc(layout.size());
    }
    // SAFETY: forwarded from `GlobalAlloc::alloc`/`alloc_zeroed`, same contract.
    let ptr = unsafe {
        if zeroed {
            System.alloc_zeroed(layout)
        } else {
            System.alloc(layout)
        }
    };
    if watching(TRACING) {
        record(Seen::Alloc {
            ptr: ptr as usize,
            layout,
        });
    }
    ptr
}

#[cold]
#[inline(never)]
unsafe fn watched_dealloc(ptr: *mut u8, layout: Layout) {
    if watching(COUNTING) {
        on_dealloc(layout.size());
    }
    if watching(TRACING) {
        record(Seen::Free { ptr: ptr as usize });
    }
    // SAFETY: forwarded from `GlobalAlloc::dealloc`, same contract.
    unsafe { System.dealloc(ptr, layout) }
}

#[cold]
#[inline(never)]
unsafe fn watched_realloc(ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
    if watching(COUNTING) {
        // A realloc counts as one allocation of the new size.
        on_dealloc(layout.size());
        on_alloc(new_size);
    }
    // SAFETY: forwarded from `GlobalAlloc::realloc`, same contract.
    let new = unsafe { System.realloc(ptr, layout, new_size) };
    if watching(TRACING) {
        record(Seen::Realloc {
            old: ptr as usize,
            new: new as usize,
            size: new_size,
        });
    }
    new
}

/// One step of a [`Replay`]: heap blocks named by slot instead of address.
#[derive(Clone, Copy, Debug)]
pub enum Step {
    Alloc {
        slot: usize,
        layout: Layout,
    },
    Free {
        slot: usize,
        layout: Layout,
    },
    Realloc {
        slot: usize,
        layout: Layout,
        size: usize,
    },
}

/// The heap calls some code made, in order, to make again without the code: the same sizes
/// and alignments, allocated, resized and freed in the same order.
#[derive(Clone, Debug)]
pub struct Replay {
    pub steps: Vec<Step>,
    pub slots: usize,
}

/// The heap calls `f` makes (blocks it allocates and frees; frees of blocks allocated before
/// are left out). `None` when there were more than the trace has room for.
///
/// Nothing the trace allocates is ever freed (the trace buffer is kept for the next trace, the
/// replay and its address map are leaked): freeing a large (`mmap`ed) block makes glibc raise
/// its `mmap` and trim thresholds for the rest of the process, and those move the contenders
/// unequally (with both pinned at their maximum through `mallopt`, ours's scaling-1000 decode
/// took 24% more CPU time and Apache's large decode 10% less), so the trace must not move
/// them.
pub fn trace(f: impl FnOnce()) -> Option<&'static Replay> {
    const ROOM: usize = 1 << 20;
    {
        let mut trace = TRACE.lock().ok()?;
        trace.clear();
        let room = ROOM.saturating_sub(trace.len());
        trace.reserve_exact(room);
    }
    TRACE_FULL.store(false, Relaxed);
    watch(TRACING, true);
    f();
    watch(TRACING, false);
    let mut trace = TRACE.lock().ok()?;
    if TRACE_FULL.load(Relaxed) {
        return None;
    }
    let seen = trace.drain(..);
    // Addresses to slots: an address freed and allocated again is a new slot. Sized up front
    // (no growth, so no large block freed) and leaked with the replay.
    let live: &'static mut HashMap<usize, (usize, Layout)> =
        Box::leak(Box::new(HashMap::with_capacity(seen.len())));
    let mut steps = Vec::with_capacity(seen.len() * 2);
    let mut slots = 0;
    for event in seen {
        match event {
            Seen::Alloc { ptr, layout } => {
                live.insert(ptr, (slots, layout));
                steps.push(Step::Alloc {
                    slot: slots,
                    layout,
                });
                slots += 1;
            }
            Seen::Free { ptr } => {
                if let Some((slot, layout)) = live.remove(&ptr) {
                    steps.push(Step::Free { slot, layout });
                }
            }
            Seen::Realloc { old, new, size } => {
                if let Some((slot, layout)) = live.remove(&old) {
                    steps.push(Step::Realloc { slot, layout, size });
                    let layout = Layout::from_size_align(size, layout.align()).ok()?;
                    live.insert(new, (slot, layout));
                }
            }
        }
    }
    // Blocks `f` returned instead of freeing: freed at the end, so a replay leaks nothing.
    let mut rest: Vec<(usize, Layout)> = live.drain().map(|(_, block)| block).collect();
    rest.sort_by_key(|(slot, _)| *slot);
    steps.extend(
        rest.iter()
            .map(|&(slot, layout)| Step::Free { slot, layout }),
    );
    std::mem::forget(rest);
    Some(Box::leak(Box::new(Replay { steps, slots })))
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
    watch(COUNTING, true);
    let r = f();
    watch(COUNTING, false);
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
    trim();
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

/// Hands the allocator's free pages back to the kernel (glibc's `malloc_trim(0)`; nothing
/// elsewhere): what is allocated next comes from fresh pages, faulted in and zeroed by the
/// kernel, as in a new process or after the allocator trimmed on its own.
pub fn trim() {
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
}

/// The process's minor page faults so far (`/proc/self/stat`, field 10; 0 where it cannot be
/// read): each is a page the kernel mapped (and zeroed) on first touch.
pub fn minor_faults() -> u64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return 0;
    };
    // After the command name in parentheses: state, ppid, pgrp, session, tty, tpgid, flags,
    // minflt.
    stat.rsplit_once(')')
        .and_then(|(_, rest)| rest.split_whitespace().nth(7))
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}
