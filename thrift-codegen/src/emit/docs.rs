//! IDL doc comments as rustdoc prose, made safe for rustdoc and clippy: IDL docs are free
//! text, and markdown would read `[x]` as a link, `<T>` as HTML, `- item` lines as lists (and
//! clippy would want their continuation lines indented). So every character markdown would
//! interpret is escaped, URLs become autolinks (`<https://…>`), lines keep their breaks and
//! paragraphs their blank lines. A comment that holds code (a fenced block, or lines indented
//! well past the others, as ASCII tables and examples are) is shown verbatim in a `text`
//! block instead.

use proc_macro2::TokenStream;
use quote::quote;

pub fn doc_attrs(doc: Option<&str>) -> TokenStream {
    let Some(doc) = doc.map(str::trim).filter(|d| !d.is_empty()) else {
        return TokenStream::new();
    };
    let doc = &doc.replace('\t', "    ");
    let lines: Vec<String> = if holds_code(doc) {
        let mut lines = vec![" ```text".to_string()];
        lines.extend(doc.lines().map(|l| format!(" {}", l.replace("```", "'''"))));
        lines.push(" ```".to_string());
        lines
    } else {
        let mut lines: Vec<String> = Vec::new();
        for line in doc.lines().map(str::trim) {
            // One blank line between paragraphs.
            if line.is_empty() && lines.last().is_none_or(|l| l.is_empty()) {
                continue;
            }
            lines.push(if line.is_empty() {
                String::new()
            } else {
                format!(" {}", prose_line(line))
            });
        }
        lines
    };
    quote!(#(#[doc = #lines])*)
}

/// Whether a comment is code or a layout to keep: a fenced block, or a line indented four
/// columns or more past the least indented line.
fn holds_code(doc: &str) -> bool {
    if doc.contains("```") {
        return true;
    }
    let indents: Vec<usize> = doc
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.len() - l.trim_start().len())
        .collect();
    // The first line's indent is lost to the comment's opening (`/** text`).
    let least = indents.iter().skip(1).min().copied().unwrap_or(0);
    indents.iter().skip(1).any(|&i| i >= least + 4)
}

/// Characters markdown or rustdoc would interpret anywhere in a line.
const SPECIAL: &[char] = &[
    '\\', '`', '*', '_', '[', ']', '<', '>', '|', '#', '&', '~', '{', '}',
];

/// One trimmed line as literal text: specials escaped, URLs as autolinks, no line read as a
/// list item, heading or rule. Backtick spans stay code spans when a line's backticks pair up.
fn prose_line(line: &str) -> String {
    let mut out = String::with_capacity(line.len() + 8);
    let ticks = line.matches('`').count();
    if ticks > 0 && ticks.is_multiple_of(2) {
        for (i, part) in line.split('`').enumerate() {
            if i % 2 == 1 {
                out.push('`');
                out.push_str(part);
                out.push('`');
            } else {
                prose_text(&mut out, part);
            }
        }
    } else {
        prose_text(&mut out, line);
    }
    // A line starting like a list item, a numbered item, a heading underline or a rule.
    let first = out.chars().next();
    if matches!(first, Some('-' | '+' | '=')) {
        out.insert(0, '\\');
    } else if let Some((number, _)) = out.split_once(['.', ')']) {
        if !number.is_empty() && number.chars().all(|c| c.is_ascii_digit()) {
            out.insert(number.len(), '\\');
        }
    }
    out
}

/// Text outside code spans: specials escaped, URLs as autolinks.
fn prose_text(out: &mut String, text: &str) {
    for (i, word) in text.split(' ').enumerate() {
        if i > 0 {
            out.push(' ');
        }
        let scheme_start = |at: usize| {
            word[..at]
                .rfind(|c: char| !c.is_ascii_alphanumeric())
                .map_or(0, |p| p + 1)
        };
        let url_at = word.find("://").filter(|&at| {
            matches!(
                &word[scheme_start(at)..at],
                "http" | "https" | "ftp" | "file"
            )
        });
        let Some(at) = url_at else {
            escape_into(out, word);
            continue;
        };
        let start = scheme_start(at);
        let url = word[start..].trim_end_matches(['.', ',', ';', ':', ')', '\'', '"', '>']);
        let end = start + url.len();
        escape_into(out, &word[..start]);
        if url.contains('<') {
            escape_into(out, url);
        } else {
            out.push('<');
            out.push_str(url);
            out.push('>');
        }
        escape_into(out, &word[end..]);
    }
}

fn escape_into(out: &mut String, text: &str) {
    for c in text.chars() {
        if SPECIAL.contains(&c) {
            out.push('\\');
        }
        out.push(c);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The doc strings `doc_attrs` makes.
    fn lines(doc: &str) -> Vec<String> {
        let tokens = doc_attrs(Some(doc));
        let item: syn::ItemStruct = syn::parse2(quote!(#tokens struct X;)).unwrap();
        item.attrs
            .iter()
            .map(|a| match &a.meta {
                syn::Meta::NameValue(syn::MetaNameValue {
                    value:
                        syn::Expr::Lit(syn::ExprLit {
                            lit: syn::Lit::Str(s),
                            ..
                        }),
                    ..
                }) => s.value(),
                _ => panic!("not a doc string"),
            })
            .collect()
    }

    #[test]
    fn prose_is_escaped_not_verbatim() {
        assert_eq!(lines("A point."), [" A point."]);
        assert_eq!(
            lines("See [x] and <T>, a_b *c*\n- item\n1. first"),
            [
                " See \\[x\\] and \\<T\\>, a\\_b \\*c\\*",
                " \\- item",
                " 1\\. first"
            ]
        );
        assert_eq!(
            lines("see http://example.com/a_b. Or (https://x.org)"),
            [" see <http://example.com/a_b>. Or (<https://x.org>)"]
        );
        assert_eq!(lines("one\n\n\ntwo"), [" one", "", " two"]);
        assert!(doc_attrs(None).is_empty());
    }

    #[test]
    fn code_stays_verbatim() {
        let table = lines("Layout:\n  a | b\n      1 | 2");
        assert_eq!(table[0], " ```text");
        assert_eq!(lines("x\n```\ncode\n```")[0], " ```text");
    }
}
