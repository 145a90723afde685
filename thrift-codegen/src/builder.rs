//! [`Builder`]: generating Rust from IDL in `build.rs`, or in memory.

use std::fmt;
use std::path::{Path, PathBuf};

use proc_macro2::TokenStream;
use thrift_idl_parser::{Checked, Loader, check_files};

use crate::emit::module_code;
use crate::model::Model;

/// One generated Rust file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GeneratedFile {
    /// The Rust module path, e.g. `["tutorial"]` or `["org", "example"]`.
    pub module: Vec<String>,
    /// Where the file goes below the output directory: `tutorial.rs`, `org/example.rs`.
    pub path: PathBuf,
    /// The formatted Rust code.
    pub contents: String,
}

/// Why generation failed: the IDL has errors (every diagnostic, rendered), or a file could
/// not be written.
///
/// `Debug` prints the same as `Display`: a `build.rs` whose `main` returns
/// `Result<(), Box<dyn Error>>` shows an error with `Debug`, and the diagnostics should read
/// there as `thrift-codegen check` prints them (located, with source lines and carets), not
/// as an escaped string.
pub enum Error {
    /// The IDL did not check; holds every diagnostic in the human format.
    Idl(String),
    /// A generated file could not be written there.
    Io(PathBuf, std::io::Error),
    /// `OUT_DIR` is not set and no output directory was given.
    NoOutDir,
    /// The options given to the [`Builder`] do not fit together or do not parse; says why.
    Options(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Idl(diagnostics) => write!(f, "invalid Thrift IDL:\n{diagnostics}"),
            Error::Io(path, e) => write!(f, "cannot write {}: {e}", path.display()),
            Error::NoOutDir => {
                f.write_str("no output directory: OUT_DIR is not set (call out_dir)")
            }
            Error::Options(why) => write!(f, "invalid options: {why}"),
        }
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Io(_, e) => Some(e),
            _ => None,
        }
    }
}

/// Generates Rust code from IDL files.
///
/// ```no_run
/// // build.rs
/// fn main() -> Result<(), Box<dyn std::error::Error>> {
///     thrift_codegen::Builder::new()
///         .include_dir("idl")
///         .compile(["idl/service.thrift"])?; // writes to OUT_DIR, emits rerun-if-changed
///     Ok(())
/// }
/// ```
/// and in the crate:
/// ```ignore
/// mod idl {
///     include!(concat!(env!("OUT_DIR"), "/thrift.rs"));
/// }
/// ```
#[derive(Debug, Clone)]
pub struct Builder {
    include_dirs: Vec<PathBuf>,
    out_dir: Option<PathBuf>,
    runtime_path: String,
    include_file: String,
    emit_rerun_if_changed: bool,
    collections: crate::Collections,
    strings: crate::Strings,
    hasher: Option<String>,
    services: bool,
    borrowed: bool,
    borrowed_types: Option<Vec<String>>,
    skip_fields: Vec<String>,
    attributes: Vec<(crate::model::attributes::Target, String, String)>,
    extern_paths: Vec<(String, String)>,
    boxed: Vec<String>,
    keep_unknown: Vec<String>,
    serde: bool,
    mapping_rules: Vec<(String, crate::model::mappings::Choice)>,
}

impl Default for Builder {
    fn default() -> Builder {
        Builder::new()
    }
}

impl Builder {
    /// A builder with the defaults: no include directories, output to `$OUT_DIR`,
    /// `::thrift_runtime` as the runtime path, `String`/`Vec<u8>` and `BTreeSet`/`BTreeMap`,
    /// services and borrowing forms generated, `cargo:rerun-if-changed` emitted.
    pub fn new() -> Builder {
        Builder {
            include_dirs: Vec::new(),
            out_dir: None,
            runtime_path: "::thrift_runtime".into(),
            include_file: "thrift.rs".into(),
            emit_rerun_if_changed: true,
            collections: crate::Collections::BTree,
            strings: crate::Strings::Std,
            hasher: None,
            services: true,
            borrowed: true,
            borrowed_types: None,
            skip_fields: Vec::new(),
            attributes: Vec::new(),
            extern_paths: Vec::new(),
            boxed: Vec::new(),
            keep_unknown: Vec::new(),
            serde: false,
            mapping_rules: Vec::new(),
        }
    }

    /// Whether `service`s are generated (default `true`): per service its args and result
    /// structs, handler traits, clients and processors (see `thrift_runtime::rpc`). Types-only
    /// users (a Parquet reader, say) turn it off and generate nothing for services.
    pub fn services(&mut self, yes: bool) -> &mut Builder {
        self.services = yes;
        self
    }

