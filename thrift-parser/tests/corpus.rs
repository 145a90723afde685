//! Every file of the shared real-world corpus (`../shared/corpus/MANIFEST.tsv`): `valid` files
//! check clean, `invalid` files fail with a located error, `dialect` files get an error naming
//! the foreign construct or, for legacy Apache syntax, a deprecation warning.

use std::path::{Path, PathBuf};

use thrift_idl_parser::{Checked, Loader, Severity, check_files};

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus")
}

struct Entry {
    path: String,
    status: String,
    include_dirs: Vec<String>,
}

fn manifest() -> Vec<Entry> {
    let text = std::fs::read_to_string(corpus_dir().join("MANIFEST.tsv")).expect("corpus manifest");
    text.lines()
        .skip(1)
        .map(|line| {
            let cols: Vec<&str> = line.split('\t').collect();
            Entry {
                path: cols[0].to_string(),
                status: cols[1].to_string(),
                include_dirs: cols[2].split_whitespace().map(String::from).collect(),
            }
        })
        .collect()
}

fn check(entry: &Entry) -> Checked {
    let root = corpus_dir();
    let mut loader = Loader::new();
    for dir in &entry.include_dirs {
        loader.include_dir(root.join(dir));
    }
    check_files(&loader, &[root.join(&entry.path)])
}

#[test]
fn valid_files_check_clean() {
    let mut failures = Vec::new();
    let entries: Vec<Entry> = manifest()
        .into_iter()
        .filter(|e| e.status == "valid")
        .collect();
    assert!(
        entries.len() >= 450,
        "expected the whole corpus, found {} valid files",
        entries.len()
    );
    for entry in &entries {
        let checked = check(entry);
        if checked.has_errors() {
            failures.push(checked.render_diagnostics());
        }
    }
    assert!(
        failures.is_empty(),
        "{} valid files rejected:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn invalid_files_fail_with_located_errors() {
    let mut failures = Vec::new();
    for entry in manifest().iter().filter(|e| e.status == "invalid") {
        let checked = check(entry);
        let located = checked.errors().filter(|d| d.span.is_some()).count();
        if located == 0 {
            failures.push(format!(
                "{}: no located error\n{}",
                entry.path,
                checked.render_diagnostics()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn dialect_files_are_named() {
    let mut failures = Vec::new();
    for entry in manifest().iter().filter(|e| e.status == "dialect") {
        let checked = check(entry);
        let legacy = entry.path.starts_with("_dialects/apache__thrift/");
        let ok = if legacy {
            // Legacy Apache syntax: accepted, with a deprecation warning.
            !checked.has_errors()
                && checked
                    .diagnostics
                    .iter()
                    .any(|d| d.severity == Severity::Warning && d.message.contains("deprecated"))
        } else {
            checked.errors().any(|d| d.span.is_some())
        };
        if !ok {
            failures.push(format!("{}:\n{}", entry.path, checked.render_diagnostics()));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
