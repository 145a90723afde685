//! A new user's first hour, as separate crates built with cargo: a binary crate that follows
//! the guide (`build.rs` with the `Builder`, `mod idl { include!(…) }` in `main.rs`) on
//! Jaeger's and Parquet's IDL compiles with zero warnings under clippy `-D warnings`, and a
//! typo in its IDL fails the build with the located diagnostic as `check` prints it, not an
//! escaped string.
//!
//! The crates are written below `target/first-hour/` (with the workspace's `Cargo.lock`, so
//! that no dependency is resolved anew, and their own target directory, so that this test's
//! cargo does not wait for the one running it).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ is in the workspace")
        .to_path_buf()
}

fn corpus() -> PathBuf {
    std::env::var_os("THRIFT_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace().join("../shared/corpus"))
}

/// Writes a user crate named `name` with `main.rs` and the IDL files `idl`, laid out as the
/// guide's first page (docs/src/first-service.md) says.
fn user_crate(name: &str, main: &str, idl: &[(&str, String)]) -> PathBuf {
    let dir = workspace().join("target/first-hour").join(name);
    let _ = std::fs::remove_dir_all(dir.join("src"));
    let _ = std::fs::remove_dir_all(dir.join("idl"));
    std::fs::create_dir_all(dir.join("src")).unwrap();
    std::fs::create_dir_all(dir.join("idl")).unwrap();
    let root = workspace();
    let path = |krate: &str| root.join(krate).display().to_string().replace('\\', "/");
    std::fs::write(
        dir.join("Cargo.toml"),
        format!(
            r#"[package]
name = "{name}"
version = "0.1.0"
edition = "2021"

[workspace]

[dependencies]
thrift-runtime = {{ path = "{}" }}

[build-dependencies]
thrift-codegen = {{ path = "{}" }}
"#,
            path("thrift-runtime"),
            path("thrift-codegen")
        ),
    )
    .unwrap();
    std::fs::copy(root.join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
    let files: Vec<String> = idl.iter().map(|(f, _)| format!("\"idl/{f}\"")).collect();
    // Only the first file is compiled; it includes the others.
    std::fs::write(
        dir.join("build.rs"),
        format!(
            r#"fn main() -> Result<(), Box<dyn std::error::Error>> {{
    thrift_codegen::Builder::new()
        .include_dir("idl")
        .compile([{}])?;
    Ok(())
}}
"#,
            files[0]
        ),
    )
    .unwrap();
    std::fs::write(dir.join("src/main.rs"), main).unwrap();
    for (file, contents) in idl {
        std::fs::write(dir.join("idl").join(file), contents).unwrap();
    }
    dir
}

fn cargo(dir: &Path, args: &[&str]) -> Output {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let (command, rest) = args.split_first().expect("a cargo command");
    Command::new(cargo)
        .arg(command)
        .arg("--offline")
        .args(rest)
        .current_dir(dir)
        .env(
            "CARGO_TARGET_DIR",
            workspace().join("target/first-hour/target"),
        )
        .env_remove("RUSTFLAGS")
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .output()
        .expect("cargo runs")
}

fn jaeger(file: &str) -> String {
    let path = corpus().join("jaegertracing__jaeger-idl/thrift").join(file);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

const MAIN: &str = r#"mod idl {
    include!(concat!(env!("OUT_DIR"), "/thrift.rs"));
}

use thrift_runtime::{Compact, ThriftRead, ThriftWrite};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let process = idl::jaeger::Process {
        service_name: "first-hour".into(),
        tags: None,
    };
    let bytes = process.encode_to_vec::<Compact>()?;
    let back = idl::jaeger::Process::decode::<Compact>(&bytes)?;
    assert_eq!(back, process);
    println!("{} bytes", bytes.len());
    Ok(())
}
"#;