    /// Whether structs, unions and exceptions holding strings or binaries also get their
    /// borrowing form `FooRef<'de>` (decoded without copying strings; see the crate docs).
    /// Default: yes. They are about half of the generated code: turn them off when nothing
    /// decodes borrowed, or name the types that need them with [`Builder::borrowed_types`].
    pub fn borrowed(&mut self, yes: bool) -> &mut Builder {
        self.borrowed = yes;
        self
    }

    /// Generates borrowing forms only for these types (and the types they hold, which their
    /// borrowing forms need): IDL paths `file.Type`, the file's name without `.thrift`, such
    /// as `parquet.FileMetaData`. A path naming no struct, union or exception is an
    /// [`Error::Options`]. Implies [`Builder::borrowed`]`(true)`.
    pub fn borrowed_types<S: Into<String>>(
        &mut self,
        paths: impl IntoIterator<Item = S>,
    ) -> &mut Builder {
        self.borrowed = true;
        self.borrowed_types = Some(paths.into_iter().map(Into::into).collect());
        self
    }

    /// Fields that decoding reads past instead of into the value (selective decoding): IDL
    /// paths `file.Type.field`, such as `parquet.ColumnMetaData.statistics`, naming fields of
    /// structs or exceptions. A skipped field is skipped on the wire like an unknown field,
    /// without allocating, in the owned and the borrowing forms; the decoded value holds the
    /// field's default (`None` for an optional field, the IDL default or `Default::default()`
    /// otherwise, also for a `required` one, which is then not checked). Encoding is
    /// unchanged: a value decoded this way encodes its default in the skipped field's place.
    /// For readers that need part of a large message, as a Parquet reader that wants the schema
    /// and row-group sizes without column statistics. A path naming no such field is an
    /// [`Error::Options`].
    pub fn skip_fields<S: Into<String>>(
        &mut self,
        paths: impl IntoIterator<Item = S>,
    ) -> &mut Builder {
        self.skip_fields.extend(paths.into_iter().map(Into::into));
        self
    }

    /// Adds attributes to the generated structs, unions, exceptions and enums (the owned form;
    /// [`Builder::ref_type_attribute`] for the borrowing forms) that `path` names: `.` for
    /// every type, `file` for a file's (its name without `.thrift`), `file.Type` for one.
    /// `attribute` is Rust attribute syntax, one or more: `#[derive(serde::Serialize)]`,
    /// `#[serde(rename_all = "camelCase")] #[non_exhaustive]`. They follow the generated
    /// `#[derive(...)]` (so derive helpers may be used), in the order the calls were made. A
    /// path that names nothing, or an attribute that does not parse, is an
    /// [`Error::Options`].
    ///
    /// ```no_run
    /// thrift_codegen::Builder::new()
    ///     .type_attribute(".", "#[derive(serde::Serialize)]")
    ///     .field_attribute("tutorial.Place.name", "#[serde(rename = \"title\")]")
    ///     .compile(["idl/tutorial.thrift"])?;
    /// # Ok::<(), thrift_codegen::Error>(())
    /// ```
    pub fn type_attribute(
        &mut self,
        path: impl Into<String>,
        attribute: impl Into<String>,
    ) -> &mut Builder {
        let target = crate::model::attributes::Target::Type;
        self.attributes
            .push((target, path.into(), attribute.into()));
        self
    }

    /// [`Builder::type_attribute`] for the borrowing forms (`FooRef<'de>`).
    pub fn ref_type_attribute(
        &mut self,
        path: impl Into<String>,
        attribute: impl Into<String>,
    ) -> &mut Builder {
        let target = crate::model::attributes::Target::RefType;
        self.attributes
            .push((target, path.into(), attribute.into()));
        self
    }

    /// Adds attributes to the fields (a union's variants too) of the owned form that `path`
    /// names: `file.Type.field` for one, or any shorter path for all fields below it (`.`,
    /// `file`, `file.Type`). Otherwise as [`Builder::type_attribute`].
    pub fn field_attribute(
        &mut self,
        path: impl Into<String>,
        attribute: impl Into<String>,
    ) -> &mut Builder {
        let target = crate::model::attributes::Target::Field;
        self.attributes
            .push((target, path.into(), attribute.into()));
        self
    }

    /// [`Builder::field_attribute`] for the fields of the borrowing forms.
    pub fn ref_field_attribute(
        &mut self,
        path: impl Into<String>,
        attribute: impl Into<String>,
    ) -> &mut Builder {
        let target = crate::model::attributes::Target::RefField;
        self.attributes
            .push((target, path.into(), attribute.into()));
        self
    }

