//! Results: the console tables, the JSON file, the BENCHMARKS.md section and the SVG plot of
//! the scaling series.

use std::fmt::Write as _;
use std::path::PathBuf;

use crate::contenders::{Op, Proto};
use crate::measure::Stats;
use crate::Opts;

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

pub fn fmt_ns(ns: f64) -> String {
    if !ns.is_finite() {
        "-".into()
    } else if ns < 1e3 {
        format!("{ns:.1} ns")
    } else if ns < 1e6 {
        format!("{:.2} µs", ns / 1e3)
    } else if ns < 1e9 {
        format!("{:.2} ms", ns / 1e6)
    } else {
        format!("{:.2} s", ns / 1e9)
    }
}

fn fmt_count(x: f64) -> String {
    if x == x.trunc() {
        format!("{x:.0}")
    } else {
        format!("{x:.2}")
    }
}

fn fmt_bytes(x: f64) -> String {
    if x < 1024.0 {
        format!("{x:.0} B")
    } else if x < 1024.0 * 1024.0 {
        format!("{:.1} KiB", x / 1024.0)
    } else {
        format!("{:.2} MiB", x / 1024.0 / 1024.0)
    }
}

/// `other / base`: how many times faster `base` is.
fn ratio(base: Option<f64>, other: Option<f64>) -> Option<f64> {
    Some(other? / base?)
}

fn fmt_ratio(r: Option<f64>) -> String {
    r.map(|r| format!("{r:.2}x")).unwrap_or_else(|| "-".into())
}

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
        println!(
            "  {:<14} {:>11} {:>11} {:>11} {:>11} {:>9} {:>11} {:>8} {:>10}{extra}",
            c.name,
            fmt_ns(c.stats.median_ns),
            fmt_ns(c.stats.p25_ns),
            fmt_ns(c.stats.p75_ns),
            fmt_ns(c.stats.p90_ns),
            fmt_count(c.allocs),
            fmt_bytes(c.bytes),
            c.faults.map(fmt_count).unwrap_or_else(|| "-".into()),
            fmt_ratio(s.paired("ours", c.name)),
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Targets.

pub struct Target {
    pub what: String,
    pub scenario: String,
    /// Measured value (a ratio, or a count for allocations).
    pub measured: Option<f64>,
    pub goal: f64,
    /// For ratios: met when measured >= goal; for allocations: met when measured <= goal.
    pub at_most: bool,
    pub note: String,
}

impl Target {
    pub fn status(&self) -> &'static str {
        match self.measured {
            None => "not measured",
            Some(m) if (self.at_most && m <= self.goal) || (!self.at_most && m >= self.goal) => {
                "met"
            }
            Some(_) => "missed",
        }
    }

    pub fn measured_text(&self) -> String {
        match self.measured {
            None => "-".into(),
            Some(m) if self.at_most => fmt_count(m),
            Some(m) => format!("{m:.2}x"),
        }
    }
}

fn find<'a>(results: &'a [Scenario], id: &str) -> Option<&'a Scenario> {
    results.iter().find(|s| s.id() == id)
}

fn why_missing(s: Option<&Scenario>, names: &[&str]) -> String {
    let Some(s) = s else {
        return "scenario not run".into();
    };
    for n in names {
        match s.contenders.iter().find(|c| c.name == *n) {
            None => return format!("`{n}` not in this run"),
            Some(c) => {
                if let Some(r) = &c.failed {
                    return format!("`{n}` failed verification: {r}");
                }
            }
        }
    }
    String::new()
}

