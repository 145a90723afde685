//! Generates Rust from `idl/tutorial.thrift` (and `idl/shared.thrift`, which it includes) into
//! `OUT_DIR`; cargo re-runs this when any of them changes.

fn main() -> Result<(), Box<dyn std::error::Error>> {
    thrift_codegen::Builder::new()
        .include_dir("idl")
        .compile(["idl/tutorial.thrift"])?;
    Ok(())
}
