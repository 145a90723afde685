//! The formatter (`thrift_idl_parser::format`, `thrift-codegen fmt`): on every file of the
//! shared corpus that parses without errors, the output parses to the same document (spans
//! aside), formatting it again gives the same bytes, and every comment of the input is in the
//! output; and the layout on a file with every construct and comment place.

use std::path::Path;

use thrift_idl_parser::format::format_source;
use thrift_idl_parser::source::FileId;
use thrift_idl_parser::syntax::parse_document;

/// The document as JSON without its spans.
fn shape(text: &str) -> serde_json::Value {
    fn strip(v: &mut serde_json::Value) {
        match v {
            serde_json::Value::Object(map) => {
                map.remove("span");
                map.values_mut().for_each(strip);
            }
            serde_json::Value::Array(items) => items.iter_mut().for_each(strip),
            _ => {}
        }
    }
    let (document, _) = parse_document(FileId(0), text);
    let mut json = serde_json::to_value(document.expect("parses")).unwrap();
    strip(&mut json);
    json
}

/// The comments of a file, each line of each trimmed, in order (an independent scan: quotes
/// open strings, `//` and `#` run to the end of the line, `/*` to `*/`).
fn comment_texts(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' | '\'' => {
                while let Some((_, d)) = chars.next() {
                    if d == '\\' {
                        chars.next();
                    } else if d == c || d == '\n' {
                        break;
                    }
                }
            }
            '#' | '/' if c == '#' || matches!(chars.peek(), Some((_, '/'))) => {
                let end = text[i..].find('\n').map_or(text.len(), |n| i + n);
                out.push(text[i..end].trim().to_string());
                while chars.peek().is_some_and(|(j, _)| *j < end) {
                    chars.next();
                }
            }
            '/' if matches!(chars.peek(), Some((_, '*'))) => {
                let end = text[i + 2..].find("*/").map_or(text.len(), |n| i + 4 + n);
                // Lines after the first move with the first: compare each line trimmed.
                let lines: Vec<&str> = text[i..end].lines().map(str::trim).collect();
                out.push(lines.join("\n"));
                while chars.peek().is_some_and(|(j, _)| *j < end) {
                    chars.next();
                }
            }
            _ => {}
        }
    }
    out
}

/// Where two JSON values first differ, and how.
fn first_difference(a: &serde_json::Value, b: &serde_json::Value, path: String) -> String {
    use serde_json::Value;
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for (key, value) in x {
                match y.get(key) {
                    Some(other) if other != value => {
                        return first_difference(value, other, format!("{path}.{key}"));
                    }
                    None => return format!("{path}.{key}: missing"),
                    _ => {}
                }
            }
            format!("{path}: other keys")
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            for (i, (p, q)) in x.iter().zip(y).enumerate() {
                if p != q {
                    return first_difference(p, q, format!("{path}[{i}]"));
                }
            }
            format!("{path}: equal")
        }
        _ => format!("{path}: {a} became {b}"),
    }
}

#[test]
fn every_corpus_file_formats_to_the_same_document_stably_with_its_comments() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus");
    let manifest = std::fs::read_to_string(root.join("MANIFEST.tsv")).expect("corpus manifest");
    let (mut formatted, mut refused) = (0, 0);
    let mut changed = 0;
    for line in manifest.lines().skip(1) {
        let path = line.split('\t').next().unwrap();
        let Ok(text) = std::fs::read_to_string(root.join(path)) else {
            continue;
        };
        let Ok(once) = format_source(&text) else {
            refused += 1;
            continue;
        };
        formatted += 1;
        if once != text {
            changed += 1;
        }
        let (after, before) = (shape(&once), shape(&text));
        if after != before {
            panic!(
                "{path}: another document: {}\n--- formatted:\n{once}",
                first_difference(&before, &after, String::new())
            );
        }
        let twice = format_source(&once).unwrap_or_else(|e| panic!("{path}: {e:?}"));
        assert_eq!(twice, once, "{path}: not stable");
        let mut before = comment_texts(&text);
        let mut after = comment_texts(&once);
        before.sort();
        after.sort();
        assert_eq!(after, before, "{path}: comments");
    }
    println!("formatted {formatted} files ({changed} changed), {refused} with errors refused");
    assert!(formatted > 450, "{formatted}");
}

#[test]
fn the_layout() {
    let input = r#"// File comment.
namespace rs  demo   // where it goes
include 'other.thrift'
const list<i32> PRIMES=[2,3,5]
/** A point. */
struct Point{1:required double x;2: optional double y=0.5 (note='y axis')
  // before z

  3: byte z // small
} (deprecated)
enum Color { RED=1, GREEN, }
union U {}
service S extends other.Base {
  oneway void ping(), i32 add(1: i32 a, 2: i32 b) throws (1: other.Oops oops)
  void long_one(1: string a, // the a
      2: map<string, list<Point>> b)
}
# The end.
"#;
    let expected = r#"// File comment.
namespace rs demo // where it goes
include "other.thrift"

const list<i32> PRIMES = [2, 3, 5]

/** A point. */
struct Point {
  1: required double x,
  2: optional double y = 0.5 (note = "y axis"),
  // before z

  3: i8 z, // small
} (deprecated = "1")

enum Color {
  RED = 1,
  GREEN,
}

union U {}

service S extends other.Base {
  oneway void ping(),
  i32 add(1: i32 a, 2: i32 b) throws (1: other.Oops oops),
  void long_one(
    1: string a, // the a
    2: map<string, list<Point>> b,
  ),
}
# The end.
"#;
    let once = format_source(input).unwrap();
    assert_eq!(once, expected);
    assert_eq!(format_source(&once).unwrap(), once);
    assert_eq!(shape(&once), shape(input));
}

#[test]
fn files_with_errors_are_not_formatted() {
    let errors = format_source("struct A { 1: i32 }").unwrap_err();
    assert!(!errors.is_empty());
}
