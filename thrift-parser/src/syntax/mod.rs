//! From text to [`Document`]: the pest grammar (`thrift.pest`) and the lowering of its parse
//! tree into the typed AST, one `lower_<rule>` function per grammar rule.

mod docs;
mod literal;
mod lower;

use pest::Parser as _;

use crate::ast::Document;
use crate::diagnostic::Diagnostic;
use crate::source::{FileId, Span};

/// The parser pest generates from `thrift.pest`, checked in (see `grammar.rs`): users of the
/// crate then compile no pest generator and no second `syn`.
#[rustfmt::skip]
mod grammar;

pub(crate) use grammar::{Rule, ThriftParser};

/// How deeply brackets (`<`, `[`, `{`, `(`) may nest, at most. Every recursion of the parser,
/// the lowering and the checks follows a bracket, so this bounds their stack depth: a
/// 10,000-deep `list<list<…>>` is an error, not a stack overflow. Real IDL nests a few levels.
/// It is also the default of [`crate::Loader::max_nesting`], which can lower it (not raise it:
/// past it the recursion could need more stack than a thread is sure to have).
pub const MAX_NESTING: usize = 64;

/// Parses one file. Returns the document and every diagnostic found on the way: the syntax
/// errors (after each, the definition holding it is left out and parsing goes on, so the
/// document holds the rest), then the lowering errors and warnings (literal overflows,
/// out-of-range ids, constructs of other dialects, deprecated syntax). No document when the
/// brackets nest too deeply, when no definition can be left out to go on, or after
/// 50 syntax errors (`MAX_SYNTAX_ERRORS`).
pub fn parse_document(file: FileId, text: &str) -> (Option<Document>, Vec<Diagnostic>) {
    parse_document_nesting(file, text, MAX_NESTING)
}

/// [`parse_document`] with brackets nesting at most `max_nesting` levels (at most
/// [`MAX_NESTING`]; a larger value counts as that).
pub fn parse_document_nesting(
    file: FileId,
    text: &str,
    max_nesting: usize,
) -> (Option<Document>, Vec<Diagnostic>) {
    let max_nesting = max_nesting.min(MAX_NESTING);
    if let Some(at) = too_deep(text, max_nesting) {
        let end = at + text[at..].chars().next().map_or(0, char::len_utf8);
        let diagnostic = Diagnostic::error(
            Span::new(file, at, end),
            format!("brackets nest deeper than {max_nesting} levels"),
        );
        return (None, vec![diagnostic]);
    }
    // On a syntax error: report it, blank out the definition it is in (spaces, so that every
    // offset stays where it was) and parse again, up to MAX_SYNTAX_ERRORS times; the rest of
    // the file is then lowered and checked as usual.
    let mut diagnostics = Vec::new();
    let mut working: Option<String> = None;
    let mut recovered = Vec::new();
    for _ in 0..=MAX_SYNTAX_ERRORS {
        let current = working.as_deref().unwrap_or(text);
        match ThriftParser::parse(Rule::document, current) {
            Ok(mut pairs) => {
                let pair = pairs
                    .next()
                    .expect("the document rule always yields one pair");
                let mut lowering = lower::Lowering::new(file, current, pair.clone());
                let mut document = lowering.lower_document(pair);
                document.recovered = recovered;
                diagnostics.extend(lowering.into_diagnostics());
                return (Some(document), diagnostics);
            }
            Err(error) => {
                let mut diagnostic = syntax_error(file, current, error);
                let offset = diagnostic.span.map_or(0, |s| s.start as usize);
                let skip = recovery_region(current, offset);
                if let Some(open) = &skip.unclosed {
                    diagnostic = diagnostic.with_related(
                        Span::new(file, open.brace, open.brace + 1),
                        format!("this `{{` of {} is never closed", open.what),
                    );
                }
                diagnostics.push(diagnostic);
                let Some((start, end)) = skip.range else {
                    return (None, diagnostics);
                };
                recovered.extend(skip.name);
                let mut blanked = current.to_owned();
                blanked.replace_range(start..end, &blank(&current[start..end]));
                working = Some(blanked);
            }
        }
    }
    diagnostics.push(Diagnostic::error(
        Span::new(file, text.len(), text.len()),
        format!(
            "too many syntax errors ({MAX_SYNTAX_ERRORS}); the rest of the file is not checked"
        ),
    ));
    (None, diagnostics)
}

/// `text` with every character but newlines replaced by as many spaces as it has bytes, so
/// that every offset after it stays where it was.
fn blank(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c == '\n' {
            out.push('\n');
        } else {
            out.extend(std::iter::repeat_n(' ', c.len_utf8()));
        }
    }
    out
}

/// Syntax errors reported per file before giving up on it.
const MAX_SYNTAX_ERRORS: usize = 50;

/// Keywords that start a header or a definition.
const DEFINITION_KEYWORDS: &[&str] = &[
    "include",
    "cpp_include",
    "namespace",
    "const",
    "typedef",
    "enum",
    "senum",
    "struct",
    "union",
    "exception",
    "service",
];

/// Where definitions start: offsets of a definition keyword first on its line (outside block
/// comments), with the keyword.
fn definition_starts(text: &str) -> Vec<(usize, &'static str)> {
    let mut starts = Vec::new();
    let mut offset = 0;
    let mut in_block = false;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim_start();
        let at = offset + (line.len() - trimmed.len());
        if in_block {
            if line.contains("*/") {
                in_block = false;
            }
        } else if let Some(comment) = trimmed.strip_prefix("/*") {
            in_block = !comment.contains("*/");
        } else if let Some(keyword) = DEFINITION_KEYWORDS.iter().find(|k| {
            trimmed.starts_with(**k) && trimmed[k.len()..].starts_with(|c: char| c.is_whitespace())
        }) {
            starts.push((at, *keyword));
        }
        offset += line.len();
    }
    starts
}

