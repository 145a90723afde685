//! What the tests that compile generated code share: a crate of generated modules, beside
//! the workspace, checked by clippy with `-D warnings` as a consuming crate compiles it.

use std::path::Path;
use std::process::Command;

use thrift_codegen::GeneratedFile;

/// Writes the generated `files` as module `module` of the crate's `src` (its `mod.rs` too),
/// and declares it in `lib` (with `doc` as its doc comment, when given).
pub fn add_module(
    src: &Path,
    module: &str,
    files: &[GeneratedFile],
    doc: Option<&str>,
    lib: &mut String,
) {
    let dir = src.join(module);
    for file in files {
        let path = dir.join(&file.path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, &file.contents).unwrap();
    }
    std::fs::write(dir.join("mod.rs"), thrift_codegen::mod_rs(files)).unwrap();
    if let Some(doc) = doc {
        lib.push_str(&format!("/// `{doc}`\n"));
    }
    lib.push_str(&format!(
        "#[path = \"{module}/mod.rs\"]\npub mod {module};\n"
    ));
}

/// Writes the crate's `lib.rs` and `Cargo.toml` (named `name`, depending on the workspace's
/// runtime with `features`) and runs `cargo clippy -- -D warnings` on it, in a target
/// directory all such crates share. Returns whether it passed without a warning, and its
/// stderr.
pub fn clippy(krate: &Path, name: &str, features: &[&str], lib: &str) -> (bool, String) {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    std::fs::write(krate.join("src/lib.rs"), lib).unwrap();
    let runtime = workspace.join("thrift-runtime").canonicalize().unwrap();
    let features: Vec<String> = features.iter().map(|f| format!("{f:?}")).collect();
    std::fs::write(
        krate.join("Cargo.toml"),
        format!(
            "[package]\nname = \"{name}\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n\
             [dependencies]\nthrift-runtime = {{ path = {:?}, features = [{}] }}\n\n[workspace]\n",
            runtime.display().to_string(),
            features.join(", ")
        ),
    )
    .unwrap();
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let output = Command::new(cargo)
        .args(["clippy", "--quiet", "--offline", "--", "-D", "warnings"])
        .current_dir(krate)
        .env(
            "CARGO_TARGET_DIR",
            workspace.join("target/corpus-compile/target"),
        )
        .env_remove("RUSTFLAGS")
        .output()
        .expect("run cargo clippy");
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    (
        output.status.success() && !stderr.contains("warning"),
        stderr,
    )
}
