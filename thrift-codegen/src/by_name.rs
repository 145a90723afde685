//! The `Builder`'s options by name: [`OPTIONS`], one row per option with what it takes, and
//! [`Builder::set`], which calls an option's method with its values written as text.
//!
//! The table is the one place that lists the options outside `Builder` itself: the command
//! line derives a flag from each row (`cli::BuilderFlags`), and the golden tests' `.options`
//! files reach the options through `Builder::set`. The command line is derived rather than
//! kept beside the `Builder` and checked against it, because a derived flag cannot go
//! missing or drift from the option (its parsing, its order among the other flags): only the
//! table must follow the `Builder`, and the test at the end of this file fails when a `Builder`
//! method has no row.

use crate::builder::Builder;
use crate::error::Error;
use crate::options::{Collections, Strings};

/// What an option takes, as text: the arguments of [`Builder::set`], and the shape of its
/// command-line flag.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Takes {
    /// `true` or `false`. Its flag takes no value and sets the one that is not the default:
    /// `--serde`, `--no-services`.
    Switch { default: bool },
    /// One value named `name` (a word of `choices`, when there are any): `--hasher PATH`.
    Value {
        name: &'static str,
        choices: &'static [&'static str],
    },
    /// [IDL paths](crate::PathMap#idl-paths), any number; a flag each: `--boxed a.B.c`.
    Paths,
    /// An IDL path (or a file's name) and a value (a word of `choices`, when there are any):
    /// two arguments to `set`, one flag value `name` joined by `=`: `--strings-for a.B=bytes`.
    PathAnd {
        name: &'static str,
        choices: &'static [&'static str],
    },
}

/// One option of the `Builder`.
// The flag, its help and its conflicts are read by the command line alone.
#[cfg_attr(not(feature = "cli"), allow(dead_code))]
pub(crate) struct NamedOption {
    /// The `Builder` method, and the option's name for [`Builder::set`].
    pub name: &'static str,
    pub takes: Takes,
    /// The flag of `thrift-codegen generate` (without `--`): the name in kebab case
    /// (`no-` before it for a switch that is on by default). `None` for where `compile` writes
    /// (`out_dir`, `include_file`, `emit_rerun_if_changed`): `generate` writes where `-o`
    /// says, a `mod.rs` and no `cargo:` lines.
    pub flag: Option<&'static str>,
    /// The flag's one-letter form.
    pub short: Option<char>,
    /// The options whose flags undo this one's (`--no-borrowed` and `--arena`): the command
    /// line refuses them together.
    pub conflicts: &'static [&'static str],
    /// One line of `--help`.
    pub help: &'static str,
    /// Calls the method with the arguments, checked against `takes` but for the words of a
    /// choice.
    call: for<'b> fn(&'b mut Builder, &[&str]) -> Result<&'b mut Builder, String>,
}

/// What most rows leave as it is: no short flag, no conflicts.
const ROW: NamedOption = NamedOption {
    name: "",
    takes: Takes::Paths,
    flag: None,
    short: None,
    conflicts: &[],
    help: "",
    call: |b, _| Ok(b),
};

/// How the attribute options take their values: a path and an attribute.
const PATH_AND_ATTRIBUTE: Takes = path_and("PATH=ATTR", &[]);

