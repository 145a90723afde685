//! The fewest heap bytes a decoded Parquet footer can take in a layout faithful to the IDL,
//! against what the `parquet` crate's own `ParquetMetaData` takes (issue #27's "bytes per
//! decoded footer" target).
//!
//! ```text
//! cargo run --release --manifest-path benchmarks/Cargo.toml --bin layout_floor --features layout -- benchmarks/data/*.parquet
//! ```
//!
//! The floor is computed, not generated: each footer is read with the IDL
//! (`thrift_codegen::dynamic`, no generated code), and every value is given the smallest
//! layout a generator could emit with the types a Rust user expects of the IDL:
//! - strings and binaries are slices of the input (`&str`, `&[u8]`: 16 bytes, nothing copied);
//! - lists, sets and maps are slices of one arena (16 bytes inline), their elements packed
//!   there with no allocator overhead and no spare capacity;
//! - an optional number is an `Option` (`Option<i64>` 16 bytes, `Option<i32>` 8: the tag pads
//!   to the value), an optional string or container costs nothing more (its niche);
//! - each optional struct field is, field by field, whichever of inline (`Option<T>`) or a
//!   reference into the arena (`Option<&T>`: 8 bytes, and the struct's size where it is set)
//!   takes fewer bytes over this very footer: the choice a generator could only make by
//!   knowing the writer;
//! - a struct's fields are ordered with no padding between them (as rustc orders them), a
//!   union is its largest variant and a one-byte tag, an enum 4 bytes.
//!
//! The floor counts the arena's bytes: every list's elements and every struct held by
//! reference, and not the top-level `FileMetaData` itself (a borrowed decode returns it by
//! value). The parquet crate's bytes are counted the way the `bench` binary counts `bytes/op`:
//! every byte allocated while `ParquetMetaDataReader::decode_metadata` runs.

use std::alloc::{GlobalAlloc, Layout, System};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use serde_json::Value as Json;
use thrift_codegen::dynamic::{self, Protocol};
use thrift_idl_parser::ast::{BaseType, Definition, Requiredness, StructKind, Type, TypeKind};
use thrift_idl_parser::{DefId, FileId, Loader, Program};

struct Counting;

static BYTES: AtomicU64 = AtomicU64::new(0);

// SAFETY: every call is passed to `System` unchanged; the counter is only added to.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        BYTES.fetch_add(layout.size() as u64, Relaxed);
        // SAFETY: the caller's contract, passed on.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract, passed on.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        BYTES.fetch_add(new_size as u64, Relaxed);
        // SAFETY: the caller's contract, passed on.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// A type resolved through typedefs.
#[derive(Clone, Copy)]
enum Ty<'p> {
    Base(BaseType),
    Enum,
    Struct(DefId),
    List(FileId, &'p Type),
    Map(FileId, &'p Type, FileId, &'p Type),
}

/// Size and alignment of an inline slot, and whether it has a niche (an `Option` of it takes
/// no more room).
#[derive(Clone, Copy, Debug)]
struct Slot {
    size: u64,
    align: u64,
    niche: bool,
}

const SLICE: Slot = Slot {
    size: 16,
    align: 8,
    niche: true,
};

fn round_up(n: u64, align: u64) -> u64 {
    n.div_ceil(align) * align
}

/// An `Option` of a slot.
fn optional(s: Slot) -> Slot {
    if s.niche {
        s
    } else {
        Slot {
            size: round_up(s.size + 1, s.align),
            align: s.align,
            niche: true,
        }
    }
}

struct Floor<'p> {
    program: &'p Program,
    /// Per optional struct-typed field (struct, field index): how many values of its struct
    /// the footer holds, and in how many the field is set.
    seen: HashMap<(DefId, usize), (u64, u64)>,
    /// Per struct: its inline slot, once computed (with its optional struct fields decided).
    slots: HashMap<DefId, Slot>,
    /// Optional struct fields held by reference.
    by_ref: HashMap<(DefId, usize), bool>,
    /// Whether each optional struct field is chosen by what this footer sets; else every one
    /// larger than a reference is held by reference (the rule of a generator that does not
    /// know the writer).
    per_footer: bool,
}

