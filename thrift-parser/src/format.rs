//! The formatter (`thrift-codegen fmt`): one layout for every file, with every comment kept.
//!
//! The layout: headers and definitions in source order, one blank line between definitions
//! (blank lines between headers, members and comments kept, at most one); two spaces of
//! indent; one field, enum value or function per line, each ending in `,`; `key = "value"`
//! annotations in parentheses after what they annotate; a function's parameters on its line
//! unless the line would pass [`WIDTH`] columns or a comment sits among them, then one per line;
//! const lists and maps on one line unless it would pass [`WIDTH`] columns. Literals are written
//! canonically (decimal integers, `"…"` strings with Apache's escapes), `byte` as `i8` and
//! `async` as `oneway`, as Apache recommends: the parsed file is the same, only the text
//! changes.
//!
//! Comments (doc comments too) are kept verbatim, each before the item it precedes in the
//! source, or after it on its line when it followed it there; a block comment's later lines
//! move by as many columns as its first. A field, enum value, function, const, typedef or
//! header with a comment inside it is kept as written (a doc comment there belongs to
//! nothing, and would belong to the next item if it moved out). The output parses to the same document (spans aside), and formatting
//! it again gives the same bytes: `thrift-parser/tests/fmt.rs` checks both on every file of the
//! corpus.

use crate::ast::{
    Annotation, ConstValue, ConstValueKind, Definition, Document, Field, FieldIdKind, Function,
    Header, Requiredness, Type, TypeKind,
};
use crate::diagnostic::Diagnostic;
use crate::source::FileId;

/// The column past which a function's parameters, or a const list or map, go one per line.
pub const WIDTH: usize = 100;

/// Formats the text of one `.thrift` file. Errors (syntax errors and the parser's other
/// errors) are returned, and nothing is formatted.
pub fn format_source(text: &str) -> Result<String, Vec<Diagnostic>> {
    let (document, diagnostics) = crate::syntax::parse_document(FileId(0), text);
    let errors: Vec<Diagnostic> = diagnostics
        .into_iter()
        .filter(Diagnostic::is_error)
        .collect();
    match document {
        Some(document) if errors.is_empty() && document.recovered.is_empty() => {
            if let Some(at) = xsd_construct(text) {
                let end = at
                    + text[at..]
                        .find(|c: char| !c.is_ascii_alphanumeric() && c != '_')
                        .unwrap_or(text.len() - at);
                return Err(vec![Diagnostic::error(
                    crate::source::Span::new(FileId(0), at, end),
                    "the formatter does not write Apache's XML-schema constructs (`xsd_all`, `xsd_optional`, `xsd_nillable`, `xsd_attrs`): formatting would drop them",
                )]);
            }
            Ok(format_document(text, &document))
        }
        _ => Err(errors),
    }
}

/// Where the first `xsd_*` keyword is, outside comments: the parser reads and drops them.
fn xsd_construct(text: &str) -> Option<usize> {
    let comments = comments(text);
    ["xsd_all", "xsd_optional", "xsd_nillable", "xsd_attrs"]
        .iter()
        .flat_map(|word| text.match_indices(word).map(|(i, _)| i))
        .filter(|&i| !comments.iter().any(|c| c.start <= i && i < c.end))
        .min()
}

