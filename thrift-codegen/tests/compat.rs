//! `thrift-codegen compat`: one fixture per rule, checked in both directions (old → new and
//! new → old), every valid corpus file against itself (no change), and the command line
//! (exit status by `--fail-on`, the located human form with the old location as a note, JSON).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use thrift_codegen::compat::{Class, compare};

/// A fixture: the files of the old and the new version (the first is the root), and the
/// changes expected each way, as (rule, class).
struct Case {
    name: &'static str,
    old: &'static [(&'static str, &'static str)],
    new: &'static [(&'static str, &'static str)],
    forward: &'static [(&'static str, Class)],
    backward: &'static [(&'static str, Class)],
}

use Class::{Safe, Source, Wire};

const E: &str = "enum E { A = 1, B = 2 }\nexception Oops { 1: string why }\n";

/// A struct's fields: removed, renumbered, retyped, renamed, with another requiredness or
/// default.
const STRUCT_FIELD_CASES: &[Case] = &[
    Case {
        name: "required field removed",
        old: &[(
            "a.thrift",
            "struct S { 1: required i32 a, 2: optional i32 b }",
        )],
        new: &[("a.thrift", "struct S { 2: optional i32 b }")],
        forward: &[("field-removed", Wire)],
        backward: &[("field-added", Wire)],
    },
    Case {
        name: "optional field removed",
        old: &[("a.thrift", "struct S { 1: optional i32 a, 2: i32 b }")],
        new: &[("a.thrift", "struct S { 2: i32 b }")],
        forward: &[("field-removed", Source)],
        backward: &[("field-added", Safe)],
    },
    Case {
        name: "field id changed",
        old: &[("a.thrift", "struct S { 1: i32 a }")],
        new: &[("a.thrift", "struct S { 2: i32 a }")],
        forward: &[("field-id-changed", Wire)],
        backward: &[("field-id-changed", Wire)],
    },
    Case {
        name: "field type changed on the wire",
        old: &[("a.thrift", "struct S { 1: i32 a }")],
        new: &[("a.thrift", "struct S { 1: i64 a }")],
        forward: &[("field-type-changed", Wire)],
        backward: &[("field-type-changed", Wire)],
    },
    Case {
        name: "list to set",
        old: &[("a.thrift", "struct S { 1: list<i32> a }")],
        new: &[("a.thrift", "struct S { 1: set<i32> a }")],
        forward: &[("field-type-changed", Wire)],
        backward: &[("field-type-changed", Wire)],
    },
    Case {
        name: "string to binary (same bytes, another Rust type)",
        old: &[("a.thrift", "struct S { 1: string a }")],
        new: &[("a.thrift", "struct S { 1: binary a }")],
        forward: &[("field-type-changed", Source)],
        backward: &[("field-type-changed", Source)],
    },
    Case {
        name: "i32 to an enum",
        old: &[("a.thrift", "enum E { A = 1 }\nstruct S { 1: i32 a }")],
        new: &[("a.thrift", "enum E { A = 1 }\nstruct S { 1: E a }")],
        forward: &[("field-type-changed", Source)],
        backward: &[("field-type-changed", Source)],
    },
    Case {
        name: "a typedef for the same type is no change",
        old: &[("a.thrift", "struct S { 1: i64 a }")],
        new: &[("a.thrift", "typedef i64 Id\nstruct S { 1: Id a }")],
        forward: &[("definition-added", Safe)],
        backward: &[("definition-removed", Source)],
    },
    Case {
        name: "field renamed",
        old: &[("a.thrift", "struct S { 1: i32 a }")],
        new: &[("a.thrift", "struct S { 1: i32 b }")],
        forward: &[("field-renamed", Source)],
        backward: &[("field-renamed", Source)],
    },
    Case {
        name: "a rename with the same Rust name is no change",
        old: &[("a.thrift", "struct S { 1: i32 userId }")],
        new: &[("a.thrift", "struct S { 1: i32 user_id }")],
        forward: &[],
        backward: &[],
    },
    Case {
        name: "optional to required",
        old: &[("a.thrift", "struct S { 1: optional i32 a }")],
        new: &[("a.thrift", "struct S { 1: required i32 a }")],
        forward: &[("field-requiredness-changed", Wire)],
        backward: &[("field-requiredness-changed", Wire)],
    },
    Case {
        name: "optional to default requiredness",
        old: &[("a.thrift", "struct S { 1: optional i32 a }")],
        new: &[("a.thrift", "struct S { 1: i32 a }")],
        forward: &[("field-requiredness-changed", Source)],
        backward: &[("field-requiredness-changed", Source)],
    },
    Case {
        name: "field default changed",
        old: &[("a.thrift", "struct S { 1: i32 a = 1 }")],
        new: &[("a.thrift", "struct S { 1: i32 a = 2 }")],
        forward: &[("field-default-changed", Safe)],
        backward: &[("field-default-changed", Safe)],
    },
];

