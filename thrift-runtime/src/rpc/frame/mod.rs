//! Transports, sans IO: where a message starts and ends in the bytes of a connection, and the
//! frame written around a message. Buffered (unframed), framed (a 4-byte length), and
//! THeader (`HeaderFormat.md`: binary or compact payload, the zlib transform, info
//! key/value headers), in the binary or compact protocol.
//!
//! A server detects what each client speaks from its first bytes, as Apache's header
//! servers do, and answers in kind; a client says what it speaks.

mod header;

use bytes::{Buf, Bytes, BytesMut};

use super::message::{Message, ProtocolKind, Start, not_a_message};
use crate::error::{Error, Result};
use crate::limits::FrameLimits;
use crate::limits::Limit;

/// The most a partly received frame reserves at once.
const RESERVE_STEP: usize = 64 * 1024;

/// How messages are delimited on a stream (Apache calls each of these a "transport"): HTTP
/// and UDP have their own delimiting, and their clients and servers take none of these.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Framing {
    /// No frame: a message ends where its struct does (Apache's `TBufferedTransport`).
    #[default]
    Buffered,
    /// A 4-byte big-endian length before each message (`TFramedTransport`).
    Framed,
    /// THeader frames (`THeaderTransport`).
    Header,
    /// THeader frames inside framed-transport frames: each THeader frame, its own length
    /// word included, is the payload of a 4-byte-length frame (Apache's `THeaderProtocol`
    /// over a `TFramedTransport`: `--protocol header --transport framed` in its cross test).
    FramedHeader,
}

impl Framing {
    /// Whether messages travel in THeader frames (with a protocol id, transforms and info
    /// headers).
    pub fn is_header(self) -> bool {
        matches!(self, Framing::Header | Framing::FramedHeader)
    }
}

/// What one message on a connection looks like: framing, protocol, and for THeader
/// whether the payload is zlib-compressed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct WireFormat {
    /// The framing.
    pub framing: Framing,
    /// The protocol of the message.
    pub protocol: ProtocolKind,
    /// THeader only: the payload goes through the zlib transform.
    pub zlib: bool,
}

/// A whole message received, with how it was framed (so that the reply is framed alike).
#[derive(Debug)]
pub struct Received {
    /// The message.
    pub message: Message,
    /// How it came: its framing, protocol and zlib transform.
    pub format: WireFormat,
    /// The THeader sequence id (0 for other transports).
    pub header_seq: i32,
}

/// Detects the framing of the message starting at `buf` from its first bytes; `None` when
/// more bytes are needed to tell. The protocols' own first bytes
/// ([`ProtocolKind::message_start`]) tell an unframed message; a frame is a length word and
/// then a message, a THeader frame, or (framed THeader) one more length word and a THeader
/// frame. (A length word never starts like a message: its first byte would make the frame
/// larger than 2 GiB.)
pub fn detect(buf: &[u8]) -> Result<Option<(Framing, ProtocolKind)>> {
    match ProtocolKind::start_of(buf) {
        Start::Protocol(protocol) => return Ok(Some((Framing::Buffered, protocol))),
        Start::TooShort => return Ok(None),
        Start::Unknown => {}
    }
    let Some(frame) = buf.get(4..) else {
        return Ok(None);
    };
    // THeader names its payload's protocol in its header: `Binary` stands in until then.
    if frame.get(..2) == Some(&header::MAGIC[..]) {
        return Ok(Some((Framing::Header, ProtocolKind::Binary)));
    }
    match ProtocolKind::start_of(frame) {
        Start::Protocol(protocol) => Ok(Some((Framing::Framed, protocol))),
        Start::TooShort => Ok(None),
        Start::Unknown => match frame.get(4..6) {
            None => Ok(None),
            Some(magic) if magic == header::MAGIC => {
                Ok(Some((Framing::FramedHeader, ProtocolKind::Binary)))
            }
            Some(_) => Err(not_a_message()),
        },
    }
}

fn frame_len(buf: &[u8], max: usize) -> Result<Option<usize>> {
    let Some(word) = buf.get(..4) else {
        return Ok(None);
    };
    let len = u32::from_be_bytes([word[0], word[1], word[2], word[3]]) as usize;
    if len > max {
        return Err(Error::limit(
            Limit::FrameSize,
            "frame larger than max_frame_size",
        ));
    }
    Ok(Some(len))
}