    /// Takes the types of an included IDL file from an existing crate instead of generating
    /// them again: `idl_path` is the file's name without `.thrift` (`common`), `rust_path`
    /// the module that crate generated for it (`::common_types::common`). Nothing is
    /// generated for that file; every reference to its types, constants and services names
    /// them through `rust_path`. Two crates that include one common IDL then share its types
    /// (a value decoded by one is the other's type). The other crate must generate that file
    /// with the same type-mapping options (strings, collections, borrowing forms); a struct
    /// used as a set element or map key (which changes its doubles to `OrderedF64`) must be
    /// one in that crate too. A path naming no loaded file, or a `rust_path` that is not a
    /// path, is an [`Error::Options`].
    pub fn extern_path(
        &mut self,
        idl_path: impl Into<String>,
        rust_path: impl Into<String>,
    ) -> &mut Builder {
        self.extern_paths.push((idl_path.into(), rust_path.into()));
        self
    }

    /// The files of [`Builder::extern_path`], with their Rust paths.
    fn extern_files(
        &self,
        checked: &Checked,
    ) -> Result<std::collections::HashMap<thrift_idl_parser::FileId, TokenStream>, Error> {
        let program = &checked.program;
        self.extern_paths
            .iter()
            .map(|(idl, rust)| {
                let file = program
                    .files()
                    .find(|f| {
                        program.sources.path(f.id).file_stem() == Some(std::ffi::OsStr::new(idl))
                    })
                    .ok_or_else(|| {
                        Error::Options(format!(
                            "extern_path: `{idl}` names no IDL file that is loaded (the file's name without .thrift)"
                        ))
                    })?;
                let path = syn::parse_str::<syn::Path>(rust).map_err(|e| {
                    Error::Options(format!("extern_path(\"{idl}\", \"{rust}\"): not a Rust path: {e}"))
                })?;
                Ok((file.id, quote::ToTokens::to_token_stream(&path)))
            })
            .collect()
    }

    /// Applies the IDL's `rust.*` annotations and [`Builder::boxed`] to the model: boxes, and
    /// the IDL's attributes (the builder's are added after them). Returns the annotations' warnings; their
    /// errors (a `rust.attr` that does not parse, a `rust.box` on a field that cannot be
    /// boxed) are an [`Error::Idl`].
    fn apply_annotations(
        &self,
        checked: &Checked,
        model: &mut Model<'_>,
    ) -> Result<Vec<thrift_idl_parser::Diagnostic>, Error> {
        use crate::model::annotations;
        let from_idl = annotations::read(model);
        let diagnostics = from_idl.diagnostics;
        let mut boxes = from_idl.boxed;
        for path in &self.boxed {
            let (id, index, _) = field_path(checked, "boxed", path)?;
            if !annotations::can_box(model, id, index) {
                return Err(Error::Options(format!(
                    "boxed: `{path}` is not a field whose type is a struct, union or exception"
                )));
            }
            boxes.push((id, index));
        }
        if diagnostics
            .iter()
            .any(thrift_idl_parser::Diagnostic::is_error)
        {
            return Err(Error::Idl(thrift_idl_parser::diagnostic::render_all(
                &diagnostics,
                &checked.program.sources,
            )));
        }
        for (id, index) in boxes {
            model.add_boxed(id, index);
        }
        model.attributes = from_idl.attributes;
        let mut rules = from_idl.mappings;
        for (path, choice) in &self.mapping_rules {
            let segments = crate::model::attributes::segments(path);
            if !model.names_fields(&segments) {
                let call = match choice {
                    crate::model::mappings::Choice::Strings(_) => "strings_for",
                    crate::model::mappings::Choice::Collections(_) => "collections_for",
                };
                return Err(Error::Options(format!(
                    "{call}: `{path}` names no field (paths are `.`, `file`, `file.Type`, `file.Type.field`, the file's name without .thrift)"
                )));
            }
            rules.push(crate::model::mappings::Rule {
                path: segments,
                choice: *choice,
            });
        }
        let mappings = model.field_mappings_of(&rules);
        model.set_field_mappings(mappings);
        Ok(diagnostics)
    }

    /// The attribute rules, parsed and checked against the program.
    fn attribute_rules(
        &self,
        model: &Model<'_>,
    ) -> Result<Vec<crate::model::attributes::Rule>, Error> {
        use crate::model::attributes::{Rule, Target, segments};
        self.attributes
            .iter()
            .map(|(target, path, attribute)| {
                let call = match target {
                    Target::Type => "type_attribute",
                    Target::RefType => "ref_type_attribute",
                    Target::Field => "field_attribute",
                    Target::RefField => "ref_field_attribute",
                };
                let attrs = crate::model::attributes::parse_attributes(attribute).map_err(|e| {
                    Error::Options(format!("{call}(\"{path}\", ..): `{attribute}` is not a Rust attribute: {e}"))
                })?;
                let rule = Rule {
                    target: *target,
                    path: segments(path),
                    attrs,
                };
                if !model.rule_matches_something(&rule) {
                    return Err(Error::Options(format!(
                        "{call}: `{path}` names no {} (paths are `.`, `file`, `file.Type`{}, the file's name without .thrift)",
                        if matches!(target, Target::Type | Target::RefType) { "type" } else { "field" },
                        if matches!(target, Target::Type | Target::RefType) { "" } else { ", `file.Type.field`" },
                    )));
                }
                Ok(rule)
            })
            .collect()
    }

