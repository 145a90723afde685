//! From text to [`Document`]: the pest grammar (`thrift.pest`) and the lowering of its parse
//! tree into the typed AST, one `lower_<rule>` function per grammar rule.

mod docs;
mod literal;
mod lower;

use pest::Parser as _;

use crate::ast::Document;
use crate::diagnostic::Diagnostic;
use crate::source::{FileId, Span};

#[derive(pest_derive::Parser)]
#[grammar = "syntax/thrift.pest"]
pub(crate) struct ThriftParser;

/// Parses one file. Returns the document (when the text is syntactically valid) and every
/// diagnostic found on the way: the syntax error, or the lowering errors and warnings
/// (literal overflows, out-of-range ids, constructs of other dialects, deprecated syntax).
pub fn parse_document(file: FileId, text: &str) -> (Option<Document>, Vec<Diagnostic>) {
    match ThriftParser::parse(Rule::document, text) {
        Ok(mut pairs) => {
            let pair = pairs
                .next()
                .expect("the document rule always yields one pair");
            let mut lowering = lower::Lowering::new(file, text, pair.clone());
            let document = lowering.lower_document(pair);
            (Some(document), lowering.into_diagnostics())
        }
        Err(error) => (None, vec![syntax_error(file, text, error)]),
    }
}

fn syntax_error(file: FileId, text: &str, error: pest::error::Error<Rule>) -> Diagnostic {
    let offset = match error.location {
        pest::error::InputLocation::Pos(p) => p,
        pest::error::InputLocation::Span((s, _)) => s,
    };
    let found = found_token(text, offset);
    let expected = match &error.variant {
        pest::error::ErrorVariant::ParsingError { positives, .. } => {
            let mut names: Vec<&str> = positives.iter().filter_map(|r| describe(*r)).collect();
            names.sort_unstable();
            names.dedup();
            names
        }
        pest::error::ErrorVariant::CustomError { .. } => Vec::new(),
    };
    let message = match (expected.as_slice(), found.as_deref()) {
        ([], Some(found)) => format!("syntax error: unexpected {found}"),
        ([], None) => "syntax error: unexpected end of file".to_string(),
        (names, found) => format!(
            "syntax error: expected {}, found {}",
            join_or(names),
            found.unwrap_or("end of file")
        ),
    };
    let end = offset + found_len(text, offset);
    let mut diagnostic = Diagnostic::error(Span::new(file, offset, end), message);
    if let Some(hint) = hint_for(text, offset) {
        diagnostic = diagnostic.with_note(hint);
    }
    diagnostic
}

fn join_or(names: &[&str]) -> String {
    match names {
        [one] => one.to_string(),
        [init @ .., last] => format!("{} or {}", init.join(", "), last),
        [] => String::new(),
    }
}

fn found_len(text: &str, offset: usize) -> usize {
    let rest = &text[offset..];
    let word = rest
        .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.'))
        .unwrap_or(rest.len());
    if word > 0 {
        word
    } else {
        rest.chars().next().map_or(0, char::len_utf8)
    }
}

fn found_token(text: &str, offset: usize) -> Option<String> {
    let len = found_len(text, offset);
    (len > 0).then(|| format!("`{}`", &text[offset..offset + len]))
}

/// Extra help for mistakes that pest's "expected" list does not explain well.
fn hint_for(text: &str, offset: usize) -> Option<String> {
    let rest = &text[offset..];
    if rest.starts_with("/*") {
        return Some("this comment is never closed with `*/`".into());
    }
    if rest.starts_with('"') || rest.starts_with('\'') {
        return Some("this string literal is never closed".into());
    }
    None
}

/// A readable name for a rule that appears in "expected …" messages; `None` hides the rule.
fn describe(rule: Rule) -> Option<&'static str> {
    Some(match rule {
        Rule::EOI => "end of file",
        Rule::include | Rule::cpp_include | Rule::namespace | Rule::legacy_namespace => {
            "a header (`include`, `namespace`…)"
        }
        Rule::const_def
        | Rule::typedef
        | Rule::enum_def
        | Rule::senum_def
        | Rule::struct_def
        | Rule::union_def
        | Rule::exception_def
        | Rule::service => "a definition (`struct`, `enum`, `service`…)",
        Rule::identifier | Rule::named_type | Rule::namespace_scope => "an identifier",
        Rule::field_name | Rule::field_name_keyword => "a field name",
        Rule::field => "a field",
        Rule::field_id => "a field id (`1:`)",
        Rule::field_type | Rule::base_type | Rule::map_type | Rule::set_type | Rule::list_type => {
            "a type"
        }
        Rule::function_type | Rule::void_type => "a return type",
        Rule::function => "a function",
        Rule::enum_value => "an enum value",
        Rule::annotations | Rule::dialect_annotations => "annotations `( … )`",
        Rule::annotation => "an annotation",
        Rule::const_value
        | Rule::const_list
        | Rule::const_map
        | Rule::const_map_entry
        | Rule::int_literal
        | Rule::double_literal
        | Rule::bool_literal => "a constant value",
        Rule::literal => "a string literal",
        Rule::requiredness | Rule::kw_required | Rule::kw_optional => "`required` or `optional`",
        Rule::throws => "`throws`",
        Rule::extends => "`extends`",
        Rule::oneway | Rule::kw_oneway | Rule::kw_async => "`oneway`",
        Rule::cpp_type => "`cpp_type`",
        Rule::reference => "`&`",
        Rule::xsd_all | Rule::xsd_optional | Rule::xsd_nillable | Rule::xsd_attrs => return None,
        Rule::senum_value => "a string literal",
        _ => return None,
    })
}

#[cfg(test)]
mod tests;
