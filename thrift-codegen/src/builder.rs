//! [`Builder`]: generating Rust from IDL in `build.rs`, or in memory.

use std::path::{Path, PathBuf};

use thrift_idl_parser::{Checked, Loader, check_files};

use crate::emit::module_code;
use crate::error::Error;
use crate::model::configure;
use crate::options::{AttributeTarget, Collections, Options, Strings};
use crate::output::{GeneratedFile, module_tree, write_if_changed};
use crate::path_map::PathMap;

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
///
/// The options that name parts of the IDL (`arena_inline`, `borrowed_types`, `skip_fields`,
/// `only`, `type_attribute` and kin, `extern_path`, `boxed`, `strings_for`,
/// `collections_for`, `keep_unknown_fields`) take [IDL paths](PathMap#idl-paths), one rule for
/// all: `.`, `file`, `file.Definition` or `file.Definition.member`, each selecting what it
/// names and everything inside it; an option applies to the parts of the kinds it takes among
/// those, and a path (but `.`) that selects none of them is an [`Error::Options`]. Every
/// option is also reachable by name ([`Builder::set`]) and, but for where
/// [`Builder::compile`] writes, as a flag of `thrift-codegen generate` (`boxed` is
/// `--boxed PATH`).
#[derive(Debug, Clone, Default)]
pub struct Builder {
    options: Options,
}

impl Builder {
    /// A builder with the defaults: no include directories, output to `$OUT_DIR`,
    /// `::thrift_runtime` as the runtime path, `String`/`Vec<u8>` and `BTreeSet`/`BTreeMap`,
    /// services and borrowing forms generated, `cargo:rerun-if-changed` emitted.
    pub fn new() -> Builder {
        Builder::default()
    }

    /// Whether `service`s are generated (default `true`): per service its args and result
    /// structs, handler traits, clients and processors (see `thrift_runtime::rpc`). Types-only
    /// users (a Parquet reader, say) turn it off and generate nothing for services.
    pub fn services(&mut self, yes: bool) -> &mut Builder {
        self.options.services = yes;
        self
    }

    /// Whether structs, unions and exceptions holding strings or binaries also get their
    /// borrowing form `FooRef<'de>` (decoded without copying strings; see the crate docs).
    /// Default: yes. They are about half of the generated code: turn them off when nothing
    /// decodes borrowed, or name the types that need them with [`Builder::borrowed_types`].
    pub fn borrowed(&mut self, yes: bool) -> &mut Builder {
        self.options.borrowed = yes;
        self
    }

    /// Whether the borrowing forms hold their lists, sets, maps and optional structs in an
    /// arena (default: no). With it, a borrowing form `FooRef<'de>` holds a list or set as a
    /// slice `&'de [T]`, a map as a slice of pairs `&'de [(K, V)]`, and an optional (or boxed)
    /// struct as `Option<&'de TRef<'de>>`, all allocated in a `thrift_runtime::Arena` given
    /// to `FooRef::decode_in::<P>(&bytes, &arena)`; every struct that holds strings,
    /// binaries, containers or structs has a borrowing form. A decoded value then takes about
    /// the bytes of its IDL (no spare capacity, no inline room left empty, one word for an
    /// unset struct), and decoding makes a few large allocations instead of one per list
    /// (none once the arena has grown, with `Arena::reset` between messages). Needs the
    /// runtime's `arena` feature. Implies [`Builder::borrowed`]`(true)`; cannot be combined
    /// with [`Builder::keep_unknown_fields`] (kept fields live in vectors an arena would not
    /// free), which is an [`Error::Options`].
    ///
    /// ```no_run
    /// thrift_codegen::Builder::new()
    ///     .arena(true)
    ///     .borrowed_types(["parquet.FileMetaData"])
    ///     .compile(["idl/parquet.thrift"])?;
    /// # Ok::<(), thrift_codegen::Error>(())
    /// ```
    pub fn arena(&mut self, yes: bool) -> &mut Builder {
        self.options.arena = yes;
        if yes {
            self.options.borrowed = true;
        }
        self
    }