    /// The structs whose borrowing forms are asked for: `None` for all of them.
    fn borrow_roots(
        &self,
        checked: &Checked,
    ) -> Result<Option<Vec<thrift_idl_parser::DefId>>, Error> {
        if !self.borrowed {
            return Ok(Some(Vec::new()));
        }
        let Some(paths) = &self.borrowed_types else {
            return Ok(None);
        };
        paths
            .iter()
            .map(|path| {
                let (file, name) = path.rsplit_once('.').unwrap_or(("", path));
                find_struct(checked, file, name).ok_or_else(|| {
                    Error::Options(format!(
                        "borrowed_types: `{path}` names no struct, union or exception (paths are `file.Type`, the file's name without .thrift)"
                    ))
                })
            })
            .collect::<Result<Vec<_>, _>>()
            .map(Some)
    }

    /// Holds these fields as `Box<T>` (the field's type must be a struct, union or
    /// exception): IDL paths `file.Type.field`. For a large struct held inline by many small
    /// values, or a union whose variants differ much in size (`rust.box` on a field in the IDL
    /// does the same). Recursive fields are boxed anyway. A path naming no such field is an
    /// [`Error::Options`].
    pub fn boxed<S: Into<String>>(&mut self, paths: impl IntoIterator<Item = S>) -> &mut Builder {
        self.boxed.extend(paths.into_iter().map(Into::into));
        self
    }

    /// Maps the strings and binaries of the fields under `path` (`.`, `file`, `file.Type`,
    /// `file.Type.field`) with `strings` instead of the global [`Builder::strings`]: for
    /// example `Strings::Bytes` for the one large payload field that should slice the input
    /// buffer, `String` elsewhere. Rules apply in the order given (a later one wins), after
    /// the IDL's `rust.type` annotations; typedefs used by such a field are spelled out there.
    /// A path naming no field is an [`Error::Options`].
    ///
    /// ```no_run
    /// use thrift_codegen::{Builder, Collections, Strings};
    /// Builder::new()
    ///     .strings_for("storage.Blob.data", Strings::Bytes)
    ///     .collections_for("storage.Index", Collections::Hash)
    ///     .compile(["idl/storage.thrift"])?;
    /// # Ok::<(), thrift_codegen::Error>(())
    /// ```
    pub fn strings_for(
        &mut self,
        path: impl Into<String>,
        strings: crate::Strings,
    ) -> &mut Builder {
        self.mapping_rules.push((
            path.into(),
            crate::model::mappings::Choice::Strings(strings),
        ));
        self
    }

    /// [`Builder::strings_for`] for sets and maps: `Collections::Hash` or `Collections::BTree`
    /// for the fields under `path` (a struct holding a `HashMap` derives neither `Hash` nor
    /// `Ord`; sets and maps in set elements and map keys stay `BTree…`).
    pub fn collections_for(
        &mut self,
        path: impl Into<String>,
        collections: crate::Collections,
    ) -> &mut Builder {
        self.mapping_rules.push((
            path.into(),
            crate::model::mappings::Choice::Collections(collections),
        ));
        self
    }

    /// Derives serde's `Serialize` and `Deserialize` for the generated structs, unions,
    /// exceptions and enums (`Serialize` for the borrowing forms), with the IDL's field and
    /// value names; needs the runtime's `serde` feature, and no `serde` dependency of the
    /// crate's own (generated code names serde through the runtime). Default: no. In JSON a
    /// struct is an object of its IDL field names (an unset `optional` field left out, a
    /// missing one `None`; a missing field of default requiredness takes its IDL default; a
    /// missing `required` one is an error), a union `{"variant": value}`, an enum value its IDL
    /// name (its number when the IDL does not name it; either is read), a map an object, or
    /// an array of `[key, value]` pairs when its keys are structs, containers, binaries or
    /// doubles. Kept unknown fields are not serialized.
    pub fn serde(&mut self, yes: bool) -> &mut Builder {
        self.serde = yes;
        self
    }

