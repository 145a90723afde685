use pest::Parser as _;

use super::{Rule, ThriftParser, parse_document};
use crate::source::FileId;

#[test]
fn doc_comments_appear_in_the_parse_tree() {
    let text = "/** doc */\nstruct A {\n  /// field doc\n  1: i32 a\n}\n";
    let pairs = ThriftParser::parse(Rule::document, text).unwrap();
    let rules: Vec<Rule> = pairs.flatten().map(|p| p.as_rule()).collect();
    assert!(rules.contains(&Rule::doc_block), "{rules:?}");
    assert!(rules.contains(&Rule::doc_line), "{rules:?}");
}

#[test]
fn nesting_past_the_limit_is_a_located_error() {
    let depth = 10_000;
    let text = format!(
        "typedef {}i32{} T",
        "list<".repeat(depth),
        ">".repeat(depth)
    );
    let (document, diagnostics) = parse_document(FileId(0), &text);
    assert!(document.is_none());
    assert_eq!(diagnostics.len(), 1);
    assert!(
        diagnostics[0].message.contains("nest deeper than 64"),
        "{:?}",
        diagnostics[0]
    );
    // The 65th `<`.
    let at = diagnostics[0].span.unwrap().start as usize;
    assert_eq!(at, "typedef ".len() + 5 * 64 + "list".len());
    // 64 levels are fine; brackets in comments and strings do not count.
    let ok = format!(
        "typedef {}i32{} T // {}\nconst string S = \"{}\"",
        "list<".repeat(63),
        ">".repeat(63),
        "<".repeat(100),
        "[".repeat(100)
    );
    let (document, diagnostics) = parse_document(FileId(0), &ok);
    assert!(document.is_some(), "{diagnostics:?}");
}
