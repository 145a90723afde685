//! Diagnostics: located errors and warnings, rendered as
//! `path:line:col: error: message` plus the source line and a caret, or as JSON.
//!
//! With the `miette` feature, [`Diagnostic`] implements `miette::Diagnostic` (through
//! `Diagnostic::into_report`), so a program that already reports with miette can show ours
//! with its own handler.

use std::fmt::{self, Write as _};

use crate::source::{SourceMap, Span};

/// How bad a [`Diagnostic`] is; `Warning < Error`, and displays as `warning` / `error`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Severity {
    /// Reported, but the files are still valid: `check` exits 0 and code is generated.
    Warning,
    /// The files are invalid: `check` exits 1 and nothing is generated.
    Error,
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Severity::Warning => "warning",
            Severity::Error => "error",
        })
    }
}

/// One error or warning, located by a span when it has one (a file that cannot be read has none).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// What is wrong, as printed after `error:` / `warning:` (the location is not part of it).
    pub message: String,
    /// Where: the span gets the caret. `None` only for problems outside any file (a path given on
    /// the command line that does not exist).
    pub span: Option<Span>,
    /// Extra lines printed as `= note: …`.
    pub notes: Vec<String>,
    /// Other places worth showing (`first defined here`).
    pub related: Vec<(Span, String)>,
    /// The path to name when there is no span.
    pub path: Option<String>,
}

impl Diagnostic {
    /// An error at `span`.
    pub fn error(span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(Severity::Error, Some(span), message.into())
    }

    /// A warning at `span`.
    pub fn warning(span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(Severity::Warning, Some(span), message.into())
    }

    /// An error that is not inside a file, about `path`.
    pub fn unlocated(path: impl Into<String>, message: impl Into<String>) -> Diagnostic {
        let mut d = Diagnostic::new(Severity::Error, None, message.into());
        d.path = Some(path.into());
        d
    }

    fn new(severity: Severity, span: Option<Span>, message: String) -> Diagnostic {
        Diagnostic {
            severity,
            message,
            span,
            notes: Vec::new(),
            related: Vec::new(),
            path: None,
        }
    }

    /// Adds a `= note: …` line.
    pub fn with_note(mut self, note: impl Into<String>) -> Diagnostic {
        self.notes.push(note.into());
        self
    }

    /// Adds another place to show, with its label (`first defined here`).
    pub fn with_related(mut self, span: Span, label: impl Into<String>) -> Diagnostic {
        self.related.push((span, label.into()));
        self
    }

    /// True for [`Severity::Error`].
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// `path`, 1-based `line` and `col` of the diagnostic, (path, 0, 0) without a span.
    pub fn location(&self, sources: &SourceMap) -> (String, usize, usize) {
        match self.span {
            Some(span) => {
                let file = sources.get(span.file);
                let (line, col) = file.line_col(span.start as usize);
                (file.path.display().to_string(), line, col)
            }
            None => (self.path.clone().unwrap_or_default(), 0, 0),
        }
    }

    /// The human form: `path:line:col: error: message`, the source line and a caret under the span.
    pub fn render(&self, sources: &SourceMap) -> String {
        let mut out = String::new();
        let (path, line, col) = self.location(sources);
        if self.span.is_some() {
            let _ = writeln!(
                out,
                "{path}:{line}:{col}: {}: {}",
                self.severity, self.message
            );
        } else {
            let _ = writeln!(out, "{path}: {}: {}", self.severity, self.message);
        }
        if let Some(span) = self.span {
            render_snippet(&mut out, sources, span, None);
        }
        for (span, label) in &self.related {
            let (path, line, col) = Diagnostic::error(*span, "").location(sources);
            let _ = writeln!(out, "  --> {path}:{line}:{col}: {label}");
            render_snippet(&mut out, sources, *span, None);
        }
        for note in &self.notes {
            let _ = writeln!(out, "  = note: {note}");
        }
        out
    }

