//! Generates the echo service for every contender: ours (`thrift_codegen::Builder`) into
//! `OUT_DIR/ours`, Apache's (`thrift --gen rs`, Debian's compiler; `THRIFT` overrides the
//! binary) into `OUT_DIR/apache/echo.rs` without its inner attributes (not allowed in an
//! `include!`d file).

use std::path::PathBuf;

fn main() {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap());
    let out = PathBuf::from(std::env::var_os("OUT_DIR").unwrap());
    let idl = manifest.join("idl/echo.thrift");
    println!("cargo:rerun-if-changed={}", idl.display());
    println!("cargo:rerun-if-env-changed=THRIFT");
    let ours = out.join("ours");
    std::fs::create_dir_all(&ours).unwrap();
    if let Err(e) = thrift_codegen::Builder::new()
        .out_dir(&ours)
        .compile([&idl])
    {
        panic!("thrift-codegen: {e}");
    }
    #[cfg(feature = "apache")]
    {
        let dir = out.join("apache");
        std::fs::create_dir_all(&dir).unwrap();
        let thrift = std::env::var("THRIFT").unwrap_or_else(|_| "thrift".into());
        let status = std::process::Command::new(&thrift)
            .args(["--gen", "rs", "-out"])
            .arg(&dir)
            .arg(&idl)
            .status()
            .unwrap_or_else(|e| panic!("cannot run `{thrift}` (Apache's compiler): {e}"));
        assert!(status.success(), "{thrift} --gen rs failed");
        let path = dir.join("echo.rs");
        let text = std::fs::read_to_string(&path).unwrap();
        let fixed: String = text
            .lines()
            .filter(|line| !line.trim_start().starts_with("#!["))
            .map(|line| format!("{line}\n"))
            .collect();
        std::fs::write(&path, fixed).unwrap();
    }
}
