//! What every load generator of the RPC benchmark shares (this file is also compiled into the
//! volo crate, `volo/src/main.rs`): the measuring window, the loop of one simulated client,
//! and the JSON line `run.sh` reads.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Every call the load generator made, in the warm-up too: what its allocations (the
/// crate's counting allocator, `crate::ALLOCATIONS`, over the whole process) are divided by.
static CALLS_MADE: AtomicU64 = AtomicU64::new(0);

/// When the clients start calling, when measuring starts (after a warm-up) and ends.
#[derive(Clone, Copy)]
pub struct Window {
    pub start: Instant,
    pub measure_from: Instant,
    pub end: Instant,
}

impl Window {
    /// Starts in 200 ms (time for every client to connect), measures `seconds` after 0.5 s of
    /// warm-up.
    pub fn new(seconds: f64) -> Window {
        let start = Instant::now() + Duration::from_millis(200);
        let measure_from = start + Duration::from_millis(500);
        Window {
            start,
            measure_from,
            end: measure_from + Duration::from_secs_f64(seconds),
        }
    }

    /// Records the latency of a call begun at `t`, if within the measured part.
    pub fn record(&self, latencies: &mut Vec<u32>, t: Instant) {
        CALLS_MADE.fetch_add(1, Ordering::Relaxed);
        if t >= self.measure_from {
            latencies.push(t.elapsed().as_micros().min(u128::from(u32::MAX)) as u32);
        }
    }
}

/// A simulated client on its own thread: `call` once at a time until the window ends.
pub fn blocking<C>(
    connections: usize,
    seconds: f64,
    connect: impl Fn() -> C + Sync,
    call: impl Fn(&mut C) + Sync,
) {
    let window = Window::new(seconds);
    let all = std::thread::scope(|scope| {
        let threads: Vec<_> = (0..connections)
            .map(|_| {
                scope.spawn(|| {
                    let mut client = connect();
                    let mut latencies = Vec::with_capacity(1 << 16);
                    while Instant::now() < window.start {
                        std::thread::sleep(Duration::from_millis(1));
                    }
                    loop {
                        let t = Instant::now();
                        if t >= window.end {
                            break;
                        }
                        call(&mut client);
                        window.record(&mut latencies, t);
                    }
                    latencies
                })
            })
            .collect();
        threads
            .into_iter()
            .flat_map(|t| t.join().expect("a load thread"))
            .collect()
    });
    report(connections, seconds, all);
}

/// Retries `connect` for up to 5 s (the server may still be starting).
pub fn retry<C, E: std::fmt::Debug>(mut connect: impl FnMut() -> Result<C, E>) -> C {
    let mut last = None;
    for _ in 0..100 {
        match connect() {
            Ok(c) => return c,
            Err(e) => last = Some(e),
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    panic!("cannot connect: {last:?}")
}

fn percentile(sorted: &[u32], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let index = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    f64::from(sorted[index])
}

/// Prints the line `run.sh` reads: calls per second, latency percentiles, and the load
/// generator's allocations per call (the whole process's, set-up included, over every call
/// made).
pub fn report(connections: usize, seconds: f64, mut all: Vec<u32>) {
    all.sort_unstable();
    let rps = all.len() as f64 / seconds;
    let allocations = crate::ALLOCATIONS.load(Ordering::Relaxed) as f64
        / CALLS_MADE.load(Ordering::Relaxed).max(1) as f64;
    println!(
        "{{\"connections\": {connections}, \"calls\": {}, \"rps\": {rps:.0}, \"p50_us\": {}, \"p99_us\": {}, \"client_allocations_per_call\": {allocations:.2}}}",
        all.len(),
        percentile(&all, 0.50),
        percentile(&all, 0.99)
    );
}
