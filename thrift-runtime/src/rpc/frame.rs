//! Transports, sans IO: where a message starts and ends in the bytes of a connection, and the
//! frame written around a message. Buffered (unframed), framed (a 4-byte length), and
//! THeader (`HeaderFormat.md`: binary or compact payload, the zlib transform, info
//! key/value headers), in the binary or compact protocol.
//!
//! A server detects what each client speaks from its first bytes, as Apache's header
//! servers do, and answers in kind; a client says what it speaks.

use std::cell::RefCell;
use std::io;

use bytes::{Buf, Bytes, BytesMut};

use super::message::{Headers, Message, ProtocolKind};
use crate::error::{Error, Result};
use crate::limits::Limit;
pub use crate::limits::{FrameLimits, DEFAULT_MAX_FRAME_SIZE};

const HEADER_MAGIC: u16 = 0x0FFF;
/// THeader's largest frame (`HeaderFormat.md`).
const HEADER_MAX_FRAME: usize = 0x3FFF_FFFF;
const PROTOCOL_ID_BINARY: u64 = 0;
const PROTOCOL_ID_COMPACT: u64 = 2;
const TRANSFORM_ZLIB: u64 = 1;
const INFO_KEYVALUE: u64 = 1;
/// The largest THeader header Apache's C++ library accepts, in 4-byte words.
const HEADER_MAX_WORDS: usize = 16_383;
/// The most a partly received frame reserves at once.
const RESERVE_STEP: usize = 64 * 1024;

/// How messages are delimited on a connection.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Transport {
    /// No frame: a message ends where its struct does (Apache's `TBufferedTransport`).
    #[default]
    Buffered,
    /// A 4-byte big-endian length before each message (`TFramedTransport`).
    Framed,
    /// THeader frames (`THeaderTransport`).
    Header,
}

/// What one message on a connection looks like: transport, protocol, and for THeader
/// whether the payload is zlib-compressed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Framing {
    /// The transport.
    pub transport: Transport,
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
    /// Its framing.
    pub framing: Framing,
    /// The THeader sequence id (0 for other transports).
    pub header_seq: i32,
}

