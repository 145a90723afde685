//! Reading HTTP/1.1 off a blocking stream, for the blocking client (responses) and the
//! blocking server (requests): the head through `httparse`, then a body by `Content-Length`,
//! chunked, or (a response only) up to the connection's end, each bounded by the frame size
//! limit before it is buffered.

use std::io;
use std::time::Instant;

use bytes::Bytes;

use crate::error::{Error, Result};
use crate::rpc::blocking::Stream;
use crate::rpc::http::too_large;

/// The most a head (request or status line and headers) may take.
pub(super) const MAX_HEAD: usize = 64 * 1024;
/// Bytes offered to one `read`.
const READ_CHUNK: usize = 16 * 1024;
/// The most headers a head may have.
const MAX_HEADERS: usize = 64;

/// How a message's body is delimited, and whether the connection stays open after it.
#[derive(Debug, Default)]
pub(super) struct BodyFraming {
    pub(super) content_length: Option<usize>,
    pub(super) chunked: bool,
    pub(super) keep_alive: bool,
    /// A request only: the client waits for `100 Continue` before sending its body.
    pub(super) expect_continue: bool,
}

impl BodyFraming {
    /// Whether the body's end is known without the connection closing.
    pub(super) fn delimited(&self) -> bool {
        self.chunked || self.content_length.is_some()
    }

    /// Reads the headers that delimit the body and decide keep-alive (`http11`: the
    /// default is to keep the connection). Strict where a lenient reading would let a body
    /// be taken for the next message (RFC 9112 6.1, 6.3): a Content-Length of digits only,
    /// the same in every header; `Transfer-Encoding` only as `chunked` (the codings of every
    /// such header together), and then the connection is closed after the message if a
    /// Content-Length came too.
    fn from_headers(headers: &[httparse::Header<'_>], http11: bool) -> io::Result<BodyFraming> {
        let mut framing = BodyFraming {
            keep_alive: http11,
            ..BodyFraming::default()
        };
        let mut codings = 0;
        for header in headers {
            let value = std::str::from_utf8(header.value).unwrap_or("").trim();
            if header.name.eq_ignore_ascii_case("content-length") {
                let len = decimal(value).ok_or_else(|| invalid("HTTP: a bad Content-Length"))?;
                if framing.content_length.is_some_and(|seen| seen != len) {
                    return Err(invalid("HTTP: two different Content-Lengths"));
                }
                framing.content_length = Some(len);
            } else if header.name.eq_ignore_ascii_case("transfer-encoding") {
                for coding in value.split(',').map(str::trim).filter(|c| !c.is_empty()) {
                    if !coding.eq_ignore_ascii_case("chunked") || framing.chunked {
                        return Err(invalid(format!(
                            "HTTP: transfer coding {coding:?} (only one `chunked` is supported)"
                        )));
                    }
                    framing.chunked = true;
                    codings += 1;
                }
            } else if header.name.eq_ignore_ascii_case("connection") {
                let value = value.to_ascii_lowercase();
                if value.contains("close") {
                    framing.keep_alive = false;
                } else if value.contains("keep-alive") {
                    framing.keep_alive = true;
                }
            } else if header.name.eq_ignore_ascii_case("expect") {
                framing.expect_continue = value.eq_ignore_ascii_case("100-continue");
            }
        }
        if codings > 0 && !http11 {
            return Err(invalid("HTTP: Transfer-Encoding in an HTTP/1.0 message"));
        }
        if framing.chunked && framing.content_length.take().is_some() {
            // RFC 9112 6.3: Transfer-Encoding overrides Content-Length, and the connection
            // closes after such a message.
            framing.keep_alive = false;
        }
        Ok(framing)
    }
}

/// A response's head.
pub(super) struct ResponseHead {
    pub(super) status: u16,
    pub(super) framing: BodyFraming,
}

/// A request's head, as far as a Thrift server needs it.
pub(super) struct RequestHead {
    pub(super) post: bool,
    pub(super) http11: bool,
    /// The `Content-Type` to answer with (the request's, or `application/x-thrift`).
    pub(super) content_type: Option<String>,
    pub(super) framing: BodyFraming,
}

/// One message read off a stream, through a buffer that may hold the next message's first
/// bytes when it is done.
pub(super) struct Incoming<'a> {
    pub(super) stream: &'a mut dyn Stream,
    pub(super) buf: &'a mut Vec<u8>,
    /// How much of `buf` has been consumed.
    pub(super) pos: usize,
    /// When reading must be done (each read's timeout is set to what is left), if ever.
    pub(super) deadline: Option<Instant>,
    /// How far the buffer has been searched for the blank line ending a head.
    pub(super) scanned: usize,
}

