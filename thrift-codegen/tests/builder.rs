//! `Builder::compile` as `build.rs` uses it: files in the output directory, the include file,
//! write-if-changed, `generate()` in memory.

use std::path::PathBuf;

use thrift_codegen::Builder;

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(name)
}

#[test]
fn compile_writes_modules_and_include_file_only_when_changed() {
    let out = std::env::temp_dir().join(format!("thrift-codegen-builder-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let mut builder = Builder::new();
    builder.out_dir(&out).emit_rerun_if_changed(false);
    builder.compile([fixture("consts.thrift")]).unwrap();
    // consts.thrift includes unions.thrift: both modules in `thrift/`, and the include file.
    let consts = out.join("thrift/consts.rs");
    assert!(consts.is_file() && out.join("thrift/unions.rs").is_file());
    assert!(
        !out.join("consts.rs").exists(),
        "nothing beside the include file"
    );
    let include = std::fs::read_to_string(out.join("thrift.rs")).unwrap();
    assert!(
        include.contains("pub mod consts {") && include.contains("pub mod unions {"),
        "{include}"
    );
    let before = std::fs::metadata(&consts).unwrap().modified().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));
    builder.compile([fixture("consts.thrift")]).unwrap();
    assert_eq!(
        std::fs::metadata(&consts).unwrap().modified().unwrap(),
        before,
        "unchanged files are not rewritten"
    );
}

#[test]
fn generate_returns_files_in_memory_and_reports_idl_errors() {
    let files = Builder::new().generate([fixture("consts.thrift")]).unwrap();
    let modules: Vec<String> = files.iter().map(|f| f.module.join("::")).collect();
    assert_eq!(modules, ["consts", "unions"]);
    assert!(files[0].contents.contains("pub const GREETING: &str"));

    let bad = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../thrift-parser/tests/fixtures/invalid/duplicates.thrift");
    let error = Builder::new().generate([bad]).unwrap_err().to_string();
    assert!(
        error.contains("duplicates.thrift:2:6: error: `A` is already defined"),
        "{error}"
    );
    assert!(
        error.matches(": error: ").count() >= 10,
        "every error is reported: {error}"
    );
}

/// The code generated for the attributes fixture with the options `configure` sets.
fn attributes_code(configure: &dyn Fn(&mut Builder)) -> Result<String, thrift_codegen::Error> {
    let mut builder = Builder::new();
    configure(&mut builder);
    builder
        .generate([fixture("attributes.thrift")])
        .map(|files| thrift_codegen::single_file(&files))
}

fn corpus(path: &str) -> PathBuf {
    std::env::var_os("THRIFT_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus"))
        .join(path)
}

fn parquet_code(configure: impl FnOnce(&mut Builder)) -> Result<String, thrift_codegen::Error> {
    let mut builder = Builder::new();
    configure(&mut builder);
    let files = builder.generate([corpus(
        "apache__parquet-format/src/main/thrift/parquet.thrift",
    )])?;
    Ok(thrift_codegen::single_file(&files))
}

#[test]
fn borrowing_forms_can_be_left_out_or_chosen_per_type() {
    let all = parquet_code(|_| {}).unwrap();
    assert!(all.contains("pub struct FileMetaDataRef<'de>"));
    assert!(all.contains("pub struct PageHeaderRef<'de>"));

    let none = parquet_code(|b| {
        b.borrowed(false);
    })
    .unwrap();
    assert!(!none.contains("Ref<'de>"), "a borrowing form was generated");
    assert!(
        none.len() * 3 < all.len() * 2,
        "{} vs {}",
        none.len(),
        all.len()
    );

    // FileMetaData and what it holds (row groups, column chunks, their metadata and
    // statistics), not the page headers, which it does not hold.
    let some = parquet_code(|b| {
        b.borrowed_types(["parquet.FileMetaData"]);
    })
    .unwrap();
    for held in [
        "FileMetaDataRef",
        "RowGroupRef",
        "ColumnChunkRef",
        "ColumnMetaDataRef",
        "StatisticsRef",
    ] {
        assert!(
            some.contains(&format!("pub struct {held}<'de>")),
            "{held} missing"
        );
    }
    assert!(!some.contains("pub struct PageHeaderRef<'de>"));

    let unknown = parquet_code(|b| {
        b.borrowed_types(["parquet.NoSuchType"]);
    });
    assert!(
        matches!(&unknown, Err(thrift_codegen::Error::Options(why)) if why.contains("parquet.NoSuchType")),
        "{unknown:?}"
    );
}

