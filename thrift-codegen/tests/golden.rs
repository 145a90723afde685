//! Golden files: the code generated for each fixture in `tests/golden/*.thrift` must equal the
//! checked-in `tests/golden/*.rs` (the `-o -` form: every module of the fixture and its
//! includes, inline). The checked-in files are compiled, with clippy, by the `thrift-tests`
//! crate. Regenerate them with `UPDATE_GOLDEN=1 cargo test -p thrift-codegen --test golden`.

use std::path::{Path, PathBuf};

use thrift_codegen::{single_file, Builder, Collections, Strings};

/// Fixtures also generated with other options: `Collections::Hash` into `<name>_hash.rs`,
/// `Collections::Hash` with a hasher ([`HASHER`]) into `<name>_hasher.rs`, `Strings::Bytes`
/// into `<name>_bytes.rs` and `Strings::Compact` into `<name>_compact.rs`.
const HASH_FIXTURES: &[&str] = &["consts", "containers", "typedefs"];
const HASHER_FIXTURES: &[&str] = &["consts", "containers"];
const BYTES_FIXTURES: &[&str] = &["base_types", "consts", "containers"];

/// A hasher other than std's `RandomState` that needs no extra crate in `thrift-tests`.
const HASHER: &str = "::std::hash::BuildHasherDefault<::std::hash::DefaultHasher>";

/// Every (fixture, builder, golden file) to check.
fn cases() -> Vec<(PathBuf, Builder, PathBuf)> {
    let mut cases = Vec::new();
    for fixture in fixtures() {
        let stem = fixture.file_stem().unwrap().to_string_lossy().into_owned();
        let mut builder = Builder::new();
        if stem == "attributes" {
            builder
                .type_attribute("attributes", "#[doc(alias = \"attributed\")]")
                .type_attribute("attributes.Tagged", "#[repr(C)]")
                .ref_type_attribute("attributes.Tagged", "#[derive(Eq)]")
                .type_attribute("attributes.Failed", "#[non_exhaustive]")
                .field_attribute("attributes.Tagged.name", "#[doc(alias = \"title\")]")
                .field_attribute("attributes.Choice", "#[doc(alias = \"option\")]")
                .ref_field_attribute("attributes.Tagged.name", "#[doc(alias = \"title_ref\")]")
                .boxed(["attributes.Holder.boxed_by_builder"]);
        }
        if stem == "mappings" {
            builder
                .strings_for("mappings.Mixed.payload", Strings::Bytes)
                .collections_for("mappings.ByBuilder", Collections::Hash);
        }
        if stem == "serde" {
            builder.serde(true);
            for (suffix, strings) in [("bytes", Strings::Bytes), ("compact", Strings::Compact)] {
                let golden = fixture.with_file_name(format!("serde_{suffix}.rs"));
                let mut builder = Builder::new();
                builder.serde(true).strings(strings);
                cases.push((fixture.clone(), builder, golden));
            }
            let mut hash = Builder::new();
            hash.serde(true).collections(Collections::Hash);
            cases.push((
                fixture.clone(),
                hash,
                fixture.with_file_name("serde_hash.rs"),
            ));
        }
        if stem == "unknown_fields" {
            builder.keep_unknown_fields(["unknown_fields"]);
            // With serde: the member is skipped.
            let mut serde = Builder::new();
            serde.keep_unknown_fields(["."]).serde(true);
            let golden = fixture.with_file_name("unknown_fields_serde.rs");
            cases.push((fixture.clone(), serde, golden));
        }
        cases.push((fixture.clone(), builder, fixture.with_extension("rs")));
        if HASH_FIXTURES.contains(&stem.as_str()) {
            let golden = fixture.with_file_name(format!("{stem}_hash.rs"));
            let mut builder = Builder::new();
            builder.collections(Collections::Hash);
            cases.push((fixture.clone(), builder, golden));
        }
        if HASHER_FIXTURES.contains(&stem.as_str()) {
            let golden = fixture.with_file_name(format!("{stem}_hasher.rs"));
            let mut builder = Builder::new();
            builder.collections(Collections::Hash).hasher(HASHER);
            cases.push((fixture.clone(), builder, golden));
        }
        if BYTES_FIXTURES.contains(&stem.as_str()) {
            for (suffix, strings) in [("bytes", Strings::Bytes), ("compact", Strings::Compact)] {
                let golden = fixture.with_file_name(format!("{stem}_{suffix}.rs"));
                let mut builder = Builder::new();
                builder.strings(strings);
                cases.push((fixture.clone(), builder, golden));
            }
        }
    }
    cases
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
