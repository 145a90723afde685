//! `Builder::only`: the code generated for the paths named is a strict subset of the full
//! code (item by item, in every module), holds what the paths name, and compiles on its own
//! with clippy and `-D warnings`, on real IDL from the shared corpus (services across included
//! files, a service that extends another's, types only) and on the consts fixture (consts that
//! name other consts and enum values).

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use thrift_codegen::{Builder, Error, GeneratedFile};

fn corpus(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/corpus")
        .join(path)
}

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(name)
}

struct Case {
    name: &'static str,
    file: PathBuf,
    include_dir: Option<PathBuf>,
    only: &'static [&'static str],
    /// Items (by name, in any module) the subset must have.
    has: &'static [&'static str],
    /// Items of the full code the subset must not have.
    lacks: &'static [&'static str],
}

fn cases() -> Vec<Case> {
    vec![
        Case {
            name: "evernote",
            file: corpus("evernote__evernote-thrift/src/NoteStore.thrift"),
            include_dir: None,
            only: &[
                "NoteStore.NoteStore.getNote",
                "NoteStore.NoteStore.listNotebooks",
            ],
            has: &[
                "NoteStoreClient",
                "Note",
                "Notebook",
                "EdamUserException",
                "NoteStoreGetNoteArgs",
            ],
            lacks: &[
                "NoteStoreFindNotesMetadataArgs",
                "NoteFilter",
                "UserStoreClient",
                "SyncChunk",
            ],
        },
        Case {
            // `scribe extends fb303.FacebookService`: the inherited functions not named are
            // left out, the parent service stays (the child's traits name it).
            name: "scribe",
            file: corpus("facebookarchive__scribe/if/scribe.thrift"),
            include_dir: Some(corpus("apache__thrift/contrib")),
            only: &["scribe.scribe.Log", "scribe.scribe.getName"],
            has: &[
                "ScribeClient",
                "LogEntry",
                "ResultCode",
                "FacebookServiceClient",
                "FacebookServiceGetNameArgs",
                "get_name",
            ],
            lacks: &[
                "FacebookServiceGetStatusArgs",
                "FacebookServiceGetCountersArgs",
                "FbStatus",
                "get_status",
            ],
        },
        Case {
            name: "parquet",
            file: corpus("apache__parquet-format/src/main/thrift/parquet.thrift"),
            include_dir: None,
            only: &["parquet.FileMetaData"],
            has: &[
                "FileMetaData",
                "FileMetaDataRef",
                "ColumnChunk",
                "Statistics",
                "Type",
            ],
            lacks: &["PageHeader", "DataPageHeader", "ColumnIndex", "OffsetIndex"],
        },
        Case {
            name: "consts",
            file: fixture("consts.thrift"),
            include_dir: None,
            only: &["consts.ALIAS", "consts.LEVELS", "consts.WIDENED"],
            has: &["ALIAS", "GREETING", "LEVELS", "Level", "WIDENED", "HEX"],
            lacks: &["PI", "ORIGIN", "Point", "Shape"],
        },
    ]
}

fn generate(case: &Case, only: bool) -> Result<Vec<GeneratedFile>, Error> {
    let mut builder = Builder::new();
    if let Some(dir) = &case.include_dir {
        builder.include_dir(dir);
    }
    if only {
        builder.only(case.only.iter().copied());
    }
    builder.generate([&case.file])
}

/// Every named item of a module (`kind name`), and the methods of its traits and impls, so
/// that a client's left-out methods count.
fn items(code: &str) -> BTreeSet<String> {
    let file = syn::parse_file(code).expect("generated code parses");
    let mut out = BTreeSet::new();
    for item in &file.items {
        match item {
            syn::Item::Struct(i) => {
                out.insert(format!("struct {}", i.ident));
            }
            syn::Item::Enum(i) => {
                out.insert(format!("enum {}", i.ident));
            }
            syn::Item::Type(i) => {
                out.insert(format!("type {}", i.ident));
            }
            syn::Item::Const(i) => {
                out.insert(format!("const {}", i.ident));
            }
            syn::Item::Static(i) => {
                out.insert(format!("static {}", i.ident));
            }
            syn::Item::Fn(i) => {
                out.insert(format!("fn {}", i.sig.ident));
            }
            syn::Item::Trait(i) => {
                out.insert(format!("trait {}", i.ident));
                for inner in &i.items {
                    if let syn::TraitItem::Fn(f) = inner {
                        out.insert(format!("trait {} fn {}", i.ident, f.sig.ident));
                    }
                }
            }
            syn::Item::Impl(i) => {
                let self_ty = quote::ToTokens::to_token_stream(&i.self_ty).to_string();
                for inner in &i.items {
                    if let syn::ImplItem::Fn(f) = inner {
                        out.insert(format!("impl {self_ty} fn {}", f.sig.ident));
                    }
                }
            }
            _ => {}
        }
    }
    out
}

