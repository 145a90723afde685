//! "Did you mean …?" for unknown names: the closest name in scope by edit distance.

use crate::ast::Definition;
use crate::program::Program;
use crate::source::FileId;

/// The candidate closest to `name`, when it is close enough to be a typo: at most one edit
/// per three characters (at least one), compared without case.
pub fn closest<'c>(name: &str, candidates: impl IntoIterator<Item = &'c str>) -> Option<&'c str> {
    let limit = (name.chars().count() / 3).max(1);
    let lower = name.to_lowercase();
    candidates
        .into_iter()
        .filter(|c| *c != name)
        .map(|c| (distance(&lower, &c.to_lowercase()), c))
        .filter(|&(d, _)| d <= limit)
        .min_by_key(|&(d, c)| (d, c.len(), c.to_owned()))
        .map(|(_, c)| c)
}

/// Levenshtein distance, in characters.
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut previous = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let substitution = previous + usize::from(ca != *cb);
            previous = row[j + 1];
            row[j + 1] = substitution.min(row[j] + 1).min(row[j + 1] + 1);
        }
    }
    row[b.len()]
}

/// Built-in type words, as a typo of one may be meant.
const TYPE_WORDS: &[&str] = &[
    "bool", "byte", "i8", "i16", "i32", "i64", "double", "string", "binary", "uuid", "list", "set",
    "map",
];

/// The names `file` defines of services (`services`) or of types (everything else but consts).
fn defined_names(program: &Program, file: FileId, services: bool) -> Vec<&str> {
    program.file(file).map_or_else(Vec::new, |f| {
        f.document
            .definitions
            .iter()
            .filter(|d| match d {
                Definition::Const(_) => false,
                Definition::Service(_) => services,
                _ => !services,
            })
            .map(|d| d.name().name.as_str())
            .collect()
    })
}

/// A suggestion for an unknown type (or service) name written in `file`, as a note.
pub fn for_type(program: &Program, file: FileId, name: &str, services: bool) -> Option<String> {
    let parsed = program.file(file)?;
    if let Some((module, rest)) = name.split_once('.') {
        if let Some(include) = parsed.includes.iter().find(|i| i.module == module) {
            let names = defined_names(program, include.file, services);
            return closest(rest, names).map(|n| format!("did you mean `{module}.{n}`?"));
        }
        let modules = parsed.includes.iter().map(|i| i.module.as_str());
        return closest(module, modules).map(|m| format!("did you mean `{m}.{rest}`?"));
    }
    let mut names = defined_names(program, file, services);
    if !services {
        names.extend(TYPE_WORDS);
    }
    closest(name, names).map(|n| format!("did you mean `{n}`?"))
}

/// A suggestion for an unknown const or enum value written in `file`.
pub fn for_value(program: &Program, file: FileId, name: &str) -> Option<String> {
    let parsed = program.file(file)?;
    let mut candidates: Vec<String> = Vec::new();
    let mut add = |prefix: &str, f: FileId| {
        if let Some(there) = program.file(f) {
            for d in &there.document.definitions {
                match d {
                    Definition::Const(c) => candidates.push(format!("{prefix}{}", c.name.name)),
                    Definition::Enum(e) => candidates.extend(
                        e.values
                            .iter()
                            .map(|v| format!("{prefix}{}.{}", e.name.name, v.name.name)),
                    ),
                    _ => {}
                }
            }
        }
    };
    add("", file);
    for include in &parsed.includes {
        add(&format!("{}.", include.module), include.file);
    }
    closest(name, candidates.iter().map(String::as_str)).map(|n| format!("did you mean `{n}`?"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn close_names_only() {
        assert_eq!(closest("Tagg", ["Tag", "Span", "Log"]), Some("Tag"));
        assert_eq!(closest("strng", ["string", "binary"]), Some("string"));
        assert_eq!(closest("Foo", ["Bar", "Baz"]), None);
        assert_eq!(closest("spam", ["Span"]), Some("Span"));
        assert_eq!(distance("kitten", "sitting"), 3);
    }
}