impl Incoming<'_> {
    /// Whether the unconsumed bytes hold the blank line that ends a head, searching only
    /// what came since the last search (so a head trickling in costs one pass).
    fn head_is_in(&mut self) -> bool {
        let from = self.scanned.saturating_sub(2).max(self.pos);
        let bytes = &self.buf[from..];
        let found =
            bytes.windows(2).any(|w| w == b"\n\n") || bytes.windows(3).any(|w| w == b"\n\r\n");
        self.scanned = if found { 0 } else { self.buf.len() };
        found
    }
}

impl Incoming<'_> {
    /// Reads more into the buffer; `Ok(0)` at the end of the stream.
    pub(super) fn fill(&mut self) -> io::Result<usize> {
        if let Some(deadline) = self.deadline {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(io::Error::new(
                    io::ErrorKind::TimedOut,
                    "HTTP: the message took longer than the read timeout to arrive",
                ));
            }
            self.stream.set_read_timeout(Some(left))?;
        }
        let len = self.buf.len();
        self.buf.resize(len + READ_CHUNK, 0);
        let n = loop {
            match self.stream.read(&mut self.buf[len..]) {
                Ok(n) => break n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    self.buf.truncate(len);
                    return Err(e);
                }
            }
        };
        self.buf.truncate(len + n);
        Ok(n)
    }

    /// Drops what has been consumed, keeping what follows (a pipelined next message).
    pub(super) fn consume(&mut self) {
        self.buf.drain(..self.pos);
        self.scanned = self.scanned.saturating_sub(self.pos);
        self.pos = 0;
    }

    /// A response's head; a few `1xx` responses (`100 Continue`) are skipped, `101` is an
    /// error (no protocol is switched to here).
    pub(super) fn response_head(&mut self) -> io::Result<ResponseHead> {
        let mut informational = 0;
        loop {
            // Parsed once the blank line is in: a head trickling in costs one pass.
            if !self.head_is_in() {
                self.head_room()?;
                if self.fill()? == 0 {
                    return Err(io::ErrorKind::UnexpectedEof.into());
                }
                continue;
            }
            let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
            let mut response = httparse::Response::new(&mut headers);
            match response.parse(&self.buf[self.pos..]) {
                Ok(httparse::Status::Complete(len)) => {
                    let status = response.code.unwrap_or(0);
                    let framing =
                        BodyFraming::from_headers(response.headers, response.version == Some(1))?;
                    self.pos += len;
                    // 1xx: informational, the real response follows.
                    if (100..200).contains(&status) {
                        informational += 1;
                        if status == 101 || informational > 8 {
                            return Err(invalid(format!("HTTP: an unexpected {status} response")));
                        }
                        self.consume();
                        continue;
                    }
                    return Ok(ResponseHead { status, framing });
                }
                Ok(httparse::Status::Partial) => self.head_room()?,
                Err(e) => return Err(invalid(format!("HTTP: a malformed response: {e}"))),
            }
            if self.fill()? == 0 {
                return Err(io::ErrorKind::UnexpectedEof.into());
            }
        }
    }

    /// A request's head, once its bytes are in the buffer: `Ok(None)` while more are needed
    /// (the caller reads, with its own timeouts). Parsed only once the blank line ending it
    /// is in, so a head trickling in costs one pass over it.
    pub(super) fn request_head(&mut self) -> io::Result<Option<RequestHead>> {
        if !self.head_is_in() {
            return self.head_room().map(|()| None);
        }
        let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
        let mut request = httparse::Request::new(&mut headers);
        match request.parse(&self.buf[self.pos..]) {
            Ok(httparse::Status::Complete(len)) => {
                let http11 = request.version == Some(1);
                let framing = BodyFraming::from_headers(request.headers, http11)?;
                let content_type = request
                    .headers
                    .iter()
                    .find(|h| h.name.eq_ignore_ascii_case("content-type"))
                    .and_then(|h| std::str::from_utf8(h.value).ok())
                    .map(|v| v.trim().to_owned());
                let post = request.method == Some("POST");
                self.pos += len;
                Ok(Some(RequestHead {
                    post,
                    http11,
                    content_type,
                    framing,
                }))
            }
            Ok(httparse::Status::Partial) => self.head_room().map(|()| None),
            Err(e) => Err(invalid(format!("HTTP: a malformed request: {e}"))),
        }
    }

    fn head_room(&self) -> io::Result<()> {
        if self.buf.len() - self.pos > MAX_HEAD {
            return Err(invalid("HTTP: a head larger than 64 KiB"));
        }
        Ok(())
    }

    /// Makes `n` unconsumed bytes available; an error if the stream ends first.
    fn need(&mut self, n: usize) -> io::Result<()> {
        while self.buf.len() - self.pos < n {
            if self.fill()? == 0 {
                return Err(io::ErrorKind::UnexpectedEof.into());
            }
        }
        Ok(())
    }

    /// The body `framing` delimits, at most `max` bytes (else `LimitExceeded(FrameSize)`,
    /// before the bytes over it are buffered). Neither a length nor chunks: a response's
    /// body ends with the connection (HTTP/1.0 servers, Apache's Python one), a request has
    /// none (`until_close` false).
    pub(super) fn body(
        &mut self,
        framing: &BodyFraming,
        max: usize,
        until_close: bool,
    ) -> Result<Bytes> {
        if framing.chunked {
            return self.chunked(max);
        }
        if let Some(len) = framing.content_length {
            if len > max {
                return Err(too_large());
            }
            self.need(len)?;
            let body = Bytes::copy_from_slice(&self.buf[self.pos..self.pos + len]);
            self.pos += len;
            return Ok(body);
        }
        if !until_close {
            return Ok(Bytes::new());
        }
        loop {
            if self.buf.len() - self.pos > max {
                return Err(too_large());
            }
            if self.fill()? == 0 {
                let body = Bytes::copy_from_slice(&self.buf[self.pos..]);
                self.pos = self.buf.len();
                return Ok(body);
            }
        }
    }

    /// A chunked body. What has been read is dropped from the buffer as it is taken, and
    /// the chunks' framing (sizes, extensions, trailers) may take at most [`MAX_HEAD`] bytes
    /// besides one per chunk line, so a peer sending tiny chunks with long extensions
    /// cannot make the reader hold or read much more than `max`.
    fn chunked(&mut self, max: usize) -> Result<Bytes> {
        let mut body = Vec::new();
        let mut framing = 0usize;
        let mut overhead = |line: usize| -> Result<()> {
            // The line and its CRLF; a few bytes per chunk are always allowed.
            framing = framing.saturating_add(line.saturating_sub(16));
            if framing > MAX_HEAD {
                return Err(Error::from(invalid(
                    "HTTP: chunk extensions and trailers larger than 64 KiB",
                )));
            }
            Ok(())
        };
        loop {
            let line = self.line()?;
            overhead(line.len())?;
            let size = line
                .split(';')
                .next()
                .unwrap_or("")
                .trim_end_matches([' ', '\t']);
            let size =
                hexadecimal(size).ok_or_else(|| Error::from(invalid("HTTP: a bad chunk size")))?;
            if size == 0 {
                // Trailers, up to the empty line.
                loop {
                    let trailer = self.line()?;
                    if trailer.is_empty() {
                        return Ok(Bytes::from(body));
                    }
                    overhead(trailer.len().saturating_add(16))?;
                }
            }
            if size > max.saturating_sub(body.len()) {
                return Err(too_large());
            }
            let framed = size
                .checked_add(2)
                .ok_or_else(|| Error::from(invalid("HTTP: a bad chunk size")))?;
            self.need(framed)?;
            body.extend_from_slice(&self.buf[self.pos..self.pos + size]);
            if &self.buf[self.pos + size..self.pos + framed] != b"\r\n" {
                return Err(Error::from(invalid("HTTP: a chunk without its CRLF")));
            }
            self.pos += framed;
            self.consume();
        }
    }

    /// The next line (without its CRLF), at most 4 KiB; consumed from the buffer.
    fn line(&mut self) -> Result<String> {
        loop {
            if let Some(at) = self.buf[self.pos..].windows(2).position(|w| w == b"\r\n") {
                let line = String::from_utf8_lossy(&self.buf[self.pos..self.pos + at]).into_owned();
                self.pos += at + 2;
                self.consume();
                return Ok(line);
            }
            if self.buf.len() - self.pos > 4096 {
                return Err(Error::from(invalid("HTTP: a chunk line longer than 4 KiB")));
            }
            if self.fill()? == 0 {
                return Err(Error::from(io::Error::from(io::ErrorKind::UnexpectedEof)));
            }
        }
    }
}

/// A number of decimal digits only (no sign, no spaces), as a Content-Length must be.
fn decimal(text: &str) -> Option<usize> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// A number of hexadecimal digits only, as a chunk size must be.
fn hexadecimal(text: &str) -> Option<usize> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    usize::from_str_radix(text, 16).ok()
}

fn invalid(why: impl Into<String>) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, why.into())
}
