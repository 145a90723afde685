//! A change between two versions, its class, and its rendering as a diagnostic or JSON.

use thrift_idl_parser::{Diagnostic, Program, Span};

/// How a change affects the users of an IDL.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Class {
    /// Neither the wire nor the generated Rust breaks.
    Safe,
    /// The generated Rust changes incompatibly; the wire does not.
    Source,
    /// Old and new peers no longer understand each other.
    Wire,
}

impl Class {
    /// `wire-breaking`, `source-breaking` or `safe`, as printed.
    pub fn as_str(self) -> &'static str {
        match self {
            Class::Wire => "wire-breaking",
            Class::Source => "source-breaking",
            Class::Safe => "safe",
        }
    }
}

/// One difference between the old and the new version.
#[derive(Debug, Clone)]
pub struct Change {
    /// What kind of difference: `field-removed`, `field-type-changed`… (see docs/src/reference/idl-tools.md).
    pub rule: &'static str,
    /// Its effect.
    pub class: Class,
    /// What changed, in words.
    pub message: String,
    /// Where it is in the new version; `None` when the new version has nothing there.
    pub new: Option<Span>,
    /// Where it was in the old version; `None` for an addition.
    pub old: Option<Span>,
}

impl Change {
    /// The change as a diagnostic in the new version's sources: an error when it breaks the
    /// wire, a warning otherwise, with the old location (and source line) as a note. Without
    /// a place in the new version it names `new_root`, the new version's file.
    pub fn diagnostic(&self, old: &Program, new_root: &str) -> Diagnostic {
        let message = format!("{}: {} [{}]", self.class.as_str(), self.message, self.rule);
        let mut d = match (self.new, self.class) {
            (Some(span), Class::Wire) => Diagnostic::error(span, message),
            (Some(span), _) => Diagnostic::warning(span, message),
            (None, class) => {
                let mut d = Diagnostic::unlocated(new_root, message);
                if class != Class::Wire {
                    d.severity = thrift_idl_parser::Severity::Warning;
                }
                d
            }
        };
        if let Some(span) = self.old {
            let file = old.sources.get(span.file);
            let (line, col) = file.line_col(span.start as usize);
            d = d.with_note(format!(
                "was at {}:{line}:{col}: {}",
                file.path.display(),
                file.line_text(line).trim()
            ));
        }
        d
    }

    /// One JSON object on one line: the diagnostic's fields (`path`, `line`, `col`,
    /// `severity`, `message`, `notes`) and `class`, `rule`.
    pub fn to_json(&self, old: &Program, new: &Program, new_root: &str) -> String {
        let json = self.diagnostic(old, new_root).to_json(&new.sources);
        format!(
            "{{\"class\":\"{}\",\"rule\":\"{}\",{}",
            self.class.as_str(),
            self.rule,
            &json[1..]
        )
    }
}
