//! Serialization benchmarks: this project's generated code (owned, and borrowed with the
//! `borrowed` feature) against Apache Thrift's generated code and `thrift` crate, CloudWeGo's
//! pilota, serde_json on the same data, and a memcpy floor; real Parquet footers against the
//! `parquet` crate's footer decoder.
//!
//! ```text
//! cargo run --release --manifest-path benchmarks/Cargo.toml --bin bench -- [OPTIONS]
//!   --quick            smoke run: short batches and budgets, 10 samples (a few seconds)
//!   --iterations N     run each operation exactly N times, untimed batches off: for
//!                      instruction counts under callgrind (see benchmarks/README.md)
//!   --budget SECS      time budget per scenario (default 1.5; at least --samples samples)
//!   --samples N        minimum samples per contender (default 30)
//!   --filter TEXT      only scenarios whose id contains TEXT (repeatable), e.g. large/compact
//!   --only A,B         only these contenders (`ours` = ours and ours-borrowed; ours-bytes, ours-hash… by name)
//!   --json PATH        where to write the results (default benchmarks/results/latest.json)
//!   --markdown         rewrite the section of BENCHMARKS.md and benchmarks/scaling.svg
//!                      (a whole run only: not with --filter or --only)
//!   --data DIR         directory of the Parquet files (default benchmarks/data)
//!   --hot-only         measure decodes in the hot state only (no busy heap, no cold runs)
//!   --cold-runs N      fresh processes per contender for the cold state (default 11)
//! ```
//!
//! Decodes of the large struct and of the Parquet footers are measured in three heap states
//! (`report::State`): hot (batches), busy (one operation per sample, contenders in turn, an
//! allocation churn between samples) and cold (the first decode in a fresh process after the
//! allocator trimmed: this binary runs itself with `--cold-child ID CONTENDER` per sample).
//! See benchmarks/README.md.

mod alloc;
mod contenders;
mod data;
#[cfg(feature = "header")]
mod header;
mod measure;
mod report;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use contenders::{Op, Prepared, Proto, Workload};
use measure::Config;
use report::{ContenderResult, Scenario, State};

#[global_allocator]
static GLOBAL: alloc::Counting = alloc::Counting;

/// The code every contender generated from the same IDL.
#[allow(dead_code, clippy::all)]
pub mod gen {
    pub mod ours {
        include!(concat!(env!("OUT_DIR"), "/ours/thrift.rs"));
    }

    /// bench.thrift and parquet.thrift with `Strings::Bytes`: strings and binaries as
    /// `ByteString`/`Bytes`, decoded from a `Bytes` as slices of it.
    #[cfg(feature = "mappings")]
    pub mod ours_bytes {
        include!(concat!(env!("OUT_DIR"), "/ours_bytes/thrift.rs"));
    }

    /// bench.thrift and parquet.thrift in arena mode (`Builder::arena`): the borrowing forms'
    /// lists, sets, maps and optional structs in a `thrift_runtime::Arena`.
    #[cfg(feature = "arena")]
    pub mod ours_arena {
        include!(concat!(env!("OUT_DIR"), "/ours_arena/thrift.rs"));
    }

    /// parquet.thrift in arena mode with `ColumnChunk.meta_data` and
    /// `ColumnMetaData.statistics` held inline (`Builder::arena_inline`).
    #[cfg(feature = "arena")]
    pub mod ours_arena_inline {
        include!(concat!(env!("OUT_DIR"), "/ours_arena_inline/thrift.rs"));
    }

    /// parquet.thrift with `ColumnMetaData.size_statistics`, `geospatial_statistics` and
    /// `ColumnChunk.crypto_metadata` held in a `Box` (`Builder::boxed`).
    #[cfg(feature = "mappings")]
    pub mod ours_boxed {
        include!(concat!(env!("OUT_DIR"), "/ours_boxed/thrift.rs"));
    }

    /// parquet.thrift with the column statistics, size statistics and encoding stats skipped
    /// on decode (`Builder::skip_fields`).
    #[cfg(feature = "skip")]
    pub mod ours_skip {
        include!(concat!(env!("OUT_DIR"), "/ours_skip/thrift.rs"));
    }

    /// bench.thrift with `Strings::Bytes`, `Collections::Hash` and
    /// `::foldhash::fast::RandomState` as the hasher: pilota's mapping.
    #[cfg(feature = "mappings")]
    pub mod ours_bytes_hash {
        include!(concat!(env!("OUT_DIR"), "/ours_bytes_hash/thrift.rs"));
    }