    /// Keeps the fields that the IDL does not declare, in the structs and exceptions under
    /// these IDL paths (`.` for all, `file`, `file.Type`): each gets a member
    /// `unknown_fields: thrift_runtime::UnknownFields` that decoding fills and encoding
    /// writes back, each field where it came among the known ones. A proxy or store that
    /// decodes and re-encodes a message from a newer peer then gives the same bytes (with the
    /// same protocol; see `thrift_runtime::unknown`). Unions have no place for them and drop
    /// them. Off by default, and then costs nothing: unknown fields are skipped without
    /// allocating. A path naming no struct or exception is an [`Error::Options`].
    ///
    /// ```no_run
    /// thrift_codegen::Builder::new()
    ///     .keep_unknown_fields(["tutorial.Place"])
    ///     .compile(["idl/tutorial.thrift"])?;
    /// # Ok::<(), thrift_codegen::Error>(())
    /// ```
    pub fn keep_unknown_fields<S: Into<String>>(
        &mut self,
        paths: impl IntoIterator<Item = S>,
    ) -> &mut Builder {
        self.keep_unknown.extend(paths.into_iter().map(Into::into));
        self
    }

    /// The structs of [`Builder::keep_unknown_fields`].
    fn unknown_keepers(
        &self,
        model: &Model<'_>,
    ) -> Result<std::collections::BTreeSet<thrift_idl_parser::DefId>, Error> {
        let mut out = std::collections::BTreeSet::new();
        for path in &self.keep_unknown {
            let segments = crate::model::attributes::segments(path);
            let found = model.structs_under(&segments);
            // `.` is every struct there is, also none.
            if found.is_empty() && !segments.is_empty() {
                return Err(Error::Options(format!(
                    "keep_unknown_fields: `{path}` names no struct or exception (paths are `.`, `file`, `file.Type`, the file's name without .thrift)"
                )));
            }
            out.extend(found);
        }
        Ok(out)
    }

    /// The fields of [`Builder::skip_fields`], as (struct, field index).
    fn skipped_fields(
        &self,
        checked: &Checked,
    ) -> Result<std::collections::BTreeSet<(thrift_idl_parser::DefId, usize)>, Error> {
        self.skip_fields
            .iter()
            .map(|path| {
                let (id, index, s) = field_path(checked, "skip_fields", path)?;
                if s.kind == thrift_idl_parser::ast::StructKind::Union {
                    return Err(Error::Options(format!(
                        "skip_fields: `{path}` is a field of a union; a union's fields cannot be skipped (the value would have no variant)"
                    )));
                }
                Ok((id, index))
            })
            .collect()
    }

    /// Adds a directory searched for includes not found next to the including file.
    pub fn include_dir(&mut self, dir: impl Into<PathBuf>) -> &mut Builder {
        self.include_dirs.push(dir.into());
        self
    }

    /// Where [`Builder::compile`] writes; default: `$OUT_DIR`.
    pub fn out_dir(&mut self, dir: impl Into<PathBuf>) -> &mut Builder {
        self.out_dir = Some(dir.into());
        self
    }

    /// The path generated code uses to reach the runtime; default `::thrift_runtime`. Set it
    /// when the runtime is re-exported, e.g. `crate::rt` or `::my_crate::thrift`.
    pub fn runtime_path(&mut self, path: impl Into<String>) -> &mut Builder {
        self.runtime_path = path.into();
        self
    }

    /// The name of the file that declares the module tree with `include!`s, to be
    /// `include!`d by the crate; default `thrift.rs`. The generated files go in the folder of
    /// the same name without `.rs` (`thrift/`).
    pub fn include_file(&mut self, name: impl Into<String>) -> &mut Builder {
        self.include_file = name.into();
        self
    }

    /// Whether [`Builder::compile`] prints `cargo:rerun-if-changed` for every file read
    /// (default: yes).
    pub fn emit_rerun_if_changed(&mut self, yes: bool) -> &mut Builder {
        self.emit_rerun_if_changed = yes;
        self
    }

    /// How sets and maps are represented: `BTreeSet`/`BTreeMap` (the default) or
    /// `HashSet`/`HashMap` (one allocation per decoded set or map); see [`crate::Collections`].
    pub fn collections(&mut self, collections: crate::Collections) -> &mut Builder {
        self.collections = collections;
        self
    }

    /// The hasher of the `HashSet`s and `HashMap`s generated with [`crate::Collections::Hash`]:
    /// the path of a type implementing `BuildHasher + Default + Clone`, such as
    /// `::foldhash::fast::RandomState` or `::ahash::RandomState` (the consuming crate depends
    /// on it). Without it, std's `RandomState` (SipHash 1-3: resistant to HashDoS from
    /// hostile keys, and slower; see BENCHMARKS.md). Maps are then built with
    /// `with_capacity_and_hasher(n, Default::default())`. Setting it with the `BTree`
    /// collections is an error ([`Error::Options`]).
    pub fn hasher(&mut self, path: impl Into<String>) -> &mut Builder {
        self.hasher = Some(path.into());
        self
    }