/// An enum's values: removed, renumbered, renamed.
const ENUM_VALUE_CASES: &[Case] = &[
    Case {
        name: "enum value removed",
        old: &[("a.thrift", "enum E { A = 1, B = 2 }")],
        new: &[("a.thrift", "enum E { A = 1 }")],
        forward: &[("enum-value-removed", Wire)],
        backward: &[("enum-value-added", Safe)],
    },
    Case {
        name: "enum value renumbered",
        old: &[("a.thrift", "enum E { A = 1 }")],
        new: &[("a.thrift", "enum E { A = 2 }")],
        forward: &[("enum-value-changed", Wire)],
        backward: &[("enum-value-changed", Wire)],
    },
    Case {
        name: "enum value renamed",
        old: &[("a.thrift", "enum E { A = 1 }")],
        new: &[("a.thrift", "enum E { C = 1 }")],
        forward: &[("enum-value-renamed", Source)],
        backward: &[("enum-value-renamed", Source)],
    },
];

/// Whole definitions: removed, of another kind, moved, retyped, revalued, renamed in Rust; and
/// no change at all.
const DEFINITION_CASES: &[Case] = &[
    Case {
        name: "struct removed",
        old: &[("a.thrift", "struct S {}\nstruct T {}")],
        new: &[("a.thrift", "struct S {}")],
        forward: &[("definition-removed", Source)],
        backward: &[("definition-added", Safe)],
    },
    Case {
        name: "service removed",
        old: &[("a.thrift", "service S { void f() }\nservice T { void g() }")],
        new: &[("a.thrift", "service S { void f() }")],
        forward: &[("definition-removed", Wire)],
        backward: &[("definition-added", Safe)],
    },
    Case {
        name: "struct to union",
        old: &[("a.thrift", "struct S { 1: i32 a }")],
        new: &[("a.thrift", "union S { 1: i32 a }")],
        forward: &[("definition-kind-changed", Wire)],
        backward: &[("definition-kind-changed", Wire)],
    },
    Case {
        name: "struct to exception",
        old: &[("a.thrift", "struct S { 1: i32 a }")],
        new: &[("a.thrift", "exception S { 1: i32 a }")],
        forward: &[("definition-kind-changed", Source)],
        backward: &[("definition-kind-changed", Source)],
    },
    Case {
        name: "typedef to struct",
        old: &[("a.thrift", "typedef i32 S")],
        new: &[("a.thrift", "struct S { 1: i32 a }")],
        forward: &[("definition-kind-changed", Wire)],
        backward: &[("definition-kind-changed", Wire)],
    },
    Case {
        // The include graph is compared as a whole: `T` is found in the other file, and
        // `U.t` still names it.
        name: "definition moved to another file",
        old: &[
            ("a.thrift", "include \"b.thrift\"\nstruct U { 1: b.T t }"),
            ("b.thrift", "struct T { 1: i32 x }"),
        ],
        new: &[
            (
                "a.thrift",
                "include \"b.thrift\"\nstruct T { 1: i32 x }\nstruct U { 1: T t }",
            ),
            ("b.thrift", "const i32 KEEP = 1"),
        ],
        forward: &[("definition-moved", Source), ("definition-added", Safe)],
        backward: &[("definition-moved", Source), ("definition-removed", Source)],
    },
    Case {
        name: "typedef changed",
        old: &[("a.thrift", "typedef i32 Id")],
        new: &[("a.thrift", "typedef i64 Id")],
        forward: &[("typedef-changed", Wire)],
        backward: &[("typedef-changed", Wire)],
    },
    Case {
        name: "const type changed (consts are not sent)",
        old: &[("a.thrift", "const i32 X = 1")],
        new: &[("a.thrift", "const i64 X = 1")],
        forward: &[("const-type-changed", Source)],
        backward: &[("const-type-changed", Source)],
    },
    Case {
        name: "const value changed",
        old: &[("a.thrift", "const i32 X = 1")],
        new: &[("a.thrift", "const i32 X = 2")],
        forward: &[("const-value-changed", Safe)],
        backward: &[("const-value-changed", Safe)],
    },
    Case {
        name: "rust.name changed",
        old: &[("a.thrift", "struct S { 1: i32 a } (rust.name = \"First\")")],
        new: &[("a.thrift", "struct S { 1: i32 a } (rust.name = \"Second\")")],
        forward: &[("rust-name-changed", Source)],
        backward: &[("rust-name-changed", Source)],
    },
    Case {
        name: "the same file",
        old: &[("a.thrift", E)],
        new: &[("a.thrift", E)],
        forward: &[],
        backward: &[],
    },
];