/// A `{` left open before a syntax error, and what it opened.
struct Unclosed {
    brace: usize,
    what: String,
}

/// What to blank out after a syntax error at `offset`.
struct Recovery {
    /// The definition holding the error, up to where the next one starts.
    range: Option<(usize, usize)>,
    /// The name the blanked definition would have defined.
    name: Option<String>,
    unclosed: Option<Unclosed>,
}

fn recovery_region(text: &str, offset: usize) -> Recovery {
    let starts = definition_starts(text);
    let open = open_brace_before(text, offset);
    // The definition whose `{` is still open holds the error even when the error is reported
    // where the next definition starts; otherwise the last one starting at or before it.
    let holder = match open {
        Some(brace) => starts.iter().rposition(|&(at, _)| at < brace),
        None => starts.iter().rposition(|&(at, _)| at <= offset),
    };
    let unclosed = match (open, holder) {
        (Some(brace), Some(i)) if !closed_later(text, brace) => Some(Unclosed {
            brace,
            what: describe_definition(text, starts[i].0, starts[i].1),
        }),
        _ => None,
    };
    let start = match holder {
        Some(i) => starts[i].0,
        None => text[..offset].rfind('\n').map_or(0, |n| n + 1),
    };
    // A definition whose `{` is never closed ends where the next one starts after that `{`;
    // any other where the next one starts at or after the error (definitions start at a
    // keyword, so neither bound is itself a start unless the error is at one).
    let after = match &unclosed {
        Some(open) => open.brace,
        None => offset,
    };
    let end = starts
        .iter()
        .map(|&(at, _)| at)
        .find(|&at| at > start && at >= after)
        .unwrap_or(text.len());
    let range = (end > start && text[start..end].trim() != "").then_some((start, end));
    let name = holder.and_then(|i| defined_name(text, starts[i].0, starts[i].1));
    Recovery {
        range,
        name,
        unclosed,
    }
}

/// `struct Foo (line 3)`: the keyword and name of the definition starting at `at`.
fn describe_definition(text: &str, at: usize, keyword: &str) -> String {
    let line = text[..at].matches('\n').count() + 1;
    match defined_name(text, at, keyword) {
        Some(name) => format!("`{keyword} {name}` (line {line})"),
        None => format!("the `{keyword}` on line {line}"),
    }
}

/// The name a definition starting at `at` defines, when it can be read off its first words.
fn defined_name(text: &str, at: usize, keyword: &str) -> Option<String> {
    let rest = &text[at + keyword.len()..];
    let word = |s: &str| -> Option<String> {
        let s = s.trim_start();
        let len = s
            .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.'))
            .unwrap_or(s.len());
        (len > 0).then(|| s[..len].to_string())
    };
    match keyword {
        "enum" | "senum" | "struct" | "union" | "exception" | "service" => word(rest),
        _ => None,
    }
}

/// Whether the `{` at `brace` is matched by a `}` somewhere after it.
fn closed_later(text: &str, brace: usize) -> bool {
    let mut depth = 0usize;
    for (_, b) in brackets(text).skip_while(|&(at, _)| at < brace) {
        match b {
            b'{' => depth += 1,
            b'}' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return true;
                }
            }
            _ => {}
        }
    }
    false
}

/// The offset of the innermost `{` still open at `offset`.
fn open_brace_before(text: &str, offset: usize) -> Option<usize> {
    let mut open: Vec<usize> = Vec::new();
    for (at, b) in brackets(text).take_while(|&(at, _)| at < offset) {
        match b {
            b'{' => open.push(at),
            b'}' => {
                open.pop();
            }
            _ => {}
        }
    }
    open.last().copied()
}

/// The brackets (`<>[]{}()`) of `text` outside comments and string literals, with their
/// offsets. An unterminated string ends at its line's end.
fn brackets(text: &str) -> impl Iterator<Item = (usize, u8)> + '_ {
    let bytes = text.as_bytes();
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < bytes.len() {
            let at = i;
            i += 1;
            match bytes[at] {
                b'/' if bytes.get(at + 1) == Some(&b'/') => i = line_end(bytes, at),
                b'#' => i = line_end(bytes, at),
                b'/' if bytes.get(at + 1) == Some(&b'*') => {
                    i = text[at + 2..]
                        .find("*/")
                        .map_or(bytes.len(), |end| at + 2 + end + 2);
                }
                quote @ (b'"' | b'\'') => {
                    while i < bytes.len() && bytes[i] != quote && bytes[i] != b'\n' {
                        i += if bytes[i] == b'\\' { 2 } else { 1 };
                    }
                    i += 1;
                }
                b @ (b'<' | b'[' | b'{' | b'(' | b'>' | b']' | b'}' | b')') => {
                    return Some((at, b));
                }
                _ => {}
            }
        }
        None
    })
}

fn line_end(bytes: &[u8], from: usize) -> usize {
    bytes[from..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(bytes.len(), |p| from + p)
}

/// The offset of the first bracket nested deeper than `max` levels.
fn too_deep(text: &str, max: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (at, b) in brackets(text) {
        if matches!(b, b'<' | b'[' | b'{' | b'(') {
            depth += 1;
            if depth > max {
                return Some(at);
            }
        } else {
            depth = depth.saturating_sub(1);
        }
    }
    None
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
