//! `thrift-codegen check`, run as a user runs it: exit status, stderr format, JSON output.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_thrift-codegen"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run thrift-codegen")
}

fn corpus(path: &str) -> String {
    let root: PathBuf = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus");
    root.join(path).display().to_string()
}

fn fixture(name: &str) -> String {
    format!("../thrift-parser/tests/fixtures/{name}")
}

#[test]
fn valid_file_exits_zero_with_warnings_on_stderr() {
    let out = run(&["check", &fixture("valid/fields.thrift")]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains("fields.thrift:2:7: warning: no field id for `implicit_one`"),
        "{stderr}"
    );
}

#[test]
fn include_dirs_are_searched_in_order() {
    // scribe.thrift includes "fb303/if/fb303.thrift", found only through -I.
    let file = corpus("facebookarchive__scribe/if/scribe.thrift");
    let without = run(&["check", &file]);
    assert_eq!(without.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&without.stderr)
        .contains("cannot find included file `fb303/if/fb303.thrift`"));
    let with = run(&[
        "check",
        "-I",
        "/nonexistent",
        "-I",
        &corpus("apache__thrift/contrib"),
        &file,
    ]);
    assert_eq!(
        with.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&with.stderr)
    );
}

#[test]
fn errors_exit_one_and_are_located() {
    let out = run(&["check", &fixture("invalid/services.thrift")]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8(out.stderr).unwrap();
    let first = stderr.lines().next().unwrap();
    assert_eq!(
        first,
        "../thrift-parser/tests/fixtures/invalid/services.thrift:4:19: error: `NotAService` is not a service: it is a struct"
    );
    // The source line and a caret follow.
    assert!(
        stderr.contains("4 | service A extends NotAService {}\n  |                   ^^^^^^^^^^^"),
        "{stderr}"
    );
    // Every error is reported, not just the first.
    assert_eq!(stderr.matches(": error: ").count(), 9, "{stderr}");
    assert!(stderr.ends_with("error: 9 errors found\n"), "{stderr}");
}

#[test]
fn json_error_format() {
    let out = run(&[
        "check",
        "--error-format",
        "json",
        &fixture("invalid/typedef_cycle.thrift"),
    ]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8(out.stderr).unwrap();
    let lines: Vec<serde_json::Value> = stderr
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 4);
    assert_eq!(
        lines[0]["path"],
        "../thrift-parser/tests/fixtures/invalid/typedef_cycle.thrift"
    );
    assert_eq!(lines[0]["line"], 1);
    assert_eq!(lines[0]["col"], 11);
    assert_eq!(lines[0]["severity"], "error");
    assert_eq!(
        lines[0]["message"],
        "typedef `B` refers to itself through a cycle of typedefs"
    );
}

#[test]
fn usage_errors_exit_two() {
    assert_eq!(run(&["check"]).status.code(), Some(2));
    assert_eq!(
        run(&["check", "--error-format", "xml", "a.thrift"])
            .status
            .code(),
        Some(2)
    );
    assert_eq!(run(&["frobnicate"]).status.code(), Some(2));
}

#[test]
fn missing_file_is_an_error() {
    let out = run(&["check", "no/such/file.thrift"]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.starts_with("no/such/file.thrift: error: cannot read file"),
        "{stderr}"
    );
}
