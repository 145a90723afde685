//! Which definition of the new version an old one became: by name, file place and file name.

use thrift_idl_parser::{DefId, FileId, Program};

pub(super) fn definitions(program: &Program) -> Vec<DefId> {
    program
        .files()
        .flat_map(|f| {
            (0..f.document.definitions.len()).map(move |index| DefId { file: f.id, index })
        })
        .collect()
}

pub(super) fn stem(program: &Program, file: FileId) -> String {
    program
        .sources
        .path(file)
        .file_stem()
        .map_or_else(String::new, |s| s.to_string_lossy().into_owned())
}

/// Where a file is in its version: its path relative to the root file's directory when it is
/// under it (`b.thrift`, `common/b.thrift`), else its path as loaded (from an include
/// directory both versions share).
pub(super) fn place(program: &Program, file: FileId) -> std::path::PathBuf {
    let path = program.sources.path(file);
    let root = program.files().next().and_then(|f| {
        program
            .sources
            .path(f.id)
            .parent()
            .map(std::path::Path::to_path_buf)
    });
    match root.and_then(|root| {
        path.strip_prefix(&root)
            .ok()
            .map(std::path::Path::to_path_buf)
    }) {
        Some(relative) => relative,
        None => path.to_path_buf(),
    }
}

/// The new definition `o` became: the one of the same name in the file at the same place,
/// else in the only file of the same name, else the only one of that name anywhere (moved).
pub(super) fn matching(
    old: &Program,
    o: DefId,
    new: &Program,
    new_defs: &[DefId],
) -> Option<DefId> {
    let name = &old.definition(o).name().name;
    let same_name: Vec<DefId> = new_defs
        .iter()
        .copied()
        .filter(|&n| &new.definition(n).name().name == name)
        .collect();
    let old_place = place(old, o.file);
    let old_stem = stem(old, o.file);
    let same_stem: Vec<DefId> = same_name
        .iter()
        .copied()
        .filter(|&n| stem(new, n.file) == old_stem)
        .collect();
    same_name
        .iter()
        .copied()
        .find(|&n| place(new, n.file) == old_place)
        .or_else(|| (same_stem.len() == 1).then(|| same_stem[0]))
        .or_else(|| (same_name.len() == 1).then(|| same_name[0]))
}