    /// In arena mode ([`Builder::arena`]), holds the `optional` struct fields that `paths`
    /// select ([IDL paths](PathMap#idl-paths): takes the `optional` fields of structs and
    /// exceptions whose type is a struct, union or exception) inline (`Option<TRef<'de>>`)
    /// instead of as references into the arena (`Option<&'de TRef<'de>>`). By reference, an
    /// unset struct costs one word and a set one a word more than inline; so inline is smaller
    /// for a field that (nearly) every message sets, which only the user knows from the
    /// writer: in a Parquet footer, `ColumnChunk.meta_data` and `ColumnMetaData.statistics`. A
    /// path selecting a field that is boxed (by [`Builder::boxed`], `rust.box`, or to break a
    /// recursion), or the option without arena mode, is an [`Error::Options`].
    ///
    /// ```no_run
    /// thrift_codegen::Builder::new()
    ///     .arena(true)
    ///     .arena_inline(["parquet.ColumnChunk.meta_data", "parquet.ColumnMetaData.statistics"])
    ///     .compile(["idl/parquet.thrift"])?;
    /// # Ok::<(), thrift_codegen::Error>(())
    /// ```
    pub fn arena_inline<S: Into<String>>(
        &mut self,
        paths: impl IntoIterator<Item = S>,
    ) -> &mut Builder {
        self.options.arena_inline.insert_paths(paths);
        self
    }

    /// Generates borrowing forms only for the types that `paths` select ([IDL
    /// paths](PathMap#idl-paths): takes structs, unions and exceptions, such as
    /// `parquet.FileMetaData`) and the types they hold, which their borrowing forms need. Calls
    /// add paths. Implies [`Builder::borrowed`]`(true)`.
    pub fn borrowed_types<S: Into<String>>(
        &mut self,
        paths: impl IntoIterator<Item = S>,
    ) -> &mut Builder {
        self.options.borrowed = true;
        self.options
            .borrowed_types
            .get_or_insert_with(PathMap::new)
            .insert_paths(paths);
        self
    }

    /// Fields that decoding reads past instead of into the value (selective decoding): those
    /// that `paths` select ([IDL paths](PathMap#idl-paths): takes the fields of structs and
    /// exceptions, such as `parquet.ColumnMetaData.statistics`; a union's cannot be skipped,
    /// the value would have no variant). A skipped field is skipped on the wire like an unknown
    /// field, without allocating, in the owned and the borrowing forms; the decoded value holds
    /// the field's default (`None` for an optional field, the IDL default or
    /// `Default::default()` otherwise, also for a `required` one, which is then not checked).
    /// Encoding is unchanged: a value decoded this way encodes its default in the skipped
    /// field's place. For readers that need part of a large message, as a Parquet reader that
    /// wants the schema and row-group sizes without column statistics.
    pub fn skip_fields<S: Into<String>>(
        &mut self,
        paths: impl IntoIterator<Item = S>,
    ) -> &mut Builder {
        self.options.skip_fields.insert_paths(paths);
        self
    }

    /// Generates only what `paths` select ([IDL paths](PathMap#idl-paths): takes definitions
    /// and service functions) and what they reach, nothing else: for a client of three
    /// methods of a large shared IDL, the code (and its compile time) of those three methods
    /// and their types. A service selected keeps all its functions, the inherited ones too; a
    /// function selected alone (`file.Service.function`) keeps its service, with its name,
    /// traits, processors and clients, with the functions selected. What is reached: the types
    /// that fields, parameters, results, exceptions and typedefs name (through containers),
    /// the consts and enums that defaults and const values name, and the service a service
    /// extends. Modules keep their paths; a file with nothing kept is an empty module. Calls
    /// add paths.
    ///
    /// ```no_run
    /// thrift_codegen::Builder::new()
    ///     .only([
    ///         "hive_metastore.ThriftHiveMetastore.get_table",
    ///         "hive_metastore.ThriftHiveMetastore.get_all_databases",
    ///     ])
    ///     .compile(["idl/hive_metastore.thrift"])?;
    /// # Ok::<(), thrift_codegen::Error>(())
    /// ```
    pub fn only<S: Into<String>>(&mut self, paths: impl IntoIterator<Item = S>) -> &mut Builder {
        self.options
            .only
            .get_or_insert_with(PathMap::new)
            .insert_paths(paths);
        self
    }