    /// How strings and binaries are represented: `String`/`Vec<u8>` (the default), the
    /// runtime's `ByteString`/`Bytes`, slices of the input when decoding from a `Bytes`
    /// (`Foo::decode_bytes`), or `CompactString` (inline up to 24 bytes; the runtime's
    /// `compact_str` feature) and `Bytes`; see [`crate::Strings`].
    pub fn strings(&mut self, strings: crate::Strings) -> &mut Builder {
        self.strings = strings;
        self
    }

    fn check<P: AsRef<Path>>(&self, files: &[P]) -> Result<Checked, Error> {
        let mut loader = Loader::new();
        for dir in &self.include_dirs {
            loader.include_dir(dir);
        }
        let checked = check_files(&loader, files);
        if checked.has_errors() {
            return Err(Error::Idl(checked.render_diagnostics()));
        }
        Ok(checked)
    }

    /// Generates the Rust code for `files` and everything they include, in memory: one
    /// [`GeneratedFile`] per IDL file, in a deterministic order.
    pub fn generate<P: AsRef<Path>>(
        &self,
        files: impl IntoIterator<Item = P>,
    ) -> Result<Vec<GeneratedFile>, Error> {
        self.generate_with_warnings(files).map(|(files, _)| files)
    }

    /// [`Builder::generate`], with the warnings (rendered) of the `rust.*` annotations.
    pub(crate) fn generate_with_warnings<P: AsRef<Path>>(
        &self,
        files: impl IntoIterator<Item = P>,
    ) -> Result<(Vec<GeneratedFile>, String), Error> {
        let files: Vec<P> = files.into_iter().collect();
        let hasher = self.hasher_tokens()?;
        let checked = self.check(&files)?;
        let (generated, warnings) = self.generate_checked(&checked, hasher)?;
        Ok((
            generated,
            thrift_idl_parser::diagnostic::render_all(&warnings, &checked.program.sources),
        ))
    }

    /// The hasher type as tokens, checked: a type that parses, and only with `Hash` collections.
    fn hasher_tokens(&self) -> Result<Option<TokenStream>, Error> {
        let Some(path) = &self.hasher else {
            return Ok(None);
        };
        if self.collections != crate::Collections::Hash {
            return Err(Error::Options(format!(
                "the hasher `{path}` needs the `hash` collections (Collections::Hash, \
                 `--collections hash`); the `btree` collections have no hasher"
            )));
        }
        match syn::parse_str::<syn::Type>(path) {
            Ok(ty) => Ok(Some(quote::ToTokens::to_token_stream(&ty))),
            Err(e) => Err(Error::Options(format!(
                "the hasher `{path}` is not a Rust type path: {e}"
            ))),
        }
    }

    /// The generated files and the warnings of the `rust.*` annotations.
    fn generate_checked(
        &self,
        checked: &Checked,
        hasher: Option<TokenStream>,
    ) -> Result<(Vec<GeneratedFile>, Vec<thrift_idl_parser::Diagnostic>), Error> {
        let borrow_roots = self.borrow_roots(checked)?;
        let runtime: TokenStream = self
            .runtime_path
            .parse()
            .unwrap_or_else(|_| "::thrift_runtime".parse().expect("valid path"));
        let mut model = Model::new(
            &checked.program,
            runtime,
            self.collections,
            self.strings,
            hasher,
            borrow_roots.as_deref(),
        );
        model.services = self.services;
        model.serde = self.serde;
        model.skipped = self.skipped_fields(checked)?;
        model.externs = self.extern_files(checked)?;
        model.keep_unknown = self.unknown_keepers(&model)?;
        let warnings = self.apply_annotations(checked, &mut model)?;
        let rules = self.attribute_rules(&model)?;
        model.attributes.extend(rules);
        let mut out: Vec<GeneratedFile> = model
            .files()
            .filter(|file| !model.externs.contains_key(file))
            .map(|file| {
                let module = model.module_path(file).to_vec();
                let source = checked.program.sources.path(file);
                let name = source.file_name().map_or_else(
                    || source.display().to_string(),
                    |n| n.to_string_lossy().into_owned(),
                );
                let header =
                    format!("// @generated by thrift-codegen from {name}. Do not edit.\n\n");
                let mut path: PathBuf = module.iter().collect();
                path.set_extension("rs");
                let contents = header + &module_code(&model, file);
                GeneratedFile {
                    module,
                    path,
                    contents,
                }
            })
            .collect();
        out.sort_by(|a, b| a.module.cmp(&b.module));
        Ok((out, warnings))
    }

