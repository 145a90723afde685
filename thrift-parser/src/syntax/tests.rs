use pest::Parser as _;

use super::{Rule, ThriftParser};

#[test]
fn doc_comments_appear_in_the_parse_tree() {
    let text = "/** doc */\nstruct A {\n  /// field doc\n  1: i32 a\n}\n";
    let pairs = ThriftParser::parse(Rule::document, text).unwrap();
    let rules: Vec<Rule> = pairs.flatten().map(|p| p.as_rule()).collect();
    assert!(rules.contains(&Rule::doc_block), "{rules:?}");
    assert!(rules.contains(&Rule::doc_line), "{rules:?}");
}
