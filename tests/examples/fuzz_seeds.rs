//! Writes the fuzz targets' seed corpora: `fuzz_seeds DIR` fills `DIR/decode` with encoded
//! sample values of the golden fixtures and `DIR/frame` and `DIR/server` with calls of their
//! services in every transport and protocol. Run by `fuzz/run.sh`.

use std::path::Path;

fn main() -> std::io::Result<()> {
    let dir = std::env::args_os()
        .nth(1)
        .expect("usage: fuzz_seeds DIR (the fuzz corpus directory)");
    let dir = Path::new(&dir);
    let calls = thrift_tests::samples::calls();
    for (target, seeds) in [
        ("decode", thrift_tests::samples::encodings()),
        ("frame", calls.clone()),
        ("server", calls),
    ] {
        let target = dir.join(target);
        std::fs::create_dir_all(&target)?;
        for (i, seed) in seeds.iter().enumerate() {
            std::fs::write(target.join(format!("seed-{i:03}")), seed)?;
        }
    }
    Ok(())
}