/// Detects the framing of the message starting at `buf` from its first bytes; `None` when
/// more bytes are needed to tell.
pub fn detect(buf: &[u8]) -> Result<Option<(Transport, ProtocolKind)>> {
    let protocol_at = |i: usize| -> Result<Option<ProtocolKind>> {
        match buf.get(i..i + 2) {
            None => Ok(None),
            Some([0x80, 0x01]) => Ok(Some(ProtocolKind::Binary)),
            Some([0x82, _]) => Ok(Some(ProtocolKind::Compact)),
            Some(_) => Err(Error::invalid_data(
                "not a Thrift message (unknown protocol or transport)",
            )),
        }
    };
    match buf.first() {
        None => Ok(None),
        Some(0x80) => Ok(protocol_at(0)?.map(|p| (Transport::Buffered, p))),
        Some(0x82) => Ok(Some((Transport::Buffered, ProtocolKind::Compact))),
        Some(_) => match buf.get(4..6) {
            None if buf.len() >= 4 => Ok(None),
            None => Ok(None),
            Some([0x0F, 0xFF]) => Ok(Some((Transport::Header, ProtocolKind::Binary))),
            Some(_) => Ok(protocol_at(4)?.map(|p| (Transport::Framed, p))),
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
    expect: Option<Transport>,
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
    match transport {
        Transport::Buffered => {
            let Some(len) = protocol.message_len(buf, limits.read)? else {
                return Ok(None);
            };
            let bytes = buf.split_to(len).freeze();
            let message = Message::parse(bytes, protocol, limits.read)?;
            Ok(Some(Received {
                message,
                framing: Framing {
                    transport,
                    protocol,
                    zlib: false,
                },
                header_seq: 0,
            }))
        }
        Transport::Framed => {
            let Some(bytes) = take_frame(buf, limits.max_frame_size)? else {
                return Ok(None);
            };
            let message = Message::parse(bytes, protocol, limits.read)?;
            Ok(Some(Received {
                message,
                framing: Framing {
                    transport,
                    protocol,
                    zlib: false,
                },
                header_seq: 0,
            }))
        }
        Transport::Header => {
            let max = limits.max_frame_size.min(HEADER_MAX_FRAME);
            let Some(frame) = take_frame(buf, max)? else {
                return Ok(None);
            };
            decode_header_frame(frame, limits).map(Some)
        }
    }
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

/// A varint (as the compact protocol's) from `buf` at `*pos`, within `end`.
fn read_varint(buf: &[u8], pos: &mut usize, end: usize) -> Result<u64> {
    let mut value = 0u64;
    for shift in (0..64).step_by(7) {
        if *pos >= end {
            return Err(Error::invalid_data("THeader: header ends inside a varint"));
        }
        let byte = buf[*pos];
        *pos += 1;
        value |= u64::from(byte & 0x7F) << shift;
        if byte & 0x80 == 0 {
            return Ok(value);
        }
    }
    Err(Error::invalid_data("THeader: varint too long"))
}

fn read_varstring(buf: &[u8], pos: &mut usize, end: usize) -> Result<String> {
    let len = read_varint(buf, pos, end)?;
    let len = usize::try_from(len).unwrap_or(usize::MAX);
    if len > end - *pos {
        return Err(Error::invalid_data(
            "THeader: header string longer than the header",
        ));
    }
    let bytes = &buf[*pos..*pos + len];
    *pos += len;
    String::from_utf8(bytes.to_vec()).map_err(|_| Error::invalid_utf8())
}

/// Decodes a THeader frame (the bytes after its length word).
fn decode_header_frame(frame: Bytes, limits: &FrameLimits) -> Result<Received> {
    let b = &frame[..];
    if b.len() < 10 {
        return Err(Error::invalid_data(
            "THeader: frame shorter than its fixed header",
        ));
    }
    let magic = u16::from_be_bytes([b[0], b[1]]);
    if magic != HEADER_MAGIC {
        return Err(Error::invalid_data("THeader: bad magic"));
    }
    let seq = i32::from_be_bytes([b[4], b[5], b[6], b[7]]);
    let words = usize::from(u16::from_be_bytes([b[8], b[9]]));
    if words > HEADER_MAX_WORDS {
        return Err(Error::invalid_data(
            "THeader: header larger than Apache accepts",
        ));
    }
    let header_len = words * 4;
    let end = 10 + header_len;
    if end > b.len() {
        return Err(Error::invalid_data("THeader: header longer than the frame"));
    }
    let mut pos = 10;
    let protocol = match read_varint(b, &mut pos, end)? {
        PROTOCOL_ID_BINARY => ProtocolKind::Binary,
        PROTOCOL_ID_COMPACT => ProtocolKind::Compact,
        _ => return Err(Error::invalid_data("THeader: unsupported protocol id")),
    };
    let transforms = read_varint(b, &mut pos, end)?;
    let mut zlib = false;
    for _ in 0..transforms {
        match read_varint(b, &mut pos, end)? {
            TRANSFORM_ZLIB => zlib = true,
            _ => return Err(Error::invalid_data("THeader: unsupported transform")),
        }
    }
    let mut headers = Vec::new();
    // Info headers until the padding (id 0) or an id this code does not know.
    while pos < end {
        match read_varint(b, &mut pos, end)? {
            INFO_KEYVALUE => {
                let count = read_varint(b, &mut pos, end)?;
                for _ in 0..count {
                    // Each pair takes at least two bytes: a bad count fails on the bounds.
                    let key = read_varstring(b, &mut pos, end)?;
                    let value = read_varstring(b, &mut pos, end)?;
                    headers.push((key, value));
                }
            }
            _ => break,
        }
    }
    let payload = frame.slice(end..);
    let payload = if zlib {
        Bytes::from(inflate(&payload, limits.max_decompressed_size)?)
    } else {
        payload
    };
    let headers: Option<Headers> = (!headers.is_empty()).then(|| headers.into());
    let message = Message::parse(payload, protocol, limits.read)?.with_headers(headers);
    Ok(Received {
        message,
        framing: Framing {
            transport: Transport::Header,
            protocol,
            zlib,
        },
        header_seq: seq,
    })
}

thread_local! {
    /// zlib state reused by every frame a thread compresses or decompresses: creating it takes
    /// about 300 KB (compressor) and 40 KB (decompressor) of allocations and most of a small
    /// frame's time. Kept per thread (a worker, or a runtime thread), not per connection.
    static DEFLATE: RefCell<Option<(flate2::Compress, Vec<u8>)>> = const { RefCell::new(None) };
    static INFLATE: RefCell<Option<flate2::Decompress>> = const { RefCell::new(None) };
}

/// Scratch buffers larger than this are not kept between frames.
const KEEP_SCRATCH: usize = 1 << 20;

/// zlib-decompresses `data`, failing (instead of growing without bound) past `max` bytes.
fn inflate(data: &[u8], max: usize) -> Result<Vec<u8>> {
    use flate2::{Decompress, FlushDecompress, Status};
    let bad = || Error::invalid_data("THeader: bad zlib data");
    let too_large = || {
        Error::limit(
            Limit::DecompressedSize,
            "THeader: payload larger than max_decompressed_size after decompression",
        )
    };
    INFLATE.with(|cell| {
        let mut state = cell.borrow_mut();
        let d = state.get_or_insert_with(|| Decompress::new(true));
        d.reset(true);
        // Room for max + 1 bytes at most, so that a payload past `max` is seen.
        let bound = max.saturating_add(1);
        let mut out = Vec::with_capacity(data.len().saturating_mul(4).clamp(64, bound.max(64)));
        loop {
            let before = (d.total_in(), d.total_out());
            let consumed = usize::try_from(d.total_in()).map_err(|_| bad())?;
            let input = data.get(consumed..).ok_or_else(bad)?;
            let status = d
                .decompress_vec(input, &mut out, FlushDecompress::None)
                .map_err(|_| bad())?;
            if out.len() > max {
                return Err(too_large());
            }
            match status {
                Status::StreamEnd => return Ok(out),
                Status::Ok | Status::BufError => {
                    if out.len() == out.capacity() {
                        // Doubling, but never past `bound`: at most 2 * bound allocated in
                        // all.
                        let more = out.capacity().min(bound - out.len()).max(64);
                        out.reserve_exact(more);
                    } else if (d.total_in(), d.total_out()) == before {
                        // No progress with room to write: the input ended mid-stream.
                        return Err(bad());
                    }
                }
            }
        }
    })
}

/// zlib-compresses `out[from..]` in place.
fn deflate_in_place(out: &mut Vec<u8>, from: usize) -> Result<()> {
    use flate2::{Compress, Compression, FlushCompress, Status};
    DEFLATE.with(|cell| {
        let mut state = cell.borrow_mut();
        let (c, scratch) =
            state.get_or_insert_with(|| (Compress::new(Compression::default(), true), Vec::new()));
        c.reset();
        scratch.clear();
        scratch.reserve((out.len() - from) / 2 + 64);
        let result = loop {
            let consumed = c.total_in() as usize;
            let status = c.compress_vec(&out[from + consumed..], scratch, FlushCompress::Finish);
            match status {
                Ok(Status::StreamEnd) => break Ok(()),
                Ok(Status::Ok | Status::BufError) => scratch.reserve(scratch.capacity().max(64)),
                Err(e) => break Err(Error::from(io::Error::other(e))),
            }
        };
        if result.is_ok() {
            out.truncate(from);
            out.extend_from_slice(scratch);
        }
        if scratch.capacity() > KEEP_SCRATCH {
            *scratch = Vec::new();
        }
        result
    })
}

/// Where a frame started in an output buffer, for [`end_frame`].
#[derive(Clone, Copy, Debug)]
pub struct FrameStart {
    framing: Framing,
    start: usize,
    payload: usize,
}

impl FrameStart {
    /// Whether a message was written after the frame's start.
    pub fn is_empty(&self, out: &[u8]) -> bool {
        out.len() <= self.payload
    }
}

fn write_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// Appends the start of a frame to `out`; the message follows, then [`end_frame`].
/// `headers` are THeader info headers (ignored by the other transports).
pub fn begin_frame(
    out: &mut Vec<u8>,
    framing: Framing,
    header_seq: i32,
    headers: &[(String, String)],
) -> FrameStart {
    let start = out.len();
    match framing.transport {
        Transport::Buffered => {}
        Transport::Framed => out.extend_from_slice(&[0; 4]),
        Transport::Header => {
            out.extend_from_slice(&[0; 4]);
            out.extend_from_slice(&HEADER_MAGIC.to_be_bytes());
            out.extend_from_slice(&0u16.to_be_bytes());
            out.extend_from_slice(&header_seq.to_be_bytes());
            let size_at = out.len();
            out.extend_from_slice(&[0; 2]);
            let header_start = out.len();
            write_varint(
                out,
                match framing.protocol {
                    ProtocolKind::Binary => PROTOCOL_ID_BINARY,
                    ProtocolKind::Compact => PROTOCOL_ID_COMPACT,
                },
            );
            if framing.zlib {
                write_varint(out, 1);
                write_varint(out, TRANSFORM_ZLIB);
            } else {
                write_varint(out, 0);
            }
            if !headers.is_empty() {
                write_varint(out, INFO_KEYVALUE);
                write_varint(out, headers.len() as u64);
                for (key, value) in headers {
                    write_varint(out, key.len() as u64);
                    out.extend_from_slice(key.as_bytes());
                    write_varint(out, value.len() as u64);
                    out.extend_from_slice(value.as_bytes());
                }
            }
            while (out.len() - header_start) % 4 != 0 {
                out.push(0);
            }
            // Headers too large for the size field are refused by `end_frame`.
            let words = ((out.len() - header_start) / 4).min(usize::from(u16::MAX)) as u16;
            out[size_at..size_at + 2].copy_from_slice(&words.to_be_bytes());
        }
    }
    FrameStart {
        framing,
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
    Ok(begin_frame(out, received.framing, received.header_seq, &[]))
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
    if frame.framing.transport == Transport::Buffered {
        return Ok(());
    }
    if frame.framing.transport == Transport::Header {
        let header_len = frame.payload - frame.start - 14;
        if header_len > HEADER_MAX_WORDS * 4 {
            out.truncate(frame.start);
            return Err(Error::size_limit("THeader: info headers too large"));
        }
        if frame.framing.zlib {
            if let Err(e) = deflate_in_place(out, frame.payload) {
                out.truncate(frame.start);
                return Err(e);
            }
        }
    }
    let len = out.len() - frame.start - 4;
    if len > max_frame_size.min(HEADER_MAX_FRAME) {
        out.truncate(frame.start);
        return Err(Error::limit(
            Limit::FrameSize,
            "frame larger than max_frame_size",
        ));
    }
    out[frame.start..frame.start + 4].copy_from_slice(&(len as u32).to_be_bytes());
    Ok(())
}