/// Splits one whole message off the front of `buf`, detecting its framing (a server), or
/// `Ok(None)` when `buf` does not hold all of it yet. A client passes the framing it
/// expects as `expect`: then only that transport is accepted (the protocol of a THeader
/// reply is the one its header names).
pub fn decode(
    buf: &mut BytesMut,
    expect: Option<Framing>,
    limits: &FrameLimits,
) -> Result<Option<Received>> {
    let Some((transport, protocol)) = detect(buf)? else {
        return Ok(None);
    };
    if let Some(expected) = expect {
        if expected != transport {
            return Err(Error::invalid_data(
                "the peer answered in another transport than it was called in",
            ));
        }
    }
    let bytes = match transport {
        Framing::Buffered => {
            let Some(len) = protocol.message_len(buf, limits.read)? else {
                return Ok(None);
            };
            buf.split_to(len).freeze()
        }
        Framing::Framed => {
            let Some(bytes) = take_frame(buf, limits.max_frame_size)? else {
                return Ok(None);
            };
            bytes
        }
        Framing::Header => {
            let max = limits.max_frame_size.min(header::MAX_FRAME);
            let Some(frame) = take_frame(buf, max)? else {
                return Ok(None);
            };
            return header::decode(frame, transport, limits).map(Some);
        }
        Framing::FramedHeader => {
            let max = limits.max_frame_size.min(header::MAX_FRAME + 4);
            let Some(mut frame) = take_frame(buf, max)? else {
                return Ok(None);
            };
            // The outer frame holds exactly one THeader frame, its length word included.
            if frame_len(&frame, max)? != Some(frame.len().saturating_sub(4)) {
                return Err(Error::invalid_data(
                    "framed THeader: the inner frame's length is not the outer frame's",
                ));
            }
            frame.advance(4);
            return header::decode(frame, transport, limits).map(Some);
        }
    };
    let message = Message::parse(bytes, protocol, limits.read)?;
    Ok(Some(Received {
        message,
        format: WireFormat {
            framing: transport,
            protocol,
            zlib: false,
        },
        header_seq: 0,
    }))
}

/// Splits a whole frame (without its length word) off the front of `buf`, or `None` when
/// it is not all there yet.
fn take_frame(buf: &mut BytesMut, max: usize) -> Result<Option<Bytes>> {
    let Some(len) = frame_len(buf, max)? else {
        return Ok(None);
    };
    if buf.len() < 4 + len {
        // Room for what is announced, a bounded step at a time: a length word alone reserves
        // no more than that.
        buf.reserve((4 + len - buf.len()).min(RESERVE_STEP));
        return Ok(None);
    }
    buf.advance(4);
    Ok(Some(buf.split_to(len).freeze()))
}

/// When a server looks for the end of an unframed message again. An unframed message ends
/// where its struct does, so finding the end means skipping everything received so far; doing
/// that after every read would cost time quadratic in the message's size, which a client
/// trickling bytes into a large message could use to burn a server's CPU. So a new attempt is
/// made only when the buffer has grown by half since the last failed one, or when the client
/// has sent nothing for a quiet window that grows with the buffer (about 10 ns a byte, from
/// 1 ms to 50 ms): a client that sent its whole message and waits is answered after at most
/// that window, and the skipping takes a bounded share of the time a trickle takes.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct UnframedProbe {
    /// The buffer's length at the last attempt that found the message incomplete.
    failed_at: usize,
}

impl UnframedProbe {
    /// Whether `buf` starts an unframed message (binary `0x80 0x01` or compact `0x82`).
    fn unframed(buf: &[u8]) -> bool {
        matches!(buf.first(), Some(0x80 | 0x82))
    }

    /// Whether to try [`decode`] on `buf` now; `quiet` says the quiet window passed.
    pub(crate) fn due(&self, buf: &[u8], quiet: bool) -> bool {
        !Self::unframed(buf)
            || self.failed_at == 0
            || quiet
            || buf.len() >= self.failed_at + self.failed_at / 2
    }

    /// Notes that [`decode`] found `buf` incomplete.
    pub(crate) fn failed(&mut self, buf: &[u8]) {
        if Self::unframed(buf) {
            self.failed_at = buf.len();
        }
    }

