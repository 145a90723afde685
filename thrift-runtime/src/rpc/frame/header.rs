//! THeader frames (`HeaderFormat.md`): the fixed header, the protocol id, transforms (zlib),
//! info key/value headers, and the payload. A frame is the bytes after its length word; the
//! length words around it are [`super`]'s.

use std::cell::RefCell;
use std::io;

use bytes::Bytes;

use super::{FrameLimits, Framing, Received, WireFormat};
use crate::error::{Error, Result};
use crate::limits::Limit;
use crate::rpc::message::{Headers, Message, ProtocolKind};

/// The first two bytes of a THeader frame.
pub(super) const MAGIC: [u8; 2] = [0x0F, 0xFF];
/// THeader's largest frame (`HeaderFormat.md`).
pub(super) const MAX_FRAME: usize = 0x3FFF_FFFF;
const TRANSFORM_ZLIB: u64 = 1;
const INFO_KEYVALUE: u64 = 1;
/// The largest THeader header Apache's C++ library accepts, in 4-byte words.
const HEADER_MAX_WORDS: usize = 16_383;
/// Magic, flags, sequence id and header size: the bytes before the variable header.
const FIXED_LEN: usize = 10;

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

/// Decodes a THeader frame (the bytes after its length word); `transport` is
/// [`Framing::Header`] or [`Framing::FramedHeader`], for the reply.
pub(super) fn decode(frame: Bytes, transport: Framing, limits: &FrameLimits) -> Result<Received> {
    let b = &frame[..];
    if b.len() < FIXED_LEN {
        return Err(Error::invalid_data(
            "THeader: frame shorter than its fixed header",
        ));
    }
    if b[..2] != MAGIC {
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
    let end = FIXED_LEN + header_len;
    if end > b.len() {
        return Err(Error::invalid_data("THeader: header longer than the frame"));
    }
    let mut pos = FIXED_LEN;
    let protocol = ProtocolKind::from_header_protocol_id(read_varint(b, &mut pos, end)?)
        .ok_or_else(|| Error::invalid_data("THeader: unsupported protocol id"))?;
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
        format: WireFormat {
            framing: transport,
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

fn write_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// Appends a THeader frame's fixed and variable header (the frame's length word is already
/// written); the payload follows, then [`end`].
pub(super) fn begin(out: &mut Vec<u8>, format: WireFormat, seq: i32, headers: &[(String, String)]) {
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&0u16.to_be_bytes());
    out.extend_from_slice(&seq.to_be_bytes());
    let size_at = out.len();
    out.extend_from_slice(&[0; 2]);
    let header_start = out.len();
    write_varint(out, format.protocol.header_protocol_id());
    if format.zlib {
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
    while !(out.len() - header_start).is_multiple_of(4) {
        out.push(0);
    }
    // Headers too large for the size field are refused by `end`.
    let words = ((out.len() - header_start) / 4).min(usize::from(u16::MAX)) as u16;
    out[size_at..size_at + 2].copy_from_slice(&words.to_be_bytes());
}

/// Completes the THeader frame starting at `frame` (its magic) whose payload starts at
/// `payload`: checks the header's size, compresses a zlib payload. The caller writes the
/// length words and cuts `out` back on an error.
pub(super) fn end(
    out: &mut Vec<u8>,
    format: WireFormat,
    frame: usize,
    payload: usize,
) -> Result<()> {
    if payload - frame - FIXED_LEN > HEADER_MAX_WORDS * 4 {
        return Err(Error::size_limit("THeader: info headers too large"));
    }
    if format.zlib {
        deflate_in_place(out, payload)?;
    }
    Ok(())
}