fn named(items: &BTreeSet<String>, name: &str) -> bool {
    items
        .iter()
        .any(|item| item.rsplit(' ').next() == Some(name))
}

#[test]
fn only_generates_a_strict_subset_that_holds_what_is_named() {
    for case in cases() {
        let full = generate(&case, false).unwrap_or_else(|e| panic!("{}: {e}", case.name));
        let subset = generate(&case, true).unwrap_or_else(|e| panic!("{}: {e}", case.name));
        assert_eq!(
            full.iter().map(|f| &f.path).collect::<Vec<_>>(),
            subset.iter().map(|f| &f.path).collect::<Vec<_>>(),
            "{}: the same modules",
            case.name
        );
        let (mut all_full, mut all_subset) = (BTreeSet::new(), BTreeSet::new());
        for (f, s) in full.iter().zip(&subset) {
            let (f_items, s_items) = (items(&f.contents), items(&s.contents));
            let extra: Vec<_> = s_items.difference(&f_items).collect();
            assert!(
                extra.is_empty(),
                "{}: {} has items the full code lacks: {extra:?}",
                case.name,
                s.path.display()
            );
            all_full.extend(f_items);
            all_subset.extend(s_items);
        }
        assert!(
            all_subset.len() < all_full.len(),
            "{}: a strict subset",
            case.name
        );
        for name in case.has {
            assert!(named(&all_subset, name), "{}: lacks {name}", case.name);
        }
        for name in case.lacks {
            assert!(
                named(&all_full, name),
                "{}: the full code has {name}",
                case.name
            );
            assert!(!named(&all_subset, name), "{}: has {name}", case.name);
        }
        let bytes = |files: &[GeneratedFile]| files.iter().map(|f| f.contents.len()).sum::<usize>();
        println!(
            "{}: {} of {} bytes, {} of {} items",
            case.name,
            bytes(&subset),
            bytes(&full),
            all_subset.len(),
            all_full.len()
        );
    }
}

#[test]
fn only_with_a_path_that_names_nothing_is_an_options_error() {
    for path in [
        "consts.NOPE",
        "nope.ALIAS",
        "consts.ALIAS.field",
        "consts.LABEL.x",
    ] {
        let err = Builder::new()
            .only([path])
            .generate([fixture("consts.thrift")])
            .unwrap_err();
        assert!(
            matches!(&err, Error::Options(m) if m.contains(path)),
            "{path}: {err}"
        );
    }
}

#[test]
fn only_output_compiles_without_warnings() {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let krate = workspace.join("target/corpus-compile/only-subsets");
    let src = krate.join("src");
    let _ = std::fs::remove_dir_all(&src);
    std::fs::create_dir_all(&src).unwrap();
    let mut lib = String::from("//! Generated code of `Builder::only` subsets.\n");
    for case in cases() {
        let files = generate(&case, true).unwrap();
        common::add_module(&src, &format!("case_{}", case.name), &files, None, &mut lib);
    }
    let (clean, stderr) = common::clippy(&krate, "only-subsets", &[], &lib);
    assert!(
        clean,
        "generated code of the subsets does not compile cleanly:\n{stderr}"
    );
}

/// A shorter path selects more (the rule of every option naming IDL paths): a file keeps
/// all its definitions, `.` everything.
#[test]
fn only_a_file_keeps_the_whole_file() {
    let generate = |paths: &[&str]| {
        let mut builder = Builder::new();
        builder.only(paths.iter().copied());
        let files = builder.generate([fixture("consts.thrift")]).unwrap();
        thrift_codegen::single_file(&files)
    };
    let full =
        thrift_codegen::single_file(&Builder::new().generate([fixture("consts.thrift")]).unwrap());
    assert_eq!(generate(&["."]), full);
    // Every definition of consts.thrift, and of unions.thrift what they reach.
    let file = generate(&["consts"]);
    assert!(file.contains("pub const WIDENED: i64") && file.contains("pub struct Point"));
    assert_eq!(
        file,
        generate(&[".consts"]),
        "a leading `.` changes nothing"
    );
}