    /// Adds attributes to the generated structs, unions, exceptions and enums (the owned form;
    /// [`Builder::ref_type_attribute`] for the borrowing forms) that `path` selects ([IDL
    /// path](PathMap#idl-paths): `.` for every type, `file` for a file's, `file.Type` for
    /// one). `attribute` is Rust attribute syntax, one or more: `#[derive(serde::Serialize)]`,
    /// `#[serde(rename_all = "camelCase")] #[non_exhaustive]`. They follow the generated
    /// `#[derive(...)]` (so derive helpers may be used), after the IDL's `rust.attr`, in the
    /// order the calls were made. An attribute that does not parse is an [`Error::Options`].
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
        self.attribute(AttributeTarget::Type, path, attribute)
    }

    /// [`Builder::type_attribute`] for the borrowing forms (`FooRef<'de>`).
    pub fn ref_type_attribute(
        &mut self,
        path: impl Into<String>,
        attribute: impl Into<String>,
    ) -> &mut Builder {
        self.attribute(AttributeTarget::RefType, path, attribute)
    }

    /// Adds attributes to the fields of structs, unions (their variants) and exceptions, in
    /// the owned form, that `path` selects ([IDL path](PathMap#idl-paths): one field
    /// `file.Type.field`, or all fields under `.`, `file`, `file.Type`). Otherwise as
    /// [`Builder::type_attribute`].
    pub fn field_attribute(
        &mut self,
        path: impl Into<String>,
        attribute: impl Into<String>,
    ) -> &mut Builder {
        self.attribute(AttributeTarget::Field, path, attribute)
    }

    /// [`Builder::field_attribute`] for the fields of the borrowing forms.
    pub fn ref_field_attribute(
        &mut self,
        path: impl Into<String>,
        attribute: impl Into<String>,
    ) -> &mut Builder {
        self.attribute(AttributeTarget::RefField, path, attribute)
    }

    fn attribute(
        &mut self,
        target: AttributeTarget,
        path: impl Into<String>,
        attribute: impl Into<String>,
    ) -> &mut Builder {
        self.options
            .attributes_mut(target)
            .insert(path, attribute.into());
        self
    }

    /// Takes the types of the included IDL files that `idl_path` selects ([IDL
    /// path](PathMap#idl-paths): takes files, such as `common`) from an existing crate
    /// instead of generating them again: `rust_path` is the module that crate generated for
    /// the file (`::common_types::common`). Nothing is generated for that file; every
    /// reference to its types, constants and services names them through `rust_path`. Two
    /// crates that include one common IDL then share its types (a value decoded by one is the
    /// other's type). The other crate must generate that file with the same type-mapping
    /// options (strings, collections, borrowing forms); a struct used as a set element or map
    /// key (which changes its doubles to `OrderedF64`) must be one in that crate too. A
    /// `rust_path` that is not a path is an [`Error::Options`].
    pub fn extern_path(
        &mut self,
        idl_path: impl Into<String>,
        rust_path: impl Into<String>,
    ) -> &mut Builder {
        self.options.extern_paths.insert(idl_path, rust_path.into());
        self
    }

    /// Holds the fields that `paths` select as `Box<T>` ([IDL paths](PathMap#idl-paths):
    /// takes the fields of structs, unions and exceptions whose type is a struct, union or
    /// exception). For a large struct held inline by many small values, or a union whose
    /// variants differ much in size (`rust.box` on a field in the IDL does the same).
    /// Recursive fields are boxed anyway.
    pub fn boxed<S: Into<String>>(&mut self, paths: impl IntoIterator<Item = S>) -> &mut Builder {
        self.options.boxed.insert_paths(paths);
        self
    }

    /// Maps the strings and binaries of the fields that `path` selects ([IDL
    /// path](PathMap#idl-paths): takes the fields of structs, unions and exceptions) with
    /// `strings` instead of the global [`Builder::strings`]: for example `Strings::Bytes` for
    /// the one large payload field that should slice the input buffer, `String` elsewhere.
    /// Where several paths select a field the last one given wins, after the IDL's `rust.type`
    /// annotations; typedefs used by such a field are spelled out there.
    ///
    /// ```no_run
    /// use thrift_codegen::{Builder, Collections, Strings};
    /// Builder::new()
    ///     .strings_for("storage.Blob.data", Strings::Bytes)
    ///     .collections_for("storage.Index", Collections::Hash)
    ///     .compile(["idl/storage.thrift"])?;
    /// # Ok::<(), thrift_codegen::Error>(())
    /// ```
    pub fn strings_for(&mut self, path: impl Into<String>, strings: Strings) -> &mut Builder {
        self.options.strings_for.insert(path, strings);
        self
    }

    /// [`Builder::strings_for`] for sets and maps: `Collections::Hash` or `Collections::BTree`
    /// for the fields that `path` selects (a struct holding a `HashMap` derives neither `Hash`
    /// nor `Ord`; sets and maps in set elements and map keys stay `BTree…`).
    pub fn collections_for(
        &mut self,
        path: impl Into<String>,
        collections: Collections,
    ) -> &mut Builder {
        self.options.collections_for.insert(path, collections);
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
        self.options.serde = yes;
        self
    }

    /// Keeps the fields that the IDL does not declare, in the structs and exceptions that
    /// `paths` select ([IDL paths](PathMap#idl-paths): takes structs and exceptions; `.` for
    /// all): each gets a member `unknown_fields: thrift_runtime::UnknownFields` that decoding
    /// fills and encoding writes back, each field where it came among the known ones. A proxy
    /// or store that decodes and re-encodes a message from a newer peer then gives the same
    /// bytes (with the same protocol; see `thrift_runtime::unknown`). Unions have no place for
    /// them and drop them. Off by default, and then costs nothing: unknown fields are skipped
    /// without allocating.
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
        self.options.keep_unknown_fields.insert_paths(paths);
        self
    }

    /// Adds a directory searched for includes not found next to the including file.
    pub fn include_dir(&mut self, dir: impl Into<PathBuf>) -> &mut Builder {
        self.options.include_dirs.push(dir.into());
        self
    }

    /// Where [`Builder::compile`] writes; default: `$OUT_DIR`.
    pub fn out_dir(&mut self, dir: impl Into<PathBuf>) -> &mut Builder {
        self.options.out_dir = Some(dir.into());
        self
    }

    /// The path generated code uses to reach the runtime; default `::thrift_runtime`. Set it
    /// when the runtime is re-exported, e.g. `crate::rt` or `::my_crate::thrift`.
    pub fn runtime_path(&mut self, path: impl Into<String>) -> &mut Builder {
        self.options.runtime_path = path.into();
        self
    }

    /// The name of the file that declares the module tree with `include!`s, to be
    /// `include!`d by the crate; default `thrift.rs`. The generated files go in the folder of
    /// the same name without `.rs` (`thrift/`).
    pub fn include_file(&mut self, name: impl Into<String>) -> &mut Builder {
        self.options.include_file = name.into();
        self
    }

    /// Whether [`Builder::compile`] prints `cargo:rerun-if-changed` for every file read
    /// (default: yes).
    pub fn emit_rerun_if_changed(&mut self, yes: bool) -> &mut Builder {
        self.options.emit_rerun_if_changed = yes;
        self
    }

    /// How sets and maps are represented: `BTreeSet`/`BTreeMap` (the default) or
    /// `HashSet`/`HashMap` (one allocation per decoded set or map); see [`Collections`].
    pub fn collections(&mut self, collections: Collections) -> &mut Builder {
        self.options.collections = collections;
        self
    }

    /// The hasher of the `HashSet`s and `HashMap`s generated with [`Collections::Hash`]:
    /// the path of a type implementing `BuildHasher + Default + Clone`, such as
    /// `::foldhash::fast::RandomState` or `::ahash::RandomState` (the consuming crate depends
    /// on it). Without it, std's `RandomState` (SipHash 1-3: resistant to HashDoS from
    /// hostile keys, and slower; see BENCHMARKS.md). Maps are then built with
    /// `with_capacity_and_hasher(n, Default::default())`. Setting it with the `BTree`
    /// collections is an error ([`Error::Options`]).
    pub fn hasher(&mut self, path: impl Into<String>) -> &mut Builder {
        self.options.hasher = Some(path.into());
        self
    }

    /// How strings and binaries are represented: `String`/`Vec<u8>` (the default), the
    /// runtime's `ByteString`/`Bytes`, slices of the input when decoding from a `Bytes`
    /// (`Foo::decode_bytes`), or `CompactString` (inline up to 24 bytes; the runtime's
    /// `compact_str` feature) and `Bytes`; see [`Strings`].
    pub fn strings(&mut self, strings: Strings) -> &mut Builder {
        self.options.strings = strings;
        self
    }

    fn check<P: AsRef<Path>>(&self, files: &[P]) -> Result<Checked, Error> {
        let mut loader = Loader::new();
        for dir in &self.options.include_dirs {
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

    /// [`Builder::generate`], with every warning, rendered as `check` renders it.
    pub(crate) fn generate_with_warnings<P: AsRef<Path>>(
        &self,
        files: impl IntoIterator<Item = P>,
    ) -> Result<(Vec<GeneratedFile>, String), Error> {
        let files: Vec<P> = files.into_iter().collect();
        let checked = self.check(&files)?;
        let (generated, warnings) = self.generate_checked(&checked)?;
        Ok((
            generated,
            thrift_idl_parser::diagnostic::render_all(&warnings, &checked.program.sources),
        ))
    }

    /// The generated files and every warning: the checker's (a field without an id, an
    /// unknown annotation...) and those of the `rust.*` annotations.
    fn generate_checked(
        &self,
        checked: &Checked,
    ) -> Result<(Vec<GeneratedFile>, Vec<thrift_idl_parser::Diagnostic>), Error> {
        let (model, annotation_warnings) = configure(checked, &self.options)?;
        let mut warnings: Vec<thrift_idl_parser::Diagnostic> = checked
            .diagnostics
            .iter()
            .filter(|d| !d.is_error())
            .cloned()
            .collect();
        warnings.extend(annotation_warnings);
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
        let checked = self.check(&files)?;
        if self.options.emit_rerun_if_changed {
            for id in 0..checked.program.sources.len() {
                let path = checked
                    .program
                    .sources
                    .path(thrift_idl_parser::FileId(id as u32));
                println!("cargo:rerun-if-changed={}", path.display());
            }
        }
        let out_dir = match &self.options.out_dir {
            Some(dir) => dir.clone(),
            None => std::env::var_os("OUT_DIR")
                .map(PathBuf::from)
                .ok_or(Error::NoOutDir)?,
        };
        let (generated, warnings) = self.generate_checked(&checked)?;
        print!("{}", cargo_warnings(&warnings, &checked.program.sources));
        // The files in a folder named after the include file (`thrift/` beside `thrift.rs`),
        // so that no other generator writing into OUT_DIR (Apache's `thrift --gen rs -out`
        // writes `echo.rs` for `echo.thrift`) overwrites them or is overwritten.
        let folder = PathBuf::from(&self.options.include_file).with_extension("");
        for file in &generated {
            write_if_changed(&out_dir.join(&folder).join(&file.path), &file.contents)?;
        }
        let include = if self.options.out_dir.is_some() {
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
        write_if_changed(&out_dir.join(&self.options.include_file), &include)
    }
}

/// The warnings as cargo shows them during a build: each line of each warning as `check`
/// renders it (`path:line:col: warning: ...`, the source line, the caret) as a
/// `cargo:warning=` line.
fn cargo_warnings(
    warnings: &[thrift_idl_parser::Diagnostic],
    sources: &thrift_idl_parser::SourceMap,
) -> String {
    let mut out = String::new();
    for warning in warnings {
        for line in warning.render(sources).lines() {
            out.push_str("cargo:warning=");
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}