#[test]
fn a_binary_crate_following_the_readme_has_no_warnings() {
    let idl = [
        ("agent.thrift", jaeger("agent.thrift")),
        ("jaeger.thrift", jaeger("jaeger.thrift")),
        ("zipkincore.thrift", jaeger("zipkincore.thrift")),
    ];
    let dir = user_crate("readme-binary", MAIN, &idl);
    let out = cargo(&dir, &["clippy", "--all-targets", "--", "-D", "warnings"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "clippy failed:\n{stderr}");
    assert!(
        !stderr.contains("warning"),
        "the user's crate has warnings:\n{stderr}"
    );
    let run = cargo(&dir, &["run", "--quiet"]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
}

/// What a `build.rs` user compiles through `thrift-codegen` (its normal and build
/// dependencies, as `cargo tree` lists them from the user's crate): at most 30 crates, no C
/// compiler (`cc`), one major of `syn`.
#[test]
fn the_generator_builds_light() {
    let dir = user_crate(
        "light-build",
        "fn main() {}\n",
        &[("jaeger.thrift", jaeger("jaeger.thrift"))],
    );
    let out = cargo(
        &dir,
        &[
            "tree",
            "-p",
            "thrift-codegen",
            "-e",
            "normal,build",
            "--prefix",
            "none",
        ],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut crates: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| l.trim_end_matches(" (*)").to_string())
        .filter(|l| !l.is_empty())
        .collect();
    crates.sort();
    crates.dedup();
    let listing = crates.join("\n");
    assert!(crates.len() <= 30, "{} crates:\n{listing}", crates.len());
    assert!(
        !crates.iter().any(|c| c.starts_with("cc ")),
        "a C compiler is needed:\n{listing}"
    );
    let syn_majors: std::collections::BTreeSet<&str> = crates
        .iter()
        .filter_map(|c| c.strip_prefix("syn v"))
        .filter_map(|v| v.split('.').next())
        .collect();
    assert!(
        syn_majors.len() <= 1,
        "syn majors {syn_majors:?}:\n{listing}"
    );
    eprintln!("thrift-codegen's build tree: {} crates", crates.len());
}

#[test]
fn a_typo_in_the_idl_fails_the_build_with_the_located_diagnostic() {
    let typo = jaeger("jaeger.thrift").replacen("list<Tag>", "list<Tagg>", 1);
    let dir = user_crate("readme-typo", MAIN, &[("jaeger.thrift", typo)]);
    let out = cargo(&dir, &["build"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "the build succeeded:\n{stderr}");
    // As `check` prints it: path:line:col, the source line and a caret, real newlines.
    let located = stderr
        .lines()
        .find(|l| l.contains("idl/jaeger.thrift:") && l.contains("error: unknown type `Tagg`"))
        .unwrap_or_else(|| panic!("no located diagnostic in:\n{stderr}"));
    assert!(!located.contains("\\n"), "escaped: {located}");
    assert!(
        stderr.contains("list<Tagg>"),
        "no source line in:\n{stderr}"
    );
    assert!(
        stderr
            .lines()
            .any(|l| l.trim_start().starts_with('|') && l.contains('^'))
    );
    assert!(
        !stderr.contains("Idl(\""),
        "the Debug form of the error:\n{stderr}"
    );
}

/// A crate generating with this project and with Apache's compiler into one `OUT_DIR` (as
/// when migrating from Apache's generator, or comparing the two): Apache's `thrift --gen rs
/// -out $OUT_DIR` writes `jaeger.rs`, ours writes `thrift.rs` and `thrift/jaeger.rs`, and
/// neither overwrites the other, whichever runs last.
#[test]
fn our_code_and_apaches_share_one_out_dir() {
    let main = MAIN.replace(
        "fn main() -> Result<(), Box<dyn std::error::Error>> {",
        "/// What Apache's compiler wrote beside ours.\nconst APACHE: &str = include_str!(concat!(env!(\"OUT_DIR\"), \"/jaeger.rs\"));\n\nfn main() -> Result<(), Box<dyn std::error::Error>> {\n    assert!(APACHE.contains(\"Autogenerated by Thrift Compiler\"));",
    );
    let dir = user_crate(
        "with-apache",
        &main,
        &[("jaeger.thrift", jaeger("jaeger.thrift"))],
    );
    std::fs::write(
        dir.join("build.rs"),
        r#"fn main() -> Result<(), Box<dyn std::error::Error>> {
    thrift_codegen::Builder::new()
        .include_dir("idl")
        .compile(["idl/jaeger.thrift"])?;
    // Apache's generator, into the same directory, after ours.
    let out = std::env::var("OUT_DIR")?;
    let status = std::process::Command::new("thrift")
        .args(["--gen", "rs", "-out", &out, "idl/jaeger.thrift"])
        .status()?;
    assert!(status.success(), "thrift --gen rs failed");
    Ok(())
}
"#,
    )
    .unwrap();
    let run = cargo(&dir, &["run", "--quiet"]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
}

/// Generated code checks at compile time that the runtime is the version its generator
/// writes for: code from a generator of another contract (simulated here by the line such a
/// generator would write) fails the build saying which crates to align.
#[test]
fn a_runtime_of_another_version_fails_the_build_saying_why() {
    let main = format!(
        "{MAIN}\n// What a thrift-codegen of another version would have written.\nconst _: () = thrift_runtime::__codegen::require(thrift_runtime::__codegen::CONTRACT + 1);\n"
    );
    let dir = user_crate(
        "other-runtime",
        &main,
        &[("jaeger.thrift", jaeger("jaeger.thrift"))],
    );
    let out = cargo(&dir, &["build"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "the build succeeded:\n{stderr}");
    assert!(
        stderr.contains("generated by a thrift-codegen for another version of thrift-runtime"),
        "{stderr}"
    );
    // The generated code itself passes the check.
    let dir = user_crate(
        "same-runtime",
        MAIN,
        &[("jaeger.thrift", jaeger("jaeger.thrift"))],
    );
    let generated = cargo(&dir, &["build"]);
    assert!(
        generated.status.success(),
        "{}",
        String::from_utf8_lossy(&generated.stderr)
    );
}

/// The generator's warnings reach a `build.rs` user as `check` prints them (located, with the
/// source line and the caret), as cargo warnings; the build goes on.
#[test]
fn a_field_without_an_id_is_a_located_cargo_warning() {
    let idl = "struct Span {\n  1: string name\n  i64 duration\n}\n".to_owned();
    let main = "#![allow(dead_code)]\nmod idl {\n    include!(concat!(env!(\"OUT_DIR\"), \"/thrift.rs\"));\n}\n\nfn main() {}\n";
    let dir = user_crate("readme-warning", main, &[("span.thrift", idl)]);
    let out = cargo(&dir, &["build"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "the build failed:\n{stderr}");
    let located = stderr
        .lines()
        .find(|l| {
            l.starts_with("warning: ")
                && l.contains(
                    "idl/span.thrift:3:7: warning: no field id for `duration`; assigned -1",
                )
        })
        .unwrap_or_else(|| panic!("no located warning in:\n{stderr}"));
    assert!(!located.contains("\\n"), "escaped: {located}");
    assert!(
        stderr.contains("i64 duration"),
        "no source line in:\n{stderr}"
    );
    assert!(
        stderr.lines().any(|l| l.contains('|') && l.contains('^')),
        "no caret in:\n{stderr}"
    );
}
