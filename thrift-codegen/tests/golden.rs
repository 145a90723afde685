//! Golden files: the code generated for each fixture in `tests/golden/*.thrift` must equal the
//! checked-in `tests/golden/*.rs` (the `-o -` form: every module of the fixture and its
//! includes, inline). The checked-in files are compiled, with clippy, by the `thrift-tests`
//! crate. Regenerate them with `UPDATE_GOLDEN=1 cargo test -p thrift-codegen --test golden`.

use std::path::{Path, PathBuf};

use thrift_codegen::{Builder, single_file};

/// Every (fixture, builder, golden file) to check: `<name>.rs` from `<name>.thrift` with the
/// default options, or, where `<name>.options` stands beside the fixture, each golden file it
/// lists, made with the `Builder` calls on its line (see [`builder_from`]). A new fixture is
/// one `.thrift` file (and its golden, written by `UPDATE_GOLDEN=1`); the `thrift-tests`
/// crate finds the golden by itself.
fn cases() -> Vec<(PathBuf, Builder, PathBuf)> {
    let mut cases = Vec::new();
    for fixture in fixtures() {
        let options = fixture.with_extension("options");
        let Ok(text) = std::fs::read_to_string(&options) else {
            cases.push((
                fixture.clone(),
                Builder::new(),
                fixture.with_extension("rs"),
            ));
            continue;
        };
        for (number, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let (golden, calls) = line
                .split_once(':')
                .unwrap_or_else(|| panic!("{}:{}: no `file:`", options.display(), number + 1));
            let builder = builder_from(calls)
                .unwrap_or_else(|e| panic!("{}:{}: {e}", options.display(), number + 1));
            cases.push((
                fixture.clone(),
                builder,
                fixture.with_file_name(golden.trim()),
            ));
        }
    }
    cases
}

/// A `Builder` from calls written as in Rust, separated by spaces: `serde(true)
/// strings(bytes) type_attribute("a.B", "#[repr(C)]") boxed("a.B.c", "a.B.d")`. Arguments
/// are string literals (`\"` and `\\` escaped) or words (`true`, `bytes`, `hash`…); each
/// call reaches its option through `Builder::set`, as the command line's flags do.
fn builder_from(calls: &str) -> Result<Builder, String> {
    let mut builder = Builder::new();
    let mut rest = calls.trim();
    while !rest.is_empty() {
        let open = rest.find('(').ok_or("a call without `(`")?;
        let name = rest[..open].trim();
        let (args, after) = arguments(&rest[open + 1..])?;
        rest = after.trim_start();
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        builder.set(name, &args).map_err(|e| e.to_string())?;
    }
    Ok(builder)
}

/// The arguments of a call up to its `)`, and the text after it.
fn arguments(mut text: &str) -> Result<(Vec<String>, &str), String> {
    let mut args = Vec::new();
    loop {
        text = text.trim_start();
        if let Some(after) = text.strip_prefix(')') {
            return Ok((args, after));
        }
        if let Some(quoted) = text.strip_prefix('"') {
            let mut value = String::new();
            let mut chars = quoted.char_indices();
            let end = loop {
                match chars.next() {
                    Some((_, '\\')) => value.push(chars.next().ok_or("a `\\` at the end")?.1),
                    Some((i, '"')) => break i + 1,
                    Some((_, c)) => value.push(c),
                    None => return Err("an unclosed string".into()),
                }
            };
            args.push(value);
            text = &quoted[end..];
        } else {
            let end = text.find([',', ')']).ok_or("a call without `)`")?;
            args.push(text[..end].trim().to_string());
            text = &text[end..];
        }
        text = text.trim_start();
        text = text.strip_prefix(',').unwrap_or(text);
    }
}

fn fixtures() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "thrift"))
        .collect();
    files.sort();
    files
}

#[test]
fn generated_code_matches_golden_files() {
    let update = std::env::var_os("UPDATE_GOLDEN").is_some();
    let mut stale = Vec::new();
    for (fixture, builder, golden) in cases() {
        let generated = single_file(
            &builder
                .generate([&fixture])
                .unwrap_or_else(|e| panic!("{e}")),
        );
        if update {
            std::fs::write(&golden, &generated).unwrap();
            continue;
        }
        let expected = std::fs::read_to_string(&golden).unwrap_or_default();
        if expected != generated {
            let diff = similar::TextDiff::from_lines(&expected, &generated);
            stale.push(format!("{}\n{}", golden.display(), diff.unified_diff()));
        }
    }
    assert!(
        stale.is_empty(),
        "golden files differ (UPDATE_GOLDEN=1 to accept):\n{}",
        stale.join("\n")
    );
}

/// Every checked-in golden file is made by a case: none is left behind by a fixture or an
/// options line that is gone.
#[test]
fn every_golden_file_has_a_case() {
    let made: std::collections::BTreeSet<PathBuf> =
        cases().into_iter().map(|(_, _, golden)| golden).collect();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let orphans: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "rs") && !made.contains(p))
        .collect();
    assert!(
        orphans.is_empty(),
        "golden files no case makes: {orphans:?}"
    );
}

#[test]
fn generation_is_deterministic() {
    for (fixture, builder, _) in cases() {
        let generate = || single_file(&builder.generate([&fixture]).unwrap());
        let (first, second) = (generate(), generate());
        assert_eq!(first, second, "{}", fixture.display());
    }
}

/// Generated code contains no `unsafe` (no block, function, impl or trait): every fixture,
/// in every mapping, scanned token by token (so doc text saying "unsafe" does not count).
#[test]
fn generated_code_has_no_unsafe() {
    fn scan(tokens: proc_macro2::TokenStream, file: &std::path::Path) {
        for token in tokens {
            match token {
                proc_macro2::TokenTree::Ident(ident) => {
                    assert!(
                        ident != "unsafe",
                        "`unsafe` in code generated for {}",
                        file.display()
                    );
                }
                proc_macro2::TokenTree::Group(group) => scan(group.stream(), file),
                _ => {}
            }
        }
    }
    for (fixture, builder, _) in cases() {
        let code = single_file(&builder.generate([&fixture]).unwrap());
        let tokens: proc_macro2::TokenStream = code.parse().expect("generated code tokenizes");
        scan(tokens, &fixture);
    }
}

/// Generated code names the runtime only through `__rt`, the one import of
/// `thrift_runtime::__codegen` (the contract between generator and runtime): no other path
/// into `thrift_runtime` appears, in any fixture and mapping (prose in doc comments may
/// name the crate; their links go through `__rt`).
#[test]
fn generated_code_names_the_runtime_through_codegen_only() {
    for (fixture, builder, _) in cases() {
        let code = single_file(&builder.generate([&fixture]).unwrap());
        let mentions: Vec<&str> = code
            .lines()
            .filter(|line| {
                let doc = line.trim_start().starts_with("///");
                line.contains("thrift_runtime") && (!doc || line.contains("](thrift_runtime"))
            })
            .collect();
        assert!(
            !mentions.is_empty()
                && mentions
                    .iter()
                    .all(|line| line.trim() == "use ::thrift_runtime::__codegen as __rt;"),
            "{}: the runtime named outside the __codegen import: {mentions:?}",
            fixture.display()
        );
    }
}
