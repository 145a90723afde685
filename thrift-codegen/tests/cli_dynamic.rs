//! `thrift-codegen decode` and `encode`, run as a user runs them: JSON to bytes and back
//! through files and standard input, framed and not, structs and RPC messages, and the exit
//! status and located message of bad input.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn run(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_thrift-codegen"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run thrift-codegen");
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    child.wait_with_output().unwrap()
}

const SERDE: &str = "tests/golden/serde.thrift";
const SERVICES: &str = "tests/golden/services.thrift";

#[test]
fn json_to_bytes_and_back_through_stdin_framed_and_not() {
    let json = br#"{"needed": 3, "maybe": "x", "numbers": [1, 2], "color": "NEGATIVE"}"#;
    for protocol in ["binary", "compact", "json"] {
        for framed in [false, true] {
            let mut args = vec!["--idl", SERDE, "--type", "Defaults", "--protocol", protocol];
            if framed {
                args.push("--framed");
            }
            let encoded = run(&[&["encode"][..], &args].concat(), json);
            assert_eq!(
                encoded.status.code(),
                Some(0),
                "{}",
                String::from_utf8_lossy(&encoded.stderr)
            );
            if framed {
                let len = u32::from_be_bytes(encoded.stdout[..4].try_into().unwrap());
                assert_eq!(len as usize, encoded.stdout.len() - 4);
            }
            let decoded = run(&[&["decode"][..], &args].concat(), &encoded.stdout);
            assert_eq!(
                decoded.status.code(),
                Some(0),
                "{}",
                String::from_utf8_lossy(&decoded.stderr)
            );
            let back: serde_json::Value = serde_json::from_slice(&decoded.stdout).unwrap();
            let expected: serde_json::Value = serde_json::from_slice(json).unwrap();
            assert_eq!(back, expected, "{protocol} framed={framed}");
        }
    }
}

#[test]
fn a_message_from_a_file() {
    let dir = std::env::temp_dir().join(format!("thrift-cli-dynamic-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let json = dir.join("call.json");
    std::fs::write(&json, br#"{"name": "put", "type": "call", "seq": 3, "args": {"item": {"name": "a", "tags": [1]}, "overwrite": false}}"#).unwrap();
    let encoded = run(
        &[
            "encode",
            "--idl",
            SERVICES,
            "--message",
            json.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(
        encoded.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&encoded.stderr)
    );
    let bin = dir.join("call.bin");
    std::fs::write(&bin, &encoded.stdout).unwrap();
    let decoded = run(
        &[
            "decode",
            "--idl",
            SERVICES,
            "--message",
            bin.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(
        decoded.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&decoded.stderr)
    );
    let text = String::from_utf8(decoded.stdout).unwrap();
    assert!(
        text.contains("\"overwrite\": false") && text.contains("\"seq\": 3"),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_input_exits_one_with_a_located_error() {
    // Bytes that end inside a field.
    let out = run(
        &["decode", "--idl", SERDE, "--type", "Defaults"],
        &[8, 0, 1, 0],
    );
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.starts_with("error: <stdin>: byte "), "{stderr}");
    // A frame whose length is not what follows.
    let out = run(
        &["decode", "--idl", SERDE, "--type", "Defaults", "--framed"],
        &[0, 0, 0, 9, 0],
    );
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains("the frame's length is 9, but 1 bytes follow"),
        "{stderr}"
    );
    // JSON that does not parse: its line and column.
    let out = run(
        &["encode", "--idl", SERDE, "--type", "Defaults"],
        b"{\n  \"needed\": }",
    );
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.starts_with("error: <stdin>: 2:13:"), "{stderr}");
    // JSON of the wrong shape: the path.
    let out = run(
        &["encode", "--idl", SERDE, "--type", "Defaults"],
        br#"{"needed": "3"}"#,
    );
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("at `.needed`: expected i32"), "{stderr}");
    // A type the IDL does not define.
    let out = run(&["decode", "--idl", SERDE, "--type", "Nope"], b"");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8(out.stderr)
            .unwrap()
            .contains("`Nope` names no struct, union, exception, typedef or enum")
    );
}
