//! Bad input never panics: truncated and mutated corpus files, and arbitrary bytes, go through
//! the whole pipeline (parse, lower, resolve, check, render) and come out as diagnostics.

use std::path::{Path, PathBuf};

use proptest::prelude::*;
use thrift_idl_parser::{Loader, check_files};

fn corpus_files() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus");
    let manifest = std::fs::read_to_string(root.join("MANIFEST.tsv")).expect("corpus manifest");
    manifest
        .lines()
        .skip(1)
        .map(|l| root.join(l.split('\t').next().unwrap()))
        .collect()
}

/// Writes `text` to a scratch file and runs the full check on it (includes resolve next to the
/// scratch file, i.e. mostly fail: that path is exercised too).
fn run_pipeline(dir: &Path, text: &[u8]) {
    let path = dir.join("input.thrift");
    std::fs::write(&path, text).unwrap();
    let checked = check_files(&Loader::new(), &[&path]);
    let _ = checked.render_diagnostics();
    let _ = checked.diagnostics_json();
}

fn scratch_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "thrift-parser-no-panic-{name}-{}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn every_truncation_of_some_corpus_files() {
    let dir = scratch_dir("truncate");
    // A few files rich in syntax; 200 prefixes spread over each file, and every prefix near
    // the end, are parsed.
    for name in [
        "ThriftTest.thrift",
        "DebugProtoTest.thrift",
        "AnnotationTest.thrift",
        "parquet.thrift",
    ] {
        let file = corpus_files()
            .into_iter()
            .find(|p| p.ends_with(name))
            .expect(name);
        let text = std::fs::read(&file).unwrap();
        let step = (text.len() / 200).max(1);
        for end in (0..text.len())
            .step_by(step)
            .chain(text.len().saturating_sub(64)..text.len())
        {
            run_pipeline(&dir, &text[..end]);
        }
    }
}

fn mutation() -> impl Strategy<Value = (usize, usize, Vec<u8>)> {
    // (which file, where, bytes to splice in)
    let tokens: Vec<&'static [u8]> = vec![
        b"{",
        b"}",
        b"(",
        b")",
        b"<",
        b">",
        b"\"",
        b"'",
        b"/*",
        b"*/",
        b"//",
        b"#",
        b"\\",
        b":",
        b"=",
        b",",
        b";",
        b"0x",
        b"-",
        b"1e999",
        b"99999999999999999999",
        b"struct",
        b"include",
        b"\n",
        b"\xff",
        b"\xc3",
        b"\xe2\x9c",
        b"@",
        b"&",
        b"typedef X X",
        b".",
        b"*",
    ];
    (
        any::<usize>(),
        any::<usize>(),
        prop::collection::vec(prop::sample::select(tokens), 1..4),
    )
        .prop_map(|(f, at, parts)| (f, at, parts.concat()))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, .. ProptestConfig::default() })]

    #[test]
    fn mutated_corpus_files((file, at, splice) in mutation(), delete in 0usize..16) {
        let files = corpus_files();
        let text = std::fs::read(&files[file % files.len()]).unwrap();
        let at = at % (text.len() + 1);
        let mut mutated = text[..at].to_vec();
        mutated.extend_from_slice(&splice);
        mutated.extend_from_slice(&text[(at + delete).min(text.len())..]);
        run_pipeline(&scratch_dir("mutate"), &mutated);
    }

    #[test]
    fn arbitrary_bytes(bytes in prop::collection::vec(any::<u8>(), 0..512)) {
        run_pipeline(&scratch_dir("bytes"), &bytes);
    }

    #[test]
    fn arbitrary_idl_like_text(text in "[a-z0-9{}()<>:;,=\"' \n.*&/#@-]{0,300}") {
        run_pipeline(&scratch_dir("text"), text.as_bytes());
    }
}

#[test]
fn deep_nesting_does_not_overflow_the_stack() {
    let dir = scratch_dir("deep");
    let depth = 5_000;
    let text = format!(
        "typedef {}i32{} T",
        "list<".repeat(depth),
        ">".repeat(depth)
    );
    run_pipeline(&dir, text.as_bytes());
    let text = format!(
        "const list<i32> L = {}{}",
        "[".repeat(depth),
        "]".repeat(depth)
    );
    run_pipeline(&dir, text.as_bytes());
}

/// `Loader::max_nesting` lowers the nesting bound (64 at most); deeper is a located error.
#[test]
fn the_nesting_bound_can_be_lowered() {
    let dir = scratch_dir("nesting");
    let path = dir.join("nested.thrift");
    std::fs::write(&path, "typedef list<list<list<list<i32>>>> T\n").unwrap();
    assert!(!check_files(&Loader::new(), &[&path]).has_errors());
    let mut loader = Loader::new();
    loader.max_nesting(3);
    let checked = check_files(&loader, &[&path]);
    let text = checked.render_diagnostics();
    assert!(
        text.contains("nested.thrift:1:28: error: brackets nest deeper than 3 levels"),
        "{text}"
    );
    // At most 64: a larger setting counts as 64.
    let deep = format!("typedef {}i32{} T\n", "list<".repeat(65), ">".repeat(65));
    std::fs::write(&path, deep).unwrap();
    let mut loader = Loader::new();
    loader.max_nesting(1000);
    let text = check_files(&loader, &[&path]).render_diagnostics();
    assert!(
        text.contains("brackets nest deeper than 64 levels"),
        "{text}"
    );
}