/// Formats `document`, parsed from `text` without errors.
pub fn format_document(text: &str, document: &Document) -> String {
    let mut p = Printer {
        text,
        comments: comments(text),
        next: 0,
        last_end: 0,
        out: String::new(),
    };
    enum Item<'a> {
        Header(&'a Header),
        Definition(&'a Definition),
    }
    let mut items: Vec<(usize, Item<'_>)> = document
        .headers
        .iter()
        .map(|h| (header_span(h).0, Item::Header(h)))
        .chain(
            document
                .definitions
                .iter()
                .map(|d| (d.span().start as usize, Item::Definition(d))),
        )
        .collect();
    items.sort_by_key(|(start, _)| *start);
    let mut previous_was_header = None;
    for (start, item) in &items {
        match item {
            Item::Header(h) => {
                // Headers keep their blank lines; a header after a definition gets one.
                if previous_was_header == Some(false) {
                    p.blank();
                }
                let (_, end) = header_span(h);
                p.member(*start, end, 0, &header(h));
                previous_was_header = Some(true);
            }
            Item::Definition(d) => {
                if previous_was_header.is_some() {
                    p.blank();
                }
                p.definition(d);
                previous_was_header = Some(false);
            }
        }
    }
    p.leading(text.len(), 0);
    let trimmed = p.out.trim_end_matches('\n').len();
    p.out.truncate(trimmed);
    if !p.out.is_empty() {
        p.out.push('\n');
    }
    p.out
}

fn header_span(h: &Header) -> (usize, usize) {
    let span = match h {
        Header::Include(i) => i.span,
        Header::CppInclude(s) => s.span,
        Header::Namespace(n) => n.span,
    };
    (span.start as usize, span.end as usize)
}

fn header(h: &Header) -> String {
    match h {
        Header::Include(i) => format!("include {}", string(&i.path.value)),
        Header::CppInclude(s) => format!("cpp_include {}", string(&s.value)),
        Header::Namespace(n) => {
            format!(
                "namespace {} {}{}",
                n.scope.name,
                n.name.name,
                annotations(&n.annotations)
            )
        }
    }
}

/// A comment of the source: its byte range.
#[derive(Clone, Copy)]
struct Comment {
    start: usize,
    end: usize,
}

/// Every comment of `text` (`//`, `#` and `/* */`, doc comments too), outside string
/// literals.
fn comments(text: &str) -> Vec<Comment> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            quote @ (b'"' | b'\'') => {
                i += 1;
                while i < bytes.len() && bytes[i] != quote && bytes[i] != b'\n' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
            }
            b'#' => {
                let end = text[i..].find('\n').map_or(text.len(), |n| i + n);
                out.push(Comment { start: i, end });
                i = end;
            }
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                let end = text[i..].find('\n').map_or(text.len(), |n| i + n);
                out.push(Comment { start: i, end });
                i = end;
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                let end = text[i + 2..]
                    .find("*/")
                    .map_or(text.len(), |n| i + 2 + n + 2);
                out.push(Comment { start: i, end });
                i = end;
            }
            _ => i += 1,
        }
    }
    out
}

struct Printer<'a> {
    text: &'a str,
    comments: Vec<Comment>,
    /// The first comment not written yet.
    next: usize,
    /// Where in the source the last thing written (an item or a comment) ends.
    last_end: usize,
    out: String,
}