/// `skip_fields`: a skipped field has no arm in the decoder (it is read past in the in-order
/// path), its struct is otherwise unchanged, and a bad path is an options error naming it.
#[test]
fn skipped_fields_are_read_past_and_bad_paths_are_errors() {
    let full = parquet_code(|_| {}).unwrap();
    let skipping = parquet_code(|b| {
        b.skip_fields(["parquet.ColumnMetaData.statistics"]);
    })
    .unwrap();
    // The field stays in the type; only its reads go.
    assert!(skipping.contains("pub statistics: ::std::option::Option<Statistics>"));
    // ColumnMetaData is read in place: its statistics twice (in order, and in the loop) in
    // each form, gone; the page headers' statistics stay.
    let reads = |code: &str| code.matches("&mut out.statistics)?;").count();
    assert_eq!(reads(&full) - reads(&skipping), 4);
    assert!(reads(&skipping) > 0);
    for (path, expect) in [
        ("parquet.ColumnMetaData.no_such_field", "names no field"),
        ("parquet.NoSuchType.statistics", "names no field"),
        ("statistics", "names no field"),
        (
            "parquet.ColumnCryptoMetaData.ENCRYPTION_WITH_FOOTER_KEY",
            "union",
        ),
    ] {
        let result = parquet_code(|b| {
            b.skip_fields([path]);
        });
        assert!(
            matches!(&result, Err(thrift_codegen::Error::Options(why)) if why.contains(path) && why.contains(expect)),
            "{path}: {result:?}"
        );
    }
}

/// `keep_unknown_fields`: the structs under the path get the member, the others and unions
/// do not; a path naming no struct is an options error, `.` never is.
#[test]
fn unknown_fields_are_kept_where_asked() {
    let member = "pub unknown_fields: __rt::UnknownFields";
    let one = parquet_code(|b| {
        b.keep_unknown_fields(["parquet.Statistics"]);
    })
    .unwrap();
    // The owned and the borrowing form of `Statistics`.
    assert_eq!(one.matches(member).count(), 2);
    let all = parquet_code(|b| {
        b.keep_unknown_fields(["."]);
    })
    .unwrap();
    assert!(all.matches(member).count() > 40);
    // `ColumnCryptoMetaData` is a union: an enum without the member.
    assert!(all.contains("pub enum ColumnCryptoMetaData {"));
    assert!(!parquet_code(|_| {}).unwrap().contains(member));
    for path in [
        "parquet.NoSuchType",
        "nosuchfile",
        "parquet.ColumnCryptoMetaData",
    ] {
        let result = parquet_code(|b| {
            b.keep_unknown_fields([path]);
        });
        assert!(
            matches!(&result, Err(thrift_codegen::Error::Options(why)) if why.contains(path) && why.contains("names no struct")),
            "{path}: {result:?}"
        );
    }
}

/// Without borrowing forms, the output for parquet.thrift is at most 1.5x the bytes of
/// Apache's `thrift --gen rs` (when Apache's compiler is installed; scripts/setup.sh does).
#[test]
fn without_borrowing_forms_parquet_is_at_most_one_and_a_half_times_apache() {
    let ours = parquet_code(|b| {
        b.borrowed(false);
    })
    .unwrap();
    let out = std::env::temp_dir().join(format!("thrift-codegen-apache-{}", std::process::id()));
    std::fs::create_dir_all(&out).unwrap();
    let status = std::process::Command::new("thrift")
        .args(["--gen", "rs", "-out"])
        .arg(&out)
        .arg(corpus(
            "apache__parquet-format/src/main/thrift/parquet.thrift",
        ))
        .status();
    let Ok(status) = status else {
        eprintln!("skipped: Apache's compiler (`thrift`) is not installed");
        return;
    };
    assert!(status.success());
    let apache = std::fs::metadata(out.join("parquet.rs")).unwrap().len() as usize;
    let _ = std::fs::remove_dir_all(&out);
    eprintln!(
        "parquet.thrift: ours without borrowing forms {} bytes, Apache {} bytes ({:.2}x)",
        ours.len(),
        apache,
        ours.len() as f64 / apache as f64
    );
    assert!(
        ours.len() * 2 <= apache * 3,
        "{} vs Apache's {}",
        ours.len(),
        apache
    );
}