pub fn targets(results: &[Scenario]) -> Vec<Target> {
    let mut out = Vec::new();
    let mut ratio_target = |what: &str, id: &str, base: &str, other: &str, goal: f64| {
        let s = find(results, id);
        let measured = s.and_then(|s| s.paired(base, other));
        // Where `ours` (or `ours-bytes`) misses, how far the allocations alone (and the
        // reference counts of the shared buffer's slices) let it go: `other`'s time over the
        // time of replaying them without decoding.
        let floor = match base {
            "ours" => Some(("alloc-floor", "ours's heap calls")),
            "ours-bytes" => Some((
                "bytes-floor",
                "ours-bytes's heap calls and `Bytes` clones and drops",
            )),
            _ => None,
        };
        let bound = floor
            .filter(|_| measured.is_some_and(|m| m < goal))
            .and_then(|(floor, what)| Some((s?.paired(floor, other)?, floor, what)));
        out.push(Target {
            what: what.into(),
            scenario: id.into(),
            measured,
            goal,
            at_most: false,
            note: match (measured, bound) {
                (None, _) => why_missing(s, &[base, other]),
                (Some(_), Some((bound, floor, what))) => format!(
                    "allocations alone: `{other}` takes {bound:.2}x the time of {what} \
                     replayed without decoding (`{floor}`), the most any decoder making them \
                     could reach"
                ),
                (Some(_), None) => String::new(),
            },
        });
    };
    // Decode targets hold in every heap state (hot, busy, cold).
    for (p, state) in ["binary", "compact"]
        .into_iter()
        .flat_map(|p| [State::Hot, State::Busy, State::Cold].map(|s| (p, s)))
    {
        let dec = format!("large/{p}/decode{}", state.suffix());
        ratio_target(
            "owned decode with reuse (`decode_into`) ≥3x faster than Apache",
            &dec,
            "ours-decode_into",
            "apache",
            3.0,
        );
        ratio_target(
            "borrowed decode ≥6x faster than Apache",
            &dec,
            "ours-borrowed",
            "apache",
            6.0,
        );
        ratio_target(
            "(arena, sized from the last value) borrowed decode ≥6x faster than Apache",
            &dec,
            "ours-arena",
            "apache",
            6.0,
        );
        ratio_target(
            "owned decode ≥3x faster than Apache",
            &dec,
            "ours",
            "apache",
            3.0,
        );
    }
    for p in ["binary", "compact"] {
        let dec = format!("large/{p}/decode");
        let enc = format!("large/{p}/encode");
        ratio_target(
            "owned decode ≥2x faster than pilota",
            &dec,
            "ours",
            "pilota",
            2.0,
        );
        ratio_target(
            "(Strings::Bytes) owned decode ≥3x faster than Apache",
            &dec,
            "ours-bytes",
            "apache",
            3.0,
        );
        ratio_target(
            "(Strings::Bytes) owned decode ≥2x faster than pilota",
            &dec,
            "ours-bytes",
            "pilota",
            2.0,
        );
        ratio_target(
            "(Strings::Bytes, Collections::Hash + foldhash) owned decode ≥2x faster than pilota",
            &dec,
            "ours-bytes-hash",
            "pilota",
            2.0,
        );
        ratio_target(
            "(Strings::Compact, Collections::Hash + foldhash) owned decode ≥3x faster than Apache",
            &dec,
            "ours-compact-hash",
            "apache",
            3.0,
        );
        ratio_target(
            "(Strings::Compact, Collections::Hash + foldhash) owned decode ≥2x faster than pilota",
            &dec,
            "ours-compact-hash",
            "pilota",
            2.0,
        );
        ratio_target("encode ≥5x faster than Apache", &enc, "ours", "apache", 5.0);
        ratio_target(
            "encode ≥1.5x faster than pilota",
            &enc,
            "ours",
            "pilota",
            1.5,
        );
    }
    for s in results
        .iter()
        .filter(|s| s.workload.starts_with("parquet-") && s.op == Op::Decode)
    {
        let id = s.id();
        ratio_target(
            "Parquet footer decode at least as fast as the parquet crate",
            &id,
            "ours",
            "parquet-crate",
            1.0,
        );
        ratio_target(
            "owned decode with reuse (`decode_into`) at least as fast as the parquet crate",
            &id,
            "ours-decode_into",
            "parquet-crate",
            1.0,
        );
        ratio_target(
            "(Strings::Bytes) Parquet footer decode vs the parquet crate",
            &id,
            "ours-bytes",
            "parquet-crate",
            1.0,
        );
        ratio_target(
            "(Strings::Compact) Parquet footer decode vs the parquet crate",
            &id,
            "ours-compact-hash",
            "parquet-crate",
            1.0,
        );
        ratio_target(
            "(borrowed) Parquet footer decode ≥1.3x the parquet crate's speed",
            &id,
            "ours-borrowed",
            "parquet-crate",
            1.3,
        );
        ratio_target(
            "(arena, sized from the last footer) Parquet footer decode ≥1.3x the parquet crate's speed",
            &id,
            "ours-arena",
            "parquet-crate",
            1.3,
        );
        ratio_target(
            "(arena, reset between footers) Parquet footer decode ≥1.3x the parquet crate's speed",
            &id,
            "ours-arena-reused",
            "parquet-crate",
            1.3,
        );
    }
    // Bytes a decoded footer takes (what the decode allocates), borrowed against the parquet
    // crate's.
    for s in results.iter().filter(|s| {
        s.workload.starts_with("parquet-") && s.op == Op::Decode && s.state == State::Hot
    }) {
        let bytes = |name: &str| {
            s.contenders
                .iter()
                .find(|c| c.name == name && c.failed.is_none())
                .map(|c| c.bytes)
        };
        // `ours-arena` allocates one block of the value's bytes per decode.
        for (form, name) in [
            ("borrowed", "ours-borrowed"),
            ("arena", "ours-arena"),
            (
                "arena, meta_data and statistics inline",
                "ours-arena-inline",
            ),
        ] {
            let measured = bytes(name)
                .zip(bytes("parquet-crate"))
                .map(|(ours, theirs)| ours / theirs);
            out.push(Target {
                what: format!("({form}) bytes per decoded footer ≤ the parquet crate's (ratio)"),
                scenario: s.id(),
                measured,
                goal: 1.0,
                at_most: true,
                note: match measured {
                    None => why_missing(Some(s), &[name, "parquet-crate"]),
                    Some(_) => String::new(),
                },
            });
        }
    }
    // Steady state of `decode_into`: the most allocations any decode of the large struct or a
    // footer makes.
    let most = most_allocs(results, "ours-decode_into", |s| {
        s.op == Op::Decode
            && s.state == State::Hot
            && (s.workload == "large" || s.workload.starts_with("parquet-"))
    });
    out.push(Target {
        what: "0 allocations per `decode_into` in steady state (large struct, footers)".into(),
        scenario: most
            .as_ref()
            .map(|(_, id)| format!("max over those decodes ({id})"))
            .unwrap_or_default(),
        note: if most.as_ref().is_some_and(|(a, _)| *a > 0.0) {
            "sets and maps are built again (docs/src/reference/generating.md, `decode_into`): their entries are read over \
             the old ones, but std's B-trees allocate their nodes again (the large struct: 5 maps \
             and sets, 50 more in its `inners`)"
                .into()
        } else {
            String::new()
        },
        measured: most.map(|(a, _)| a),
        goal: 0.0,
        at_most: true,
    });
    let worst = most_allocs(results, "ours", |s| s.op == Op::Encode);
    out.push(Target {
        what: "0 allocations per encode (`encode` into a reused Vec)".into(),
        scenario: worst
            .as_ref()
            .map(|(_, id)| format!("max over every encode scenario ({id})"))
            .unwrap_or_default(),
        measured: worst.map(|(a, _)| a),
        goal: 0.0,
        at_most: true,
        note: String::new(),
    });
    out
}

