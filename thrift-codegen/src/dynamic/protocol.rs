//! The protocols, and one value (or RPC message) read from bytes or written to them with the
//! runtime's readers and writers.

use thrift_runtime::unknown::Value;
use thrift_runtime::{
    BinaryReader, BinaryWriter, CompactReader, CompactWriter, JsonReader, JsonWriter, MessageType,
    ProtocolReader, ProtocolWriter, SliceInput, TType,
};

use super::error::{Error, error};

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

pub(super) type Header = Option<(String, MessageType, i32)>;

/// Reads one value of `ttype` (after a message header when `message`), and checks nothing
/// follows.
pub(super) fn read(
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

pub(super) fn write(
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
