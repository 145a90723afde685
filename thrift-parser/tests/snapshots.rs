//! Snapshot tests (insta): the AST of every fixture in `tests/fixtures/valid`, which together
//! cover every grammar construct, and the JSON diagnostics of every fixture in
//! `tests/fixtures/invalid`, which together cover every semantic rule.
//!
//! Review changes with `cargo insta review`, or accept them with `INSTA_UPDATE=always`.

use std::path::{Path, PathBuf};

use thrift_idl_parser::{Loader, check_files};

fn fixtures(kind: &str) -> Vec<PathBuf> {
    // Relative paths keep the snapshots free of machine-specific prefixes.
    let dir = Path::new("tests/fixtures").join(kind);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("fixture dir")
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "thrift"))
        .collect();
    files.sort();
    files
}

fn stem(path: &Path) -> String {
    path.file_stem().unwrap().to_string_lossy().into_owned()
}

#[test]
fn valid_fixtures_ast() {
    let files = fixtures("valid");
    assert!(files.len() >= 8);
    for file in files {
        let checked = check_files(&Loader::new(), &[&file]);
        assert!(!checked.has_errors(), "{}", checked.render_diagnostics());
        let root = checked.program.roots[0];
        let document = &checked.program.file(root).expect("parsed").document;
        insta::with_settings!({ snapshot_suffix => stem(&file), omit_expression => true }, {
            insta::assert_yaml_snapshot!("ast", document);
        });
        // Warnings are part of the contract too (implicit ids, deprecated syntax…).
        let warnings: Vec<serde_json::Value> = checked
            .diagnostics
            .iter()
            .map(|d| serde_json::from_str(&d.to_json(&checked.program.sources)).unwrap())
            .collect();
        insta::with_settings!({ snapshot_suffix => stem(&file), omit_expression => true }, {
            insta::assert_json_snapshot!("warnings", warnings);
        });
    }
}

#[test]
fn invalid_fixtures_diagnostics() {
    for file in fixtures("invalid") {
        let checked = check_files(&Loader::new(), &[&file]);
        assert!(checked.has_errors(), "{} should fail", file.display());
        let json: Vec<serde_json::Value> = checked
            .diagnostics
            .iter()
            .map(|d| serde_json::from_str(&d.to_json(&checked.program.sources)).unwrap())
            .collect();
        insta::with_settings!({ snapshot_suffix => stem(&file), omit_expression => true }, {
            insta::assert_json_snapshot!("diagnostics", json);
        });
    }
}

#[test]
fn human_diagnostics_format() {
    let checked = check_files(
        &Loader::new(),
        &["tests/fixtures/invalid/syntax_error.thrift"],
    );
    let text = checked.render_diagnostics();
    insta::assert_snapshot!(text);
    let first = text.lines().next().unwrap();
    assert!(
        first.starts_with("tests/fixtures/invalid/syntax_error.thrift:4:1: error: "),
        "{first}"
    );
}
