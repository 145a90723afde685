//! Checks the whole valid corpus (`../shared/corpus`, status `valid`) and compares with Apache
//! Thrift's compiler (`thrift --gen json`) in the same run.
//!
//! Three measurements over the same files (those Apache's compiler accepts, so both sides do the
//! same work):
//! - in-process: `thrift_idl_parser::check_files` per file on one thread (includes parsed per root,
//!   as the CLI does);
//! - `thrift-codegen check` as one process per file;
//! - `thrift --gen json` as one process per file (what Apache offers).
//!
//! Run: `cargo run --release --manifest-path benchmarks/Cargo.toml --bin parser`
//! (the setup script installs `thrift-compiler`; `THRIFT=/path/to/thrift` overrides it).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use thrift_idl_parser::{check_files, Loader};

struct Entry {
    path: PathBuf,
    include_dirs: Vec<PathBuf>,
}

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus");
    let manifest = std::fs::read_to_string(root.join("MANIFEST.tsv")).expect("corpus manifest");
    let entries: Vec<Entry> = manifest
        .lines()
        .skip(1)
        .filter_map(|line| {
            let cols: Vec<&str> = line.split('\t').collect();
            (cols[1] == "valid").then(|| Entry {
                path: root.join(cols[0]),
                include_dirs: cols[2].split_whitespace().map(|d| root.join(d)).collect(),
            })
        })
        .collect();

    let thrift = std::env::var("THRIFT").unwrap_or_else(|_| "thrift".into());
    let apache_version = Command::new(&thrift)
        .arg("--version")
        .output()
        .ok()
        .filter(|o| o.status.success());
    let out_dir = std::env::temp_dir().join(format!("thrift-parser-bench-{}", std::process::id()));
    std::fs::create_dir_all(&out_dir).unwrap();

    // The common set: files Apache's compiler accepts (all of them when it is not installed).
    let (common, apache_time) = match &apache_version {
        Some(version) => {
            println!(
                "Apache compiler: {}",
                String::from_utf8_lossy(&version.stdout).trim()
            );
            let mut accepted = Vec::new();
            for entry in &entries {
                if apache(&thrift, entry, &out_dir) {
                    accepted.push(entry);
                }
            }
            println!(
                "Apache accepts {} of {} valid files (0.17 lacks `uuid` and other newer syntax); timing those\n",
                accepted.len(),
                entries.len()
            );
            let time = median_of(3, || {
                let start = Instant::now();
                for entry in &accepted {
                    apache(&thrift, entry, &out_dir);
                }
                start.elapsed()
            });
            (accepted, Some(time))
        }
        None => {
            println!(
                "Apache compiler `{thrift}` not found: run the setup script; timing ours only\n"
            );
            (entries.iter().collect(), None)
        }
    };

    let bytes: u64 = common
        .iter()
        .map(|e| std::fs::metadata(&e.path).unwrap().len())
        .sum();
    let files = common.len() as f64;
    let mb = bytes as f64 / 1e6;

    let in_process = time_in_process(&common);
    let whole = time_in_process(&entries.iter().collect::<Vec<_>>());

    let cli = std::env::var("THRIFT_CODEGEN")
        .map(PathBuf::from)
        .unwrap_or_else(|_| {
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/release/thrift-codegen")
        });
    let cli_time = cli.exists().then(|| {
        median_of(3, || {
            let start = Instant::now();
            for entry in &common {
                let mut cmd = Command::new(&cli);
                cmd.arg("check");
                for dir in &entry.include_dirs {
                    cmd.arg("-I").arg(dir);
                }
                let status = cmd.arg(&entry.path).stderr(Stdio::null()).status().unwrap();
                assert!(status.success());
            }
            start.elapsed()
        })
    });

    println!(
        "{} files, {:.2} MB (root files; includes are parsed again for each root)",
        common.len(),
        mb
    );
    println!("{:<44} {:>10} {:>10} {:>9}", "", "total", "files/s", "MB/s");
    let row = |name: &str, time: Duration| {
        let secs = time.as_secs_f64();
        println!(
            "{name:<44} {:>8.1}ms {:>10.0} {:>9.2}",
            secs * 1e3,
            files / secs,
            mb / secs
        );
    };
    row("thrift-parser, in process, 1 thread", in_process);
    if let Some(t) = cli_time {
        row("thrift-codegen check, 1 process per file", t);
    } else {
        println!(
            "(build `cargo build --release -p thrift-codegen --features cli` to time the CLI too)"
        );
    }
    if let Some(t) = apache_time {
        row("Apache thrift --gen json, 1 process per file", t);
        println!();
        println!(
            "ratio Apache / thrift-parser in process:  {:.1}x",
            t.as_secs_f64() / in_process.as_secs_f64()
        );
        if let Some(c) = cli_time {
            println!(
                "ratio Apache / thrift-codegen check (CLI): {:.1}x",
                t.as_secs_f64() / c.as_secs_f64()
            );
        }
    }
    println!(
        "\nwhole valid corpus, {} files, in process on one thread: {:.1} ms (target: under 1 s)",
        entries.len(),
        whole.as_secs_f64() * 1e3
    );
    let _ = std::fs::remove_dir_all(&out_dir);
}

/// Median time of one pass over `entries`, repeated until a second has passed (at least 5 passes).
fn time_in_process(entries: &[&Entry]) -> Duration {
    let mut passes = Vec::new();
    let started = Instant::now();
    while passes.len() < 5 || started.elapsed() < Duration::from_secs(1) {
        let start = Instant::now();
        for entry in entries {
            let mut loader = Loader::new();
            for dir in &entry.include_dirs {
                loader.include_dir(dir);
            }
            let checked = check_files(&loader, &[&entry.path]);
            assert!(!checked.has_errors(), "{}", checked.render_diagnostics());
        }
        passes.push(start.elapsed());
    }
    passes.sort();
    passes[passes.len() / 2]
}

fn apache(thrift: &str, entry: &Entry, out_dir: &Path) -> bool {
    let mut cmd = Command::new(thrift);
    cmd.arg("--gen").arg("json").arg("-out").arg(out_dir);
    for dir in &entry.include_dirs {
        cmd.arg("-I").arg(dir);
    }
    cmd.arg(&entry.path)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

fn median_of(n: usize, mut f: impl FnMut() -> Duration) -> Duration {
    let mut times: Vec<Duration> = (0..n).map(|_| f()).collect();
    times.sort();
    times[n / 2]
}
