//! Timing: batches sized to a target duration, contenders interleaved round by round so that
//! they see the same machine conditions, per-operation percentiles over the samples; and the
//! same on a busy heap ([`measure_busy`]).

use std::time::{Duration, Instant};

/// Runs the operation `n` times.
pub type Runner<'a> = Box<dyn FnMut(u64) + 'a>;

#[derive(Debug, Clone, Copy)]
pub struct Config {
    /// Target duration of one batch (one sample).
    pub batch: Duration,
    /// Time budget of one scenario (all its contenders together).
    pub budget: Duration,
    /// Minimum samples per contender (taken even past the budget).
    pub min_samples: usize,
    pub max_samples: usize,
    /// Instead of timing batches: run each operation exactly this many times, once (for
    /// instruction counts under `valgrind --tool=callgrind`, which are repeatable where times
    /// on a shared machine are not).
    pub fixed_iterations: Option<u64>,
}

#[derive(Debug, Clone, Default)]
pub struct Stats {
    pub median_ns: f64,
    pub p25_ns: f64,
    pub p75_ns: f64,
    pub p90_ns: f64,
    pub samples: usize,
    pub iters_per_sample: u64,
    /// Time per operation in each round, in round order (every contender of a scenario has
    /// one batch per round), for ratios paired round by round.
    pub rounds: Vec<f64>,
}

/// The median of sorted values.
pub fn median(sorted: &[f64]) -> f64 {
    percentile(sorted, 0.5)
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let rank = p * (sorted.len() - 1) as f64;
    let lo = rank.floor() as usize;
    let hi = rank.ceil() as usize;
    sorted[lo] + (sorted[hi] - sorted[lo]) * (rank - lo as f64)
}

fn time(run: &mut Runner<'_>, n: u64) -> Duration {
    let start = Instant::now();
    run(n);
    start.elapsed()
}

/// Iterations per batch so that one batch takes about `cfg.batch` (at least 1).
fn calibrate(run: &mut Runner<'_>, cfg: &Config) -> u64 {
    run(1); // warm up: caches, lazy statics, allocator pools
    let mut n = 1u64;
    loop {
        let t = time(run, n);
        if t >= cfg.batch / 4 || n >= 1 << 30 {
            let per_op = t.as_secs_f64() / n as f64;
            return ((cfg.batch.as_secs_f64() / per_op.max(1e-12)) as u64).max(1);
        }
        n *= 4;
    }
}

