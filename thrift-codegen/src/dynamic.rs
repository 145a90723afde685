//! Any Thrift struct or RPC message to and from JSON at run time, with no generated code
//! (`thrift-codegen decode` / `encode`; feature `dynamic`, on with `cli`).
//!
//! The bytes are read into the runtime's schema-less value model
//! ([`thrift_runtime::unknown::Value`], the one `keep_unknown_fields` keeps unknown fields
//! in) with the runtime's readers and their limits, then named and typed with the IDL; JSON is
//! turned into that model with the IDL, then written with the runtime's writers. The JSON is
//! the one the generated types' serde support gives (docs/src/reference/mapping.md, "serde"): structs as objects of
//! field names, unions as `{"variant": value}`, enums by name (or number when unnamed),
//! binaries and uuids as arrays of byte values, maps with string, integer, bool or enum keys as
//! objects and others as arrays of `[key, value]` pairs; doubles that JSON has no number for are
//! `"NaN"`, `"Infinity"` and `"-Infinity"`, and another NaN its bits (`"NaN:0xfff8000000000000"`). Decoding is lenient where a reader of bytes
//! wants to see them: a field the IDL does not declare (or with another wire type) is shown
//! as `"#<id>"` with its value read without a schema, and a missing `required` field is not an
//! error; encoding skips `"#…"` keys and requires what the IDL requires.
//!
//! Errors are located: the byte offset where the bytes stop making sense, or the path of the
//! value (`.columns[3].meta_data`) whose type does not fit.

use std::fmt;

use serde_json::{Map, Number, Value as Json};
use thrift_idl_parser::ast::{
    BaseType, Definition, Field, Function, Requiredness, StructKind, Type, TypeKind,
};
use thrift_idl_parser::{DefId, FileId, Program};
use thrift_runtime::unknown::Value;
use thrift_runtime::{
    BinaryReader, BinaryWriter, CompactReader, CompactWriter, JsonReader, JsonWriter, MessageType,
    OrderedF64, ProtocolReader, ProtocolWriter, SliceInput, TType,
};

/// The protocol of the bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Protocol {
    /// Apache's binary protocol (strict or old-style message headers).
    Binary,
    /// Apache's compact protocol.
    Compact,
    /// Apache's JSON protocol (`TJSONProtocol`).
    Json,
}

/// Why bytes or JSON could not be converted, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    /// What is wrong.
    pub message: String,
    /// The byte offset in the input where reading stopped, for bytes that are not valid.
    pub offset: Option<usize>,
    /// The path of the value that does not fit the IDL (`.a.b[3]`); empty for the top.
    pub path: String,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(offset) = self.offset {
            write!(f, "byte {offset}: ")?;
        }
        if !self.path.is_empty() {
            write!(f, "at `{}`: ", self.path)?;
        }
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

fn error(message: impl Into<String>) -> Error {
    Error {
        message: message.into(),
        offset: None,
        path: String::new(),
    }
}

/// The type `name` names: a struct, union, exception, typedef or enum, as `file.Type` (the
/// file's name without `.thrift`) or `Type` when one file defines it.
pub fn find_type(program: &Program, name: &str) -> Result<DefId, Error> {
    let (file, local) = match name.rsplit_once('.') {
        Some((file, local)) => (Some(file), local),
        None => (None, name),
    };
    let files: Vec<_> = match file {
        Some(file) => program.files_named(file).collect(),
        None => program.files().collect(),
    };
    let mut found = Vec::new();
    for f in files {
        for (index, d) in f.document.definitions.iter().enumerate() {
            let is_type = matches!(
                d,
                Definition::Struct(_)
                    | Definition::Typedef(_)
                    | Definition::Enum(_)
                    | Definition::Senum(_)
            );
            if is_type && d.name().name == local {
                found.push(DefId { file: f.id, index });
            }
        }
    }
    match found.as_slice() {
        [id] => Ok(*id),
        [] => Err(error(format!(
            "`{name}` names no struct, union, exception, typedef or enum (`file.Type`, the file's name without .thrift)"
        ))),
        _ => Err(error(format!(
            "`{name}` is defined in {} files: name it as `file.Type`",
            found.len()
        ))),
    }
}

