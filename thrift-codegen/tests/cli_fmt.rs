//! `thrift-codegen fmt`, run as a user runs it: in place, `--check` with a diff and exit 1,
//! nothing to do, and a file with errors.

use std::process::{Command, Output};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_thrift-codegen"))
        .args(args)
        .output()
        .expect("run thrift-codegen")
}

#[test]
fn formats_in_place_checks_and_refuses_files_with_errors() {
    let dir = std::env::temp_dir().join(format!("thrift-cli-fmt-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("api.thrift");
    let path = file.to_str().unwrap();
    std::fs::write(&file, "struct A{1:i32 a // the a\n2: string b}\n").unwrap();

    let check = run(&["fmt", "--check", path]);
    assert_eq!(check.status.code(), Some(1));
    let stderr = String::from_utf8(check.stderr).unwrap();
    assert!(
        stderr.contains("+  1: i32 a, // the a") && stderr.contains("1 file(s) not formatted"),
        "{stderr}"
    );
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        "struct A{1:i32 a // the a\n2: string b}\n",
        "--check changes nothing"
    );

    assert_eq!(run(&["fmt", path]).status.code(), Some(0));
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        "struct A {\n  1: i32 a, // the a\n  2: string b,\n}\n"
    );
    assert_eq!(run(&["fmt", "--check", path]).status.code(), Some(0));

    std::fs::write(&file, "struct A { 1: i32 }\n").unwrap();
    let broken = run(&["fmt", path]);
    assert_eq!(broken.status.code(), Some(1));
    let stderr = String::from_utf8(broken.stderr).unwrap();
    assert!(
        stderr.contains("api.thrift:1:") && stderr.contains("not formatted (it has errors)"),
        "{stderr}"
    );
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        "struct A { 1: i32 }\n"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