    /// bench.thrift and parquet.thrift with `Strings::Compact`, `Collections::Hash` and
    /// foldhash: strings inline up to 24 bytes, binaries as `Bytes`, hash maps.
    #[cfg(feature = "compact")]
    pub mod ours_compact_hash {
        include!(concat!(env!("OUT_DIR"), "/ours_compact_hash/thrift.rs"));
    }

    /// bench.thrift with `Collections::Hash`: sets and maps as `HashSet`/`HashMap`.
    #[cfg(feature = "mappings")]
    pub mod ours_hash {
        include!(concat!(env!("OUT_DIR"), "/ours_hash/thrift.rs"));
    }

    /// Apache's `thrift --gen rs` output (inner attributes stripped by build.rs).
    #[cfg(feature = "apache")]
    #[allow(
        unused_imports,
        unused_extern_crates,
        non_camel_case_types,
        unused_variables,
        unused_mut,
        clippy::all
    )]
    #[rustfmt::skip]
    pub mod apache {
        pub mod bench {
            include!(concat!(env!("OUT_DIR"), "/apache/bench.rs"));
        }
        pub mod parquet {
            include!(concat!(env!("OUT_DIR"), "/apache/parquet.rs"));
        }
    }

    #[cfg(feature = "pilota")]
    include!(concat!(env!("OUT_DIR"), "/pilota_bench.rs"));
    #[cfg(feature = "pilota")]
    include!(concat!(env!("OUT_DIR"), "/pilota_parquet.rs"));
}

pub struct Opts {
    pub cfg: Config,
    pub quick: bool,
    filters: Vec<String>,
    only: Option<Vec<String>>,
    json: Option<PathBuf>,
    pub markdown: bool,
    data: PathBuf,
    pub args: Vec<String>,
    /// Busy and cold states for the decodes that have them.
    states: bool,
    cold_runs: usize,
    /// `--cold-child ID CONTENDER`: this process is one cold sample.
    cold_child: Option<(String, String)>,
}

impl Opts {
    fn parse() -> Opts {
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
        let args: Vec<String> = std::env::args().skip(1).collect();
        let mut o = Opts {
            cfg: Config {
                batch: Duration::from_millis(2),
                budget: Duration::from_millis(1500),
                min_samples: 30,
                max_samples: 100_000,
                fixed_iterations: None,
            },
            quick: false,
            filters: Vec::new(),
            only: None,
            json: Some(root.join("results/latest.json")),
            markdown: false,
            data: root.join("data"),
            args: args.clone(),
            states: true,
            cold_runs: 11,
            cold_child: None,
        };
        let mut budget = None;
        let mut samples = None;
        let mut it = args.into_iter();
        let usage = || -> ! {
            eprintln!("usage: bench [--quick] [--budget SECS] [--samples N] [--iterations N] [--filter TEXT]... [--only A,B] [--json PATH|-] [--markdown] [--data DIR] [--hot-only] [--cold-runs N]");
            std::process::exit(2)
        };
        while let Some(a) = it.next() {
            let mut val = || it.next().unwrap_or_else(|| usage());
            match a.as_str() {
                "--quick" => o.quick = true,
                "--budget" => budget = Some(val().parse::<f64>().unwrap_or_else(|_| usage())),
                "--samples" => samples = Some(val().parse::<usize>().unwrap_or_else(|_| usage())),
                "--filter" => o.filters.push(val()),
                "--iterations" => {
                    o.cfg.fixed_iterations = Some(val().parse::<u64>().unwrap_or_else(|_| usage()));
                    // Instruction counts are of the operation alone: no heap states.
                    o.states = false;
                }
                "--only" => o.only = Some(val().split(',').map(str::to_string).collect()),
                "--json" => {
                    let v = val();
                    o.json = (v != "-").then(|| PathBuf::from(v));
                }
                "--markdown" => o.markdown = true,
                "--data" => o.data = PathBuf::from(val()),
                "--hot-only" => o.states = false,
                "--cold-runs" => o.cold_runs = val().parse().unwrap_or_else(|_| usage()),
                "--cold-child" => {
                    let id = val();
                    o.cold_child = Some((id, val()));
                }
                "-h" | "--help" => usage(),
                _ => usage(),
            }
        }
        if o.markdown && (!o.filters.is_empty() || o.only.is_some()) {
            // The section is written whole: a filtered run would drop every other table.
            eprintln!("--markdown rewrites the whole section of BENCHMARKS.md: run it without --filter and --only");
            std::process::exit(2);
        }
        if o.quick {
            o.cfg.batch = Duration::from_micros(200);
            o.cfg.budget = Duration::from_millis(30);
            o.cfg.min_samples = 10;
            o.cold_runs = o.cold_runs.min(3);
        }
        if let Some(b) = budget {
            o.cfg.budget = Duration::from_secs_f64(b);
        }
        if let Some(s) = samples {
            o.cfg.min_samples = s;
        }
        o
    }

