//! A loaded set of files and name lookup across them.

use crate::ast::{Const, Definition, Document, Enum, EnumValue, Service, Struct, Typedef};
use crate::source::{FileId, SourceMap, Span};

/// One successfully parsed file and the modules it includes.
#[derive(Debug)]
pub struct ParsedFile {
    /// The file's id in [`Program::sources`].
    pub id: FileId,
    /// The parsed syntax tree.
    pub document: Document,
    /// The includes that were found and read, in header order (an include that closes a cycle is
    /// reported and left out).
    pub includes: Vec<IncludedModule>,
    /// Module names of the includes that could not be found or read (already reported):
    /// references through them are not reported again.
    pub missing_includes: Vec<String>,
}

/// `include "path/name.thrift"`: definitions of that file are referenced as `name.Foo`.
#[derive(Debug, Clone)]
pub struct IncludedModule {
    /// The module name: the included file's name up to its last dot (`shared` for
    /// `include "dir/shared.thrift"`).
    pub module: String,
    /// The included file.
    pub file: FileId,
    /// The `include` header in the including file.
    pub span: Span,
}

/// Where a definition lives: its file and its index among the file's definitions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct DefId {
    /// The file that defines it.
    pub file: FileId,
    /// Index into that file's [`Document::definitions`](crate::ast::Document::definitions).
    pub index: usize,
}

/// What a const-value identifier refers to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ConstRef {
    /// A `const` definition.
    Const(DefId),
    /// An enum (by its definition) and the index of the value in it.
    EnumValue(DefId, usize),
}

/// Every file loaded in one run, with the files named on the command line as roots.
#[derive(Debug)]
pub struct Program {
    /// Every file read, by [`FileId`]: paths and texts for rendering diagnostics.
    pub sources: SourceMap,
    files: Vec<Option<ParsedFile>>,
    /// The files given to [`Loader::load`](crate::Loader::load) (on the command line) that could
    /// be read, in the order given.
    pub roots: Vec<FileId>,
}

impl Program {
    pub(crate) fn new(
        sources: SourceMap,
        files: Vec<Option<ParsedFile>>,
        roots: Vec<FileId>,
    ) -> Program {
        Program {
            sources,
            files,
            roots,
        }
    }

    /// The parsed file, or `None` when it had a syntax error.
    pub fn file(&self, id: FileId) -> Option<&ParsedFile> {
        self.files.get(id.0 as usize)?.as_ref()
    }

    /// Every parsed file, in load order (a file comes after the files it includes are started,
    /// roots in the order given).
    pub fn files(&self) -> impl Iterator<Item = &ParsedFile> {
        self.files.iter().flatten()
    }

    /// The definition `id` names; panics if `id` points into a file that did not parse.
    pub fn definition(&self, id: DefId) -> &Definition {
        &self
            .file(id.file)
            .expect("DefId points into a parsed file")
            .document
            .definitions[id.index]
    }

    /// True when `file` includes a module called `module` that failed to parse (lookups into it
    /// should stay silent: the syntax error was already reported).
    pub fn module_failed(&self, file: FileId, module: &str) -> bool {
        self.file(file).is_some_and(|f| {
            f.missing_includes.iter().any(|m| m == module)
                || f.includes
                    .iter()
                    .any(|i| i.module == module && self.file(i.file).is_none())
        })
    }