/// Decodes `bytes`, one value of the type `id` ([`find_type`]) in `protocol`, to JSON. Bytes
/// after the value are an error.
pub fn decode(
    program: &Program,
    id: DefId,
    protocol: Protocol,
    bytes: &[u8],
) -> Result<Json, Error> {
    let convert = Convert::new(program, protocol);
    let ttype = convert.ttype(Ty::Def(id))?;
    let (value, _) = read(protocol, bytes, ttype, false)?;
    convert.value_to_json(Ty::Def(id), &value)
}

/// Encodes JSON as one value of the type `id` ([`find_type`]) in `protocol`.
pub fn encode(
    program: &Program,
    id: DefId,
    protocol: Protocol,
    json: &Json,
) -> Result<Vec<u8>, Error> {
    let value = Convert::new(program, protocol).value_from_json(Ty::Def(id), json)?;
    write(protocol, None, &value)
}

/// Decodes one RPC message (header, then the args, result or exception) to
/// `{"name", "type": "call"|"reply"|"exception"|"oneway", "seq", "args"|"result"|"exception"}`.
/// The function is looked up by name among every service of the program (a multiplexed name,
/// `Service:function`, names its service); `service` picks one when several define it.
pub fn decode_message(
    program: &Program,
    service: Option<&str>,
    protocol: Protocol,
    bytes: &[u8],
) -> Result<Json, Error> {
    let (value, header) = read(protocol, bytes, TType::Struct, true)?;
    let (name, kind, seq) = header.expect("a message was read");
    let convert = Convert::new(program, protocol);
    let (key, body) = match kind {
        MessageType::Exception => (
            "exception",
            convert.struct_to_json(&StructSpec::application(), &value)?,
        ),
        _ => {
            let (file, function) = find_function(program, service, &name)?;
            if kind == MessageType::Reply {
                (
                    "result",
                    convert.struct_to_json(&StructSpec::result(file, function), &value)?,
                )
            } else {
                (
                    "args",
                    convert.struct_to_json(&StructSpec::args(file, function), &value)?,
                )
            }
        }
    };
    let mut out = Map::new();
    out.insert("name".into(), Json::String(name));
    out.insert("type".into(), Json::String(kind_name(kind).into()));
    out.insert("seq".into(), Json::Number(seq.into()));
    out.insert(key.into(), body);
    Ok(Json::Object(out))
}

/// Encodes a message in [`decode_message`]'s JSON form.
pub fn encode_message(
    program: &Program,
    service: Option<&str>,
    protocol: Protocol,
    json: &Json,
) -> Result<Vec<u8>, Error> {
    let object = json
        .as_object()
        .ok_or_else(|| error("a message is an object with `name`, `type`, `seq` and its body"))?;
    let name = object
        .get("name")
        .and_then(Json::as_str)
        .ok_or_else(|| error("the message has no string `name`"))?;
    let kind = match object.get("type").and_then(Json::as_str) {
        Some("call") => MessageType::Call,
        Some("reply") => MessageType::Reply,
        Some("exception") => MessageType::Exception,
        Some("oneway") => MessageType::Oneway,
        _ => {
            return Err(error(
                "the message's `type` is none of \"call\", \"reply\", \"exception\", \"oneway\"",
            ));
        }
    };
    let seq = object
        .get("seq")
        .and_then(Json::as_i64)
        .and_then(|n| i32::try_from(n).ok())
        .ok_or_else(|| error("the message has no `seq` that fits an i32"))?;
    let convert = Convert::new(program, protocol);
    let (key, spec) = match kind {
        MessageType::Exception => ("exception", StructSpec::application()),
        _ => {
            let (file, function) = find_function(program, service, name)?;
            if kind == MessageType::Reply {
                ("result", StructSpec::result(file, function))
            } else {
                ("args", StructSpec::args(file, function))
            }
        }
    };
    let body = object
        .get(key)
        .ok_or_else(|| error(format!("a {} message has `{key}`", kind_name(kind))))?;
    let value = convert.struct_from_json(&spec, body).map_err(|mut e| {
        e.path = format!(".{key}{}", e.path);
        e
    })?;
    write(protocol, Some((name, kind, seq)), &value)
}

fn kind_name(kind: MessageType) -> &'static str {
    match kind {
        MessageType::Call => "call",
        MessageType::Reply => "reply",
        MessageType::Exception => "exception",
        MessageType::Oneway => "oneway",
    }
}

