//! Messages, sans IO: a received message ([`Message`]) and the writing of calls and replies.
//!
//! Everything here works on whole messages in memory; the transports of the `blocking` and
//! `async` features find where a message starts and ends (frames, THeader, or the end of an
//! unframed message) and hand its bytes over as a [`Message`].

use std::ops::Range;
use std::sync::Arc;

use bytes::Bytes;

use super::identity::Identity;
use crate::application::{ApplicationException, ApplicationExceptionKind};
use crate::codec::{ThriftRead, ThriftWrite};
use crate::error::{Error, ErrorKind, Result};
use crate::input::{BytesInput, SliceInput};
use crate::limits::{Limit, ReadLimits};
use crate::protocol::{Protocol, ProtocolReader, ProtocolWriter};
use crate::wire::{MessageType, TType};

/// The protocol of a message, chosen at run time (a server answers each client in the
/// protocol it spoke).
///
/// Each protocol is a variant here and one arm of this module's `with_protocol!` macro, the one place that
/// turns a `ProtocolKind` into its protocol type; everything else (writing and parsing
/// messages, detecting a client's protocol from its first bytes, THeader's protocol ids) goes
/// through it. What identifies a protocol on the wire is the protocol's own
/// ([`Protocol::MESSAGE_START`], [`Protocol::HEADER_PROTOCOL_ID`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ProtocolKind {
    /// `TBinaryProtocol`: messages are written strict (with a version word); old-style ones,
    /// without it, are read and detected too.
    #[default]
    Binary,
    /// `TCompactProtocol`.
    Compact,
    /// `TJSONProtocol` ([`crate::json`]).
    Json,
}

/// Runs `$body` with `$P` the protocol type (a [`Protocol`]) of the [`ProtocolKind`] `$kind`:
/// the one `match` over protocols. Inside `$body`, `$P` is a concrete type, so the inherent
/// methods of its reader are callable too.
macro_rules! with_protocol {
    ($kind:expr, $P:ident => $body:expr) => {
        match $kind {
            $crate::rpc::ProtocolKind::Binary => {
                type $P = $crate::binary::Binary;
                $body
            }
            $crate::rpc::ProtocolKind::Compact => {
                type $P = $crate::compact::Compact;
                $body
            }
            $crate::rpc::ProtocolKind::Json => {
                type $P = $crate::json::Json;
                $body
            }
        }
    };
}

impl ProtocolKind {
    /// Every protocol, in the order a server tries them on a client's first bytes.
    pub const ALL: [ProtocolKind; 3] = [
        ProtocolKind::Binary,
        ProtocolKind::Compact,
        ProtocolKind::Json,
    ];