/// The most allocations per operation `name` makes in the scenarios `wanted` picks, and where.
fn most_allocs(
    results: &[Scenario],
    name: &str,
    wanted: impl Fn(&Scenario) -> bool,
) -> Option<(f64, String)> {
    let mut most: Option<(f64, String)> = None;
    for s in results.iter().filter(|s| wanted(s)) {
        if let Some(c) = s
            .contenders
            .iter()
            .find(|c| c.name == name && c.failed.is_none())
        {
            if most.as_ref().is_none_or(|(a, _)| c.allocs > *a) {
                most = Some((c.allocs, s.id()));
            }
        }
    }
    most
}

pub fn print_targets(targets: &[Target]) {
    println!("\nTargets:");
    for t in targets {
        println!(
            "  {:<8} {:<62} {:<28} {:>8} {}",
            t.status(),
            t.what,
            t.scenario,
            t.measured_text(),
            t.note
        );
    }
}

// ---------------------------------------------------------------------------------------------
// JSON.

fn js(s: &str) -> String {
    let mut o = String::with_capacity(s.len() + 2);
    o.push('"');
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            '\n' => o.push_str("\\n"),
            c if (c as u32) < 0x20 => {
                let _ = write!(o, "\\u{:04x}", c as u32);
            }
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

fn jn(x: f64) -> String {
    if x.is_finite() {
        format!("{x}")
    } else {
        "null".into()
    }
}

fn jopt<T: std::fmt::Display>(x: Option<T>) -> String {
    x.map(|x| x.to_string()).unwrap_or_else(|| "null".into())
}

pub fn json(results: &[Scenario], targets: &[Target], opts: &Opts) -> String {
    let mut o = String::new();
    o.push_str("{\n  \"version\": 1,\n");
    let _ = writeln!(
        o,
        "  \"args\": [{}],",
        opts.args
            .iter()
            .map(|a| js(a))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let _ = writeln!(o, "  \"quick\": {},", opts.quick);
    let _ = writeln!(o, "  \"machine\": {},", js(&machine()));
    o.push_str("  \"scenarios\": [\n");
    for (i, s) in results.iter().enumerate() {
        let _ = write!(
            o,
            "    {{\"id\": {}, \"workload\": {}, \"elements\": {}, \"protocol\": {}, \"op\": {}, \"input_bytes\": {}, \"json_bytes\": {},\n      \"contenders\": [\n",
            js(&s.id()),
            js(&s.workload),
            jopt(s.elements),
            js(s.proto.name()),
            js(s.op.name()),
            s.bytes,
            jopt(s.json_bytes)
        );
        for (j, c) in s.contenders.iter().enumerate() {
            let ratios: Vec<String> = s
                .contenders
                .iter()
                .filter(|d| d.name != c.name)
                .filter_map(|d| {
                    let r = s.paired(c.name, d.name)?;
                    Some(format!("{}: {}", js(d.name), jn(r)))
                })
                .collect();
            let _ = writeln!(
                o,
                "        {{\"name\": {}, \"failed\": {}, \"median_ns\": {}, \"p25_ns\": {}, \"p75_ns\": {}, \"p90_ns\": {}, \"samples\": {}, \"iters_per_sample\": {}, \"allocs_per_op\": {}, \"bytes_per_op\": {}, \"peak_heap_bytes\": {}, \"peak_rss_growth_kib\": {}, \"faults_per_op\": {}, \"speedup_vs\": {{{}}}}}{}",
                js(c.name),
                c.failed.as_deref().map(js).unwrap_or_else(|| "null".into()),
                jn(c.stats.median_ns),
                jn(c.stats.p25_ns),
                jn(c.stats.p75_ns),
                jn(c.stats.p90_ns),
                c.stats.samples,
                c.stats.iters_per_sample,
                jn(c.allocs),
                jn(c.bytes),
                jopt(c.peak_heap),
                jopt(c.peak_rss_kib),
                c.faults.map(jn).unwrap_or_else(|| "null".into()),
                ratios.join(", "),
                if j + 1 < s.contenders.len() { "," } else { "" }
            );
        }
        let _ = writeln!(
            o,
            "      ]}}{}",
            if i + 1 < results.len() { "," } else { "" }
        );
    }
    o.push_str("  ],\n  \"targets\": [\n");
    for (i, t) in targets.iter().enumerate() {
        let _ = writeln!(
            o,
            "    {{\"target\": {}, \"scenario\": {}, \"measured\": {}, \"goal\": {}, \"status\": {}, \"note\": {}}}{}",
            js(&t.what),
            js(&t.scenario),
            t.measured.map(jn).unwrap_or_else(|| "null".into()),
            jn(t.goal),
            js(t.status()),
            js(&t.note),
            if i + 1 < targets.len() { "," } else { "" }
        );
    }
    o.push_str("  ]\n}\n");
    o
}

// ---------------------------------------------------------------------------------------------
// Markdown and SVG.

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

/// Versions of the contender crates, from benchmarks/Cargo.lock.
fn versions() -> String {
    let lock =
        std::fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("Cargo.lock"))
            .unwrap_or_default();
    let mut out = Vec::new();
    for name in ["thrift", "pilota", "pilota-build", "parquet", "serde_json"] {
        let needle = format!("name = \"{name}\"\nversion = \"");
        if let Some(i) = lock.find(&needle) {
            let rest = &lock[i + needle.len()..];
            if let Some(end) = rest.find('"') {
                out.push(format!("`{name}` {}", &rest[..end]));
            }
        }
    }
    out.join(", ")
}

const START: &str = "<!-- serialization-bench:start (generated by `bench --markdown`; edits inside are overwritten) -->";
const END: &str = "<!-- serialization-bench:end -->";

fn scenario_table(md: &mut String, s: &Scenario) {
    let json = s
        .json_bytes
        .map(|j| format!(", JSON {j} B"))
        .unwrap_or_default();
    let _ = writeln!(md, "\n**`{}`** (input {} B{json})\n", s.id(), s.bytes);
    let scaling = s.elements.is_some();
    md.push_str("| contender | median | p25 | p75 | p90 | allocs/op | bytes/op | faults/op |");
    if scaling {
        md.push_str(" peak heap | peak RSS growth |");
    }
    md.push_str(" time / ours |\n|---|--:|--:|--:|--:|--:|--:|--:|");
    if scaling {
        md.push_str("--:|--:|");
    }
    md.push_str("--:|\n");
    for c in &s.contenders {
        if let Some(r) = &c.failed {
            let _ = writeln!(
                md,
                "| {} | **failed verification**: {} |",
                c.name,
                r.replace('|', "\\|")
            );
            continue;
        }
        let _ = write!(
            md,
            "| {} | {} | {} | {} | {} | {} | {} | {} |",
            c.name,
            fmt_ns(c.stats.median_ns),
            fmt_ns(c.stats.p25_ns),
            fmt_ns(c.stats.p75_ns),
            fmt_ns(c.stats.p90_ns),
            fmt_count(c.allocs),
            fmt_bytes(c.bytes),
            c.faults.map(fmt_count).unwrap_or_else(|| "-".into())
        );
        if scaling {
            let _ = write!(
                md,
                " {} | {} |",
                c.peak_heap.map(|h| fmt_bytes(h as f64)).unwrap_or_default(),
                c.peak_rss_kib
                    .map(|r| format!("{r} KiB"))
                    .unwrap_or_else(|| "-".into())
            );
        }
        let _ = writeln!(md, " {} |", fmt_ratio(s.paired("ours", c.name)));
    }
}

pub fn markdown(results: &[Scenario], targets: &[Target], opts: &Opts) {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut md = String::new();
    md.push_str(START);
    md.push_str(
        "\n\n## Serialization: ours against Apache Thrift, pilota, serde_json and memcpy\n\n",
    );
    md.push_str("`./benchmarks/setup.sh && cargo run --release --manifest-path benchmarks/Cargo.toml --bin bench -- --markdown`\n");
    md.push_str("(see [benchmarks/README.md](benchmarks/README.md) for the quick run and the compare mode)\n\n");
    let features: Vec<&str> = [
        ("apache", cfg!(feature = "apache")),
        ("pilota", cfg!(feature = "pilota")),
        ("parquet", cfg!(feature = "parquet")),
        ("json", cfg!(feature = "json")),
        ("borrowed", cfg!(feature = "borrowed")),
    ]
    .iter()
    .filter(|f| f.1)
    .map(|f| f.0)
    .collect();
    let _ = writeln!(
        md,
        "Machine: {}. Contenders: {}. Cargo features: `{}`. Arguments: `{}`{}.\n",
        machine(),
        versions(),
        features.join(","),
        opts.args.join(" "),
        if opts.quick {
            " (**quick smoke run: numbers are rough**)"
        } else {
            ""
        }
    );
    md.push_str("Per scenario: time per operation (median and p25/p75/p90 over the samples; each sample is a batch of about ");
    let _ = write!(
        md,
        "{} µs; at least {} samples; contenders interleaved batch by batch in one process), ",
        opts.cfg.batch.as_micros(),
        opts.cfg.min_samples
    );
    md.push_str("allocations and bytes allocated per operation (a counting global allocator), and `time / ours` = the contender's time over ours, the median over the rounds of the ratio of their batches in the same round (above 1: ours is faster; paired round by round so that a change of machine load between rounds cancels out). ");
    md.push_str("Heap states (decodes of the large struct and the Parquet footers): each such decode has three rows. The plain id is **hot**: batches of the same operation, each finding the heap as its previous iteration left it. `@busy` is a heap shared with other work: one operation per sample (or as many as take about 50 µs), the contenders in turn, and between samples a fixed allocation churn (a ring of 512 live blocks of 16 B to 1 MiB, 96 replaced per sample, every page touched; `measure::Churn`). `@cold` is the first decode of a fresh process after the allocator trimmed (`malloc_trim(0)`): the bench binary runs itself once per sample, 11 processes per contender (3 with `--quick`), median; allocations are not counted there. `faults/op` is minor page faults per operation (`/proc/self/stat`): pages the kernel maps and zeroes on first touch, what a cold or trimmed heap pays for large allocations.\n\n");
    md.push_str("Decode includes dropping the decoded value; encode writes into a reused buffer (for ours: `encode`, the call a user makes; `ours-encode_to_vec` is `encode_to_vec`, a new vector per value; `ours-decode_into` decodes into the same value again and again with `decode_into`, which reuses its allocations, as a reader of a stream of similar messages does). Every contender's bytes are checked to decode to the same value before timing.\n\n");

    md.push_str(
        "### Targets\n\n| target | scenario | measured | status | note |\n|---|---|--:|---|---|\n",
    );
    for t in targets {
        let _ = writeln!(
            md,
            "| {} | `{}` | {} | **{}** | {} |",
            t.what,
            t.scenario,
            t.measured_text(),
            t.status(),
            t.note.replace('|', "\\|")
        );
    }

    let failures: Vec<(String, &str, &str)> = results
        .iter()
        .flat_map(|s| {
            s.contenders
                .iter()
                .filter_map(move |c| c.failed.as_deref().map(|r| (s.id(), c.name, r)))
        })
        .collect();
    if !failures.is_empty() {
        md.push_str("\n### Contenders that failed verification (not timed)\n\n| scenario | contender | reason |\n|---|---|---|\n");
        for (id, name, r) in &failures {
            let _ = writeln!(md, "| `{id}` | {name} | {} |", r.replace('|', "\\|"));
        }
    }

    md.push_str("\n### Large nested struct\n");
    for s in results.iter().filter(|s| s.workload == "large") {
        scenario_table(&mut md, s);
    }
    md.push_str("\n### Small struct\n");
    for s in results.iter().filter(|s| s.workload == "small") {
        scenario_table(&mut md, s);
    }
    if results.iter().any(|s| s.workload.starts_with("header-")) {
        md.push_str("\n### THeader: the small and large struct as a message through THeader frames\n\nThe header scenarios of Apache's protocol benchmark: binary and compact payloads, and the zlib transform (`header-zlib-…`). Apache's Rust crate has no THeader transport (pilota's TTHeader is another format), so the contenders are ours: `ours` reads or writes the THeader frame, `framed` the same message in a framed transport, `bare-struct` the struct alone; `time / ours` below 1 is what THeader costs over them. A decode copies the frame into a reused connection buffer (the socket read), splits it off (`frame::decode`: header, zlib inflate) and decodes the body; an encode writes the frame into a reused buffer (`begin_frame`, message, `end_frame`: lengths, zlib deflate at the default level). zlib state is kept per thread between frames. Input = the THeader frame's size.\n");
        for s in results.iter().filter(|s| s.workload.starts_with("header-")) {
            scenario_table(&mut md, s);
        }
    }
    md.push_str("\n### Parquet footers (`FileMetaData`, compact protocol)\n\nFiles written by `benchmarks/setup.sh`: `narrow`, `wide` and `nested` by pyarrow, `crate-doubles` (100 double columns x 20 row groups) and `crate-mixed` (1000 columns of int64, double, utf8 and bool x 10 row groups) by the parquet crate itself with its default `WriterProperties` (page statistics, size statistics, column and offset indexes; `src/bin/write_footers.rs`). The parquet crate decodes into its own `ParquetMetaData` (`ParquetMetaDataReader::decode_metadata`). Selective decoding: `ours-skip-stats` (and `-borrowed`) is parquet.thrift generated with `Builder::skip_fields` naming `ColumnMetaData.statistics`, `size_statistics` and `encoding_stats`, read past without allocating; `parquet-crate-no-stats` is the parquet crate told to skip the same with `ParquetMetaDataOptions` (column, size and encoding stats `SkipAll`). `ours-borrowed-boxed` is the borrowing form generated with `Builder::boxed` on `ColumnMetaData.size_statistics`, `geospatial_statistics` and `ColumnChunk.crypto_metadata`, optional structs that most footers do not set: 528 bytes per `ColumnChunkRef` instead of 768, one allocation per value set. `ours-arena` is the borrowing form generated in arena mode (`Builder::arena`: lists as slices and optional structs as references, in a `thrift_runtime::Arena`), decoded into a new arena per decode with room for the value (one allocation per footer, of the value's bytes); `ours-arena-reused` decodes into one arena reset between footers (no allocation); `ours-arena-inline` is arena mode with `Builder::arena_inline` on `ColumnChunk.meta_data` and `ColumnMetaData.statistics`, which every writer of these footers sets (held inline instead of as references), decoded as `ours-arena`.\n");
    for s in results
        .iter()
        .filter(|s| s.workload.starts_with("parquet-"))
    {
        scenario_table(&mut md, s);
    }

    md.push_str("\n### Scaling series: `Scaling { list<Element> }` with N elements\n\n![scaling series](benchmarks/scaling.svg)\n\nMedian time per operation:\n\n");
    let scaling: Vec<&Scenario> = results.iter().filter(|s| s.elements.is_some()).collect();
    let mut names: Vec<&str> = Vec::new();
    for s in &scaling {
        for c in &s.contenders {
            if !names.contains(&c.name) {
                names.push(c.name);
            }
        }
    }
    let ns: Vec<usize> = {
        let mut v: Vec<usize> = scaling.iter().filter_map(|s| s.elements).collect();
        v.sort();
        v.dedup();
        v
    };
    for proto in [Proto::Binary, Proto::Compact] {
        for op in [Op::Decode, Op::Encode] {
            let _ = write!(
                md,
                "\n`{}/{}` | N = {} |\n|---|{}\n",
                proto.name(),
                op.name(),
                ns.iter()
                    .map(|n| n.to_string())
                    .collect::<Vec<_>>()
                    .join(" | "),
                "--:|".repeat(ns.len())
            );
            for name in &names {
                let cells: Vec<String> = ns
                    .iter()
                    .map(|n| {
                        scaling
                            .iter()
                            .find(|s| s.elements == Some(*n) && s.proto == proto && s.op == op)
                            .and_then(|s| s.contenders.iter().find(|c| c.name == *name))
                            .map(|c| {
                                if c.failed.is_some() {
                                    "failed".into()
                                } else {
                                    fmt_ns(c.stats.median_ns)
                                }
                            })
                            .unwrap_or_else(|| "-".into())
                    })
                    .collect();
                if cells.iter().all(|c| c == "-") {
                    continue;
                }
                let _ = writeln!(md, "| {name} | {} |", cells.join(" | "));
            }
        }
    }
    md.push_str("\nPeak live heap during one operation / growth of the process's peak RSS during one operation (VmHWM reset through `/proc/self/clear_refs`; pages the allocator already holds do not count, so the heap column is the precise one):\n");
    for proto in [Proto::Binary, Proto::Compact] {
        for op in [Op::Decode, Op::Encode] {
            let _ = write!(
                md,
                "\n`{}/{}` | N = {} |\n|---|{}\n",
                proto.name(),
                op.name(),
                ns.iter()
                    .map(|n| n.to_string())
                    .collect::<Vec<_>>()
                    .join(" | "),
                "--:|".repeat(ns.len())
            );
            for name in &names {
                let cells: Vec<String> = ns
                    .iter()
                    .map(|n| {
                        scaling
                            .iter()
                            .find(|s| s.elements == Some(*n) && s.proto == proto && s.op == op)
                            .and_then(|s| {
                                s.contenders
                                    .iter()
                                    .find(|c| c.name == *name && c.failed.is_none())
                            })
                            .map(|c| {
                                format!(
                                    "{} / {}",
                                    c.peak_heap.map(|h| fmt_bytes(h as f64)).unwrap_or_default(),
                                    c.peak_rss_kib
                                        .map(|r| format!("{r} KiB"))
                                        .unwrap_or_else(|| "-".into())
                                )
                            })
                            .unwrap_or_else(|| "-".into())
                    })
                    .collect();
                if cells.iter().all(|c| c == "-") {
                    continue;
                }
                let _ = writeln!(md, "| {name} | {} |", cells.join(" | "));
            }
        }
    }
    md.push_str("\n<details><summary>Every scaling scenario</summary>\n");
    for s in &scaling {
        scenario_table(&mut md, s);
    }
    md.push_str("\n</details>\n\n");
    md.push_str(END);

    let path = root.join("../BENCHMARKS.md");
    let old = std::fs::read_to_string(&path).unwrap_or_default();
    let new = match (old.find(START), old.find(END)) {
        (Some(a), Some(b)) if b > a => format!("{}{}{}", &old[..a], md, &old[b + END.len()..]),
        _ => format!("{}\n{}\n", old.trim_end(), md),
    };
    std::fs::write(&path, new).expect("write BENCHMARKS.md");
    eprintln!("wrote {}", path.display());
    // A run without the scaling series (filtered) leaves the chart of the last one.
    if !scaling.is_empty() {
        let svg_path = root.join("scaling.svg");
        std::fs::write(&svg_path, svg(&scaling, &names, &ns)).expect("write scaling.svg");
        eprintln!("wrote {}", svg_path.display());
    }
}

const COLORS: &[(&str, &str)] = &[
    ("ours", "#d62728"),
    ("ours-borrowed", "#ff7f0e"),
    ("ours-arena", "#ffbb78"),
    ("ours-arena-reused", "#c49c94"),
    ("ours-bytes", "#e377c2"),
    ("ours-hash", "#8c564b"),
    ("ours-bytes-hash", "#bcbd22"),
    ("ours-compact-hash", "#17becf"),
    ("apache", "#1f77b4"),
    ("pilota", "#2ca02c"),
    ("serde_json", "#9467bd"),
    ("memcpy", "#7f7f7f"),
    ("alloc-floor", "#c7c7c7"),
    ("bytes-floor", "#dbdb8d"),
];

/// Four panels (binary/compact × decode/encode): log-scale time per operation against N.
fn svg(scaling: &[&Scenario], names: &[&str], ns: &[usize]) -> String {
    let (pw, ph) = (420.0, 260.0);
    let (ml, mt, gap) = (70.0, 40.0, 60.0);
    let width = ml + 2.0 * pw + gap + 20.0;
    let height = mt + 2.0 * ph + gap + 90.0;
    let all: Vec<f64> = scaling
        .iter()
        .flat_map(|s| {
            s.contenders
                .iter()
                .filter(|c| c.failed.is_none())
                .map(|c| c.stats.median_ns)
        })
        .filter(|x| x.is_finite() && *x > 0.0)
        .collect();
    // No time at all starts the scale at 1 ns: an infinite lowest decade would never end the
    // grid's loop.
    let min = all.iter().cloned().fold(f64::INFINITY, f64::min);
    let lo = if min.is_finite() { min.max(1.0) } else { 1.0 }
        .log10()
        .floor();
    let hi = all
        .iter()
        .cloned()
        .fold(0.0, f64::max)
        .max(10.0)
        .log10()
        .ceil()
        .max(lo + 1.0);
    let mut o = String::new();
    let _ = writeln!(
        o,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="11">"#
    );
    let _ = writeln!(o, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(
        o,
        r#"<text x="{}" y="20" font-size="14" text-anchor="middle">Scaling series: median time per operation (log scale) against the number of elements</text>"#,
        width / 2.0
    );
    for (pi, (proto, op)) in [
        (Proto::Binary, Op::Decode),
        (Proto::Binary, Op::Encode),
        (Proto::Compact, Op::Decode),
        (Proto::Compact, Op::Encode),
    ]
    .into_iter()
    .enumerate()
    {
        let x0 = ml + (pi % 2) as f64 * (pw + gap);
        let y0 = mt + (pi / 2) as f64 * (ph + gap);
        let x = |i: usize| x0 + pw * i as f64 / (ns.len().max(2) - 1) as f64;
        let y = |ns_: f64| y0 + ph - ph * (ns_.max(1.0).log10() - lo) / (hi - lo);
        let _ = writeln!(
            o,
            r##"<rect x="{x0}" y="{y0}" width="{pw}" height="{ph}" fill="none" stroke="#888"/>"##
        );
        let _ = writeln!(
            o,
            r#"<text x="{}" y="{}" text-anchor="middle" font-size="12">{} {}</text>"#,
            x0 + pw / 2.0,
            y0 - 6.0,
            proto.name(),
            op.name()
        );
        let mut d = lo;
        while d <= hi {
            let yy = y(10f64.powf(d));
            let _ = writeln!(
                o,
                r##"<line x1="{x0}" x2="{}" y1="{yy}" y2="{yy}" stroke="#ddd"/><text x="{}" y="{}" text-anchor="end">{}</text>"##,
                x0 + pw,
                x0 - 4.0,
                yy + 4.0,
                fmt_ns(10f64.powf(d))
            );
            d += 1.0;
        }
        for (i, n) in ns.iter().enumerate() {
            let _ = writeln!(
                o,
                r#"<text x="{}" y="{}" text-anchor="middle">{n}</text>"#,
                x(i),
                y0 + ph + 14.0
            );
        }
        for name in names {
            let color = COLORS
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, c)| *c)
                .unwrap_or("black");
            let pts: Vec<String> = ns
                .iter()
                .enumerate()
                .filter_map(|(i, n)| {
                    let s = scaling
                        .iter()
                        .find(|s| s.elements == Some(*n) && s.proto == proto && s.op == op)?;
                    let c = s
                        .contenders
                        .iter()
                        .find(|c| c.name == *name && c.failed.is_none())?;
                    // Nothing to draw on a log scale for no time (`alloc-floor` with no
                    // allocations).
                    (c.stats.median_ns > 0.0)
                        .then(|| format!("{:.1},{:.1}", x(i), y(c.stats.median_ns)))
                })
                .collect();
            if pts.is_empty() {
                continue;
            }
            let _ = writeln!(
                o,
                r#"<polyline fill="none" stroke="{color}" stroke-width="2" points="{}"/>"#,
                pts.join(" ")
            );
            for p in &pts {
                let (px, py) = p.split_once(',').unwrap();
                let _ = writeln!(o, r#"<circle cx="{px}" cy="{py}" r="2.5" fill="{color}"/>"#);
            }
        }
    }
    let ly = mt + 2.0 * ph + gap + 30.0;
    let _ = writeln!(
        o,
        r#"<text x="{}" y="{}" text-anchor="middle">elements (N)</text>"#,
        width / 2.0,
        ly - 8.0
    );
    for (i, name) in names.iter().enumerate() {
        let color = COLORS
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, c)| *c)
            .unwrap_or("black");
        // As many 130-pixel entries per row as fit, further rows 20 pixels down.
        let per_row = ((width - ml) / 130.0) as usize;
        let lx = ml + (i % per_row) as f64 * 130.0;
        let row_y = ly + (i / per_row) as f64 * 20.0;
        let _ = writeln!(
            o,
            r#"<line x1="{lx}" x2="{}" y1="{}" y2="{}" stroke="{color}" stroke-width="3"/><text x="{}" y="{}">{name}</text>"#,
            lx + 24.0,
            row_y + 16.0,
            row_y + 16.0,
            lx + 30.0,
            row_y + 20.0
        );
    }
    o.push_str("</svg>\n");
    o
}
