//! A parser for Apache Thrift IDL: a pest grammar lowered into a typed AST with spans,
//! include resolution, semantic checks, and located diagnostics.
//!
//! ```no_run
//! let mut loader = thrift_idl_parser::Loader::new();
//! loader.include_dir("idl");
//! let checked = thrift_idl_parser::check_files(&loader, &["idl/service.thrift"]);
//! eprint!("{}", checked.render_diagnostics());
//! if checked.has_errors() {
//!     std::process::exit(1);
//! }
//! ```
//!
//! The pipeline is `syntax` (text → [`ast::Document`]), `resolve` (includes → [`Program`]) and
//! `check` (semantic rules → [`Diagnostic`]s). Nothing panics on bad input: every problem is a
//! diagnostic located by a [`Span`].

#![deny(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

// The checked-in pest parser (`syntax/grammar.rs`) names `::alloc`.
extern crate alloc;

pub mod ast;
pub mod check;
pub mod diagnostic;
pub mod format;
pub mod program;
pub mod resolve;
pub mod source;
pub mod syntax;

pub use diagnostic::{Diagnostic, Severity};
pub use program::{ConstRef, DefId, Program};
pub use resolve::Loader;
pub use source::{FileId, SourceMap, Span};

/// The result of loading and checking files: the program and every diagnostic, warnings too.
#[derive(Debug)]
pub struct Checked {
    /// Every file loaded, parsed or not; lookups go through it ([`Program::lookup_type`]…).
    pub program: Program,
    /// Syntax, include and semantic errors and warnings, file by file in source order (unlocated
    /// ones first).
    pub diagnostics: Vec<Diagnostic>,
}

impl Checked {
    /// True when any diagnostic is an error: the files are not valid Thrift.
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }

    /// The diagnostics that are errors, in order.
    pub fn errors(&self) -> impl Iterator<Item = &Diagnostic> {
        self.diagnostics.iter().filter(|d| d.is_error())
    }

    /// Every diagnostic in the human form (`path:line:col: error: …` with source and caret).
    pub fn render_diagnostics(&self) -> String {
        diagnostic::render_all(&self.diagnostics, &self.program.sources)
    }

    /// Every diagnostic as one JSON object per line.
    pub fn diagnostics_json(&self) -> String {
        self.diagnostics
            .iter()
            .map(|d| d.to_json(&self.program.sources) + "\n")
            .collect()
    }
}

/// Loads `roots` with their includes and runs every semantic check.
pub fn check_files<P: AsRef<std::path::Path>>(loader: &Loader, roots: &[P]) -> Checked {
    let (program, mut diagnostics) = loader.load(roots);
    diagnostics.extend(check::check_program(&program));
    // Reading order: file by file, then by position (unlocated problems first).
    diagnostics.sort_by_key(|d| d.span.map(|s| (s.file, s.start)));
    Checked {
        program,
        diagnostics,
    }
}

/// The crate's README, whose examples are compiled as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
