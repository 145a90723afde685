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
    // consts.thrift includes unions.thrift: both modules, and the include file.
    let consts = out.join("consts.rs");
    assert!(consts.is_file() && out.join("unions.rs").is_file());
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