    /// The quiet window to wait for before the next attempt, when one is held back.
    pub(crate) fn window(&self, buf: &[u8]) -> Option<std::time::Duration> {
        if self.due(buf, false) || buf.len() <= self.failed_at {
            return None;
        }
        let nanos = (buf.len() as u64).saturating_mul(10);
        Some(std::time::Duration::from_nanos(
            nanos.clamp(1_000_000, 50_000_000),
        ))
    }
}

/// Where a frame started in an output buffer, for [`end_frame`].
#[derive(Clone, Copy, Debug)]
pub struct FrameStart {
    format: WireFormat,
    start: usize,
    payload: usize,
}

impl FrameStart {
    /// Whether a message was written after the frame's start.
    pub fn is_empty(&self, out: &[u8]) -> bool {
        out.len() <= self.payload
    }
}

/// Appends the start of a frame to `out`; the message follows, then [`end_frame`].
/// `headers` are THeader info headers (ignored by the other transports).
pub fn begin_frame(
    out: &mut Vec<u8>,
    format: WireFormat,
    header_seq: i32,
    headers: &[(String, String)],
) -> FrameStart {
    let start = out.len();
    match format.framing {
        Framing::Buffered => {}
        Framing::Framed => out.extend_from_slice(&[0; 4]),
        Framing::Header => {
            out.extend_from_slice(&[0; 4]);
            header::begin(out, format, header_seq, headers);
        }
        Framing::FramedHeader => {
            out.extend_from_slice(&[0; 8]);
            header::begin(out, format, header_seq, headers);
        }
    }
    FrameStart {
        format,
        start,
        payload: out.len(),
    }
}

/// A server's first step for a message it `received`: `out` cleared and the reply's frame
/// begun, framed as the call was. A message that is not a call or a oneway is an error (the
/// connection is then closed). Shared by the blocking and the async server.
#[cfg(any(feature = "blocking", feature = "async"))]
pub(crate) fn begin_reply(received: &Received, out: &mut Vec<u8>) -> Result<FrameStart> {
    use crate::wire::MessageType;
    out.clear();
    if !matches!(
        received.message.kind(),
        MessageType::Call | MessageType::Oneway
    ) {
        return Err(Error::invalid_data(
            "a server received a reply or an exception, not a call",
        ));
    }
    Ok(begin_frame(out, received.format, received.header_seq, &[]))
}

/// A server's last step after the processor wrote the reply after `start`: the frame
/// completed, or `out` left empty when there is no reply (a oneway call).
#[cfg(any(feature = "blocking", feature = "async"))]
pub(crate) fn end_reply(out: &mut Vec<u8>, start: FrameStart, max_frame_size: usize) -> Result<()> {
    if start.is_empty(out) {
        out.clear();
        return Ok(());
    }
    end_frame(out, start, max_frame_size)
}

/// Completes the frame begun at `frame`: writes its length, compresses a zlib payload.
/// Frames larger than `max_frame_size` are an error (and `out` is cut back to where the
/// frame started).
pub fn end_frame(out: &mut Vec<u8>, frame: FrameStart, max_frame_size: usize) -> Result<()> {
    let result = end_frame_at(out, frame, max_frame_size);
    if result.is_err() {
        out.truncate(frame.start);
    }
    result
}

fn end_frame_at(out: &mut Vec<u8>, frame: FrameStart, max_frame_size: usize) -> Result<()> {
    // Where the length words are: the framed transport's, and THeader's own.
    let (outer, inner) = match frame.format.framing {
        Framing::Buffered => return Ok(()),
        Framing::Framed => (Some(frame.start), None),
        Framing::Header => (None, Some(frame.start)),
        Framing::FramedHeader => (Some(frame.start), Some(frame.start + 4)),
    };
    let put_len = |out: &mut Vec<u8>, at: usize, max: usize| {
        let len = out.len() - at - 4;
        if len > max {
            return Err(Error::limit(
                Limit::FrameSize,
                "frame larger than max_frame_size",
            ));
        }
        out[at..at + 4].copy_from_slice(&(len as u32).to_be_bytes());
        Ok(())
    };
    if let Some(inner) = inner {
        header::end(out, frame.format, inner + 4, frame.payload)?;
        put_len(out, inner, max_frame_size.min(header::MAX_FRAME))?;
    }
    if let Some(outer) = outer {
        put_len(out, outer, max_frame_size.min(u32::MAX as usize))?;
    }
    Ok(())
}