    /// The bytes every message of this protocol starts with ([`Protocol::MESSAGE_START`]).
    pub fn message_start(self) -> &'static [u8] {
        with_protocol!(self, P => P::MESSAGE_START)
    }

    /// The protocol's id in a THeader frame ([`Protocol::HEADER_PROTOCOL_ID`]).
    pub fn header_protocol_id(self) -> u64 {
        with_protocol!(self, P => P::HEADER_PROTOCOL_ID)
    }

    /// The protocol a THeader frame names by `id`, if this crate speaks it.
    pub fn from_header_protocol_id(id: u64) -> Option<ProtocolKind> {
        Self::ALL
            .into_iter()
            .find(|kind| kind.header_protocol_id() == id)
    }

    /// The protocol whose messages start as `bytes` does: `Ok(None)` when `bytes` is too short
    /// to tell, an error when no protocol starts so.
    pub fn detect(bytes: &[u8]) -> Result<Option<ProtocolKind>> {
        match Self::start_of(bytes) {
            Start::Protocol(kind) => Ok(Some(kind)),
            Start::TooShort => Ok(None),
            Start::Unknown => Err(not_a_message()),
        }
    }

    /// How `bytes` starts, against every protocol's first bytes. No error is built: a frame's
    /// length word is tried here first on every framed message.
    pub(crate) fn start_of(bytes: &[u8]) -> Start {
        let mut too_short = false;
        for kind in Self::ALL {
            let start = kind.message_start();
            let n = start.len().min(bytes.len());
            if bytes[..n] == start[..n] {
                if n == start.len() {
                    return Start::Protocol(kind);
                }
                too_short = true;
            }
        }
        if too_short {
            Start::TooShort
        } else {
            old_style_binary(bytes)
        }
    }

    /// Appends a whole message: header, `body` (an args or result struct), end.
    pub fn write_message<T: ThriftWrite + ?Sized>(
        self,
        out: &mut Vec<u8>,
        name: &str,
        kind: MessageType,
        seq: i32,
        body: &T,
    ) -> Result<()> {
        with_protocol!(self, P => {
            let mut w = P::writer(out);
            w.write_message_begin(name, kind, seq)?;
            body.write(&mut w)?;
            w.write_message_end()
        })
    }

    /// Appends a message header only, for a body encoded beforehand; [`write_message_end`]
    /// ends the message after the body.
    ///
    /// [`write_message_end`]: ProtocolKind::write_message_end
    pub fn write_message_header(
        self,
        out: &mut Vec<u8>,
        name: &str,
        kind: MessageType,
        seq: i32,
    ) -> Result<()> {
        with_protocol!(self, P => P::writer(out).write_message_begin(name, kind, seq))
    }

    /// Appends what ends a message after its body: nothing in the binary and compact
    /// protocols, `]` in JSON.
    pub fn write_message_end(self, out: &mut Vec<u8>) -> Result<()> {
        with_protocol!(self, P => P::writer(out).write_message_end())
    }

    /// Appends the encoding of `value` (no message header), as [`ThriftWrite::encode`] does:
    /// a new or full `out` first reserves the exact size, so that a call's args encoded into a
    /// new `Vec` take one allocation, not one per doubling.
    pub fn encode<T: ThriftWrite + ?Sized>(self, value: &T, out: &mut Vec<u8>) -> Result<()> {
        with_protocol!(self, P => value.encode::<P>(out))
    }

    /// Reads the message at the start of `bytes` to its end: where the reading stopped (the
    /// message's end, or the byte at which it failed) and how (for the HTTP servers' `400`).
    #[cfg(feature = "http")]
    pub(crate) fn read_to_end(self, bytes: &[u8], limits: ReadLimits) -> (usize, Result<()>) {
        with_protocol!(self, P => {
            let mut r = P::reader(SliceInput::new(bytes), limits);
            let read = skip_message(&mut r);
            (r.input().position(), read)
        })
    }

    /// The length of the whole message at the start of `bytes` (an unframed transport's
    /// message ends where its struct does), or `None` when `bytes` holds only part of it.
    /// Malformed input is an error; so is a message longer than `limits.max_message_size`.
    pub fn message_len(self, bytes: &[u8], limits: ReadLimits) -> Result<Option<usize>> {
        let result = with_protocol!(self, P => {
            let mut r = P::reader(SliceInput::new(bytes), limits);
            skip_message(&mut r).map(|()| r.input().position())
        });
        match result {
            Ok(n) => Ok(Some(n)),
            // The input ran out, or a length prefix points past it: more is to come.
            Err(e) if needs_more_input(&e) => {
                if bytes.len() >= limits.max_message_size {
                    Err(Error::limit(
                        Limit::MessageSize,
                        "message larger than max_message_size",
                    ))
                } else {
                    Ok(None)
                }
            }
            Err(e) => Err(e),
        }
    }
}

/// How some bytes start ([`ProtocolKind::start_of`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Start {
    /// A message of this protocol.
    Protocol(ProtocolKind),
    /// Too few bytes to tell.
    TooShort,
    /// No protocol's message.
    Unknown,
}

/// Whether `bytes` starts an old-style (non-strict) binary message: the name's length (a
/// positive `i32`), the name, the type byte, the sequence id, with no version word. Apache's
/// Java and C++ libraries read it by default (`strictRead=false`) and some writers still send
/// it (`strictWrite=false`); the binary reader takes it, so detection must too.
///
/// Nothing else on a connection starts like it, which the name's first bytes tell: a length
/// word before a strict, compact or THeader message is followed by `0x80`, `0x82`, `0x0f` or
/// another length word, before a JSON message by `[`, where an old-style message has the
/// first characters of a method name (an IDL identifier, with `Service:` when multiplexed).
/// So a name must start with a letter or `_` and go on with letters, digits, `_`, `.` or `:`;
/// up to its first four bytes are looked at, and it is shorter than 64 KiB.
fn old_style_binary(bytes: &[u8]) -> Start {
    let Some(word) = bytes.first_chunk::<4>() else {
        return Start::Unknown;
    };
    let len = i32::from_be_bytes(*word);
    if !(1..1 << 16).contains(&len) {
        return Start::Unknown;
    }
    let name = &bytes[4..];
    let wanted = (len as usize).min(4);
    let seen = &name[..name.len().min(wanted)];
    let name_like = seen.iter().enumerate().all(|(i, &b)| {
        b.is_ascii_alphabetic()
            || b == b'_'
            || (i > 0 && (b.is_ascii_digit() || b"._:".contains(&b)))
    });
    match (name_like, seen.len() == wanted) {
        (false, _) => Start::Unknown,
        (true, true) => Start::Protocol(ProtocolKind::Binary),
        (true, false) => Start::TooShort,
    }
}

