//! Generates Rust code from Apache Thrift IDL.
//!
//! ```no_run
//! // build.rs (with `thrift-codegen` in [build-dependencies], `thrift-runtime` in
//! // [dependencies])
//! fn main() -> Result<(), Box<dyn std::error::Error>> {
//!     thrift_codegen::Builder::new()
//!         .include_dir("idl")
//!         .compile(["idl/tutorial.thrift"])?; // writes OUT_DIR/thrift.rs and OUT_DIR/thrift/
//!     Ok(())
//! }
//! ```
//!
//! Then, in the crate, `mod idl { include!(concat!(env!("OUT_DIR"), "/thrift.rs")); }` gives one
//! module per IDL file (`idl::tutorial::Place`, with `Place::decode::<Compact>(&bytes)` and
//! `place.encode_to_vec::<Compact>()`; see `thrift_runtime`). An IDL error fails the build with
//! every diagnostic, located, as `thrift-codegen check` prints them.
//!
//! The command line (`cargo install --locked thrift-codegen --features cli`, or `--path
//! thrift-codegen` in a checkout):
//!
//! ```text
//! thrift-codegen check -I idl idl/tutorial.thrift          # every error and warning
//! thrift-codegen generate -I idl -o src/generated idl/tutorial.thrift
//! ```
//!
//! - From `build.rs`: [`Builder`] (include dirs, output dir, `cargo:rerun-if-changed`, runtime
//!   path), or [`Builder::generate`] for the files in memory.
//! - From the command line: the `thrift-codegen` binary (feature `cli`:
//!   `cargo install --locked --path thrift-codegen --features cli`).
//!
//! # The Rust mapping
//!
//! | IDL | Rust |
//! | --- | --- |
//! | one `.thrift` file | one module: `namespace rs a.b` gives `a::b`, otherwise the file name in snake case |
//! | `struct`, `exception` | `pub struct` with `pub` fields; exceptions implement `Display` and `Error` |
//! | `union` | `pub enum`, one variant per field |
//! | `enum` | `pub struct Name(pub i32)` with an associated const per value: unknown values survive a round trip, `match` works on the consts |
//! | `typedef` | `pub type` |
//! | `const` | `pub const` for scalars and strings (`&str`), binaries (`&[u8]`); `pub static …: LazyLock<T>` for containers and structs |
//! | `bool` `byte`/`i8` `i16` `i32` `i64` `double` | `bool` `i8` `i16` `i32` `i64` `f64` |
//! | `string`, `binary`, `uuid` | `String`, `Vec<u8>`, `[u8; 16]`; or with [`Strings::Bytes`] `thrift_runtime::ByteString`, `thrift_runtime::Bytes` (slices of the input when decoded with `Foo::decode_bytes`), or with [`Strings::Compact`] `thrift_runtime::CompactString` (inline up to 24 bytes) and `thrift_runtime::Bytes` |
//! | `list<T>`, `set<T>`, `map<K, V>` | `Vec<T>`, `BTreeSet<T>`, `BTreeMap<K, V>` (ordered: deterministic encoding, and `Hash`/`Ord` can be derived), or `HashSet<T>`, `HashMap<K, V>` with [`Collections::Hash`] (one allocation per decoded set or map; `HashSet<T, H>`, `HashMap<K, V, H>` with [`Builder::hasher`]); a `double` inside a set element or map key is `thrift_runtime::OrderedF64` |
//!
//! Requiredness follows Apache Thrift's wire semantics:
//! - `required` fields are `T`, always written; a missing one is a decode error naming the struct
//!   and the field;
//! - `optional` fields are `Option<T>`, written when `Some`, `None` when missing;
//!   `Default::default()` is `Some(idl default)` when the IDL gives one;
//! - fields with neither keyword are `T`, always written; missing on read they take the IDL
//!   default, or the type's zero value.
//!
//! A field that closes a cycle of structs is boxed (`Box<T>`, or `Option<Box<T>>` unless it is
//! required), and so is a field through which structs would nest more than 32 deep inline
//! (rustc computes a type's layout one level per nested type and stops at its recursion limit,
//! 128; Apache's `RecursionDepthTest.thrift` nests 65). Every type derives `Debug`, `Clone` and `PartialEq`, and `Eq`, `Hash`,
//! `PartialOrd`, `Ord` and `Default` when all of its fields allow it (a `double` field prevents
//! `Eq`, `Hash` and `Ord`; a `HashSet`/`HashMap` field prevents `Hash`, `PartialOrd` and `Ord`).
//!
//! Borrowing forms: every struct, union and exception `Foo` that holds strings or binaries
//! (directly or through other types) also gets `FooRef<'de>`, decoded from a byte slice without
//! copying: strings are `&'de str` (UTF-8 checked), binaries `&'de [u8]`, nested structs
//! inline, lists and sets `Vec`s, maps `Vec`s of pairs. `FooRef::decode::<Compact>(&bytes)`
//! allocates nothing for structs of scalars, strings, binaries and nested structs;
//! `Foo::from(&foo_ref)` converts to the owned form. IDL defaults of containers and structs
//! are not built in borrowing forms: such fields are `Option`s there (`None` when absent).
//! In arena mode ([`Builder::arena`]) the borrowing forms hold lists and sets as `&'de [T]`,
//! maps as `&'de [(K, V)]` and optional and boxed structs as `Option<&'de TRef<'de>>`, in a
//! `thrift_runtime::Arena` given to `FooRef::decode_in`; every struct that holds strings,
//! binaries, containers or structs has a borrowing form then.
//!
//! Unions: an unknown field is skipped; a union with no known field set on the wire is an
//! `InvalidData` error; with several fields set, the last one wins.
//!
//! Generated names: types and variants in `UpperCamelCase`, fields and modules in `snake_case`,
//! consts and enum values in `SCREAMING_SNAKE_CASE`; Rust keywords become raw identifiers
//! (`r#type`), and `self`, `Self`, `super`, `crate` get a `_` suffix; names that clash after
//! conversion get `_2`, `_3`… in declaration order.

#![deny(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

mod builder;
mod by_name;
#[cfg(feature = "cli")]
pub mod cli;
pub mod compat;
#[cfg(feature = "dynamic")]
pub mod dynamic;
mod emit;
mod error;
mod ident;
mod model;
mod options;
mod output;
mod path_map;

pub use builder::Builder;
pub use error::Error;
pub use options::{Collections, Strings};
pub use output::{GeneratedFile, mod_rs, single_file};
pub use path_map::PathMap;

/// The crate's README, whose examples are compiled as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
