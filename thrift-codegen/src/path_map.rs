//! [`PathMap`]: IDL paths with values, and the one rule by which a path selects parts of the
//! program.

/// IDL paths, each with a value, in the order given: how the [`Builder`](crate::Builder)
/// holds every option that names parts of the IDL (`skip_fields`, `boxed`, `type_attribute`,
/// `strings_for`, `extern_path`…; a path alone is a `PathMap<()>`).
///
/// # IDL paths
///
/// A path names a part of the program where the IDL declares it, joined by `.`:
///
/// | path | names |
/// | --- | --- |
/// | `.` (or nothing) | the whole program |
/// | `file` | the IDL files of that name without `.thrift` (`parquet` for `idl/parquet.thrift`; every file so named when several are, as `a/common.thrift` and `b/common.thrift`) |
/// | `file.Definition` | a struct, union, exception, enum, typedef, const or service of it |
/// | `file.Definition.member` | a field of that struct, union or exception (a union's variant), or a function of that service (an inherited one too) |
///
/// A leading `.` changes nothing (`.parquet.Statistics` is `parquet.Statistics`), and a file
/// whose name holds dots is named whole (`shared.types.Id` for `Id` of `shared.types.thrift`).
///
/// **A path selects what it names and everything declared inside it**: `parquet` selects
/// every definition of `parquet.thrift` and every field and function in them,
/// `parquet.Statistics` the struct and its fields, `.` everything. Each option applies to the
/// selected parts of the kinds it takes and to nothing else (`boxed` takes fields whose type
/// is a struct, union or exception; `keep_unknown_fields` structs and exceptions; the kinds
/// are in each option's documentation), so `type_attribute("parquet", …)` adds to every type
/// of `parquet.thrift` and `boxed(["parquet.Statistics"])` boxes those fields of
/// `Statistics` that can be boxed. A path that selects nothing the option takes is an
/// [`Error::Options`](crate::Error::Options) naming the option and the path, as a typo should
/// be; `.` never is one (the whole program holds what it holds).
///
/// Where several paths of one option select the same part, the options that add
/// (`type_attribute` and kin) add in the order the paths were given, and those that choose
/// (`strings_for`, `collections_for`, `extern_path`) take the last.
///
/// Paths name the IDL, not the generated Rust: not the module of a `namespace rs`, not a name
/// given by `rust.name`, and no wildcards (a shorter path selects more).
#[derive(Debug, Clone)]
pub struct PathMap<T> {
    /// (path without a leading `.`, `""` for the whole program; value), in the order given.
    entries: Vec<(String, T)>,
}

impl<T> Default for PathMap<T> {
    fn default() -> PathMap<T> {
        PathMap {
            entries: Vec::new(),
        }
    }
}

impl<T> PathMap<T> {
    /// An empty map.
    pub fn new() -> PathMap<T> {
        PathMap::default()
    }

    /// Adds `path` with `value`, after the entries already there (also when `path` is one of
    /// them: see the type's documentation for which value then counts).
    pub fn insert(&mut self, path: impl Into<String>, value: T) {
        let path: String = path.into();
        let path = match path.strip_prefix('.') {
            Some(rest) => rest.to_string(),
            None => path,
        };
        self.entries.push((path, value));
    }

    /// The entries in the order given: each path (without its leading `.`; `""` for the whole
    /// program) and its value.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &T)> {
        self.entries
            .iter()
            .map(|(path, value)| (path.as_str(), value))
    }

    /// How many entries there are.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether there is no entry.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

impl PathMap<()> {
    /// Adds each of `paths`, without a value.
    pub(crate) fn insert_paths<S: Into<String>>(&mut self, paths: impl IntoIterator<Item = S>) {
        for path in paths {
            self.insert(path, ());
        }
    }
}

/// Whether `path` (as [`PathMap`] holds it: no leading `.`) selects the part of the program
/// whose own path is `item`: its file's name, then the definition's, then the member's.
pub(crate) fn selects(path: &str, item: &[&str]) -> bool {
    if path.is_empty() {
        return true;
    }
    let mut rest = path;
    for segment in item {
        let Some(after) = rest.strip_prefix(segment) else {
            return false;
        };
        if after.is_empty() {
            return true;
        }
        let Some(after) = after.strip_prefix('.') else {
            return false;
        };
        rest = after;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::{PathMap, selects};

    #[test]
    fn a_path_selects_what_it_names_and_what_is_inside() {
        let field = ["parquet", "ColumnChunk", "meta_data"];
        for path in [
            "",
            "parquet",
            "parquet.ColumnChunk",
            "parquet.ColumnChunk.meta_data",
        ] {
            assert!(selects(path, &field), "{path}");
        }
        for path in [
            "parquet.Column",
            "parq",
            "parquet.ColumnChunk.meta",
            "parquet.ColumnChunk.meta_data.x",
            "parquet.ColumnChunk.",
            "ColumnChunk.meta_data",
        ] {
            assert!(!selects(path, &field), "{path}");
        }
        // A file's name with dots is one segment.
        let dotted = ["shared.types", "Id"];
        assert!(selects("shared.types", &dotted) && selects("shared.types.Id", &dotted));
        assert!(!selects("shared", &dotted));
    }

    #[test]
    fn a_leading_dot_changes_nothing() {
        let mut map = PathMap::new();
        map.insert_paths([".", ".parquet.Statistics", "parquet"]);
        let paths: Vec<&str> = map.iter().map(|(path, _)| path).collect();
        assert_eq!(paths, ["", "parquet.Statistics", "parquet"]);
    }
}
