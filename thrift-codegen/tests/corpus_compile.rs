//! Code is generated for real-world IDL from the shared corpus and compiled, with clippy and
//! `-D warnings`, as a consuming crate would compile it.
//!
//! By default (CI) a subset: the 10 largest valid files, then files taken in turn from every
//! source project until there are at least 60 — every source is covered. The whole valid
//! corpus: `THRIFT_CORPUS_ALL=1 cargo test -p thrift-codegen --test corpus_compile -- --nocapture`.
//! `THRIFT_CORPUS_COLLECTIONS=hash` generates with `Collections::Hash` instead (and
//! `THRIFT_CORPUS_HASHER=PATH` with that hasher, e.g.
//! `::std::hash::BuildHasherDefault<::std::hash::DefaultHasher>`),
//! `THRIFT_CORPUS_STRINGS=bytes` with `Strings::Bytes`, `THRIFT_CORPUS_STRINGS=compact` with
//! `Strings::Compact`, `THRIFT_CORPUS_KEEP_UNKNOWN=1` with `keep_unknown_fields(["."])`,
//! `THRIFT_CORPUS_SERDE=1` with `serde(true)`, `THRIFT_CORPUS_ARENA=1` with `arena(true)`. `THRIFT_CORPUS_ONLY=legacy_names,RecursionDepth`
//! compiles only the valid files whose path holds one of the parts.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use thrift_codegen::{Builder, Collections, Strings};

struct Entry {
    path: String,
    include_dirs: Vec<String>,
}

fn corpus_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus")
}

fn valid_entries() -> Vec<Entry> {
    let manifest =
        std::fs::read_to_string(corpus_root().join("MANIFEST.tsv")).expect("corpus manifest");
    manifest
        .lines()
        .skip(1)
        .filter_map(|line| {
            let cols: Vec<&str> = line.split('\t').collect();
            (cols[1] == "valid").then(|| Entry {
                path: cols[0].to_string(),
                include_dirs: cols[2].split_whitespace().map(String::from).collect(),
            })
        })
        .collect()
}

/// The CI subset: the 10 largest files, then round-robin over source projects up to 60.
fn subset(entries: Vec<Entry>) -> Vec<Entry> {
    let root = corpus_root();
    let size = |e: &Entry| std::fs::metadata(root.join(&e.path)).map_or(0, |m| m.len());
    let mut by_size: Vec<&Entry> = entries.iter().collect();
    by_size.sort_by_key(|e| std::cmp::Reverse(size(e)));
    let mut chosen: Vec<String> = by_size.iter().take(10).map(|e| e.path.clone()).collect();
    let mut by_source: BTreeMap<&str, Vec<&Entry>> = BTreeMap::new();
    for entry in &entries {
        by_source
            .entry(entry.path.split('/').next().unwrap())
            .or_default()
            .push(entry);
    }
    let mut round = 0;
    while chosen.len() < 60 {
        let mut added = false;
        for files in by_source.values() {
            if let Some(entry) = files.get(round) {
                added = true;
                if !chosen.contains(&entry.path) {
                    chosen.push(entry.path.clone());
                }
            }
        }
        if !added {
            break;
        }
        round += 1;
    }
    entries
        .into_iter()
        .filter(|e| chosen.contains(&e.path))
        .collect()
}

#[test]
fn generated_corpus_code_compiles_without_warnings() {
    let all = std::env::var_os("THRIFT_CORPUS_ALL").is_some();
    // `THRIFT_CORPUS_ONLY=a,b`: the valid files whose path holds `a` or `b` (to recheck a few).
    let only: Option<Vec<String>> = std::env::var("THRIFT_CORPUS_ONLY")
        .ok()
        .map(|list| list.split(',').map(str::to_owned).collect());
    let entries = match &only {
        Some(parts) => valid_entries()
            .into_iter()
            .filter(|e| parts.iter().any(|part| e.path.contains(part.as_str())))
            .collect(),
        None if all => valid_entries(),
        None => subset(valid_entries()),
    };
    let dir = match (&only, all) {
        (Some(_), _) => "only",
        (None, true) => "all",
        (None, false) => "subset",
    };
    let all = all || only.is_some();
    let sources: std::collections::BTreeSet<&str> = entries
        .iter()
        .map(|e| e.path.split('/').next().unwrap())
        .collect();
    if !all {
        assert!(
            entries.len() >= 60 && sources.len() >= 12,
            "{} files, {} sources",
            entries.len(),
            sources.len()
        );
    }

    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let krate = workspace.join("target/corpus-compile").join(dir);
    let src = krate.join("src");
    let _ = std::fs::remove_dir_all(&src);
    std::fs::create_dir_all(&src).unwrap();

    let root = corpus_root();
    let mut lib = String::from("//! Generated code for corpus files.\n");
    for (index, entry) in entries.iter().enumerate() {
        let mut builder = Builder::new();
        if std::env::var("THRIFT_CORPUS_COLLECTIONS").as_deref() == Ok("hash") {
            builder.collections(Collections::Hash);
            if let Ok(hasher) = std::env::var("THRIFT_CORPUS_HASHER") {
                builder.hasher(hasher);
            }
        }
        match std::env::var("THRIFT_CORPUS_STRINGS").as_deref() {
            Ok("bytes") => builder.strings(Strings::Bytes),
            Ok("compact") => builder.strings(Strings::Compact),
            _ => &mut builder,
        };
        if std::env::var_os("THRIFT_CORPUS_KEEP_UNKNOWN").is_some() {
            builder.keep_unknown_fields(["."]);
        }
        if std::env::var_os("THRIFT_CORPUS_SERDE").is_some() {
            builder.serde(true);
        }
        if std::env::var_os("THRIFT_CORPUS_ARENA").is_some() {
            builder.arena(true);
        }
        for dir in &entry.include_dirs {
            builder.include_dir(root.join(dir));
        }
        let files = builder
            .generate([root.join(&entry.path)])
            .unwrap_or_else(|e| panic!("{}: {e}", entry.path));
        common::add_module(
            &src,
            &format!("f{index:03}"),
            &files,
            Some(&entry.path),
            &mut lib,
        );
    }
    let mut features = vec!["compact_str"];
    if std::env::var_os("THRIFT_CORPUS_SERDE").is_some() {
        features.push("serde");
    }
    if std::env::var_os("THRIFT_CORPUS_ARENA").is_some() {
        features.push("arena");
    }
    let (clean, stderr) = common::clippy(&krate, "corpus-compile", &features, &lib);
    assert!(
        clean,
        "generated code for {} files does not compile cleanly:\n{stderr}",
        entries.len()
    );
    println!(
        "compiled generated code of {} corpus files from {} sources",
        entries.len(),
        sources.len()
    );
}