    /// Generates and writes the files to the output directory (only the ones whose contents
    /// changed), plus the include file declaring the module tree; prints
    /// `cargo:rerun-if-changed` for every IDL file read.
    ///
    /// What it writes, with the defaults: `$OUT_DIR/thrift.rs`, the module tree, which the
    /// crate `include!`s; and one file per IDL file in `$OUT_DIR/thrift/` (`thrift/echo.rs`
    /// for `echo.thrift`, `thrift/a/b.rs` for the namespaced module `a::b`), which
    /// `thrift.rs` `include!`s. With [`Builder::include_file`]`("idl.rs")` the folder is
    /// `idl/`. Nothing else in the output directory is touched, so Apache's compiler or
    /// another `Builder` may write there too.
    pub fn compile<P: AsRef<Path>>(&self, files: impl IntoIterator<Item = P>) -> Result<(), Error> {
        let files: Vec<P> = files.into_iter().collect();
        let hasher = self.hasher_tokens()?;
        let checked = self.check(&files)?;
        if self.emit_rerun_if_changed {
            for id in 0..checked.program.sources.len() {
                let path = checked
                    .program
                    .sources
                    .path(thrift_idl_parser::FileId(id as u32));
                println!("cargo:rerun-if-changed={}", path.display());
            }
        }
        let out_dir = match &self.out_dir {
            Some(dir) => dir.clone(),
            None => std::env::var_os("OUT_DIR")
                .map(PathBuf::from)
                .ok_or(Error::NoOutDir)?,
        };
        let (generated, warnings) = self.generate_checked(&checked, hasher)?;
        // Shown by cargo during the build (one line each: `path:line:col: warning: ...`).
        for warning in &warnings {
            let text = warning.render(&checked.program.sources);
            if let Some(first) = text.lines().next() {
                println!("cargo:warning={first}");
            }
        }
        // The files in a folder named after the include file (`thrift/` beside `thrift.rs`),
        // so that no other generator writing into OUT_DIR (Apache's `thrift --gen rs -out`
        // writes `echo.rs` for `echo.thrift`) overwrites them or is overwritten.
        let folder = PathBuf::from(&self.include_file).with_extension("");
        for file in &generated {
            write_if_changed(&out_dir.join(&folder).join(&file.path), &file.contents)?;
        }
        let include = if self.out_dir.is_some() {
            module_tree(&generated, |file| {
                let path = out_dir.join(&folder).join(&file.path);
                format!("include!({:?});", path.display().to_string())
            })
        } else {
            module_tree(&generated, |file| {
                let path = folder.join(&file.path);
                let path = path.to_string_lossy().replace('\\', "/");
                format!("include!(concat!(env!(\"OUT_DIR\"), \"/{path}\"));")
            })
        };
        write_if_changed(&out_dir.join(&self.include_file), &include)
    }
}

/// The diagnostics of the `rust.*` annotations of a checked program (for `check`): unknown
/// keys (warnings), attributes that do not parse and boxes of fields that cannot be boxed
/// (errors).
#[cfg(feature = "cli")]
pub(crate) fn annotation_diagnostics(checked: &Checked) -> Vec<thrift_idl_parser::Diagnostic> {
    use crate::model::annotations;
    let model = Model::new(
        &checked.program,
        quote::quote!(::thrift_runtime),
        crate::Collections::BTree,
        crate::Strings::Std,
        None,
        None,
    );
    annotations::read(&model).diagnostics
}

/// The field `file.Type.field` of a struct, union or exception, for the option `call`: the
/// definition, the field's index, and the struct.
fn field_path<'c>(
    checked: &'c Checked,
    call: &str,
    path: &str,
) -> Result<
    (
        thrift_idl_parser::DefId,
        usize,
        &'c thrift_idl_parser::ast::Struct,
    ),
    Error,
> {
    let not_found = || {
        Error::Options(format!(
            "{call}: `{path}` names no field of a struct, union or exception (paths are `file.Type.field`, the file's name without .thrift)"
        ))
    };
    let (ty, field) = path.rsplit_once('.').ok_or_else(not_found)?;
    let (file, name) = ty.rsplit_once('.').ok_or_else(not_found)?;
    let id = find_struct(checked, file, name).ok_or_else(not_found)?;
    let thrift_idl_parser::ast::Definition::Struct(s) = checked.program.definition(id) else {
        return Err(not_found());
    };
    let index = s
        .fields
        .iter()
        .position(|f| f.name.name == field)
        .ok_or_else(not_found)?;
    Ok((id, index, s))
}