impl Printer<'_> {
    /// One blank line, unless the output starts here, has one, or just opened a block.
    fn blank(&mut self) {
        if !self.out.is_empty()
            && !self.out.ends_with("\n\n")
            && !self.out.ends_with("{\n")
            && !self.out.ends_with("(\n")
        {
            self.out.push('\n');
        }
    }

    /// A blank line when the source has one between `from` and `to`.
    fn blank_if_source(&mut self, from: usize, to: usize) {
        let between = self.text.get(from..to).unwrap_or("");
        if between.matches('\n').count() >= 2 {
            self.blank();
        }
    }

    /// Writes, each on its own lines at `indent`, the comments that start before `before`,
    /// and the source's blank line before `before` when it has one.
    fn leading(&mut self, before: usize, indent: usize) {
        self.leading_with(before, indent, true);
    }

    /// A comment's text, its lines after the first moved by as many columns as its first
    /// line moves to `indent` (where they have that many leading spaces to lose).
    fn reindented(&self, c: Comment, indent: usize) -> String {
        let text = &self.text[c.start..c.end];
        let line_start = self.text[..c.start].rfind('\n').map_or(0, |i| i + 1);
        let before = &self.text[line_start..c.start];
        if !text.contains('\n') || !before.chars().all(|ch| ch == ' ') {
            return text.to_string();
        }
        let column = before.len();
        let mut lines = text.split('\n');
        let mut out = lines.next().unwrap_or_default().to_string();
        for line in lines {
            out.push('\n');
            if indent >= column {
                if !line.is_empty() {
                    out.push_str(&" ".repeat(indent - column));
                }
                out.push_str(line);
            } else {
                let cut = column - indent;
                match line.get(..cut) {
                    Some(spaces) if spaces.chars().all(|ch| ch == ' ') => {
                        out.push_str(&line[cut..])
                    }
                    _ => out.push_str(line),
                }
            }
        }
        out
    }

    /// [`Printer::leading`] without the blank line before `before` (a closing bracket).
    fn leading_no_blank(&mut self, before: usize, indent: usize) {
        self.leading_with(before, indent, false);
    }

    fn leading_with(&mut self, before: usize, indent: usize, blank_before: bool) {
        while let Some(&c) = self.comments.get(self.next) {
            if c.start >= before {
                break;
            }
            self.next += 1;
            self.blank_if_source(self.last_end, c.start);
            self.out.push_str(&" ".repeat(indent));
            let text = self.reindented(c, indent);
            self.out.push_str(&text);
            self.out.push('\n');
            self.last_end = c.end;
        }
        if blank_before {
            self.blank_if_source(self.last_end, before.max(self.last_end));
        }
    }

    /// Appends to the current line the comments that follow the last thing written on its
    /// source line (and start before `limit`).
    fn trailing(&mut self, limit: usize) {
        while let Some(&c) = self.comments.get(self.next) {
            // Only white space (and a separator, or the `{` of a block) between: a comment
            // after the next item on the same line stays with that item.
            let between = self.text.get(self.last_end..c.start).unwrap_or("\n");
            let beside = between
                .chars()
                .all(|c| matches!(c, ' ' | '\t' | ',' | ';' | '{'));
            if c.start < self.last_end || c.start >= limit || !beside {
                break;
            }
            self.next += 1;
            self.out.push(' ');
            self.out.push_str(&self.text[c.start..c.end]);
            self.last_end = c.end;
        }
    }

    /// Where an item whose span is `start..end` really ends: a span may run over the white
    /// space and comments after the item's last token (looking for an optional separator).
    fn item_end(&self, start: usize, mut end: usize) -> usize {
        loop {
            let trimmed = self.text[start..end].trim_end().len() + start;
            end = trimmed;
            match self
                .comments
                .iter()
                .find(|c| c.start >= start && c.start < end && c.end >= end)
            {
                Some(c) => end = c.start,
                None => return end,
            }
        }
    }

    /// `text`, or when a comment sits inside the item at `start..end`, the item as written
    /// (a doc comment there belongs to nothing, and would belong to the next item if moved
    /// out); its comments are then written, and skipped.
    fn kept(&mut self, start: usize, end: usize, text: &str) -> String {
        if !self.comment_within(start, end) {
            return text.to_string();
        }
        while self.comments.get(self.next).is_some_and(|c| c.start < end) {
            self.next += 1;
        }
        self.text[start..end].to_string()
    }

    /// Whether a comment starts inside `start..end`.
    fn comment_within(&self, start: usize, end: usize) -> bool {
        self.comments[self.next..]
            .iter()
            .any(|c| c.start > start && c.start < end)
    }

    /// The position of the last `close` before `before` in `start..`, or `before`.
    fn closing(&self, start: usize, before: usize, close: char) -> usize {
        self.text
            .get(start..before)
            .and_then(|s| s.rfind(close))
            .map_or(before, |i| start + i)
    }

    /// A member at `indent`: its comments before it, its text, the comments after it on its
    /// line.
    fn member(&mut self, start: usize, end: usize, indent: usize, text: &str) {
        let end = self.item_end(start, end);
        self.leading(start, indent);
        self.out.push_str(&" ".repeat(indent));
        let text = self.kept(start, end, text);
        self.out.push_str(&text);
        self.last_end = end;
        self.trailing(usize::MAX);
        self.out.push('\n');
    }

    /// `opening {`, the members written by `members` (`has_members`: there are some), then `}`
    /// and the annotations. Empty and without comments: `opening {}`.
    #[allow(clippy::too_many_arguments)]
    fn block(
        &mut self,
        start: usize,
        end: usize,
        name_end: usize,
        opening: String,
        annotations_: &[Annotation],
        first_member: Option<usize>,
        members: impl FnOnce(&mut Self),
    ) {
        self.leading(start, 0);
        let close_before = annotations_.first().map_or(end, |a| a.span.start as usize);
        let close = self.closing(start, close_before, '}');
        self.out.push_str(&opening);
        self.out.push_str(" {");
        if first_member.is_none() && !self.comment_within(name_end, close) {
            self.out.push('}');
        } else {
            // Comments on the line of `{`, before the first member.
            self.last_end = name_end;
            self.trailing(first_member.unwrap_or(close));
            self.out.push('\n');
            members(self);
            self.leading_no_blank(close, 2);
            self.out.push('}');
        }
        self.out.push_str(&annotations(annotations_));
        self.last_end = end;
        self.trailing(usize::MAX);
        self.out.push('\n');
    }

    fn definition(&mut self, d: &Definition) {
        let span = d.span();
        let start = span.start as usize;
        let end = self.item_end(start, span.end as usize);
        match d {
            Definition::Const(c) => {
                let text = format!(
                    "const {} {} = {}",
                    ty(&c.ty),
                    c.name.name,
                    value(&c.value, 0)
                );
                self.member(start, end, 0, &text);
            }
            Definition::Typedef(t) => {
                let text = format!(
                    "typedef {} {}{}",
                    ty(&t.ty),
                    t.name.name,
                    annotations(&t.annotations)
                );
                self.member(start, end, 0, &text);
            }
            Definition::Enum(e) => {
                let name_end = e.name.span.end as usize;
                let first = e.values.first().map(|v| v.span.start as usize);
                self.block(
                    start,
                    end,
                    name_end,
                    format!("enum {}", e.name.name),
                    &e.annotations,
                    first,
                    |p| {
                        for v in &e.values {
                            let mut text = v.name.name.clone();
                            if v.explicit {
                                text.push_str(&format!(" = {}", v.value));
                            }
                            text.push_str(&annotations(&v.annotations));
                            text.push(',');
                            p.member(v.span.start as usize, v.span.end as usize, 2, &text);
                        }
                    },
                );
            }
            Definition::Senum(s) => {
                let name_end = s.name.span.end as usize;
                let first = s.values.first().map(|v| v.span.start as usize);
                self.block(
                    start,
                    end,
                    name_end,
                    format!("senum {}", s.name.name),
                    &s.annotations,
                    first,
                    |p| {
                        for v in &s.values {
                            let text = format!("{},", string(&v.value));
                            p.member(v.span.start as usize, v.span.end as usize, 2, &text);
                        }
                    },
                );
            }
            Definition::Struct(s) => {
                let name_end = s.name.span.end as usize;
                let opening = format!("{} {}", s.kind.keyword(), s.name.name);
                let first = s.fields.first().map(|f| f.span.start as usize);
                self.block(start, end, name_end, opening, &s.annotations, first, |p| {
                    for f in &s.fields {
                        let text = format!("{},", field(f));
                        p.member(f.span.start as usize, f.span.end as usize, 2, &text);
                    }
                });
            }
            Definition::Service(s) => {
                let name_end = s.extends.as_ref().unwrap_or(&s.name).span.end as usize;
                let mut opening = format!("service {}", s.name.name);
                if let Some(base) = &s.extends {
                    opening.push_str(&format!(" extends {}", base.name));
                }
                let first = s.functions.first().map(|f| f.span.start as usize);
                self.block(start, end, name_end, opening, &s.annotations, first, |p| {
                    for f in &s.functions {
                        p.function(f);
                    }
                });
            }
        }
    }

    fn function(&mut self, f: &Function) {
        let start = f.span.start as usize;
        let end = self.item_end(start, f.span.end as usize);
        let head = format!(
            "{}{} {}",
            if f.oneway { "oneway " } else { "" },
            f.return_type
                .as_ref()
                .map_or_else(|| "void".to_string(), ty),
            f.name.name
        );
        let list = |fields: &[Field]| fields.iter().map(field).collect::<Vec<_>>().join(", ");
        let mut line = format!("{head}({})", list(&f.params));
        if !f.throws.is_empty() {
            line.push_str(&format!(" throws ({})", list(&f.throws)));
        }
        line.push_str(&annotations(&f.annotations));
        line.push(',');
        let name_end = f.name.span.end as usize;
        if 2 + line.len() <= WIDTH && !self.comment_within(name_end, end) {
            self.member(start, end, 2, &line);
            return;
        }
        // One parameter (and exception) per line, their comments kept beside them.
        self.leading(start, 2);
        self.out.push_str("  ");
        self.out.push_str(&head);
        self.out.push('(');
        self.last_end = name_end;
        self.trailing(usize::MAX);
        self.out.push('\n');
        let params_end = f.throws.first().map_or_else(
            || f.annotations.first().map_or(end, |a| a.span.start as usize),
            |t| t.span.start as usize,
        );
        for param in &f.params {
            let text = format!("{},", field(param));
            self.member(param.span.start as usize, param.span.end as usize, 4, &text);
        }
        let close = self.closing(name_end, params_end, ')');
        self.leading_no_blank(close, 4);
        self.out.push_str("  )");
        if !f.throws.is_empty() {
            self.out.push_str(" throws (\n");
            // From the `(` of the list on: the source between it and the first exception.
            self.last_end = self.text[close..]
                .find('(')
                .map_or(close, |i| close + i + 1);
            for t in &f.throws {
                let text = format!("{},", field(t));
                self.member(t.span.start as usize, t.span.end as usize, 4, &text);
            }
            let throws_end = f.annotations.first().map_or(end, |a| a.span.start as usize);
            let close = self.closing(name_end, throws_end, ')');
            self.leading_no_blank(close, 4);
            self.out.push_str("  )");
        }
        self.out.push_str(&annotations(&f.annotations));
        self.out.push(',');
        self.last_end = end;
        self.trailing(usize::MAX);
        self.out.push('\n');
    }
}

