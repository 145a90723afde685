//! Loading a set of IDL files with their includes: each include is looked up next to the
//! including file, then in each include dir in order; every file is parsed once; include cycles
//! and missing includes are located errors.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::ast::{Document, Header};
use crate::diagnostic::Diagnostic;
use crate::program::{IncludedModule, ParsedFile, Program};
use crate::source::{FileId, SourceMap, Span};
use crate::syntax::{MAX_NESTING, parse_document_nesting};

/// Reads IDL files and everything they include.
#[derive(Debug, Clone)]
pub struct Loader {
    include_dirs: Vec<PathBuf>,
    max_nesting: usize,
}

impl Default for Loader {
    fn default() -> Loader {
        Loader {
            include_dirs: Vec::new(),
            max_nesting: MAX_NESTING,
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    Loading,
    Done,
}

struct Run<'a> {
    loader: &'a Loader,
    sources: SourceMap,
    files: Vec<Option<ParsedFile>>,
    by_path: HashMap<PathBuf, (FileId, State)>,
    /// The chain of files being loaded, for cycle messages.
    stack: Vec<FileId>,
    diagnostics: Vec<Diagnostic>,
}

impl Loader {
    /// A loader without include dirs: includes are looked up next to the including file only.
    pub fn new() -> Loader {
        Loader::default()
    }

    /// Adds a directory searched for includes that are not found next to the including file.
    pub fn include_dir(&mut self, dir: impl Into<PathBuf>) -> &mut Loader {
        self.include_dirs.push(dir.into());
        self
    }

    /// How deeply brackets may nest in a file (default and most:
    /// [`MAX_NESTING`], 64; a larger value counts as that). Deeper
    /// nesting is a located error. For programs that check IDL from others and want a lower
    /// bound.
    pub fn max_nesting(&mut self, levels: usize) -> &mut Loader {
        self.max_nesting = levels.min(MAX_NESTING);
        self
    }

    /// The include dirs, in search order.
    pub fn include_dirs(&self) -> &[PathBuf] {
        &self.include_dirs
    }

    /// Loads `roots` and their includes. Every file is parsed, even after errors, so that one
    /// run reports everything; the diagnostics hold the syntax and include errors.
    pub fn load<P: AsRef<Path>>(&self, roots: &[P]) -> (Program, Vec<Diagnostic>) {
        let mut run = Run {
            loader: self,
            sources: SourceMap::new(),
            files: Vec::new(),
            by_path: HashMap::new(),
            stack: Vec::new(),
            diagnostics: Vec::new(),
        };
        let mut root_ids = Vec::new();
        for root in roots {
            let root = root.as_ref();
            match std::fs::read_to_string(root) {
                Ok(text) => root_ids.push(run.load_file(root.to_path_buf(), text)),
                Err(e) => run.diagnostics.push(Diagnostic::unlocated(
                    root.display().to_string(),
                    format!("cannot read file: {e}"),
                )),
            }
        }
        (
            Program::new(run.sources, run.files, root_ids),
            run.diagnostics,
        )
    }
}

impl Run<'_> {
    fn load_file(&mut self, path: PathBuf, text: String) -> FileId {
        let key = canonical(&path);
        if let Some(&(id, _)) = self.by_path.get(&key) {
            return id;
        }
        let id = self.sources.add(path.clone(), text);
        self.files.push(None);
        self.by_path.insert(key.clone(), (id, State::Loading));
        self.stack.push(id);

        let text = self.sources.get(id).text.clone();
        let (document, diagnostics) = parse_document_nesting(id, &text, self.loader.max_nesting);
        self.diagnostics.extend(diagnostics);
        if let Some(document) = document {
            let (includes, missing_includes) = self.load_includes(&path, &document);
            self.files[id.0 as usize] = Some(ParsedFile {
                id,
                document,
                includes,
                missing_includes,
            });
        }

        self.stack.pop();
        self.by_path.insert(key, (id, State::Done));
        id
    }

    /// Loads the includes of a file: the modules found, and the names of those not found or
    /// not readable (reported here).
    fn load_includes(
        &mut self,
        path: &Path,
        document: &Document,
    ) -> (Vec<IncludedModule>, Vec<String>) {
        let mut includes = Vec::new();
        let mut missing = Vec::new();
        for header in &document.headers {
            let Header::Include(include) = header else {
                continue;
            };
            let written = &include.path.value;
            let Some(found) = self.find(path, written) else {
                missing.push(module_name(written));
                let dir = dir_of(path).display().to_string();
                let mut searched = vec![if dir.is_empty() { ".".to_string() } else { dir }];
                searched.extend(
                    self.loader
                        .include_dirs
                        .iter()
                        .map(|d| d.display().to_string()),
                );
                self.diagnostics.push(
                    Diagnostic::error(
                        include.path.span,
                        format!("cannot find included file `{written}`"),
                    )
                    .with_note(format!("searched in: {}", searched.join(", "))),
                );
                continue;
            };
            let key = canonical(&found);
            let file = match self.by_path.get(&key) {
                Some(&(id, State::Loading)) => {
                    self.report_cycle(include.span, id);
                    continue;
                }
                Some(&(id, State::Done)) => id,
                None => match std::fs::read_to_string(&found) {
                    Ok(text) => self.load_file(found, text),
                    Err(e) => {
                        missing.push(module_name(written));
                        self.diagnostics.push(Diagnostic::error(
                            include.path.span,
                            format!("cannot read included file `{}`: {e}", found.display()),
                        ));
                        continue;
                    }
                },
            };
            includes.push(IncludedModule {
                module: module_name(written),
                file,
                span: include.span,
            });
        }
        (includes, missing)
    }

    fn find(&self, including: &Path, written: &str) -> Option<PathBuf> {
        let next_to = dir_of(including).join(written);
        if next_to.is_file() {
            return Some(next_to);
        }
        self.loader
            .include_dirs
            .iter()
            .map(|dir| dir.join(written))
            .find(|p| p.is_file())
    }

    fn report_cycle(&mut self, at: Span, target: FileId) {
        let start = self.stack.iter().position(|&f| f == target).unwrap_or(0);
        let mut chain: Vec<String> = self.stack[start..]
            .iter()
            .map(|&f| self.sources.path(f).display().to_string())
            .collect();
        chain.push(self.sources.path(target).display().to_string());
        self.diagnostics.push(
            Diagnostic::error(at, "include cycle")
                .with_note(format!("the chain is: {}", chain.join(" -> "))),
        );
    }
}

fn dir_of(path: &Path) -> &Path {
    path.parent().unwrap_or(Path::new("."))
}

fn canonical(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

/// The name under which an include's definitions are referenced: the file name up to its last
/// dot, as Apache Thrift names programs (`include "a/b.thrift"` → `b`).
pub fn module_name(include_path: &str) -> String {
    let file = include_path
        .rsplit(['/', '\\'])
        .next()
        .unwrap_or(include_path);
    file.rsplit_once('.')
        .map_or(file, |(stem, _)| stem)
        .to_string()
}