/// `type_attribute` and kin: a path that names nothing, or text that is not an attribute, is
/// an options error saying which call and path.
#[test]
fn attribute_paths_and_syntax_are_checked() {
    let code = attributes_code;
    let all = code(&|b| {
        b.type_attribute(".", "#[doc(alias = \"everything\")]");
    })
    .unwrap();
    // Color, Tagged, Choice, Failed, Holder, Renamed, Mode and Pick; not the borrowing forms
    // (nor the typedef or the service).
    assert_eq!(all.matches("#[doc(alias = \"everything\")]").count(), 8);
    let fields = code(&|b| {
        b.field_attribute("attributes.Tagged", "#[doc(alias = \"f\")]");
    })
    .unwrap();
    assert_eq!(fields.matches("#[doc(alias = \"f\")]").count(), 3);
    for (configure, expect) in [
        (
            &(|b: &mut Builder| {
                b.type_attribute("attributes.Nope", "#[repr(C)]");
            }) as &dyn Fn(&mut Builder),
            "type_attribute: `attributes.Nope` names no type",
        ),
        (
            &|b: &mut Builder| {
                b.field_attribute("attributes.Tagged.nope", "#[repr(C)]");
            },
            "field_attribute: `attributes.Tagged.nope` names no field",
        ),
        (
            &|b: &mut Builder| {
                b.ref_type_attribute("attributes", "derive(Debug)");
            },
            "ref_type_attribute(\"attributes\", ..): `derive(Debug)` is not a Rust attribute",
        ),
    ] {
        let result = code(configure);
        assert!(
            matches!(&result, Err(thrift_codegen::Error::Options(why)) if why.contains(expect)),
            "{expect}: {result:?}"
        );
    }
}

/// `extern_path`: the extern file is not generated and its types are named through the Rust
/// path given; a file name that is not loaded, or a Rust path that does not parse, is an
/// options error. (Two crates sharing types this way: `tests/extern/`.)
#[test]
fn extern_files_are_not_generated_and_named_through_their_path() {
    let user = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/extern/idl/user.thrift");
    let files = Builder::new()
        .extern_path("common", "::shared_crate::common")
        .generate([&user])
        .unwrap();
    let modules: Vec<_> = files.iter().map(|f| f.module.join("::")).collect();
    assert_eq!(modules, ["user"]);
    let code = &files[0].contents;
    assert!(code.contains("::shared_crate::common::Label"), "{code}");
    assert!(!code.contains("super::common"));
    for (file, path, expect) in [
        ("nope", "::x", "`nope` names no IDL file"),
        ("common", "not a path!", "not a Rust path"),
    ] {
        let result = Builder::new().extern_path(file, path).generate([&user]);
        assert!(
            matches!(&result, Err(thrift_codegen::Error::Options(why)) if why.contains(expect)),
            "{file}: {result:?}"
        );
    }
}