/// The struct, union or exception `name` of the file whose name without `.thrift` is `file`.
fn find_struct(checked: &Checked, file: &str, name: &str) -> Option<thrift_idl_parser::DefId> {
    let program = &checked.program;
    program
        .files()
        .filter(|f| program.sources.path(f.id).file_stem() == Some(std::ffi::OsStr::new(file)))
        .find_map(|f| {
            f.document
                .definitions
                .iter()
                .position(|d| {
                    matches!(d, thrift_idl_parser::ast::Definition::Struct(_))
                        && d.name().name == name
                })
                .map(|index| thrift_idl_parser::DefId { file: f.id, index })
        })
}

/// Writes `contents` unless the file already holds exactly that (so cargo does not rebuild).
pub(crate) fn write_if_changed(path: &Path, contents: &str) -> Result<(), Error> {
    if std::fs::read_to_string(path).is_ok_and(|old| old == contents) {
        return Ok(());
    }
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(|e| Error::Io(parent.to_path_buf(), e))?;
    }
    std::fs::write(path, contents).map_err(|e| Error::Io(path.to_path_buf(), e))
}

/// The generated modules as a tree: `a::b` is child `b` of child `a` of the root.
#[derive(Default)]
struct ModuleNode<'f> {
    children: std::collections::BTreeMap<&'f str, ModuleNode<'f>>,
    file: Option<&'f GeneratedFile>,
}

impl<'f> ModuleNode<'f> {
    fn build(files: &'f [GeneratedFile]) -> ModuleNode<'f> {
        let mut root = ModuleNode::default();
        for file in files {
            let mut node = &mut root;
            for segment in &file.module {
                node = node.children.entry(segment).or_default();
            }
            node.file = Some(file);
        }
        root
    }
}

const TREE_HEADER: &str = "// @generated by thrift-codegen. Do not edit.\n";

/// The attribute on each outermost generated module: a binary crate uses a few of the
/// generated items (a client, some types), and the rest must not warn as dead code.
fn allow(depth: usize) -> &'static str {
    if depth == 0 {
        "#[allow(dead_code)]\n"
    } else {
        ""
    }
}

/// Nested `pub mod a { pub mod b { <leaf> } }` declarations for every generated module.
pub(crate) fn module_tree(
    files: &[GeneratedFile],
    leaf: impl Fn(&GeneratedFile) -> String,
) -> String {
    fn render(
        node: &ModuleNode<'_>,
        depth: usize,
        leaf: &dyn Fn(&GeneratedFile) -> String,
        out: &mut String,
    ) {
        let indent = "    ".repeat(depth);
        if let Some(file) = node.file {
            out.push_str(&format!("{indent}{}\n", leaf(file)));
        }
        for (name, child) in &node.children {
            out.push_str(&format!(
                "{indent}{}pub mod {} {{\n",
                allow(depth),
                crate::ident::ident(name)
            ));
            render(child, depth + 1, leaf, out);
            out.push_str(&format!("{indent}}}\n"));
        }
    }
    let mut out = String::from(TREE_HEADER);
    render(&ModuleNode::build(files), 0, &leaf, &mut out);
    out
}

/// `mod.rs` for a directory of generated files: `pub mod a;` where `a.rs` is a leaf module,
/// inline `pub mod a { pub mod b; }` where only `a/b.rs` exists (rustc then looks in `a/`),
/// and `pub mod a { include!("a.rs"); pub mod b; }` where a module has both code and children.
pub(crate) fn module_declarations(files: &[GeneratedFile]) -> String {
    fn render(node: &ModuleNode<'_>, depth: usize, out: &mut String) {
        let indent = "    ".repeat(depth);
        for (name, child) in &node.children {
            let name = crate::ident::ident(name);
            match child.file {
                Some(_) if child.children.is_empty() => {
                    out.push_str(&format!("{indent}{}pub mod {name};\n", allow(depth)))
                }
                file => {
                    out.push_str(&format!("{indent}{}pub mod {name} {{\n", allow(depth)));
                    if let Some(file) = file {
                        // include! paths are relative to this mod.rs.
                        let path = file.path.to_string_lossy().replace('\\', "/");
                        out.push_str(&format!("{indent}    include!({path:?});\n"));
                    }
                    render(child, depth + 1, out);
                    out.push_str(&format!("{indent}}}\n"));
                }
            }
        }
    }
    let mut out = String::from(TREE_HEADER);
    render(&ModuleNode::build(files), 0, &mut out);
    out
}

/// All generated files as one Rust file, each module inline (`pub mod a { … }`): what
/// `thrift-codegen generate -o -` prints.
pub fn single_file(files: &[GeneratedFile]) -> String {
    module_tree(files, |f| f.contents.clone())
}

/// The `mod.rs` that declares the module tree of `files` laid out as `thrift-codegen generate
/// -o DIR` lays them out (each file at its [`GeneratedFile::path`]).
pub fn mod_rs(files: &[GeneratedFile]) -> String {
    module_declarations(files)
}