/// Measures all runners interleaved: each round takes one batch of each.
pub fn measure(runners: &mut [Runner<'_>], cfg: &Config) -> Vec<Stats> {
    if let Some(n) = cfg.fixed_iterations {
        return runners
            .iter_mut()
            .map(|run| {
                let per_op = time(run, n).as_nanos() as f64 / n as f64;
                Stats {
                    median_ns: per_op,
                    p25_ns: per_op,
                    p75_ns: per_op,
                    p90_ns: per_op,
                    samples: 1,
                    iters_per_sample: n,
                    rounds: vec![per_op],
                }
            })
            .collect();
    }
    let iters: Vec<u64> = runners.iter_mut().map(|r| calibrate(r, cfg)).collect();
    let mut samples: Vec<Vec<f64>> = vec![Vec::new(); runners.len()];
    let start = Instant::now();
    let mut rounds = 0;
    while rounds < cfg.max_samples && (rounds < cfg.min_samples || start.elapsed() < cfg.budget) {
        for (i, run) in runners.iter_mut().enumerate() {
            let t = time(run, iters[i]);
            samples[i].push(t.as_nanos() as f64 / iters[i] as f64);
        }
        rounds += 1;
    }
    samples
        .into_iter()
        .zip(iters)
        .map(|(rounds, n)| from_samples(rounds, n))
        .collect()
}

/// A heap that other work shares: a ring of live blocks of mixed sizes (most small, some of
/// tens of KiB, a few above glibc's `mmap` threshold), each touched once per page, replaced a
/// few at a time between samples. The sizes come from a fixed sequence, so every run churns
/// the same way.
pub struct Churn {
    live: Vec<Vec<u8>>,
    next: usize,
    seed: u64,
}

impl Churn {
    const LIVE: usize = 512;
    /// Blocks replaced before each sample.
    const STEPS: usize = 96;

    pub fn new() -> Churn {
        let mut churn = Churn {
            live: Vec::with_capacity(Self::LIVE),
            next: 0,
            seed: 0x9E37_79B9_7F4A_7C15,
        };
        for _ in 0..Self::LIVE {
            let block = churn.block();
            churn.live.push(block);
        }
        churn
    }

    fn block(&mut self) -> Vec<u8> {
        // xorshift64*: deterministic sizes.
        self.seed ^= self.seed >> 12;
        self.seed ^= self.seed << 25;
        self.seed ^= self.seed >> 27;
        let r = self.seed.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 32;
        let size = match r % 100 {
            0..=69 => 16 + (r >> 8) as usize % 496,
            70..=96 => 512 + (r >> 8) as usize % (64 << 10),
            _ => (128 << 10) + (r >> 8) as usize % (896 << 10),
        };
        // Touch every page, as work that uses its memory does.
        let mut block = vec![0u8; size];
        for page in block.chunks_mut(4096) {
            page[0] = r as u8;
        }
        block
    }

    /// Replaces [`Churn::STEPS`] blocks, oldest first.
    pub fn step(&mut self) {
        for _ in 0..Self::STEPS {
            let block = self.block();
            self.live[self.next] = block;
            self.next = (self.next + 1) % Self::LIVE;
        }
        std::hint::black_box(&self.live);
    }
}

/// Time and minor page faults per operation on a busy heap: rounds of one sample per runner in
/// turn, with the [`Churn`] stepped before every sample, so that each runner's operation finds
/// the heap as the others' operations and the churn left it (not as its own previous
/// iteration left it, as in a batch). A sample is `ops[i]` operations (1 for anything that
/// takes over ~50 µs). Returns the stats and the faults per operation of each runner.
pub fn measure_busy(runners: &mut [Runner<'_>], ops: &[u64], cfg: &Config) -> Vec<(Stats, f64)> {
    let mut churn = Churn::new();
    let rounds = if cfg.fixed_iterations.is_some() {
        1
    } else {
        cfg.min_samples
    };
    let mut samples: Vec<Vec<f64>> = vec![Vec::new(); runners.len()];
    let mut faults = vec![0u64; runners.len()];
    let start = Instant::now();
    let mut round = 0;
    while round < rounds || (start.elapsed() < cfg.budget && round < cfg.max_samples) {
        for (i, run) in runners.iter_mut().enumerate() {
            churn.step();
            let before = crate::alloc::minor_faults();
            let t = time(run, ops[i]);
            faults[i] += crate::alloc::minor_faults() - before;
            samples[i].push(t.as_nanos() as f64 / ops[i] as f64);
        }
        round += 1;
    }
    samples
        .into_iter()
        .zip(ops)
        .zip(faults)
        .map(|((rounds, &n), faults)| {
            let per_op = faults as f64 / (rounds.len() as u64 * n) as f64;
            (from_samples(rounds, n), per_op)
        })
        .collect()
}

/// The stats of per-operation times, one per round (in round order), each of `n` operations.
pub fn from_samples(rounds: Vec<f64>, n: u64) -> Stats {
    let mut s = rounds.clone();
    s.sort_by(f64::total_cmp);
    Stats {
        median_ns: percentile(&s, 0.5),
        p25_ns: percentile(&s, 0.25),
        p75_ns: percentile(&s, 0.75),
        p90_ns: percentile(&s, 0.9),
        samples: s.len(),
        iters_per_sample: n,
        rounds,
    }
}