/// The function a message names, and its service's file.
fn find_function<'p>(
    program: &'p Program,
    service: Option<&str>,
    name: &str,
) -> Result<(FileId, &'p Function), Error> {
    let (service, function) = match name.split_once(':') {
        Some((s, f)) => (Some(service.unwrap_or(s)), f),
        None => (service, name),
    };
    let mut found = Vec::new();
    for f in program.files() {
        for d in &f.document.definitions {
            let Definition::Service(s) = d else { continue };
            if service.is_some_and(|wanted| wanted != s.name.name) {
                continue;
            }
            found.extend(
                s.functions
                    .iter()
                    .filter(|candidate| candidate.name.name == function)
                    .map(|candidate| (f.id, candidate, &s.name.name)),
            );
        }
    }
    match found.as_slice() {
        [(file, function, _)] => Ok((*file, *function)),
        [] => Err(error(format!(
            "no service of the IDL has a function `{function}`{}",
            service.map_or(String::new(), |s| format!(" (in service `{s}`)"))
        ))),
        several => Err(error(format!(
            "services {} all have a function `{function}`: name one with --service",
            several
                .iter()
                .map(|(_, _, s)| format!("`{s}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ))),
    }
}

type Header = Option<(String, MessageType, i32)>;

/// Reads one value of `ttype` (after a message header when `message`), and checks nothing
/// follows.
fn read(
    protocol: Protocol,
    bytes: &[u8],
    ttype: TType,
    message: bool,
) -> Result<(Value, Header), Error> {
    fn go<'de, R: ProtocolReader<'de>>(
        r: &mut R,
        ttype: TType,
        message: bool,
    ) -> thrift_runtime::Result<(Value, Header)> {
        let header = if message {
            let h = r.read_message_begin()?;
            Some((h.name.into_owned(), h.kind, h.seq))
        } else {
            None
        };
        let value = Value::read(r, ttype)?;
        if message {
            r.read_message_end()?;
        }
        Ok((value, header))
    }
    let located = |e: thrift_runtime::Error, offset: usize| Error {
        message: e.to_string(),
        offset: Some(offset),
        path: String::new(),
    };
    let (result, rest, position) = match protocol {
        Protocol::Binary => {
            let mut r = BinaryReader::new(SliceInput::new(bytes));
            let result = go(&mut r, ttype, message);
            (result, r.input().rest().len(), r.input().position())
        }
        Protocol::Compact => {
            let mut r = CompactReader::new(SliceInput::new(bytes));
            let result = go(&mut r, ttype, message);
            (result, r.input().rest().len(), r.input().position())
        }
        Protocol::Json => {
            let mut r = JsonReader::new(SliceInput::new(bytes));
            let result = go(&mut r, ttype, message);
            (result, r.input().rest().len(), r.input().position())
        }
    };
    let read = result.map_err(|e| located(e, position))?;
    // JSON may end in white space.
    let trailing = match protocol {
        Protocol::Json => bytes[position..].iter().any(|b| !b.is_ascii_whitespace()),
        _ => rest > 0,
    };
    if trailing {
        return Err(Error {
            message: format!("{} bytes after the value", bytes.len() - position),
            offset: Some(position),
            path: String::new(),
        });
    }
    Ok(read)
}

fn write(
    protocol: Protocol,
    header: Option<(&str, MessageType, i32)>,
    value: &Value,
) -> Result<Vec<u8>, Error> {
    fn go<W: ProtocolWriter>(
        w: &mut W,
        header: Option<(&str, MessageType, i32)>,
        value: &Value,
    ) -> thrift_runtime::Result<()> {
        if let Some((name, kind, seq)) = header {
            w.write_message_begin(name, kind, seq)?;
        }
        value.write(w)?;
        if header.is_some() {
            w.write_message_end()?;
        }
        Ok(())
    }
    let mut out = Vec::new();
    let result = match protocol {
        Protocol::Binary => go(&mut BinaryWriter::new(&mut out), header, value),
        Protocol::Compact => go(&mut CompactWriter::new(&mut out), header, value),
        Protocol::Json => go(&mut JsonWriter::new(&mut out), header, value),
    };
    result.map_err(|e| error(e.to_string()))?;
    Ok(out)
}

/// A type: from the IDL, a definition named (`--type`), or a base type (the fields of
/// `TApplicationException`).
#[derive(Clone, Copy)]
enum Ty<'p> {
    Idl(FileId, &'p Type),
    Def(DefId),
    Base(BaseType),
}

/// A type with typedefs followed.
enum Resolved<'p> {
    Base(BaseType),
    Enum(&'p thrift_idl_parser::ast::Enum),
    Senum,
    Struct(DefId),
    List(Ty<'p>),
    Set(Ty<'p>),
    Map(Ty<'p>, Ty<'p>),
}

struct FieldSpec<'p> {
    id: i16,
    name: &'p str,
    ty: Ty<'p>,
    required: bool,
}

/// The fields of a struct, of a function's args or result, or of `TApplicationException`.
struct StructSpec<'p> {
    name: String,
    union: bool,
    fields: Vec<FieldSpec<'p>>,
}

impl<'p> StructSpec<'p> {
    fn of(program: &'p Program, id: DefId) -> StructSpec<'p> {
        let s = program.as_struct(id).expect("a struct's id");
        StructSpec {
            name: s.name.name.clone(),
            union: s.kind == StructKind::Union,
            fields: fields(id.file, &s.fields),
        }
    }

    fn args(file: FileId, f: &'p Function) -> StructSpec<'p> {
        StructSpec {
            name: format!("{}_args", f.name.name),
            union: false,
            fields: fields(file, &f.params),
        }
    }

    fn result(file: FileId, f: &'p Function) -> StructSpec<'p> {
        let mut out = Vec::new();
        if let Some(ty) = &f.return_type {
            out.push(FieldSpec {
                id: 0,
                name: "success",
                ty: Ty::Idl(file, ty),
                required: false,
            });
        }
        out.extend(fields(file, &f.throws).into_iter().map(|mut field| {
            field.required = false;
            field
        }));
        StructSpec {
            name: format!("{}_result", f.name.name),
            union: false,
            fields: out,
        }
    }

    fn application() -> StructSpec<'static> {
        StructSpec {
            name: "TApplicationException".into(),
            union: false,
            fields: vec![
                FieldSpec {
                    id: 1,
                    name: "message",
                    ty: Ty::Base(BaseType::String),
                    required: false,
                },
                FieldSpec {
                    id: 2,
                    name: "type",
                    ty: Ty::Base(BaseType::I32),
                    required: false,
                },
            ],
        }
    }
}

fn fields(file: FileId, fields: &[Field]) -> Vec<FieldSpec<'_>> {
    fields
        .iter()
        .map(|f| FieldSpec {
            id: f.id,
            name: &f.name.name,
            ty: Ty::Idl(file, &f.ty),
            required: f.requiredness == Requiredness::Required,
        })
        .collect()
}

struct Convert<'p> {
    program: &'p Program,
    /// The JSON protocol carries a binary as base64 text.
    base64: bool,
}

/// Adds `segment` in front of an error's path (errors are made at the leaf and travel up).
fn at(segment: impl fmt::Display) -> impl FnOnce(Error) -> Error {
    move |mut e| {
        e.path = format!("{segment}{}", e.path);
        e
    }
}

impl<'p> Convert<'p> {
    fn new(program: &'p Program, protocol: Protocol) -> Convert<'p> {
        Convert {
            program,
            base64: protocol == Protocol::Json,
        }
    }

    fn resolve(&self, ty: Ty<'p>) -> Result<Resolved<'p>, Error> {
        let (mut file, mut ty) = match ty {
            Ty::Base(b) => return Ok(Resolved::Base(b)),
            Ty::Idl(file, ty) => (file, ty),
            Ty::Def(id) => match self.program.definition(id) {
                Definition::Typedef(t) => (id.file, &t.ty),
                Definition::Enum(e) => return Ok(Resolved::Enum(e)),
                Definition::Senum(_) => return Ok(Resolved::Senum),
                Definition::Struct(_) => return Ok(Resolved::Struct(id)),
                d => return Err(error(format!("`{}` is not a type", d.name().name))),
            },
        };
        // Typedef chains of a checked program are acyclic; the bound guards others.
        for _ in 0..1000 {
            return Ok(match &ty.kind {
                TypeKind::Base(b) => Resolved::Base(*b),
                TypeKind::List { element, .. } => Resolved::List(Ty::Idl(file, element)),
                TypeKind::Set { element, .. } => Resolved::Set(Ty::Idl(file, element)),
                TypeKind::Map { key, value, .. } => {
                    Resolved::Map(Ty::Idl(file, key), Ty::Idl(file, value))
                }
                TypeKind::Named(name) => {
                    let id = self
                        .program
                        .lookup_type(file, &name.name)
                        .ok_or_else(|| error(format!("unknown type `{}`", name.name)))?;
                    match self.program.definition(id) {
                        Definition::Typedef(t) => {
                            (file, ty) = (id.file, &t.ty);
                            continue;
                        }
                        Definition::Enum(e) => Resolved::Enum(e),
                        Definition::Senum(_) => Resolved::Senum,
                        Definition::Struct(_) => Resolved::Struct(id),
                        _ => return Err(error(format!("`{}` is not a type", name.name))),
                    }
                }
            });
        }
        Err(error("typedefs nest too deep"))
    }

    /// How an error names a type.
    fn describe(&self, ty: Ty<'p>) -> String {
        match ty {
            Ty::Base(b) => b.keyword().into(),
            Ty::Def(id) => format!("`{}`", self.program.definition(id).name().name),
            Ty::Idl(_, ty) => match &ty.kind {
                TypeKind::Base(b) => b.keyword().into(),
                TypeKind::Named(name) => format!("`{}`", name.name),
                TypeKind::List { .. } => "a list".into(),
                TypeKind::Set { .. } => "a set".into(),
                TypeKind::Map { .. } => "a map".into(),
            },
        }
    }

    fn ttype(&self, ty: Ty<'p>) -> Result<TType, Error> {
        Ok(match self.resolve(ty)? {
            Resolved::Base(b) => base_ttype(b),
            Resolved::Enum(_) => TType::I32,
            Resolved::Senum => TType::String,
            Resolved::Struct(_) => TType::Struct,
            Resolved::List(_) => TType::List,
            Resolved::Set(_) => TType::Set,
            Resolved::Map(..) => TType::Map,
        })
    }

    fn struct_to_json(&self, spec: &StructSpec<'p>, value: &Value) -> Result<Json, Error> {
        let Value::Struct(fields) = value else {
            return Err(error(format!("expected the struct `{}`", spec.name)));
        };
        let mut out = Map::new();
        for (id, v) in fields {
            let known = spec.fields.iter().find(|f| f.id == *id);
            match known {
                Some(field) if self.ttype(field.ty)? == v.ttype() => {
                    let json = self
                        .value_to_json(field.ty, v)
                        .map_err(at(format_args!(".{}", field.name)))?;
                    out.insert(field.name.to_string(), json);
                }
                _ => {
                    out.insert(format!("#{id}"), schemaless(v));
                }
            }
        }
        Ok(Json::Object(out))
    }

    fn value_to_json(&self, ty: Ty<'p>, v: &Value) -> Result<Json, Error> {
        let mismatch = || {
            error(format!(
                "the wire has a {:?} where the IDL has {}",
                v.ttype(),
                self.describe(ty)
            ))
        };
        Ok(match (self.resolve(ty)?, v) {
            (Resolved::Base(BaseType::Bool), Value::Bool(b)) => Json::Bool(*b),
            (Resolved::Base(BaseType::I8), Value::I8(n)) => Json::from(*n),
            (Resolved::Base(BaseType::I16), Value::I16(n)) => Json::from(*n),
            (Resolved::Base(BaseType::I32), Value::I32(n)) => Json::from(*n),
            (Resolved::Base(BaseType::I64), Value::I64(n)) => Json::from(*n),
            (Resolved::Base(BaseType::Double), Value::Double(d)) => double_to_json(d.0),
            (
                Resolved::Base(BaseType::String | BaseType::Slist) | Resolved::Senum,
                Value::Binary(bytes),
            ) => Json::String(
                String::from_utf8(bytes.clone())
                    .map_err(|_| error("a string that is not UTF-8"))?,
            ),
            (Resolved::Base(BaseType::Binary), Value::Binary(bytes)) => {
                let bytes = if self.base64 {
                    thrift_runtime::json_binary_from_text(bytes)
                        .map_err(|e| error(e.to_string()))?
                } else {
                    bytes.clone()
                };
                bytes_to_json(&bytes)
            }
            (Resolved::Base(BaseType::Uuid), Value::Uuid(u)) => bytes_to_json(u),
            (Resolved::Enum(e), Value::I32(n)) => match e.values.iter().find(|x| x.value == *n) {
                Some(named) => Json::String(named.name.name.clone()),
                None => Json::from(*n),
            },
            (Resolved::Struct(id), Value::Struct(_)) => {
                self.struct_to_json(&StructSpec::of(self.program, id), v)?
            }
            (Resolved::List(e), Value::List(t, items))
            | (Resolved::Set(e), Value::Set(t, items)) => {
                self.check_elements(e, *t, items.len())?;
                let mut out = Vec::with_capacity(items.len());
                for (i, item) in items.iter().enumerate() {
                    out.push(
                        self.value_to_json(e, item)
                            .map_err(at(format_args!("[{i}]")))?,
                    );
                }
                Json::Array(out)
            }
            (Resolved::Map(k, val), Value::Map(kt, vt, entries)) => {
                self.check_elements(k, *kt, entries.len())?;
                self.check_elements(val, *vt, entries.len())?;
                if self.object_keys(k)? {
                    let mut out = Map::new();
                    for (key, value) in entries {
                        let key_json = self.value_to_json(k, key)?;
                        let key = match key_json {
                            Json::String(s) => s,
                            other => other.to_string(),
                        };
                        let value = self
                            .value_to_json(val, value)
                            .map_err(at(format_args!("[{key:?}]")))?;
                        out.insert(key, value);
                    }
                    Json::Object(out)
                } else {
                    let mut out = Vec::with_capacity(entries.len());
                    for (i, (key, value)) in entries.iter().enumerate() {
                        let pair = vec![
                            self.value_to_json(k, key)
                                .map_err(at(format_args!("[{i}][0]")))?,
                            self.value_to_json(val, value)
                                .map_err(at(format_args!("[{i}][1]")))?,
                        ];
                        out.push(Json::Array(pair));
                    }
                    Json::Array(out)
                }
            }
            _ => return Err(mismatch()),
        })
    }

    /// A non-empty container's element type must be the IDL's.
    fn check_elements(&self, ty: Ty<'p>, wire: TType, len: usize) -> Result<(), Error> {
        let expected = self.ttype(ty)?;
        if len > 0 && wire != expected {
            return Err(error(format!(
                "the wire has {wire:?} elements where the IDL has {}",
                self.describe(ty)
            )));
        }
        Ok(())
    }

    /// Whether a map with keys of `ty` is a JSON object (string, integer, bool or enum keys).
    fn object_keys(&self, ty: Ty<'p>) -> Result<bool, Error> {
        Ok(match self.resolve(ty)? {
            Resolved::Base(b) => !matches!(b, BaseType::Binary | BaseType::Double | BaseType::Uuid),
            Resolved::Enum(_) | Resolved::Senum => true,
            _ => false,
        })
    }

    fn struct_from_json(&self, spec: &StructSpec<'p>, json: &Json) -> Result<Value, Error> {
        let Json::Object(object) = json else {
            return Err(error(format!("`{}` is a JSON object", spec.name)));
        };
        for key in object.keys() {
            if !key.starts_with('#') && !spec.fields.iter().any(|f| f.name == key) {
                return Err(error(format!("`{}` has no field `{key}`", spec.name)));
            }
        }
        let mut fields = Vec::new();
        for field in &spec.fields {
            match object.get(field.name) {
                Some(value) => {
                    let value = self
                        .value_from_json(field.ty, value)
                        .map_err(at(format_args!(".{}", field.name)))?;
                    fields.push((field.id, value));
                }
                None if field.required => {
                    return Err(error(format!(
                        "`{}` requires the field `{}`",
                        spec.name, field.name
                    )));
                }
                None => {}
            }
        }
        if spec.union && fields.len() != 1 {
            return Err(error(format!(
                "the union `{}` has exactly one field set, not {}",
                spec.name,
                fields.len()
            )));
        }
        Ok(Value::Struct(fields))
    }

    fn value_from_json(&self, ty: Ty<'p>, json: &Json) -> Result<Value, Error> {
        let expected = || {
            error(format!(
                "expected {}, found {}",
                self.describe(ty),
                kind_of(json)
            ))
        };
        let int = |min: i64, max: i64| -> Result<i64, Error> {
            json.as_i64()
                .filter(|n| (min..=max).contains(n))
                .ok_or_else(|| error(format!("expected {}, found {json}", self.describe(ty))))
        };
        Ok(match self.resolve(ty)? {
            Resolved::Base(BaseType::Bool) => Value::Bool(json.as_bool().ok_or_else(expected)?),
            Resolved::Base(BaseType::I8) => Value::I8(int(i8::MIN.into(), i8::MAX.into())? as i8),
            Resolved::Base(BaseType::I16) => {
                Value::I16(int(i16::MIN.into(), i16::MAX.into())? as i16)
            }
            Resolved::Base(BaseType::I32) => {
                Value::I32(int(i32::MIN.into(), i32::MAX.into())? as i32)
            }
            Resolved::Base(BaseType::I64) => Value::I64(int(i64::MIN, i64::MAX)?),
            Resolved::Base(BaseType::Double) => Value::Double(OrderedF64(match json {
                Json::Number(n) => n.as_f64().ok_or_else(expected)?,
                Json::String(s) => double_from_text(s).ok_or_else(expected)?,
                _ => return Err(expected()),
            })),
            Resolved::Base(BaseType::String | BaseType::Slist) | Resolved::Senum => {
                Value::Binary(json.as_str().ok_or_else(expected)?.as_bytes().to_vec())
            }
            Resolved::Base(BaseType::Binary) => {
                let bytes = bytes_from_json(json).ok_or_else(expected)?;
                Value::Binary(if self.base64 {
                    thrift_runtime::json_binary_to_text(&bytes)
                } else {
                    bytes
                })
            }
            Resolved::Base(BaseType::Uuid) => {
                let bytes = bytes_from_json(json).ok_or_else(expected)?;
                Value::Uuid(bytes.try_into().map_err(|_| error("a uuid is 16 bytes"))?)
            }
            Resolved::Enum(e) => Value::I32(match json {
                Json::String(name) => e
                    .values
                    .iter()
                    .find(|v| v.name.name == *name)
                    .map(|v| v.value)
                    .ok_or_else(|| error(format!("`{}` has no value `{name}`", e.name.name)))?,
                _ => int(i32::MIN.into(), i32::MAX.into())? as i32,
            }),
            Resolved::Struct(id) => {
                self.struct_from_json(&StructSpec::of(self.program, id), json)?
            }
            Resolved::List(e) | Resolved::Set(e) => {
                let items = json.as_array().ok_or_else(expected)?;
                let mut out = Vec::with_capacity(items.len());
                for (i, item) in items.iter().enumerate() {
                    out.push(
                        self.value_from_json(e, item)
                            .map_err(at(format_args!("[{i}]")))?,
                    );
                }
                let elem = self.ttype(e)?;
                if matches!(self.resolve(ty)?, Resolved::List(_)) {
                    Value::List(elem, out)
                } else {
                    Value::Set(elem, out)
                }
            }
            Resolved::Map(k, v) => {
                let mut entries = Vec::new();
                match json {
                    Json::Object(object) => {
                        for (key, value) in object {
                            let key_value = self
                                .key_from_text(k, key)
                                .map_err(at(format_args!("[{key:?}]")))?;
                            let value = self
                                .value_from_json(v, value)
                                .map_err(at(format_args!("[{key:?}]")))?;
                            entries.push((key_value, value));
                        }
                    }
                    Json::Array(pairs) => {
                        for (i, pair) in pairs.iter().enumerate() {
                            let Some([key, value]) = pair
                                .as_array()
                                .and_then(|p| <&[Json; 2]>::try_from(p.as_slice()).ok())
                            else {
                                return Err(at(format_args!("[{i}]"))(error(
                                    "a map entry is a `[key, value]` pair",
                                )));
                            };
                            entries.push((
                                self.value_from_json(k, key)
                                    .map_err(at(format_args!("[{i}][0]")))?,
                                self.value_from_json(v, value)
                                    .map_err(at(format_args!("[{i}][1]")))?,
                            ));
                        }
                    }
                    _ => return Err(expected()),
                }
                Value::Map(self.ttype(k)?, self.ttype(v)?, entries)
            }
        })
    }

    /// A map key written as an object key: the text of a string, a number, a bool or an enum.
    fn key_from_text(&self, ty: Ty<'p>, key: &str) -> Result<Value, Error> {
        match self.resolve(ty)? {
            Resolved::Base(BaseType::String | BaseType::Slist) | Resolved::Senum => {
                Ok(Value::Binary(key.as_bytes().to_vec()))
            }
            Resolved::Enum(_) if key.parse::<i32>().is_err() => {
                self.value_from_json(ty, &Json::String(key.to_string()))
            }
            _ => {
                let parsed: Json = serde_json::from_str(key)
                    .map_err(|_| error(format!("the key `{key}` is not {}", self.describe(ty))))?;
                self.value_from_json(ty, &parsed)
            }
        }
    }
}

fn base_ttype(b: BaseType) -> TType {
    match b {
        BaseType::Bool => TType::Bool,
        BaseType::I8 => TType::I8,
        BaseType::I16 => TType::I16,
        BaseType::I32 => TType::I32,
        BaseType::I64 => TType::I64,
        BaseType::Double => TType::Double,
        BaseType::String | BaseType::Binary | BaseType::Slist => TType::String,
        BaseType::Uuid => TType::Uuid,
    }
}

fn kind_of(json: &Json) -> &'static str {
    match json {
        Json::Null => "null",
        Json::Bool(_) => "a bool",
        Json::Number(_) => "a number",
        Json::String(_) => "a string",
        Json::Array(_) => "an array",
        Json::Object(_) => "an object",
    }
}

/// The bits of the NaN that `"NaN"` stands for (Rust's `f64::NAN`, Apache's writers' NaN).
const QUIET_NAN: u64 = 0x7ff8_0000_0000_0000;

/// A double as JSON: a number, or `"Infinity"`, `"-Infinity"`, `"NaN"`, and for any other NaN
/// its bits, `"NaN:0x7ff80000000abcbc"`, so that encoding gives the same bytes back.
fn double_to_json(d: f64) -> Json {
    match Number::from_f64(d) {
        Some(n) => Json::Number(n),
        None if d.is_nan() && d.to_bits() == QUIET_NAN => Json::String("NaN".into()),
        None if d.is_nan() => Json::String(format!("NaN:{:#018x}", d.to_bits())),
        None if d > 0.0 => Json::String("Infinity".into()),
        None => Json::String("-Infinity".into()),
    }
}

/// [`double_to_json`]'s strings.
fn double_from_text(text: &str) -> Option<f64> {
    match text {
        "NaN" => Some(f64::from_bits(QUIET_NAN)),
        "Infinity" => Some(f64::INFINITY),
        "-Infinity" => Some(f64::NEG_INFINITY),
        _ => {
            let bits = u64::from_str_radix(text.strip_prefix("NaN:0x")?, 16).ok()?;
            Some(f64::from_bits(bits)).filter(|d| d.is_nan())
        }
    }
}

fn bytes_to_json(bytes: &[u8]) -> Json {
    Json::Array(bytes.iter().map(|&b| Json::from(b)).collect())
}

fn bytes_from_json(json: &Json) -> Option<Vec<u8>> {
    json.as_array()?
        .iter()
        .map(|b| b.as_u64().and_then(|b| u8::try_from(b).ok()))
        .collect()
}

/// A value read without a schema (a field the IDL does not declare): strings as text when
/// they are UTF-8, else byte arrays; struct fields keyed `#id`; maps as pairs.
fn schemaless(v: &Value) -> Json {
    match v {
        Value::Bool(b) => Json::Bool(*b),
        Value::I8(n) => Json::from(*n),
        Value::I16(n) => Json::from(*n),
        Value::I32(n) => Json::from(*n),
        Value::I64(n) => Json::from(*n),
        Value::Double(d) => double_to_json(d.0),
        Value::Binary(bytes) => match std::str::from_utf8(bytes) {
            Ok(text) => Json::String(text.to_string()),
            Err(_) => bytes_to_json(bytes),
        },
        Value::Uuid(u) => bytes_to_json(u),
        Value::Struct(fields) => Json::Object(
            fields
                .iter()
                .map(|(id, v)| (format!("#{id}"), schemaless(v)))
                .collect(),
        ),
        Value::List(_, items) | Value::Set(_, items) => {
            Json::Array(items.iter().map(schemaless).collect())
        }
        Value::Map(_, _, entries) => Json::Array(
            entries
                .iter()
                .map(|(k, v)| Json::Array(vec![schemaless(k), schemaless(v)]))
                .collect(),
        ),
    }
}
