//! IDL doc comments as rustdoc, made safe for rustdoc and clippy: IDL docs are free text, and
//! markdown would read `[x]` as a link, `<T>` as HTML, indented lines as doctests and
//! `- item` lines as lists. Plain one-paragraph text is kept as it is; anything else is shown
//! verbatim in a `text` block.

use proc_macro2::TokenStream;
use quote::quote;

pub fn doc_attrs(doc: Option<&str>) -> TokenStream {
    let Some(doc) = doc.map(str::trim).filter(|d| !d.is_empty()) else {
        return TokenStream::new();
    };
    let doc = &doc.replace('\t', "    ");
    let lines: Vec<String> = if is_plain(doc) {
        doc.lines().map(|l| format!(" {}", l.trim())).collect()
    } else {
        let mut lines = vec![" ```text".to_string()];
        lines.extend(doc.lines().map(|l| format!(" {}", l.replace("```", "'''"))));
        lines.push(" ```".to_string());
        lines
    };
    quote!(#(#[doc = #lines])*)
}

/// A single paragraph with nothing markdown or rustdoc would interpret.
fn is_plain(doc: &str) -> bool {
    const SPECIAL: &[char] = &[
        '[', ']', '<', '>', '`', '*', '_', '|', '#', '\\', '&', '{', '}', '\t',
    ];
    !doc.contains(SPECIAL)
        && !doc.contains("://")
        && doc.lines().all(|line| {
            let t = line.trim_start();
            !t.is_empty()
                && line.len() == t.len()
                && !t.starts_with(['-', '+', '=', '.', ')'])
                && !t
                    .split_once(['.', ')'])
                    .is_some_and(|(n, _)| n.chars().all(|c| c.is_ascii_digit()))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_and_verbatim() {
        assert_eq!(
            doc_attrs(Some("A point.")).to_string(),
            quote!(#[doc = " A point."]).to_string()
        );
        let verbatim = doc_attrs(Some("See [x] and <T>\n  - item")).to_string();
        assert!(verbatim.contains("```text"), "{verbatim}");
        assert!(doc_attrs(None).is_empty());
        assert!(!is_plain("1. first"));
        assert!(!is_plain("see http://example.com"));
    }
}