    /// The machine form: one JSON object with `path`, `line`, `col`, `severity`, `message`
    /// (and `notes` when there are any), on one line.
    pub fn to_json(&self, sources: &SourceMap) -> String {
        let (path, line, col) = self.location(sources);
        let mut out = String::with_capacity(64 + path.len() + self.message.len());
        let _ = write!(out, "{{\"col\":{col},\"line\":{line},\"message\":");
        json_string(&mut out, &self.message);
        if !self.notes.is_empty() {
            out.push_str(",\"notes\":[");
            for (i, note) in self.notes.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                json_string(&mut out, note);
            }
            out.push(']');
        }
        out.push_str(",\"path\":");
        json_string(&mut out, &path);
        let _ = write!(out, ",\"severity\":\"{}\"}}", self.severity);
        out
    }

    /// This diagnostic as a [`miette::Report`] carrying its source file, for programs that print
    /// errors with miette's own handlers (feature `miette`).
    #[cfg(feature = "miette")]
    pub fn into_report(self, sources: &SourceMap) -> miette::Report {
        let source = self.span.map(|span| {
            let file = sources.get(span.file);
            miette::NamedSource::new(file.path.display().to_string(), file.text.to_string())
        });
        let report = miette::Report::new(MietteDiagnostic { inner: self });
        match source {
            Some(source) => report.with_source_code(source),
            None => report,
        }
    }
}

fn render_snippet(out: &mut String, sources: &SourceMap, span: Span, label: Option<&str>) {
    let file = sources.get(span.file);
    let (line, col) = file.line_col(span.start as usize);
    let text = file.line_text(line);
    let gutter = line.to_string();
    let pad = " ".repeat(gutter.len());
    // The caret covers the span on its first line, at least one character.
    let line_end_offset = file.text[span.start as usize..]
        .find('\n')
        .map_or(file.text.len(), |i| span.start as usize + i);
    let end = (span.end as usize)
        .min(line_end_offset)
        .max(span.start as usize);
    let width = file.text[span.start as usize..end].chars().count().max(1);
    let prefix: String = text
        .chars()
        .take(col - 1)
        .map(|c| if c == '\t' { '\t' } else { ' ' })
        .collect();
    let _ = writeln!(out, "{pad} |");
    let _ = writeln!(out, "{gutter} | {text}");
    let _ = write!(out, "{pad} | {prefix}{}", "^".repeat(width));
    match label {
        Some(label) => {
            let _ = writeln!(out, " {label}");
        }
        None => out.push('\n'),
    }
}

/// Renders many diagnostics, errors and warnings in the order given.
pub fn render_all(diagnostics: &[Diagnostic], sources: &SourceMap) -> String {
    diagnostics.iter().map(|d| d.render(sources)).collect()
}

#[cfg(feature = "miette")]
#[derive(Debug)]
struct MietteDiagnostic {
    inner: Diagnostic,
}

#[cfg(feature = "miette")]
impl fmt::Display for MietteDiagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.inner.message)
    }
}

#[cfg(feature = "miette")]
impl std::error::Error for MietteDiagnostic {}

#[cfg(feature = "miette")]
impl miette::Diagnostic for MietteDiagnostic {
    fn severity(&self) -> Option<miette::Severity> {
        Some(match self.inner.severity {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
        })
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        if self.inner.notes.is_empty() {
            None
        } else {
            Some(Box::new(self.inner.notes.join("\n")))
        }
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = miette::LabeledSpan> + '_>> {
        let span = self.inner.span?;
        let mut labels = vec![miette::LabeledSpan::new_with_span(None, span.range())];
        // Related spans of the same file can be shown by miette too.
        labels.extend(
            self.inner
                .related
                .iter()
                .filter(|(s, _)| s.file == span.file)
                .map(|(s, label)| {
                    miette::LabeledSpan::new_with_span(Some(label.clone()), s.range())
                }),
        );
        Some(Box::new(labels.into_iter()))
    }
}

/// Appends `text` as a JSON string literal.
fn json_string(out: &mut String, text: &str) {
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if u32::from(c) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
}