    fn wants_scenario(&self, id: &str) -> bool {
        self.filters.is_empty() || self.filters.iter().any(|f| id.contains(f.as_str()))
    }

    fn wants_contender(&self, name: &str) -> bool {
        match &self.only {
            None => true,
            Some(list) => list
                .iter()
                .any(|o| name == o || (o == "ours" && name == "ours-borrowed")),
        }
    }
}

/// Whether any scenario of this workload is selected (so that it is worth preparing).
fn wanted(opts: &Opts, workload: &str, elements: Option<usize>, proto: Proto) -> bool {
    let n = elements.map(|n| format!("-{n}")).unwrap_or_default();
    [Op::Decode, Op::Encode]
        .iter()
        .any(|op| opts.wants_scenario(&format!("{workload}{n}/{}/{}", proto.name(), op.name())))
}

/// Runs the decode and encode scenarios of one prepared workload; the decodes of the large
/// struct and of the Parquet footers in the busy and cold states too.
fn run<W: Workload>(
    p: &Prepared<W>,
    workload: &str,
    elements: Option<usize>,
    opts: &Opts,
    out: &mut Vec<Scenario>,
) {
    for op in [Op::Decode, Op::Encode] {
        let scenario = |state| Scenario {
            workload: workload.to_string(),
            elements,
            proto: p.proto,
            op,
            bytes: p.bytes.len(),
            json_bytes: p.json_len(),
            state,
            contenders: Vec::new(),
        };
        let hot = scenario(State::Hot);
        if !opts.wants_scenario(&hot.id()) {
            continue;
        }
        if let Some((id, name)) = &opts.cold_child {
            if *id == hot.id() {
                cold_child(p.contenders(op), name);
            }
            continue;
        }
        let hot_ns = measure_scenario(hot, p.contenders(op), opts, out);
        let stateful = workload == "large" || workload.starts_with("parquet-");
        if op == Op::Decode && stateful && opts.states {
            measure_busy(scenario(State::Busy), p.contenders(op), &hot_ns, opts, out);
            measure_cold(scenario(State::Cold), p.contenders(op), opts, out);
        }
    }
}

/// The contenders that passed verification and are selected; failures recorded in `scenario`.
fn selected<'a>(
    scenario: &mut Scenario,
    contenders: Vec<contenders::Contender<'a>>,
    opts: &Opts,
) -> (Vec<&'static str>, Vec<measure::Runner<'a>>) {
    let id = scenario.id();
    let mut names = Vec::new();
    let mut runners = Vec::new();
    for c in contenders {
        if !opts.wants_contender(c.name) {
            continue;
        }
        match c.runner {
            Ok(r) => {
                names.push(c.name);
                runners.push(r);
            }
            Err(reason) => {
                eprintln!("  {id}: {} FAILED verification: {reason}", c.name);
                scenario
                    .contenders
                    .push(ContenderResult::failed(c.name, reason));
            }
        }
    }
    (names, runners)
}

