//! Doc comments: `/** … */` blocks and runs of `///` lines, attached to the item that follows.

use pest::iterators::Pair;

use crate::syntax::grammar::Rule;

struct DocComment {
    start: usize,
    end: usize,
    text: String,
    line: bool,
}

/// Every doc comment of a file, in source order, to be claimed by the items they precede.
pub(crate) struct DocComments {
    comments: Vec<DocComment>,
}

impl DocComments {
    pub(crate) fn collect(document: Pair<'_, Rule>) -> DocComments {
        let comments = document
            .into_inner()
            .flatten()
            .filter_map(|pair| {
                let line = match pair.as_rule() {
                    Rule::doc_block => false,
                    Rule::doc_line => true,
                    _ => return None,
                };
                let span = pair.as_span();
                Some(DocComment {
                    start: span.start(),
                    end: span.end(),
                    text: pair.as_str().to_string(),
                    line,
                })
            })
            .collect();
        DocComments { comments }
    }

    /// The doc comment that ends right before `item_start` (only whitespace and plain comments
    /// between), cleaned of its comment markers.
    pub(crate) fn before(&self, source: &str, item_start: usize) -> Option<String> {
        let idx = self.comments.partition_point(|c| c.end <= item_start);
        let last = idx.checked_sub(1)?;
        let comment = &self.comments[last];
        if !only_trivia(&source[comment.end..item_start]) {
            return None;
        }
        if !comment.line {
            return Some(clean_block(&comment.text));
        }
        // A run of `///` lines: walk back while only whitespace separates them.
        let mut first = last;
        while first > 0 {
            let prev = &self.comments[first - 1];
            if prev.line
                && source[prev.end..self.comments[first].start]
                    .trim()
                    .is_empty()
            {
                first -= 1;
            } else {
                break;
            }
        }
        let lines: Vec<&str> = self.comments[first..=last]
            .iter()
            .map(|c| c.text.trim_start_matches("///").trim_end())
            .collect();
        Some(dedent(&lines))
    }
}

/// True when `text` holds only whitespace and non-doc comments.
fn only_trivia(text: &str) -> bool {
    let mut rest = text.trim_start();
    while !rest.is_empty() {
        if let Some(body) = rest.strip_prefix("/*") {
            match body.find("*/") {
                Some(end) => rest = &body[end + 2..],
                None => return false,
            }
        } else if rest.starts_with("//") || rest.starts_with('#') {
            rest = rest.find('\n').map_or("", |i| &rest[i..]);
        } else {
            return false;
        }
        rest = rest.trim_start();
    }
    true
}

fn clean_block(text: &str) -> String {
    let body = text.trim_start_matches("/**");
    let body = body.strip_suffix("*/").unwrap_or(body);
    let lines: Vec<&str> = body
        .lines()
        .map(|line| {
            let trimmed = line.trim_start();
            match trimmed.strip_prefix('*') {
                Some(rest) => rest,
                None => line,
            }
            .trim_end()
        })
        .collect();
    dedent(&lines)
}

/// Removes the indentation common to all non-blank lines and blank lines at either end.
fn dedent(lines: &[&str]) -> String {
    let indent = lines
        .iter()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.len() - l.trim_start().len())
        .min()
        .unwrap_or(0);
    let lines: Vec<&str> = lines
        .iter()
        .map(|l| {
            if l.trim().is_empty() {
                ""
            } else {
                l.get(indent..).unwrap_or(l.trim_start())
            }
        })
        .collect();
    let start = lines
        .iter()
        .position(|l| !l.is_empty())
        .unwrap_or(lines.len());
    let end = lines
        .iter()
        .rposition(|l| !l.is_empty())
        .map_or(start, |e| e + 1);
    lines[start..end].join("\n")
}