fn field(f: &Field) -> String {
    let mut s = String::new();
    if f.id_kind != FieldIdKind::Implicit {
        s.push_str(&format!("{}: ", f.id));
    }
    s.push_str(match f.requiredness {
        Requiredness::Required => "required ",
        Requiredness::Optional => "optional ",
        Requiredness::Default => "",
    });
    s.push_str(&ty(&f.ty));
    if f.reference {
        s.push_str(" &");
    }
    s.push(' ');
    s.push_str(&f.name.name);
    if let Some(v) = &f.default {
        s.push_str(" = ");
        s.push_str(&value(v, 2));
    }
    s.push_str(&annotations(&f.annotations));
    s
}

fn ty(t: &Type) -> String {
    let cpp = |cpp_type: &Option<String>| {
        cpp_type
            .as_ref()
            .map_or_else(String::new, |c| format!(" cpp_type {}", string(c)))
    };
    let mut s = match &t.kind {
        TypeKind::Base(b) => b.keyword().to_string(),
        TypeKind::Named(name) => name.name.clone(),
        TypeKind::List { element, cpp_type } => format!("list{}<{}>", cpp(cpp_type), ty(element)),
        TypeKind::Set { element, cpp_type } => format!("set{}<{}>", cpp(cpp_type), ty(element)),
        TypeKind::Map {
            key,
            value,
            cpp_type,
        } => format!("map{}<{}, {}>", cpp(cpp_type), ty(key), ty(value)),
    };
    s.push_str(&annotations(&t.annotations));
    s
}

