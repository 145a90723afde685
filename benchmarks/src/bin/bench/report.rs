//! Results: the console tables, the JSON file, the BENCHMARKS.md section and the SVG plot of
//! the scaling series.
//!
//! This module holds the results of a run and their console table; `targets` checks them
//! against the project's goals, `json` writes the results file, `markdown` the section of
//! BENCHMARKS.md, with the chart of the scaling series (`scaling`) drawn by `svg`.

mod format;
mod json;
mod markdown;
mod scaling;
mod svg;
mod targets;

pub use json::json;
pub use markdown::markdown;
pub use targets::{print_targets, targets};

use crate::contenders::{Op, Proto};
use crate::measure::Stats;
use format::{fmt_bytes, fmt_count, fmt_ns, fmt_ratio};

pub struct ContenderResult {
    pub name: &'static str,
    /// Why it failed verification (then it was not timed).
    pub failed: Option<String>,
    pub stats: Stats,
    pub allocs: f64,
    pub bytes: f64,
    /// Scaling series only: peak live heap bytes during one operation.
    pub peak_heap: Option<u64>,
    /// Scaling series only: growth of the process's peak RSS during one operation, KiB.
    pub peak_rss_kib: Option<u64>,
    /// Minor page faults per operation (pages the kernel mapped and zeroed on first touch).
    pub faults: Option<f64>,
}

impl ContenderResult {
    pub fn failed(name: &'static str, reason: String) -> ContenderResult {
        ContenderResult {
            name,
            failed: Some(reason),
            stats: Stats::default(),
            allocs: 0.0,
            bytes: 0.0,
            peak_heap: None,
            peak_rss_kib: None,
            faults: None,
        }
    }

    /// Its statistics as the tables show them: median, p25, p75 and p90 time, allocations,
    /// bytes and page faults per operation.
    pub fn stat_cells(&self) -> [String; 7] {
        [
            fmt_ns(self.stats.median_ns),
            fmt_ns(self.stats.p25_ns),
            fmt_ns(self.stats.p75_ns),
            fmt_ns(self.stats.p90_ns),
            fmt_count(self.allocs),
            fmt_bytes(self.bytes),
            self.faults.map(fmt_count).unwrap_or_else(|| "-".into()),
        ]
    }
}

/// The state of the heap a decode is measured in (BENCHMARKS.md, "Heap states").
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum State {
    /// Batches of the same operation: each finds the heap as its previous iteration left it.
    Hot,
    /// One operation per sample, the contenders in turn, with an allocation churn between
    /// samples (`measure::Churn`): the heap a reader shares with other work.
    Busy,
    /// The first operation of a fresh process, after the allocator trimmed: every page new.
    Cold,
}

impl State {
    /// The suffix of a scenario id in this state.
    pub fn suffix(self) -> &'static str {
        match self {
            State::Hot => "",
            State::Busy => "@busy",
            State::Cold => "@cold",
        }
    }
}

pub struct Scenario {
    pub workload: String,
    pub elements: Option<usize>,
    pub proto: Proto,
    pub op: Op,
    pub bytes: usize,
    pub json_bytes: Option<usize>,
    pub state: State,
    pub contenders: Vec<ContenderResult>,
}

impl Scenario {
    pub fn id(&self) -> String {
        format!("{}{}", self.hot_id(), self.state.suffix())
    }

    /// The id of this scenario in the hot state (what `--filter` and `--cold-child` name).
    pub fn hot_id(&self) -> String {
        let n = self.elements.map(|n| format!("-{n}")).unwrap_or_default();
        format!(
            "{}{n}/{}/{}",
            self.workload,
            self.proto.name(),
            self.op.name()
        )
    }

    /// How many times longer `other` takes than `base`: the median over the rounds of the
    /// ratio of their batches in that round (run back to back, so a change of machine load
    /// between rounds cancels out), or the ratio of the medians when the rounds do not pair up.
    pub fn paired(&self, base: &str, other: &str) -> Option<f64> {
        let find = |name: &str| {
            self.contenders
                .iter()
                .find(|c| c.name == name && c.failed.is_none())
        };
        let (b, o) = (find(base)?, find(other)?);
        if b.stats.rounds.len() != o.stats.rounds.len() {
            return ratio(Some(b.stats.median_ns), Some(o.stats.median_ns));
        }
        let mut ratios: Vec<f64> = b
            .stats
            .rounds
            .iter()
            .zip(&o.stats.rounds)
            .filter(|(b, _)| **b > 0.0)
            .map(|(b, o)| o / b)
            .collect();
        if ratios.is_empty() {
            return None;
        }
        ratios.sort_by(f64::total_cmp);
        Some(crate::measure::median(&ratios))
    }
}

/// `other / base`: how many times faster `base` is.
fn ratio(base: Option<f64>, other: Option<f64>) -> Option<f64> {
    Some(other? / base?)
}

/// The console table of one scenario: a row per contender.
pub fn print_scenario(s: &Scenario) {
    let json = s
        .json_bytes
        .map(|j| format!(", JSON {j} B"))
        .unwrap_or_default();
    println!("\n{}  (input {} B{json})", s.id(), s.bytes);
    println!(
        "  {:<14} {:>11} {:>11} {:>11} {:>11} {:>9} {:>11} {:>8} {:>10}",
        "contender", "median", "p25", "p75", "p90", "allocs", "bytes", "faults", "vs ours"
    );
    for c in &s.contenders {
        if let Some(reason) = &c.failed {
            println!("  {:<14} FAILED verification: {reason}", c.name);
            continue;
        }
        let extra = match (c.peak_heap, c.peak_rss_kib) {
            (Some(h), r) => format!(
                "  peak heap {}, peak RSS +{}",
                fmt_bytes(h as f64),
                r.map(|r| format!("{r} KiB")).unwrap_or_else(|| "?".into())
            ),
            _ => String::new(),
        };
        let [median, p25, p75, p90, allocs, bytes, faults] = c.stat_cells();
        println!(
            "  {:<14} {median:>11} {p25:>11} {p75:>11} {p90:>11} {allocs:>9} {bytes:>11} {faults:>8} {:>10}{extra}",
            c.name,
            fmt_ratio(s.paired("ours", c.name)),
        );
    }
}

/// The machine the run is on: its CPU model and number of cores.
fn machine() -> String {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|s| s.trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".into());
    let cores = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(0);
    format!("{cpu}, {cores} cores")
}