/// The error for bytes that start no protocol's message, framed or not.
#[cold]
pub(crate) fn not_a_message() -> Error {
    Error::invalid_data("not a Thrift message (unknown protocol or transport)")
}

fn needs_more_input(e: &Error) -> bool {
    match e.kind() {
        ErrorKind::UnexpectedEof => true,
        ErrorKind::SizeLimit => e.context().ends_with("exceeds remaining input"),
        _ => false,
    }
}

fn skip_message<'de, R: ProtocolReader<'de>>(r: &mut R) -> Result<()> {
    r.read_message_begin()?;
    r.skip(TType::Struct)?;
    r.read_message_end()
}

/// THeader info key/value headers: `(key, value)` pairs in the order received.
pub type Headers = std::sync::Arc<[(String, String)]>;

/// A whole received message (a call on a server, a reply on a client), its header parsed.
///
/// It owns its bytes (a [`Bytes`], usually a slice of the connection's read buffer, so
/// receiving allocates nothing), so it can move into a task; [`Message::body`] decodes the
/// args or result struct from them, and types generated with `Strings::Bytes` slice them.
#[derive(Clone, Debug)]
pub struct Message {
    bytes: Bytes,
    protocol: ProtocolKind,
    /// Where the name is: in `bytes`, or in `decoded_name` when the protocol had to decode it
    /// (a JSON name with escapes).
    name: Range<usize>,
    decoded_name: Option<std::sync::Arc<str>>,
    kind: MessageType,
    seq: i32,
    limits: ReadLimits,
    headers: Option<Headers>,
    identity: Option<Arc<Identity>>,
}

impl Message {
    /// Parses the header of the message in `bytes` (the body is decoded later, by
    /// [`Message::body`]).
    pub fn parse(bytes: Bytes, protocol: ProtocolKind, limits: ReadLimits) -> Result<Message> {
        /// The name's place in the input, or the name when it is not there as is.
        enum Name {
            At(Range<usize>),
            Decoded(std::sync::Arc<str>),
        }
        fn header<'de, R: ProtocolReader<'de>>(
            r: &mut R,
            base: *const u8,
        ) -> Result<(Name, MessageType, i32)> {
            let h = r.read_message_begin()?;
            let name = match h.name {
                // The name is a slice of the input: its offset is the distance of the pointers.
                std::borrow::Cow::Borrowed(name) => {
                    let start = (name.as_ptr() as usize).wrapping_sub(base as usize);
                    Name::At(start..start + name.len())
                }
                // Decoded (escapes in a JSON name): kept beside the bytes.
                std::borrow::Cow::Owned(name) => Name::Decoded(name.into()),
            };
            Ok((name, h.kind, h.seq))
        }
        let base = bytes.as_ptr();
        let (name, kind, seq) = with_protocol!(protocol, P => {
            header(&mut P::reader(SliceInput::new(&bytes), limits), base)?
        });
        let (name, decoded_name) = match name {
            Name::At(range) => {
                if bytes.get(range.clone()).is_none() {
                    return Err(Error::invalid_data("message name not in the input"));
                }
                (range, None)
            }
            Name::Decoded(name) => (0..name.len(), Some(name)),
        };
        Ok(Message {
            bytes,
            protocol,
            name,
            decoded_name,
            kind,
            seq,
            limits,
            headers: None,
            identity: None,
        })
    }

    /// The same message with THeader info headers attached.
    pub fn with_headers(mut self, headers: Option<Headers>) -> Message {
        self.headers = headers;
        self
    }

    /// The same message with its client's identity attached (what its connection's
    /// authentication established; servers attach it to every call they receive).
    pub fn with_identity(mut self, identity: Option<Arc<Identity>>) -> Message {
        self.identity = identity;
        self
    }

    /// The method name (for a multiplexed call reaching a service's processor, without the
    /// `service:` prefix).
    pub fn name(&self) -> &str {
        match &self.decoded_name {
            Some(name) => name.get(self.name.clone()).unwrap_or_default(),
            // Checked to be UTF-8 by the reader in `parse`; the fallback is never taken.
            None => std::str::from_utf8(&self.bytes[self.name.clone()]).unwrap_or_default(),
        }
    }

    /// The message type.
    pub fn kind(&self) -> MessageType {
        self.kind
    }

    /// The sequence id.
    pub fn seq(&self) -> i32 {
        self.seq
    }

    /// The protocol the message is in (replies are written in it).
    pub fn protocol(&self) -> ProtocolKind {
        self.protocol
    }