    /// The places `name` may be defined, as seen from `from`: the file itself with the whole
    /// name, then every included file whose module name is a dotted prefix of `name` (two
    /// includes may share a module name, and module names may contain dots:
    /// `include "a.b.thrift"` is module `a.b`), with the rest of the name.
    fn candidates<'n>(&self, from: FileId, name: &'n str) -> Vec<(FileId, &'n str)> {
        let mut out = vec![(from, name)];
        if let Some(file) = self.file(from) {
            for (dot, _) in name.match_indices('.') {
                let (module, rest) = (&name[..dot], &name[dot + 1..]);
                out.extend(
                    file.includes
                        .iter()
                        .filter(|i| i.module == module)
                        .map(|i| (i.file, rest)),
                );
            }
        }
        out
    }

    fn local(&self, file: FileId, name: &str, want: impl Fn(&Definition) -> bool) -> Option<DefId> {
        let parsed = self.file(file)?;
        parsed
            .document
            .definitions
            .iter()
            .position(|d| d.name().name == name && want(d))
            .map(|index| DefId { file, index })
    }

    /// Looks up a type or service name (`Foo`, `module.Foo`) as seen from `from`.
    pub fn lookup_type(&self, from: FileId, name: &str) -> Option<DefId> {
        self.candidates(from, name)
            .into_iter()
            .find_map(|(file, local)| {
                self.local(file, local, |d| !matches!(d, Definition::Const(_)))
            })
    }

    /// Looks up a const-value identifier: `CONST`, `Enum.VALUE`, `module.CONST`,
    /// `module.Enum.VALUE`, as seen from `from`. A local definition wins over a module of the
    /// same name, as in Apache's scope.
    pub fn lookup_const(&self, from: FileId, name: &str) -> Option<ConstRef> {
        let try_in = |file: FileId, local: &str| -> Option<ConstRef> {
            if let Some(id) = self.local(file, local, |d| matches!(d, Definition::Const(_))) {
                return Some(ConstRef::Const(id));
            }
            let (enum_name, value) = local.split_once('.')?;
            let id = self.local(file, enum_name, |d| matches!(d, Definition::Enum(_)))?;
            let Definition::Enum(e) = self.definition(id) else {
                return None;
            };
            e.values
                .iter()
                .position(|v| v.name.name == value)
                .map(|i| ConstRef::EnumValue(id, i))
        };
        self.candidates(from, name)
            .into_iter()
            .find_map(|(file, local)| try_in(file, local))
    }

    /// The definition if it is a `struct`, `union` or `exception`.
    pub fn as_struct(&self, id: DefId) -> Option<&Struct> {
        match self.definition(id) {
            Definition::Struct(s) => Some(s),
            _ => None,
        }
    }

    /// The definition if it is an `enum`.
    pub fn as_enum(&self, id: DefId) -> Option<&Enum> {
        match self.definition(id) {
            Definition::Enum(e) => Some(e),
            _ => None,
        }
    }

    /// The definition if it is a `typedef`.
    pub fn as_typedef(&self, id: DefId) -> Option<&Typedef> {
        match self.definition(id) {
            Definition::Typedef(t) => Some(t),
            _ => None,
        }
    }

    /// The service that the service `s`, defined at `id`, extends, when it names one.
    pub fn parent_service(&self, id: DefId, s: &Service) -> Option<(DefId, &Service)> {
        let parent = self.lookup_type(id.file, &s.extends.as_ref()?.name)?;
        Some((parent, self.as_service(parent)?))
    }

    /// The parsed files whose name without `.thrift` is `stem`: the first segment of the IDL
    /// paths that options and tools take (`parquet.FileMetaData`).
    pub fn files_named<'a>(&'a self, stem: &'a str) -> impl Iterator<Item = &'a ParsedFile> + 'a {
        self.files().filter(move |f| {
            self.sources.path(f.id).file_stem() == Some(std::ffi::OsStr::new(stem))
        })
    }

    /// The definition if it is a `service`.
    pub fn as_service(&self, id: DefId) -> Option<&Service> {
        match self.definition(id) {
            Definition::Service(s) => Some(s),
            _ => None,
        }
    }

    /// The definition if it is a `const`.
    pub fn as_const(&self, id: DefId) -> Option<&Const> {
        match self.definition(id) {
            Definition::Const(c) => Some(c),
            _ => None,
        }
    }

    /// The `index`th value of the enum `id`; `None` if `id` is not an enum or the index is out of
    /// range.
    pub fn enum_value(&self, id: DefId, index: usize) -> Option<&EnumValue> {
        self.as_enum(id)?.values.get(index)
    }
}
