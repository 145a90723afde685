//! Source files, spans and line/column lookup.

use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Index of a file in a [`SourceMap`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct FileId(pub u32);

/// A byte range in one file. Owned and `Copy`: it does not borrow the source text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Span {
    /// The file the range is in.
    pub file: FileId,
    /// Byte offset of the first byte, from the start of the file.
    pub start: u32,
    /// Byte offset one past the last byte (exclusive end).
    pub end: u32,
}

impl Span {
    /// A span of the bytes `start..end` of `file` (stored as `u32` offsets).
    pub fn new(file: FileId, start: usize, end: usize) -> Span {
        Span {
            file,
            start: start as u32,
            end: end as u32,
        }
    }

    /// The byte range, for slicing the file's text.
    pub fn range(self) -> std::ops::Range<usize> {
        self.start as usize..self.end as usize
    }
}

/// One loaded file: its path as given (used in messages) and its text.
#[derive(Debug)]
pub struct SourceFile {
    /// The path as given (a root) or as found (an include: its directory joined with the written
    /// path), printed in diagnostics.
    pub path: PathBuf,
    /// The whole contents of the file.
    pub text: Arc<str>,
    line_starts: Vec<u32>,
}

impl SourceFile {
    /// A file with `text` as its contents, its line starts indexed for [`SourceFile::line_col`].
    pub fn new(path: PathBuf, text: impl Into<Arc<str>>) -> SourceFile {
        let text: Arc<str> = text.into();
        let mut line_starts = vec![0u32];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i as u32 + 1));
        SourceFile {
            path,
            text,
            line_starts,
        }
    }

    /// 1-based line and column (in characters) of a byte offset.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.text.len());
        let line = self.line_starts.partition_point(|&s| s as usize <= offset) - 1;
        let start = self.line_starts[line] as usize;
        let col = self
            .text
            .get(start..offset)
            .map_or(offset - start, |s| s.chars().count());
        (line + 1, col + 1)
    }

    /// The text of a 1-based line, without its line break.
    pub fn line_text(&self, line: usize) -> &str {
        let start = self.line_starts[line - 1] as usize;
        let end = self
            .line_starts
            .get(line)
            .map_or(self.text.len(), |&e| e as usize);
        self.text[start..end].trim_end_matches(['\n', '\r'])
    }
}

/// Every file read in one run, addressed by [`FileId`].
#[derive(Debug, Default)]
pub struct SourceMap {
    files: Vec<SourceFile>,
}

impl SourceMap {
    /// An empty map.
    pub fn new() -> SourceMap {
        SourceMap::default()
    }

    /// Adds a file and returns its id, the next index in order.
    pub fn add(&mut self, path: PathBuf, text: impl Into<Arc<str>>) -> FileId {
        self.files.push(SourceFile::new(path, text));
        FileId(self.files.len() as u32 - 1)
    }

    /// The file with this id; panics for an id from another map.
    pub fn get(&self, id: FileId) -> &SourceFile {
        &self.files[id.0 as usize]
    }

    /// The path of the file with this id.
    pub fn path(&self, id: FileId) -> &Path {
        &self.get(id).path
    }

    /// How many files were added.
    pub fn len(&self) -> usize {
        self.files.len()
    }

    /// True when no file was added.
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }
}
