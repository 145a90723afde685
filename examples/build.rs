//! Generates Rust from `idl/tutorial.thrift` (and `idl/shared.thrift`, which it includes),
//! and for the real-world examples from Jaeger's agent IDL and Hive's metastore IDL (subsets
//! with their field ids), into `OUT_DIR`; cargo re-runs this when any of them changes.

fn main() -> Result<(), Box<dyn std::error::Error>> {
    thrift_codegen::Builder::new().include_dir("idl").compile([
        "idl/tutorial.thrift",
        "idl/jaeger/agent.thrift",
        "idl/hive/hive_metastore.thrift",
    ])?;
    Ok(())
}