/// Services: functions removed, made oneway, with another result, parameters or exceptions,
/// and `extends`.
const SERVICE_CASES: &[Case] = &[
    Case {
        name: "function removed",
        old: &[("a.thrift", "service S { void f(), void g() }")],
        new: &[("a.thrift", "service S { void f() }")],
        forward: &[("function-removed", Wire)],
        backward: &[("function-added", Safe)],
    },
    Case {
        name: "oneway changed",
        old: &[("a.thrift", "service S { oneway void f() }")],
        new: &[("a.thrift", "service S { void f() }")],
        forward: &[("function-oneway-changed", Wire)],
        backward: &[("function-oneway-changed", Wire)],
    },
    Case {
        name: "result type changed",
        old: &[("a.thrift", "service S { i32 f() }")],
        new: &[("a.thrift", "service S { i64 f() }")],
        forward: &[("function-return-changed", Wire)],
        backward: &[("function-return-changed", Wire)],
    },
    Case {
        name: "void to a result",
        old: &[("a.thrift", "service S { void f() }")],
        new: &[("a.thrift", "service S { i32 f() }")],
        forward: &[("function-return-changed", Wire)],
        backward: &[("function-return-changed", Wire)],
    },
    Case {
        name: "parameter added",
        old: &[("a.thrift", "service S { void f(1: i32 x) }")],
        new: &[("a.thrift", "service S { void f(1: i32 x, 2: i32 y) }")],
        forward: &[("field-added", Source)],
        backward: &[("field-removed", Source)],
    },
    Case {
        name: "parameter type changed",
        old: &[("a.thrift", "service S { void f(1: i32 x) }")],
        new: &[("a.thrift", "service S { void f(1: string x) }")],
        forward: &[("field-type-changed", Wire)],
        backward: &[("field-type-changed", Wire)],
    },
    Case {
        name: "exception added",
        old: &[(
            "a.thrift",
            "exception Oops { 1: string why }\nservice S { void f() }",
        )],
        new: &[(
            "a.thrift",
            "exception Oops { 1: string why }\nservice S { void f() throws (1: Oops o) }",
        )],
        forward: &[("field-added", Wire)],
        backward: &[("field-removed", Source)],
    },
    Case {
        name: "extends removed",
        old: &[(
            "a.thrift",
            "service P { void p() }\nservice S extends P { void f() }",
        )],
        new: &[("a.thrift", "service P { void p() }\nservice S { void f() }")],
        forward: &[
            ("service-extends-changed", Source),
            ("function-removed", Wire),
        ],
        backward: &[("service-extends-changed", Source)],
    },
];

/// Every fixture, by what the change is to.
fn cases() -> impl Iterator<Item = &'static Case> {
    [
        STRUCT_FIELD_CASES,
        ENUM_VALUE_CASES,
        DEFINITION_CASES,
        SERVICE_CASES,
    ]
    .into_iter()
    .flatten()
}

fn write(dir: &Path, files: &[(&str, &str)]) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    for (name, text) in files {
        std::fs::write(dir.join(name), text).unwrap();
    }
    dir.join(files[0].0)
}

fn load(root: &Path) -> thrift_idl_parser::Checked {
    let checked = thrift_idl_parser::check_files(&thrift_idl_parser::Loader::new(), &[root]);
    assert!(
        !checked.has_errors(),
        "{}: {}",
        root.display(),
        checked.render_diagnostics()
    );
    checked
}

fn changes(old: &Path, new: &Path) -> BTreeSet<(&'static str, Class)> {
    let (old, new) = (load(old), load(new));
    compare(&old.program, &new.program)
        .into_iter()
        .map(|c| (c.rule, c.class))
        .collect()
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("thrift-compat-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn every_rule_fires_on_its_fixture_both_ways() {
    let base = scratch("rules");
    let mut rules = BTreeSet::new();
    for (index, case) in cases().enumerate() {
        let old = write(&base.join(format!("{index}/old")), case.old);
        let new = write(&base.join(format!("{index}/new")), case.new);
        for (from, to, expected, way) in [
            (&old, &new, case.forward, "old → new"),
            (&new, &old, case.backward, "new → old"),
        ] {
            let expected: BTreeSet<_> = expected.iter().copied().collect();
            rules.extend(expected.iter().map(|(rule, _)| *rule));
            assert_eq!(changes(from, to), expected, "{} ({way})", case.name);
        }
    }
    // Every rule the guide's reference lists has a fixture.
    let reference = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/src/reference/idl-tools.md"),
    )
    .unwrap();
    let section = reference
        .split("## Breaking changes: `thrift-codegen compat`")
        .nth(1)
        .expect("the reference's section on compat")
        .split("\n## ")
        .next()
        .unwrap();
    let listed: BTreeSet<&str> = section
        .lines()
        .filter_map(|line| line.strip_prefix("| `"))
        .filter_map(|rest| rest.split('`').next())
        .collect();
    assert!(!listed.is_empty());
    for rule in &listed {
        assert!(
            rules.contains(rule),
            "the reference's rule `{rule}` has no fixture"
        );
    }
    for rule in &rules {
        assert!(
            listed.contains(rule),
            "rule `{rule}` is not in docs/src/reference/idl-tools.md"
        );
    }
    let _ = std::fs::remove_dir_all(&base);
}