/// The busy state: one operation per sample (or as many as take about 50 µs, from the hot
/// median), the contenders in turn, the heap churned between samples.
fn measure_busy(
    mut scenario: Scenario,
    contenders: Vec<contenders::Contender<'_>>,
    hot_ns: &[(&'static str, f64)],
    opts: &Opts,
    out: &mut Vec<Scenario>,
) {
    let (names, mut runners) = selected(&mut scenario, contenders, opts);
    let ops: Vec<u64> = names
        .iter()
        .map(|name| {
            let ns = hot_ns.iter().find(|(n, _)| n == name).map_or(1e9, |h| h.1);
            ((50_000.0 / ns.max(1.0)).ceil() as u64).max(1)
        })
        .collect();
    let stats = measure::measure_busy(&mut runners, &ops, &opts.cfg);
    for ((name, mut r), (stats, faults)) in names.into_iter().zip(runners).zip(stats) {
        let ((), a) = alloc::count(|| r(1));
        scenario.contenders.push(ContenderResult {
            name,
            failed: None,
            stats,
            allocs: a.allocs as f64,
            bytes: a.bytes as f64,
            peak_heap: None,
            peak_rss_kib: None,
            faults: Some(faults),
        });
    }
    report::print_scenario(&scenario);
    out.push(scenario);
}

/// The cold state: per contender, `opts.cold_runs` fresh processes (this binary with
/// `--cold-child`), the contenders in turn; each times its first decode after trimming the
/// heap. The median of the processes.
fn measure_cold(
    mut scenario: Scenario,
    contenders: Vec<contenders::Contender<'_>>,
    opts: &Opts,
    out: &mut Vec<Scenario>,
) {
    let (names, runners) = selected(&mut scenario, contenders, opts);
    drop(runners);
    let hot_id = scenario.hot_id();
    let exe = std::env::current_exe().expect("the bench binary's path");
    let mut samples: Vec<Vec<(f64, f64)>> = vec![Vec::new(); names.len()];
    for _ in 0..opts.cold_runs {
        for (i, name) in names.iter().enumerate() {
            let output = std::process::Command::new(&exe)
                .args(["--filter", &hot_id, "--json", "-", "--data"])
                .arg(&opts.data)
                .args(["--cold-child", &hot_id, name])
                .stderr(std::process::Stdio::null())
                .output();
            let sample = output.ok().and_then(|o| {
                let text = String::from_utf8_lossy(&o.stdout);
                let line = text.lines().find_map(|l| l.strip_prefix("cold "))?;
                let (ns, faults) = line.split_once(' ')?;
                Some((ns.parse().ok()?, faults.parse().ok()?))
            });
            match sample {
                Some(sample) => samples[i].push(sample),
                None => eprintln!("  {hot_id}: {name}: a cold run gave no sample"),
            }
        }
    }
    for (name, samples) in names.into_iter().zip(samples) {
        if samples.is_empty() {
            continue;
        }
        let ns: Vec<f64> = samples.iter().map(|s| s.0).collect();
        let mut faults: Vec<f64> = samples.iter().map(|s| s.1).collect();
        faults.sort_by(f64::total_cmp);
        scenario.contenders.push(ContenderResult {
            name,
            failed: None,
            stats: measure::from_samples(ns, 1),
            allocs: f64::NAN,
            bytes: f64::NAN,
            peak_heap: None,
            peak_rss_kib: None,
            faults: Some(measure::median(&faults)),
        });
    }
    report::print_scenario(&scenario);
    out.push(scenario);
}

/// One cold sample (`--cold-child`): the contender `name`'s first decode after the heap is
/// trimmed, printed as `cold NANOS FAULTS`; then the process ends.
fn cold_child(contenders: Vec<contenders::Contender<'_>>, name: &str) -> ! {
    let Some(mut run) = contenders
        .into_iter()
        .find(|c| c.name == name)
        .and_then(|c| c.runner.ok())
    else {
        std::process::exit(1);
    };
    alloc::trim();
    let faults = alloc::minor_faults();
    let start = Instant::now();
    run(1);
    let ns = start.elapsed().as_nanos();
    let faults = alloc::minor_faults() - faults;
    println!("cold {ns} {faults}");
    std::process::exit(0);
}

/// Times the contenders of one scenario (those that passed verification and are selected),
/// counts their allocations and page faults, prints the scenario and adds it to `out`.
/// Returns each contender's median time.
fn measure_scenario(
    mut scenario: Scenario,
    contenders: Vec<contenders::Contender<'_>>,
    opts: &Opts,
    out: &mut Vec<Scenario>,
) -> Vec<(&'static str, f64)> {
    let elements = scenario.elements;
    let (names, mut runners) = selected(&mut scenario, contenders, opts);
    let stats = measure::measure(&mut runners, &opts.cfg);
    let mut medians = Vec::new();
    for ((name, mut r), stats) in names.into_iter().zip(runners).zip(stats) {
        const N: u64 = 4;
        let before = alloc::minor_faults();
        let ((), a) = alloc::count(|| r(N));
        let faults = (alloc::minor_faults() - before) as f64 / N as f64;
        medians.push((name, stats.median_ns));
        let (peak_heap, peak_rss_kib) = if elements.is_some() {
            let ((), one) = alloc::count(|| r(1));
            (Some(one.peak_live), alloc::peak_rss_growth_kib(|| r(1)))
        } else {
            (None, None)
        };
        scenario.contenders.push(ContenderResult {
            name,
            failed: None,
            stats,
            allocs: a.allocs as f64 / N as f64,
            bytes: a.bytes as f64 / N as f64,
            peak_heap,
            peak_rss_kib,
            faults: Some(faults),
        });
    }
    report::print_scenario(&scenario);
    out.push(scenario);
    medians
}

/// The THeader scenarios (see `header`): small and large, binary and compact payloads, with
/// and without zlib.
#[cfg(feature = "header")]
fn run_header(opts: &Opts, out: &mut Vec<Scenario>) {
    for zlib in [false, true] {
        for proto in [Proto::Binary, Proto::Compact] {
            let small = header::HeaderCase::new("small", proto, zlib, data::small());
            header_scenarios(&small, opts, out);
            let large = header::HeaderCase::new("large", proto, zlib, data::large());
            header_scenarios(&large, opts, out);
        }
    }
}

#[cfg(feature = "header")]
fn header_scenarios<T>(case: &header::HeaderCase<T>, opts: &Opts, out: &mut Vec<Scenario>)
where
    T: for<'de> thrift_runtime::ThriftRead<'de>
        + thrift_runtime::ThriftWrite
        + PartialEq
        + std::fmt::Debug
        + 'static,
{
    for op in [Op::Decode, Op::Encode] {
        let scenario = Scenario {
            workload: case.workload.clone(),
            elements: None,
            proto: case.proto,
            op,
            bytes: case.bytes(),
            json_bytes: None,
            state: State::Hot,
            contenders: Vec::new(),
        };
        if opts.wants_scenario(&scenario.id()) && opts.cold_child.is_none() {
            measure_scenario(scenario, case.contenders(op), opts, out);
        }
    }
}

fn parquet_footer(path: &std::path::Path) -> Result<Vec<u8>, String> {
    let file = std::fs::read(path).map_err(|e| e.to_string())?;
    if file.len() < 12 || &file[file.len() - 4..] != b"PAR1" {
        return Err("not a Parquet file (no PAR1 trailer)".into());
    }
    let len = u32::from_le_bytes(file[file.len() - 8..file.len() - 4].try_into().unwrap()) as usize;
    if len + 8 > file.len() {
        return Err("footer length larger than the file".into());
    }
    Ok(file[file.len() - 8 - len..file.len() - 8].to_vec())
}

fn main() {
    let opts = Opts::parse();
    let start = Instant::now();
    let mut results = Vec::new();
    let protos = [Proto::Binary, Proto::Compact];

    for proto in protos
        .into_iter()
        .filter(|p| wanted(&opts, "small", None, *p))
    {
        run(
            &Prepared::<contenders::SmallW>::new(proto, data::small()),
            "small",
            None,
            &opts,
            &mut results,
        );
    }
    for proto in protos
        .into_iter()
        .filter(|p| wanted(&opts, "large", None, *p))
    {
        run(
            &Prepared::<contenders::LargeW>::new(proto, data::large()),
            "large",
            None,
            &opts,
            &mut results,
        );
    }
    for n in [0, 1, 10, 100, 1_000, 10_000] {
        for proto in protos
            .into_iter()
            .filter(|p| wanted(&opts, "scaling", Some(n), *p))
        {
            let p = Prepared::<contenders::ScalingW>::new(proto, data::scaling(n));
            run(&p, "scaling", Some(n), &opts, &mut results);
        }
    }

    #[cfg(feature = "header")]
    run_header(&opts, &mut results);

    let mut files: Vec<PathBuf> = std::fs::read_dir(&opts.data)
        .map(|d| d.filter_map(|e| e.ok()).map(|e| e.path()).collect())
        .unwrap_or_default();
    files.retain(|p| p.extension().is_some_and(|e| e == "parquet"));
    files.sort();
    if files.is_empty() {
        eprintln!(
            "no Parquet files in {}: run benchmarks/setup.sh (Parquet scenarios skipped)",
            opts.data.display()
        );
    }
    for path in files {
        let name = format!("parquet-{}", path.file_stem().unwrap().to_string_lossy());
        if !wanted(&opts, &name, None, Proto::Compact) {
            continue;
        }
        match parquet_footer(&path)
            .and_then(|bytes| Prepared::<contenders::ParquetW>::from_bytes(Proto::Compact, bytes))
        {
            Ok(p) => run(&p, &name, None, &opts, &mut results),
            Err(e) => eprintln!("{}: {e}", path.display()),
        }
    }

    eprintln!(
        "\n{} scenarios in {:.1}s; process peak RSS {} KiB",
        results.len(),
        start.elapsed().as_secs_f64(),
        alloc::peak_rss_kib().unwrap_or(0)
    );
    let targets = report::targets(&results);
    report::print_targets(&targets);
    if let Some(path) = &opts.json {
        if let Some(dir) = path.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        std::fs::write(path, report::json(&results, &targets, &opts)).expect("write JSON");
        eprintln!("wrote {}", path.display());
    }
    if opts.markdown {
        report::markdown(&results, &targets, &opts);
    }
}