fn annotations(list: &[Annotation]) -> String {
    if list.is_empty() {
        return String::new();
    }
    let entries: Vec<String> = list
        .iter()
        .map(|a| format!("{} = {}", a.key.name, string(&a.value)))
        .collect();
    format!(" ({})", entries.join(", "))
}

/// A string literal with Apache's escapes.
fn string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A const value; lists and maps on one line, or one entry per line (at `indent` + 2) when
/// the line would be too long.
fn value(v: &ConstValue, indent: usize) -> String {
    match &v.kind {
        ConstValueKind::Int(n) => n.to_string(),
        // `{:?}` writes the shortest text that reads back as the same double, with a `.` or
        // an exponent, so that it is read as a double again.
        ConstValueKind::Double(d) => format!("{d:?}"),
        ConstValueKind::Bool(b) => b.to_string(),
        ConstValueKind::String(s) => string(s),
        ConstValueKind::Identifier(name) => name.clone(),
        ConstValueKind::List(items) => {
            let flat: Vec<String> = items.iter().map(|i| value(i, indent + 2)).collect();
            let line = format!("[{}]", flat.join(", "));
            if indent + line.len() <= WIDTH && !line.contains('\n') {
                return line;
            }
            let pad = " ".repeat(indent + 2);
            let lines: Vec<String> = flat.iter().map(|i| format!("{pad}{i},\n")).collect();
            format!("[\n{}{}]", lines.concat(), " ".repeat(indent))
        }
        ConstValueKind::Map(entries) => {
            let flat: Vec<String> = entries
                .iter()
                .map(|(k, v)| format!("{}: {}", value(k, indent + 2), value(v, indent + 2)))
                .collect();
            let line = format!("{{{}}}", flat.join(", "));
            if indent + line.len() <= WIDTH && !line.contains('\n') {
                return line;
            }
            let pad = " ".repeat(indent + 2);
            let lines: Vec<String> = flat.iter().map(|e| format!("{pad}{e},\n")).collect();
            format!("{{\n{}{}}}", lines.concat(), " ".repeat(indent))
        }
    }
}