/// One value, named `name` in `--help`, one of `choices` when there are any.
const fn value(name: &'static str, choices: &'static [&'static str]) -> Takes {
    Takes::Value { name, choices }
}

/// Paths each with a value (`PATH=VALUE`), the value one of `choices` when there are any.
const fn path_and(name: &'static str, choices: &'static [&'static str]) -> Takes {
    Takes::PathAnd { name, choices }
}

/// Every option of the `Builder`, in the order `--help` lists them.
pub(crate) const OPTIONS: &[NamedOption] = &[
    NamedOption {
        name: "include_dir",
        takes: value("DIR", &[]),
        flag: Some("include-dir"),
        short: Some('I'),
        help: "Directory searched for includes not found next to the including file (repeatable, searched in order)",
        call: |b, v| Ok(b.include_dir(v[0])),
        ..ROW
    },
    NamedOption {
        name: "out_dir",
        takes: value("DIR", &[]),
        flag: None,
        help: "Where `compile` writes (default: $OUT_DIR)",
        call: |b, v| Ok(b.out_dir(v[0])),
        ..ROW
    },
    NamedOption {
        name: "include_file",
        takes: value("NAME", &[]),
        flag: None,
        help: "The include file `compile` writes (default: thrift.rs)",
        call: |b, v| Ok(b.include_file(v[0])),
        ..ROW
    },
    NamedOption {
        name: "emit_rerun_if_changed",
        takes: Takes::Switch { default: true },
        flag: None,
        help: "Whether `compile` prints `cargo:rerun-if-changed` lines",
        call: |b, v| Ok(b.emit_rerun_if_changed(v[0] == "true")),
        ..ROW
    },
    NamedOption {
        name: "runtime_path",
        takes: value("PATH", &[]),
        flag: Some("runtime-path"),
        help: "Path of the runtime crate in generated code (default: ::thrift_runtime)",
        call: |b, v| Ok(b.runtime_path(v[0])),
        ..ROW
    },
    NamedOption {
        name: "collections",
        takes: value("COLLECTIONS", Collections::NAMES),
        flag: Some("collections"),
        help: "How sets and maps are represented: `btree` (BTreeSet/BTreeMap, the default: deterministic encoding) or `hash` (HashSet/HashMap: one allocation per decoded set or map)",
        call: |b, v| Ok(b.collections(collections(v[0])?)),
        ..ROW
    },
    NamedOption {
        name: "hasher",
        takes: value("PATH", &[]),
        flag: Some("hasher"),
        help: "With `--collections hash`: the hasher of the sets and maps, a `BuildHasher + Default + Clone` type such as `::foldhash::fast::RandomState` (default: std's RandomState, SipHash)",
        call: |b, v| Ok(b.hasher(v[0])),
        ..ROW
    },
    NamedOption {
        name: "strings",
        takes: value("STRINGS", Strings::NAMES),
        flag: Some("strings"),
        help: "How strings and binaries are represented: `std` (String/Vec<u8>, the default), `bytes` (thrift_runtime::ByteString/Bytes, slices of the input when decoding from a Bytes) or `compact` (thrift_runtime::CompactString, inline up to 24 bytes, the runtime's `compact_str` feature; binaries as Bytes)",
        call: |b, v| Ok(b.strings(strings(v[0])?)),
        ..ROW
    },
    NamedOption {
        name: "services",
        takes: Takes::Switch { default: true },
        flag: Some("no-services"),
        help: "Generate nothing for `service`s (types only: no args/result structs, handler traits, clients or processors)",
        call: |b, v| Ok(b.services(v[0] == "true")),
        ..ROW
    },
    NamedOption {
        name: "borrowed",
        takes: Takes::Switch { default: true },
        flag: Some("no-borrowed"),
        conflicts: &["arena", "borrowed_types"],
        help: "Generate no borrowing forms (`FooRef<'de>`, decoded without copying strings): about half of the output",
        call: |b, v| Ok(b.borrowed(v[0] == "true")),
        ..ROW
    },
    NamedOption {
        name: "arena",
        takes: Takes::Switch { default: false },
        flag: Some("arena"),
        help: "Borrowing forms hold their lists, sets, maps and optional structs in an arena (`FooRef::decode_in`; the runtime's `arena` feature)",
        call: |b, v| Ok(b.arena(v[0] == "true")),
        ..ROW
    },
    NamedOption {
        name: "arena_inline",
        takes: Takes::Paths,
        flag: Some("arena-inline"),
        help: "With `--arena`: hold the optional struct fields under PATH inline instead of as references into the arena, e.g. `parquet.ColumnChunk.meta_data`",
        call: |b, v| Ok(b.arena_inline(v.iter().copied())),
        ..ROW
    },
    NamedOption {
        name: "borrowed_types",
        takes: Takes::Paths,
        flag: Some("borrowed-types"),
        help: "Generate borrowing forms only for the structs under PATH and the types they hold, e.g. `parquet.FileMetaData`",
        call: |b, v| Ok(b.borrowed_types(v.iter().copied())),
        ..ROW
    },
    NamedOption {
        name: "skip_fields",
        takes: Takes::Paths,
        flag: Some("skip-fields"),
        help: "Read past the fields under PATH when decoding instead of into the value (they keep their defaults), e.g. `parquet.ColumnMetaData.statistics`",
        call: |b, v| Ok(b.skip_fields(v.iter().copied())),
        ..ROW
    },
    NamedOption {
        name: "only",
        takes: Takes::Paths,
        flag: Some("only"),
        help: "Generate only the definitions and service functions under PATH (`file.Type`, `file.Service`, `file.Service.function`) and what they reach, nothing else",
        call: |b, v| Ok(b.only(v.iter().copied())),
        ..ROW
    },
    NamedOption {
        name: "type_attribute",
        takes: PATH_AND_ATTRIBUTE,
        flag: Some("type-attribute"),
        help: "Add attributes to the types under PATH, e.g. `.=#[derive(serde::Serialize)]` or `tutorial.Place=#[non_exhaustive]`",
        call: |b, v| Ok(b.type_attribute(v[0], v[1])),
        ..ROW
    },
    NamedOption {
        name: "ref_type_attribute",
        takes: PATH_AND_ATTRIBUTE,
        flag: Some("ref-type-attribute"),
        help: "`--type-attribute` for the borrowing forms (`FooRef<'de>`)",
        call: |b, v| Ok(b.ref_type_attribute(v[0], v[1])),
        ..ROW
    },
    NamedOption {
        name: "field_attribute",
        takes: PATH_AND_ATTRIBUTE,
        flag: Some("field-attribute"),
        help: "Add attributes to the fields under PATH, e.g. `tutorial.Place.name=#[serde(rename = \"title\")]`",
        call: |b, v| Ok(b.field_attribute(v[0], v[1])),
        ..ROW
    },
    NamedOption {
        name: "ref_field_attribute",
        takes: PATH_AND_ATTRIBUTE,
        flag: Some("ref-field-attribute"),
        help: "`--field-attribute` for the fields of the borrowing forms",
        call: |b, v| Ok(b.ref_field_attribute(v[0], v[1])),
        ..ROW
    },
    NamedOption {
        name: "extern_path",
        takes: path_and("FILE=RUST_PATH", &[]),
        flag: Some("extern-path"),
        help: "Take the types of an included file from another crate's module instead of generating them, e.g. `common=::common_types::common`",
        call: |b, v| Ok(b.extern_path(v[0], v[1])),
        ..ROW
    },
    NamedOption {
        name: "boxed",
        takes: Takes::Paths,
        flag: Some("boxed"),
        help: "Hold the struct-, union- or exception-typed fields under PATH as `Box<T>`, e.g. `parquet.ColumnChunk.crypto_metadata`",
        call: |b, v| Ok(b.boxed(v.iter().copied())),
        ..ROW
    },
    NamedOption {
        name: "strings_for",
        takes: path_and("PATH=STRINGS", Strings::NAMES),
        flag: Some("strings-for"),
        help: "Map the strings and binaries of the fields under PATH otherwise, e.g. `storage.Blob.data=bytes`",
        call: |b, v| Ok(b.strings_for(v[0], strings(v[1])?)),
        ..ROW
    },
    NamedOption {
        name: "collections_for",
        takes: path_and("PATH=COLLECTIONS", Collections::NAMES),
        flag: Some("collections-for"),
        help: "Map the sets and maps of the fields under PATH otherwise, e.g. `storage.Index=hash`",
        call: |b, v| Ok(b.collections_for(v[0], collections(v[1])?)),
        ..ROW
    },
    NamedOption {
        name: "serde",
        takes: Takes::Switch { default: false },
        flag: Some("serde"),
        help: "Derive serde's Serialize and Deserialize for the generated types (the runtime's `serde` feature)",
        call: |b, v| Ok(b.serde(v[0] == "true")),
        ..ROW
    },
    NamedOption {
        name: "keep_unknown_fields",
        takes: Takes::Paths,
        flag: Some("keep-unknown-fields"),
        help: "Keep the fields the IDL does not declare in the structs and exceptions under PATH (`.` for all) and write them back on encode",
        call: |b, v| Ok(b.keep_unknown_fields(v.iter().copied())),
        ..ROW
    },
];

fn strings(name: &str) -> Result<Strings, String> {
    Strings::from_name(name).ok_or_else(|| not_one_of(name, Strings::NAMES))
}

fn collections(name: &str) -> Result<Collections, String> {
    Collections::from_name(name).ok_or_else(|| not_one_of(name, Collections::NAMES))
}

fn not_one_of(name: &str, choices: &[&str]) -> String {
    format!("`{name}` is not one of {}", choices.join(", "))
}

/// ` (one of a, b)` for a choice, nothing for a free value.
fn one_of(choices: &[&str]) -> String {
    if choices.is_empty() {
        String::new()
    } else {
        format!(" (one of {})", choices.join(", "))
    }
}

/// The option named `name`.
pub(crate) fn option(name: &str) -> Option<&'static NamedOption> {
    OPTIONS.iter().find(|option| option.name == name)
}

impl Takes {
    /// Whether `values` are arguments of this shape (choices aside).
    fn accepts(self, values: &[&str]) -> bool {
        match self {
            Takes::Switch { .. } => matches!(values, ["true" | "false"]),
            Takes::Value { .. } => values.len() == 1,
            Takes::Paths => true,
            Takes::PathAnd { .. } => values.len() == 2,
        }
    }

    /// What this shape takes, for messages.
    fn describe(self) -> String {
        match self {
            Takes::Switch { default } => format!("`true` or `false` (default `{default}`)"),
            Takes::Value { name, choices } => format!("one value, {name}{}", one_of(choices)),
            Takes::Paths => "IDL paths".into(),
            Takes::PathAnd { name, choices } => {
                let (left, right) = name.split_once('=').unwrap_or((name, "VALUE"));
                format!("two values, {left} and {right}{}", one_of(choices))
            }
        }
    }
}

impl Builder {
    /// Calls the option method `name` with `values` written as text, as the command line
    /// gives them: a switch `"true"` or `"false"` (`set("serde", &["true"])`), a choice by
    /// its name (`set("strings", &["bytes"])`), IDL paths (`set("boxed", &["a.B.c",
    /// "a.B.d"])`), a path and a value (`set("strings_for", &["a.B", "bytes"])`,
    /// `set("type_attribute", &[".", "#[non_exhaustive]"])`). A name that is no option, or
    /// values that do not fit it, are an [`Error::Options`].
    ///
    /// ```
    /// let mut builder = thrift_codegen::Builder::new();
    /// builder
    ///     .set("collections", &["hash"])?
    ///     .set("collections_for", &["storage.Log", "btree"])?;
    /// # Ok::<(), thrift_codegen::Error>(())
    /// ```
    pub fn set(&mut self, name: &str, values: &[&str]) -> Result<&mut Builder, Error> {
        let option = option(name).ok_or_else(|| {
            let names: Vec<&str> = OPTIONS.iter().map(|option| option.name).collect();
            Error::Options(format!(
                "`{name}` is no option of the Builder (they are {})",
                names.join(", ")
            ))
        })?;
        if !option.takes.accepts(values) {
            return Err(Error::Options(format!(
                "{name} takes {}, not {values:?}",
                option.takes.describe()
            )));
        }
        (option.call)(self, values).map_err(|why| Error::Options(format!("{name}: {why}")))
    }
}

#[cfg(test)]
mod tests {
    use super::{OPTIONS, Takes};

    /// The `Builder` methods that set an option: public, taking `&mut self` and giving
    /// `&mut Builder` back.
    fn builder_methods() -> Vec<String> {
        let file = syn::parse_file(include_str!("builder.rs")).expect("builder.rs parses");
        let mut methods = Vec::new();
        for item in file.items {
            let syn::Item::Impl(block) = item else {
                continue;
            };
            for item in block.items {
                let syn::ImplItem::Fn(method) = item else {
                    continue;
                };
                let public = matches!(method.vis, syn::Visibility::Public(_));
                let by_mut_self = matches!(
                    method.sig.inputs.first(),
                    Some(syn::FnArg::Receiver(receiver)) if receiver.mutability.is_some()
                );
                let output = &method.sig.output;
                let gives_builder = quote::quote!(#output).to_string() == "-> & mut Builder";
                if public && by_mut_self && gives_builder {
                    methods.push(method.sig.ident.to_string());
                }
            }
        }
        methods
    }

    /// Every option of the `Builder` has a row, and so a name for `Builder::set` and a flag
    /// (but where `compile` writes): a new `Builder` method without one fails here.
    #[test]
    fn every_builder_option_has_a_row() {
        let methods = builder_methods();
        assert!(methods.len() > 20, "{methods:?}");
        let mut rows: Vec<&str> = OPTIONS.iter().map(|option| option.name).collect();
        for method in &methods {
            assert!(
                rows.contains(&method.as_str()),
                "Builder::{method} has no row in by_name::OPTIONS (and so no flag)"
            );
        }
        rows.retain(|row| !methods.iter().any(|method| method == row));
        assert!(rows.is_empty(), "rows without a Builder method: {rows:?}");
    }

    /// Every flag is its option's name in kebab case, `no-` before a switch that is on by
    /// default; only where `compile` writes has none.
    #[test]
    fn flags_are_the_names_in_kebab_case() {
        for option in OPTIONS {
            let kebab = option.name.replace('_', "-");
            let expected = match option.takes {
                _ if ["out_dir", "include_file", "emit_rerun_if_changed"]
                    .contains(&option.name) =>
                {
                    None
                }
                Takes::Switch { default: true } => Some(format!("no-{kebab}")),
                _ => Some(kebab),
            };
            assert_eq!(option.flag.map(String::from), expected, "{}", option.name);
        }
    }

    /// `set` reaches every option, and refuses what does not fit.
    #[test]
    fn set_calls_the_option_and_checks_its_values() {
        let mut builder = crate::Builder::new();
        for option in OPTIONS {
            let values: &[&str] = match option.takes {
                Takes::Switch { default } => &[if default { "false" } else { "true" }],
                Takes::Value { choices, .. } => &[choices.first().copied().unwrap_or("x")],
                Takes::Paths => &["a.B.c", "a.B.d"],
                Takes::PathAnd { choices, .. } => {
                    &["a.B", choices.first().copied().unwrap_or("#[x]")]
                }
            };
            builder.set(option.name, values).unwrap();
        }
        for (name, values, why) in [
            ("nope", &["x"][..], "is no option"),
            ("serde", &["yes"][..], "serde takes `true` or `false`"),
            (
                "strings",
                &["huge"][..],
                "strings: `huge` is not one of std, bytes, compact",
            ),
            (
                "strings_for",
                &["a.B"][..],
                "strings_for takes two values, PATH and STRINGS",
            ),
        ] {
            let error = builder
                .set(name, values)
                .map(|_| ())
                .unwrap_err()
                .to_string();
            assert!(error.contains(why), "{name}: {error}");
        }
    }
}
