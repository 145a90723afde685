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
    assert!(
        String::from_utf8_lossy(&without.stderr)
            .contains("cannot find included file `fb303/if/fb303.thrift`")
    );
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
    assert!(
        stderr.ends_with("checked 1 file: 9 errors, 0 warnings\n"),
        "{stderr}"
    );
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

/// Writes `text` as `name` in a fresh directory and runs `check` on it from there.
fn check_text(name: &str, files: &[(&str, &str)]) -> (Option<i32>, String) {
    let dir = std::env::temp_dir().join(format!(
        "thrift-codegen-check-{name}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for (file, text) in files {
        std::fs::write(dir.join(file), text).unwrap();
    }
    let out = Command::new(env!("CARGO_BIN_EXE_thrift-codegen"))
        .args(["check", files[0].0])
        .current_dir(&dir)
        .output()
        .expect("run thrift-codegen");
    let _ = std::fs::remove_dir_all(&dir);
    (out.status.code(), String::from_utf8(out.stderr).unwrap())
}

#[test]
fn every_syntax_error_of_a_file_is_reported_and_the_rest_is_checked() {
    let (code, stderr) = check_text(
        "several",
        &[(
            "several.thrift",
            "struct A {\n  1: i32\n}\n\nstruct B {\n  1: i32 b\n  2 string c\n}\n\nstruct C {\n  1: Missing m\n  2: A a\n}\n",
        )],
    );
    assert_eq!(code, Some(1));
    // Both syntax errors, and the semantic error after them, each located.
    assert!(
        stderr.contains("several.thrift:3:1: error: syntax error"),
        "{stderr}"
    );
    assert!(
        stderr.contains("several.thrift:7:5: error: syntax error"),
        "{stderr}"
    );
    assert!(
        stderr.contains("several.thrift:11:6: error: unknown type `Missing`"),
        "{stderr}"
    );
    // `A` was left out after its syntax error: no follow-on "unknown type `A`".
    assert!(!stderr.contains("unknown type `A`"), "{stderr}");
    assert!(
        stderr.ends_with("checked 1 file: 3 errors, 0 warnings\n"),
        "{stderr}"
    );
}

#[test]
fn an_unclosed_brace_names_the_definition_it_opened() {
    let (code, stderr) = check_text(
        "unclosed",
        &[(
            "unclosed.thrift",
            "struct Open {\n  1: i32 x\n\nstruct Next {\n  1: Nope n\n}\n",
        )],
    );
    assert_eq!(code, Some(1));
    assert!(
        stderr.contains("unclosed.thrift:1:13: this `{` of `struct Open` (line 1) is never closed"),
        "{stderr}"
    );
    // The definition after it is still checked.
    assert!(
        stderr.contains("unclosed.thrift:5:6: error: unknown type `Nope`"),
        "{stderr}"
    );
}

#[test]
fn a_missing_include_lists_where_it_was_searched_and_nothing_follows_from_it() {
    let (code, stderr) = check_text(
        "include",
        &[(
            "main.thrift",
            "include \"nope.thrift\"\n\nstruct S {\n  1: nope.Thing thing\n}\n",
        )],
    );
    assert_eq!(code, Some(1));
    assert!(
        stderr.contains("error: cannot find included file `nope.thrift`"),
        "{stderr}"
    );
    assert!(stderr.contains("= note: searched in: ."), "{stderr}");
    assert!(
        !stderr.contains("nope.Thing"),
        "a follow-on error: {stderr}"
    );
    assert!(!stderr.contains("add `include"), "a wrong hint: {stderr}");
    assert_eq!(stderr.matches(": error: ").count(), 1, "{stderr}");
}

#[test]
fn unknown_names_get_did_you_mean_suggestions() {
    let (code, stderr) = check_text(
        "suggest",
        &[
            (
                "main.thrift",
                "include \"shared.thrift\"\n\nenum Color { RED, GREEN }\n\nstruct Tag {\n  1: string key\n}\n\nstruct S {\n  1: list<Tagg> tags\n  2: strng name\n  3: shared.Pont point\n  4: shraed.Point other\n  5: Color color = Color.REDD\n}\n",
            ),
            ("shared.thrift", "struct Point {\n  1: i32 x\n}\n"),
        ],
    );
    assert_eq!(code, Some(1));
    for suggestion in [
        "did you mean `Tag`?",
        "did you mean `string`?",
        "did you mean `shared.Point`?",
        "did you mean `Color.RED`?",
    ] {
        assert!(
            stderr.contains(suggestion),
            "no `{suggestion}` in:\n{stderr}"
        );
    }
    // A misspelt module: the included one, not "add include".
    assert!(
        stderr.matches("did you mean `shared.Point`?").count() == 2,
        "{stderr}"
    );
    assert!(!stderr.contains("add `include"), "{stderr}");
}

#[test]
fn check_ends_with_a_summary_also_on_success() {
    let (code, stderr) = check_text("fine", &[("fine.thrift", "struct S {\n  1: i32 x\n}\n")]);
    assert_eq!(code, Some(0));
    assert_eq!(stderr, "checked 1 file: 0 errors, 0 warnings\n");
}

/// The generator's `rust.*` annotations are checked too: an unknown one is a located warning.
#[test]
fn unknown_rust_annotations_are_located_warnings() {
    let dir = std::env::temp_dir().join(format!("thrift-cli-annotations-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("a.thrift");
    std::fs::write(
        &path,
        "struct S {\n  1: i32 n (rust.nope = \"x\", rust.box)\n}\n",
    )
    .unwrap();
    let out = run(&["check", path.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("a.thrift:2:13: warning: unknown annotation `rust.nope`"),
        "{stderr}"
    );
    assert!(
        stderr.contains("a.thrift:2:30: error: `rust.box` needs a field whose type is a struct"),
        "{stderr}"
    );
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    std::fs::remove_dir_all(&dir).unwrap();
}
