//! Generates the shared types (`common.thrift`).

fn main() -> Result<(), Box<dyn std::error::Error>> {
    thrift_codegen::Builder::new().compile(["../idl/common.thrift"])?;
    Ok(())
}
