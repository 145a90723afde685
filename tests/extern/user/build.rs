//! Generates `user.thrift` twice: with `common.thrift`'s types from `thrift-extern-common`
//! (`OUT_DIR/thrift.rs`), and everything generated here (`OUT_DIR/full/thrift.rs`), to compare.

fn main() -> Result<(), Box<dyn std::error::Error>> {
    thrift_codegen::Builder::new()
        .extern_path("common", "::thrift_extern_common::common")
        .compile(["../idl/user.thrift"])?;
    let out = std::path::PathBuf::from(std::env::var_os("OUT_DIR").ok_or("no OUT_DIR")?);
    thrift_codegen::Builder::new()
        .out_dir(out.join("full"))
        .compile(["../idl/user.thrift"])?;
    Ok(())
}