impl<'p> Floor<'p> {
    fn resolve(&self, mut file: FileId, mut ty: &'p Type) -> Ty<'p> {
        loop {
            return match &ty.kind {
                TypeKind::Base(b) => Ty::Base(*b),
                TypeKind::List { element, .. } | TypeKind::Set { element, .. } => {
                    Ty::List(file, element)
                }
                TypeKind::Map { key, value, .. } => Ty::Map(file, key, file, value),
                TypeKind::Named(name) => {
                    let id = self
                        .program
                        .lookup_type(file, &name.name)
                        .expect("a checked program's type");
                    match self.program.definition(id) {
                        Definition::Typedef(t) => {
                            (file, ty) = (id.file, &t.ty);
                            continue;
                        }
                        Definition::Enum(_) => Ty::Enum,
                        Definition::Senum(_) => Ty::Base(BaseType::String),
                        Definition::Struct(_) => Ty::Struct(id),
                        _ => unreachable!("not a type"),
                    }
                }
            };
        }
    }

    fn fields(&self, id: DefId) -> (StructKind, Vec<(&'p str, Requiredness, Ty<'p>)>) {
        let s = self.program.as_struct(id).expect("a struct");
        let fields = s
            .fields
            .iter()
            .map(|f| {
                (
                    f.name.name.as_str(),
                    f.requiredness,
                    self.resolve(id.file, &f.ty),
                )
            })
            .collect();
        (s.kind, fields)
    }

    /// Pass 1: counts how often each optional struct field is present.
    fn count(&mut self, ty: Ty<'p>, json: &Json) {
        match ty {
            Ty::Base(_) | Ty::Enum => {}
            Ty::List(file, element) => {
                let element = self.resolve(file, element);
                for item in json.as_array().expect("a list") {
                    self.count(element, item);
                }
            }
            Ty::Map(kf, k, vf, v) => {
                let (k, v) = (self.resolve(kf, k), self.resolve(vf, v));
                match json {
                    Json::Object(map) => {
                        for value in map.values() {
                            self.count(v, value);
                        }
                    }
                    Json::Array(pairs) => {
                        for pair in pairs {
                            self.count(k, &pair[0]);
                            self.count(v, &pair[1]);
                        }
                    }
                    _ => panic!("a map"),
                }
            }
            Ty::Struct(id) => {
                let (kind, fields) = self.fields(id);
                let object = json.as_object().expect("a struct");
                for (index, (name, req, fty)) in fields.into_iter().enumerate() {
                    let value = object.get(name);
                    if kind != StructKind::Union
                        && req == Requiredness::Optional
                        && matches!(fty, Ty::Struct(_))
                    {
                        let entry = self.seen.entry((id, index)).or_default();
                        entry.0 += 1;
                        entry.1 += u64::from(value.is_some());
                    }
                    if let Some(value) = value {
                        self.count(fty, value);
                    }
                }
            }
        }
    }

    /// The inline slot of a value of `ty` (a struct's optional struct fields decided first).
    fn slot(&mut self, ty: Ty<'p>, visiting: &mut Vec<DefId>) -> Slot {
        let (size, align, niche) = match ty {
            Ty::Base(BaseType::Bool) => (1, 1, true),
            Ty::Base(BaseType::I8) => (1, 1, false),
            Ty::Base(BaseType::I16) => (2, 2, false),
            Ty::Base(BaseType::I32) | Ty::Enum => (4, 4, false),
            Ty::Base(BaseType::I64 | BaseType::Double) => (8, 8, false),
            Ty::Base(BaseType::Uuid) => (16, 1, false),
            Ty::Base(BaseType::String | BaseType::Binary | BaseType::Slist)
            | Ty::List(..)
            | Ty::Map(..) => return SLICE,
            Ty::Struct(id) => return self.struct_slot(id, visiting),
        };
        Slot { size, align, niche }
    }

    fn struct_slot(&mut self, id: DefId, visiting: &mut Vec<DefId>) -> Slot {
        if let Some(slot) = self.slots.get(&id) {
            return *slot;
        }
        visiting.push(id);
        let (kind, fields) = self.fields(id);
        let mut slots = Vec::new();
        for (index, (_, req, fty)) in fields.into_iter().enumerate() {
            let by_ref = |me: &mut Self, visiting: &mut Vec<DefId>| -> bool {
                let Ty::Struct(inner) = fty else { return false };
                if visiting.contains(&inner) {
                    return true; // recursive: held by reference anyway
                }
                if kind == StructKind::Union || req != Requiredness::Optional {
                    return false;
                }
                let inline = optional(me.struct_slot(inner, visiting));
                if !me.per_footer {
                    return inline.size > 8;
                }
                let (values, set) = me.seen.get(&(id, index)).copied().unwrap_or_default();
                // Inline costs its slot in every value of the struct; by reference, 8 bytes
                // in every value and the struct where it is set.
                values * inline.size > values * 8 + set * me.struct_slot(inner, visiting).size
                    || (values == 0 && inline.size > 8)
            };
            let held_by_ref = by_ref(self, visiting);
            let slot = if held_by_ref {
                self.by_ref.insert((id, index), true);
                Slot {
                    size: 8,
                    align: 8,
                    niche: true,
                }
            } else {
                let slot = self.slot(fty, visiting);
                if kind != StructKind::Union && req == Requiredness::Optional {
                    optional(slot)
                } else {
                    slot
                }
            };
            slots.push(slot);
        }
        visiting.pop();
        let align = slots.iter().map(|s| s.align).max().unwrap_or(1);
        let slot = if kind == StructKind::Union {
            let payload = slots.iter().map(|s| s.size).max().unwrap_or(0);
            Slot {
                size: round_up(payload + 1, align),
                align,
                niche: true,
            }
        } else {
            Slot {
                size: round_up(slots.iter().map(|s| s.size).sum(), align),
                align,
                niche: slots.iter().any(|s| s.niche),
            }
        };
        self.slots.insert(id, slot);
        slot
    }

    /// Pass 2: the arena bytes under a value of `ty` (not counting its own slot).
    fn arena(&mut self, ty: Ty<'p>, json: &Json) -> u64 {
        match ty {
            Ty::Base(_) | Ty::Enum => 0,
            Ty::List(file, element) => {
                let element = self.resolve(file, element);
                let slot = self.slot(element, &mut Vec::new());
                let items = json.as_array().expect("a list");
                let mut bytes = items.len() as u64 * slot.size;
                for item in items {
                    bytes += self.arena(element, item);
                }
                bytes
            }
            Ty::Map(kf, k, vf, v) => {
                let (k, v) = (self.resolve(kf, k), self.resolve(vf, v));
                let (ks, vs) = (self.slot(k, &mut Vec::new()), self.slot(v, &mut Vec::new()));
                let pair = round_up(ks.size + vs.size, ks.align.max(vs.align));
                let mut bytes = 0;
                match json {
                    Json::Object(map) => {
                        // Keys given as JSON object keys are strings, numbers, bools or enum
                        // names: no arena bytes of their own.
                        for value in map.values() {
                            bytes += pair + self.arena(v, value);
                        }
                    }
                    Json::Array(pairs) => {
                        for p in pairs {
                            bytes += pair + self.arena(k, &p[0]) + self.arena(v, &p[1]);
                        }
                    }
                    _ => panic!("a map"),
                }
                bytes
            }
            Ty::Struct(id) => {
                let (_, fields) = self.fields(id);
                let object = json.as_object().expect("a struct");
                let mut bytes = 0;
                for (index, (name, _, fty)) in fields.into_iter().enumerate() {
                    let Some(value) = object.get(name) else {
                        continue;
                    };
                    if self.by_ref.contains_key(&(id, index)) {
                        bytes += self.slot(fty, &mut Vec::new()).size;
                    }
                    bytes += self.arena(fty, value);
                }
                bytes
            }
        }
    }
}

fn footer(path: &PathBuf) -> Vec<u8> {
    let file = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert!(
        file.len() >= 12 && file.ends_with(b"PAR1"),
        "{}: not Parquet",
        path.display()
    );
    let len_at = file.len() - 8;
    let len = u32::from_le_bytes(file[len_at..len_at + 4].try_into().unwrap()) as usize;
    file[len_at - len..len_at].to_vec()
}

fn main() {
    let files: Vec<PathBuf> = std::env::args_os().skip(1).map(PathBuf::from).collect();
    if files.is_empty() {
        eprintln!("usage: layout_floor FILE.parquet…");
        std::process::exit(2);
    }
    let idl = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/corpus/apache__parquet-format/src/main/thrift/parquet.thrift");
    let checked = thrift_idl_parser::check_files(&Loader::new(), &[&idl]);
    assert!(!checked.has_errors(), "{}", checked.render_diagnostics());
    let program = &checked.program;
    let id = dynamic::find_type(program, "parquet.FileMetaData").expect("FileMetaData");

    println!(
        "| footer | column chunks | floor (bytes) | per chunk | fixed rule (bytes) | per chunk \
         | parquet crate (bytes) | per chunk | floor / parquet crate | fixed rule / parquet crate |"
    );
    println!("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|");
    for path in &files {
        let bytes = footer(path);
        let json = dynamic::decode(program, id, Protocol::Compact, &bytes)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let chunks: u64 = json["row_groups"]
            .as_array()
            .expect("row groups")
            .iter()
            .map(|rg| rg["columns"].as_array().expect("columns").len() as u64)
            .sum();
        let [(floor, arena), (_, fixed)] = [true, false].map(|per_footer| {
            let mut floor = Floor {
                program,
                seen: HashMap::new(),
                slots: HashMap::new(),
                by_ref: HashMap::new(),
                per_footer,
            };
            floor.count(Ty::Struct(id), &json);
            floor.struct_slot(id, &mut Vec::new());
            let arena = floor.arena(Ty::Struct(id), &json);
            (floor, arena)
        });

        let before = BYTES.load(Relaxed);
        let metadata = parquet::file::metadata::ParquetMetaDataReader::decode_metadata(&bytes)
            .expect("the parquet crate decodes the footer");
        let crate_bytes = BYTES.load(Relaxed) - before;
        drop(metadata);

        let name = path.file_stem().unwrap_or_default().to_string_lossy();
        let per_chunk = |bytes: u64| bytes / chunks.max(1);
        println!(
            "| `{name}` | {chunks} | {arena} | {} | {fixed} | {} | {crate_bytes} | {} | {:.2} | {:.2} |",
            per_chunk(arena),
            per_chunk(fixed),
            per_chunk(crate_bytes),
            arena as f64 / crate_bytes as f64,
            fixed as f64 / crate_bytes as f64,
        );
        let mut refs: Vec<String> = floor
            .by_ref
            .keys()
            .map(|(s, f)| {
                let s = program.as_struct(*s).expect("a struct");
                format!("{}.{}", s.name.name, s.fields[*f].name.name)
            })
            .collect();
        refs.sort();
        eprintln!(
            "{name}: optional structs held by reference: {}",
            refs.join(", ")
        );
        let mut sizes: Vec<String> = floor
            .slots
            .iter()
            .map(|(s, slot)| {
                let s = program.as_struct(*s).expect("a struct");
                format!("{} {}", s.name.name, slot.size)
            })
            .collect();
        sizes.sort();
        eprintln!("{name}: inline sizes: {}", sizes.join(", "));
    }
}