    /// The THeader info headers that came with the message (empty for other transports).
    pub fn headers(&self) -> &[(String, String)] {
        self.headers.as_deref().unwrap_or_default()
    }

    pub(crate) fn shared_headers(&self) -> Option<&Headers> {
        self.headers.as_ref()
    }

    /// Who sent the message, where its connection authenticated (a call received through a
    /// `SaslListener`); handlers read it through [`context::identity`](super::context::identity).
    pub fn identity(&self) -> Option<&Identity> {
        self.identity.as_deref()
    }

    #[cfg(any(feature = "blocking", feature = "async"))]
    pub(crate) fn set_identity(&mut self, identity: Arc<Identity>) {
        self.identity = Some(identity);
    }

    pub(crate) fn shared_identity(&self) -> Option<&Arc<Identity>> {
        self.identity.as_ref()
    }

    /// The whole message's bytes.
    pub fn bytes(&self) -> &Bytes {
        &self.bytes
    }

    /// Decodes the body: the args struct of a call, the result struct of a reply.
    pub fn body<T>(&self) -> Result<T>
    where
        T: for<'de> ThriftRead<'de>,
    {
        fn read<'de, R: ProtocolReader<'de>, T: ThriftRead<'de>>(r: &mut R) -> Result<T> {
            r.read_message_begin()?;
            let value = T::read(r)?;
            r.read_message_end()?;
            Ok(value)
        }
        let input = BytesInput::new(&self.bytes);
        with_protocol!(self.protocol, P => read(&mut P::reader(input, self.limits)))
    }

    /// A multiplexed call's service name, and the call as the service sees it (the name
    /// without `service:`); `None` when the name has no `:`.
    pub fn split_service(&self) -> Option<(&str, Message)> {
        let name = self.name();
        let colon = name.find(':')?;
        let mut inner = self.clone();
        inner.name = self.name.start + colon + 1..self.name.end;
        Some((&name[..colon], inner))
    }

    /// Appends the reply to this call: `result` (the method's result struct) in a `Reply`
    /// message with the call's name, sequence id and protocol. Nothing for a oneway call.
    pub fn reply<T: ThriftWrite + ?Sized>(&self, out: &mut Vec<u8>, result: &T) -> Result<()> {
        if self.kind == MessageType::Oneway {
            return Ok(());
        }
        self.protocol
            .write_message(out, self.name(), MessageType::Reply, self.seq, result)
    }

    /// Appends an `Exception` message answering this call. Nothing for a oneway call.
    pub fn reply_exception(&self, out: &mut Vec<u8>, e: &ApplicationException) -> Result<()> {
        if self.kind == MessageType::Oneway {
            return Ok(());
        }
        self.protocol
            .write_message(out, self.name(), MessageType::Exception, self.seq, e)
    }

    /// Appends the `UNKNOWN_METHOD` exception answering this call.
    pub fn reply_unknown_method(&self, out: &mut Vec<u8>) -> Result<()> {
        let e = ApplicationException::new(
            ApplicationExceptionKind::UNKNOWN_METHOD,
            format!("unknown method '{}'", self.name()),
        );
        self.reply_exception(out, &e)
    }

    /// Decodes this message as the reply to call `seq` of `method`: the result struct of a
    /// `Reply`, a received [`ApplicationException`] as an error of kind
    /// [`ErrorKind::Application`], and `BAD_SEQUENCE_ID`, `WRONG_METHOD_NAME` or
    /// `INVALID_MESSAGE_TYPE` when the message does not answer that call.
    pub fn reply_body<T>(&self, method: &str, seq: i32) -> Result<T>
    where
        T: for<'de> ThriftRead<'de>,
    {
        let fail =
            |kind, message: String| Err(Error::from(ApplicationException::new(kind, message)));
        if self.seq != seq {
            return fail(
                ApplicationExceptionKind::BAD_SEQUENCE_ID,
                format!("reply to call {} where {seq} was expected", self.seq),
            );
        }
        let name = self.name();
        // A multiplexing server may answer with or without the `service:` prefix.
        let unprefixed = name.rsplit_once(':').map_or(name, |(_, method)| method);
        if unprefixed != method {
            return fail(
                ApplicationExceptionKind::WRONG_METHOD_NAME,
                format!("reply names method '{name}' where '{method}' was called"),
            );
        }
        match self.kind {
            MessageType::Reply => self.body(),
            MessageType::Exception => Err(Error::from(self.body::<ApplicationException>()?)),
            MessageType::Call | MessageType::Oneway => fail(
                ApplicationExceptionKind::INVALID_MESSAGE_TYPE,
                format!("a call ({:?}) where a reply was expected", self.kind),
            ),
        }
    }
}
