//! Any text as an IDL file: `check` and `generate` give diagnostics or code, never a panic.
//! `generate` runs on inputs up to 16 KiB: a large real-world file takes seconds to generate
//! under the sanitizer, and the fuzzer learns more from many small inputs.
#![no_main]

use std::path::PathBuf;

use libfuzzer_sys::fuzz_target;

fn scratch() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("thrift-fuzz-idl-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    dir.join("input.thrift")
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let path = scratch();
    std::fs::write(&path, text).expect("write the input");
    let checked = thrift_idl_parser::check_files(&thrift_idl_parser::Loader::new(), &[&path]);
    let _ = checked.render_diagnostics();
    if !checked.has_errors() && text.len() <= 16 * 1024 {
        let _ = thrift_codegen::Builder::new().generate([&path]);
    }
});