/// `boxed` and `rust.box` need a field whose type is a struct, union or exception; a
/// `rust.attr` that is not an attribute is a located error; an unknown `rust.*` annotation
/// does not stop generation (it is a warning, printed by `check` and the CLI).
#[test]
fn boxes_and_annotations_are_checked() {
    let dir = std::env::temp_dir().join(format!("thrift-annotations-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let write = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path
    };
    let not_boxable = Builder::new()
        .boxed(["attributes.Tagged.count"])
        .generate([fixture("attributes.thrift")]);
    assert!(
        matches!(&not_boxable, Err(thrift_codegen::Error::Options(why)) if why.contains("boxed: `attributes.Tagged.count` names no field whose type is a struct")),
        "{not_boxable:?}"
    );
    let bad_box = write("bad_box.thrift", "struct S {\n  1: i32 n (rust.box)\n}\n");
    let result = Builder::new().generate([&bad_box]);
    assert!(
        matches!(&result, Err(thrift_codegen::Error::Idl(text)) if text.contains("bad_box.thrift:2:13: error: `rust.box` needs a field whose type is a struct")),
        "{result:?}"
    );
    let bad_attr = write(
        "bad_attr.thrift",
        "struct S {\n  1: i32 n\n} (rust.attr = \"derive(Debug)\")\n",
    );
    let result = Builder::new().generate([&bad_attr]);
    assert!(
        matches!(&result, Err(thrift_codegen::Error::Idl(text)) if text.contains("bad_attr.thrift:3:4: error: `rust.attr = \"derive(Debug)\"` is not a Rust attribute")),
        "{result:?}"
    );
    let bad_type = write(
        "bad_type.thrift",
        "struct S {\n  1: map<i32, i32> n (rust.type = \"IndexMap\")\n}\n",
    );
    let result = Builder::new().generate([&bad_type]);
    assert!(
        matches!(&result, Err(thrift_codegen::Error::Idl(text)) if text.contains("bad_type.thrift:2:23: error: `rust.type = \"IndexMap\"` is not a type thrift-codegen maps to (one of `HashMap`")),
        "{result:?}"
    );
    let bad_name = write(
        "bad_name.thrift",
        "struct S {\n  1: i32 n (rust.name = \"type\")\n} (rust.name = \"Not A Name\")\n",
    );
    let result = Builder::new().generate([&bad_name]);
    assert!(
        matches!(&result, Err(thrift_codegen::Error::Idl(text))
            if text.contains("bad_name.thrift:2:13: error: `rust.name = \"type\"` is not a Rust identifier")
            && text.contains("bad_name.thrift:3:4: error: `rust.name = \"Not A Name\"` is not a Rust identifier")),
        "{result:?}"
    );
    for (call, result) in [
        (
            "strings_for",
            Builder::new()
                .strings_for("attributes.Nope", thrift_codegen::Strings::Bytes)
                .generate([fixture("attributes.thrift")]),
        ),
        (
            "collections_for",
            Builder::new()
                .collections_for("nofile", thrift_codegen::Collections::Hash)
                .generate([fixture("attributes.thrift")]),
        ),
    ] {
        assert!(
            matches!(&result, Err(thrift_codegen::Error::Options(why)) if why.starts_with(call) && why.contains("names no field")),
            "{result:?}"
        );
    }
    let unknown = write("unknown.thrift", "struct S {\n  1: i32 n (rust.nope)\n}\n");
    assert!(Builder::new().generate([&unknown]).is_ok());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `arena_inline`: in arena mode, the named optional struct fields are held inline
/// (`Option<TRef<'de>>`), the others stay references into the arena; a path that is not an
/// optional struct field, or the option without arena mode, is an options error naming it.
#[test]
fn arena_inline_holds_the_named_optional_structs_inline() {
    let arena = parquet_code(|b| {
        b.arena(true).borrowed_types(["parquet.FileMetaData"]);
    })
    .unwrap();
    let by_reference = "pub meta_data: ::std::option::Option<&'de ColumnMetaDataRef<'de>>";
    let inline = "pub meta_data: ::std::option::Option<ColumnMetaDataRef<'de>>";
    assert!(arena.contains(by_reference), "{by_reference} missing");

    let code = parquet_code(|b| {
        b.arena(true)
            .borrowed_types(["parquet.FileMetaData"])
            .arena_inline([
                "parquet.ColumnChunk.meta_data",
                "parquet.ColumnMetaData.statistics",
            ]);
    })
    .unwrap();
    assert!(code.contains(inline), "{inline} missing");
    assert!(code.contains("pub statistics: ::std::option::Option<StatisticsRef<'de>>"));
    assert!(
        code.contains("pub size_statistics: ::std::option::Option<&'de SizeStatisticsRef<'de>>"),
        "a field not named stays a reference"
    );

    for (path, why) in [
        ("parquet.ColumnChunk.file_path", "names no optional field"),
        (
            "parquet.ColumnChunk.no_such_field",
            "names no optional field",
        ),
        (
            "parquet.ColumnMetaData.num_values",
            "names no optional field",
        ),
    ] {
        let bad = parquet_code(|b| {
            b.arena(true).arena_inline([path]);
        });
        assert!(
            matches!(&bad, Err(thrift_codegen::Error::Options(e)) if e.contains(path) && e.contains(why)),
            "{path}: {bad:?}"
        );
    }
    let without_arena = parquet_code(|b| {
        b.arena_inline(["parquet.ColumnChunk.meta_data"]);
    });
    assert!(
        matches!(&without_arena, Err(thrift_codegen::Error::Options(e)) if e.contains("needs arena mode")),
        "{without_arena:?}"
    );
}

/// Every option naming IDL paths takes them by one rule (`thrift_codegen::PathMap`): a path
/// selects what it names and everything inside it, the option applies to the parts of its
/// kinds among them, and a leading `.` changes nothing.
#[test]
fn every_path_option_selects_by_one_rule() {
    let code = attributes_code;
    // `Holder`'s struct-typed fields are boxed; `count` (an i32) is not taken, not refused.
    let by_type = code(&|b| {
        b.boxed(["attributes.Holder"]);
    })
    .unwrap();
    let by_field = code(&|b| {
        b.boxed(["attributes.Holder.boxed_by_builder"]);
    })
    .unwrap();
    assert_eq!(by_type, by_field);
    assert_eq!(
        by_field,
        code(&|b| {
            b.boxed([".attributes.Holder.boxed_by_builder"]);
        })
        .unwrap()
    );
    // A file: every struct and exception of it keeps unknown fields, no union does.
    let member = "pub unknown_fields: __rt::UnknownFields";
    let file = code(&|b| {
        b.keep_unknown_fields(["attributes"]);
    })
    .unwrap();
    assert_eq!(
        file,
        code(&|b| {
            b.keep_unknown_fields(["."]);
        })
        .unwrap()
    );
    assert!(file.matches(member).count() >= 4, "{file}");
    // Fields under a type: skipped; the union's are not taken, so a path naming only them is
    // refused.
    assert!(
        code(&|b| {
            b.skip_fields(["attributes.Tagged"]);
        })
        .is_ok()
    );
    let union = code(&|b| {
        b.skip_fields(["attributes.Choice"]);
    });
    assert!(
        matches!(&union, Err(thrift_codegen::Error::Options(why)) if why.contains("skip_fields: `attributes.Choice` names no field of a struct or exception")),
        "{union:?}"
    );
    // `.` selects the whole program whatever it holds: never an error, also where it takes
    // nothing.
    assert!(
        code(&|b| {
            b.borrowed_types(["."]).arena(true).arena_inline(["."]);
        })
        .is_ok()
    );
    // `arena_inline` takes no boxed field: one boxed, the path selects nothing it takes.
    let boxed = code(&|b| {
        b.arena(true)
            .boxed(["attributes.Holder.boxed_by_builder"])
            .arena_inline(["attributes.Holder"]);
    });
    assert!(
        matches!(&boxed, Err(thrift_codegen::Error::Options(why)) if why.contains("arena_inline: `attributes.Holder` names no optional field") && why.contains("not boxed")),
        "{boxed:?}"
    );
}

/// `Builder::set` reaches every option by name with its values as text, as the command line
/// and the golden tests' `.options` files do.
#[test]
fn options_are_reachable_by_name() {
    let mut by_name = Builder::new();
    by_name
        .set("serde", &["true"])
        .and_then(|b| b.set("boxed", &["attributes.Holder.boxed_by_builder"]))
        .and_then(|b| b.set("type_attribute", &["attributes.Tagged", "#[repr(C)]"]))
        .and_then(|b| b.set("collections_for", &["attributes", "hash"]))
        .unwrap();
    let mut by_method = Builder::new();
    by_method
        .serde(true)
        .boxed(["attributes.Holder.boxed_by_builder"])
        .type_attribute("attributes.Tagged", "#[repr(C)]")
        .collections_for("attributes", thrift_codegen::Collections::Hash);
    let generate = |builder: &Builder| {
        thrift_codegen::single_file(&builder.generate([fixture("attributes.thrift")]).unwrap())
    };
    assert_eq!(generate(&by_name), generate(&by_method));
    let error = Builder::new()
        .set("box", &["a.B.c"])
        .map(|_| ())
        .unwrap_err();
    assert!(error.to_string().contains("`box` is no option"), "{error}");
}