#[test]
fn every_valid_corpus_file_is_compatible_with_itself() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus");
    let manifest = std::fs::read_to_string(root.join("MANIFEST.tsv")).expect("corpus manifest");
    let mut compared = 0;
    for line in manifest.lines().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        if cols[1] != "valid" {
            continue;
        }
        let mut loader = thrift_idl_parser::Loader::new();
        for dir in cols[2].split_whitespace() {
            loader.include_dir(root.join(dir));
        }
        let path = root.join(cols[0]);
        // Loaded twice, as the command line loads two versions.
        let old = thrift_idl_parser::check_files(&loader, &[&path]);
        let new = thrift_idl_parser::check_files(&loader, &[&path]);
        assert!(!old.has_errors(), "{}", cols[0]);
        let found = compare(&old.program, &new.program);
        assert!(found.is_empty(), "{}: {:?}", cols[0], found);
        compared += 1;
    }
    assert!(compared > 400, "{compared} files");
}

fn run(args: &[&str]) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_thrift-codegen"))
        .args(args)
        .output()
        .expect("run thrift-codegen");
    (out.status.code(), String::from_utf8(out.stderr).unwrap())
}

#[test]
fn the_command_line_locates_classifies_and_exits_by_fail_on() {
    let base = scratch("cli");
    let old = write(
        &base.join("old"),
        &[(
            "api.thrift",
            "struct S {\n  1: optional i32 a\n  2: i64 b\n}\n",
        )],
    );
    let new = write(
        &base.join("new"),
        &[(
            "api.thrift",
            "struct S {\n  1: i32 a\n  2: i32 b\n  3: optional string c\n}\n",
        )],
    );
    let (old, new) = (old.display().to_string(), new.display().to_string());

    let (code, stderr) = run(&["compat", &old, &new]);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "{new}:3:6: error: wire-breaking: the type of field 2 of `S` changed from `i64` to `i32` [field-type-changed]"
        )),
        "{stderr}"
    );
    assert!(
        stderr.contains(&format!("= note: was at {old}:3:6: 2: i64 b")),
        "{stderr}"
    );
    assert!(
        stderr.contains("warning: source-breaking: field 1 of `S` changed from optional to default requiredness [field-requiredness-changed]"),
        "{stderr}"
    );
    assert!(
        !stderr.contains("field-added"),
        "safe changes hidden: {stderr}"
    );
    assert!(
        stderr.contains("1 wire-breaking, 1 source-breaking, 1 safe"),
        "{stderr}"
    );

    let (_, stderr) = run(&["compat", "--show-safe", &old, &new]);
    assert!(stderr.contains("[field-added]"), "{stderr}");

    let (code, stderr) = run(&["compat", "--error-format", "json", &old, &new]);
    assert_eq!(code, Some(1));
    let lines: Vec<serde_json::Value> = stderr
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3, "{stderr}");
    assert_eq!(lines[1]["class"], "wire-breaking");
    assert_eq!(lines[1]["rule"], "field-type-changed");
    assert_eq!(lines[1]["line"], 3);
    assert_eq!(lines[2]["class"], "safe");

    // Only the source-breaking change: it fails by default, not with `--fail-on wire`.
    let source_only = write(
        &base.join("source"),
        &[("api.thrift", "struct S {\n  1: i32 a\n  2: i64 b\n}\n")],
    )
    .display()
    .to_string();
    assert_eq!(run(&["compat", &old, &source_only]).0, Some(1));
    assert_eq!(
        run(&["compat", "--fail-on", "wire", &old, &source_only]).0,
        Some(0)
    );
    assert_eq!(run(&["compat", &old, &old]).0, Some(0));

    // An invalid version: its diagnostics, exit 2.
    let broken = write(
        &base.join("broken"),
        &[("api.thrift", "struct S { 1: Nope a }\n")],
    )
    .display()
    .to_string();
    let (code, stderr) = run(&["compat", &old, &broken]);
    assert_eq!(code, Some(2));
    assert!(stderr.contains("Nope"), "{stderr}");
    let _ = std::fs::remove_dir_all(&base);
}
