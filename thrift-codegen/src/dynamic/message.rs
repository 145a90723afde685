//! RPC messages: the header, then the args, result or exception of the function it names.

use serde_json::{Map, Value as Json};
use thrift_idl_parser::ast::{Definition, Function};
use thrift_idl_parser::{FileId, Program};
use thrift_runtime::{MessageType, TType};

use super::convert::Convert;
use super::error::{Error, error};
use super::protocol::{Protocol, read, write};
use super::schema::StructSpec;

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
