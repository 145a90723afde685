//! Thrift over HTTP (feature `http`), as Apache's `THttpClient` and `THttpServer` speak it and
//! Jaeger's collector, HiveServer2, HBase and browsers use it: each call is one `POST` whose
//! body is the whole message (no framing), `Content-Type: application/x-thrift`, and the reply
//! is the response's body (empty for a oneway call). Binary, compact and JSON messages; a
//! server detects which from the body.
//!
//! This module is what both execution models share (the content type, a URL, the one call a
//! request's body carries, bounded body reading); the clients and servers live with their
//! execution model:
//!
//! - [`asynchronous::HttpClient`](crate::rpc::asynchronous::HttpClient): an
//!   [`AsyncChannel`](crate::rpc::AsyncChannel) for generated async clients, with a
//!   keep-alive pool of HTTP/1.1 connections (many calls at once use several), custom
//!   headers, and HTTPS with feature `tls`.
//! - [`asynchronous::HttpServer`](crate::rpc::asynchronous::HttpServer) on hyper, on any
//!   async [`Listener`](crate::rpc::asynchronous::Listener) (TCP, a Unix domain socket, a
//!   `TlsListener` for HTTPS); [`asynchronous::HttpService`](crate::rpc::asynchronous::HttpService),
//!   a processor as a tower `Service<http::Request<B>>`, to mount at a path of an axum or
//!   hyper app.
//! - With feature `blocking`: [`blocking::HttpClient`](crate::rpc::blocking::HttpClient), a
//!   blocking [`Channel`](crate::rpc::Channel) on one keep-alive connection, and
//!   [`blocking::HttpServer`](crate::rpc::blocking::HttpServer) on the threaded server's
//!   workers, on any blocking listener.
//!
//! An HTTP client takes [`ClientOptions`](crate::rpc::ClientOptions) for its protocol,
//! multiplexed name, limits and timeout; its framing is HTTP's own, and the options'
//! framing is not looked at.
//!
//! Limits: a request or reply body larger than `FrameLimits::max_frame_size` is refused (the
//! server answers `413 Payload Too Large` before reading it when `Content-Length` says so), and
//! decoding has the usual `ReadLimits`. Statuses other than 200 are errors that name the status.

use std::io;

use bytes::{Buf, Bytes, BytesMut};
use http_body_util::BodyExt;
use hyper::body::Body;

use crate::error::{Error, Result};
use crate::limits::ReadLimits;
use crate::rpc::message::{Message, ProtocolKind};
use crate::wire::MessageType;

/// The call a request's body carries, as both servers take it: one whole message (binary,
/// compact or JSON, detected), a call or a oneway call. Anything else is refused with what
/// was wrong and where, for the `400`'s body: the byte at which the message is malformed, the
/// method it called if its header was read; bounded (the first bytes in hex, a method name
/// cut at 64 characters, the reader's own message), never the body itself.
pub(crate) fn one_call(body: Bytes, limits: ReadLimits) -> std::result::Result<Message, String> {
    let protocol = match ProtocolKind::detect(&body) {
        Ok(Some(protocol)) => protocol,
        Ok(None) => {
            return Err(format!(
                "a body of {} bytes is too short for a Thrift message",
                body.len()
            ));
        }
        Err(_) => {
            let first = &body[..body.len().min(8)];
            let hex: Vec<String> = first.iter().map(|b| format!("{b:02x}")).collect();
            return Err(format!(
                "not a Thrift message: the body starts with {} (\"{}\"), where a binary message starts with 80 01, a compact one with 82, a JSON one with [1,",
                hex.join(" "),
                String::from_utf8_lossy(first).escape_debug()
            ));
        }
    };
    // The header first: errors name the method called.
    let header = Message::parse(body.clone(), protocol, limits);
    let calling = match &header {
        Ok(call) => {
            let name: String = call.name().chars().take(64).collect();
            let cut = if name.len() < call.name().len() {
                "..."
            } else {
                ""
            };
            format!(" (calling `{name}{cut}`)")
        }
        Err(_) => String::new(),
    };
    let (end, read) = protocol.read_to_end(&body, limits);
    if let Err(e) = read {
        return Err(format!(
            "malformed {protocol:?} message at byte {end} of {}: {e}{calling}",
            body.len()
        ));
    }
    if end != body.len() {
        return Err(format!(
            "{} bytes after the end of the {protocol:?} message at byte {end}: one call per request{calling}",
            body.len() - end
        ));
    }
    let call = header.map_err(|e| format!("malformed {protocol:?} message: {e}"))?;
    match call.kind() {
        MessageType::Call | MessageType::Oneway => Ok(call),
        kind => Err(format!("a {kind:?} message is not a call{calling}")),
    }
}

/// Why a body was not read.
pub(crate) enum BodyError {
    /// It is longer than the limit.
    TooLarge,
    /// The connection failed while it came.
    Unreadable(Box<dyn std::error::Error + Send + Sync>),
}

/// Reads a request's or a response's body whole, up to `max` bytes. A body that comes as one
/// chunk of `Bytes` (a small call or reply, from hyper) is that chunk, with no copy and no
/// allocation (collecting it took one, for the list of chunks); one of several chunks is
/// copied into one buffer.
pub(crate) async fn read_body<B>(body: B, max: usize) -> Result<Bytes, BodyError>
where
    B: Body,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    let mut body = std::pin::pin!(body);
    let mut first: Option<Bytes> = None;
    let mut more: Option<BytesMut> = None;
    let mut len = 0usize;
    while let Some(frame) = body.frame().await {
        let Ok(mut data) = frame
            .map_err(|e| BodyError::Unreadable(e.into()))?
            .into_data()
        else {
            continue; // Trailers: nothing of the call.
        };
        // `Bytes` (hyper's body) hands itself over; another `Buf` is copied.
        let data = data.copy_to_bytes(data.remaining());
        len = len.saturating_add(data.len());
        if len > max {
            return Err(BodyError::TooLarge);
        }
        match (&mut first, &mut more) {
            (None, _) => first = Some(data),
            (Some(first), None) => {
                let mut joined = BytesMut::with_capacity(len);
                joined.extend_from_slice(first);
                joined.extend_from_slice(&data);
                more = Some(joined);
            }
            (Some(_), Some(joined)) => joined.extend_from_slice(&data),
        }
    }
    Ok(match (first, more) {
        (_, Some(joined)) => joined.freeze(),
        (Some(first), None) => first,
        (None, None) => Bytes::new(),
    })
}

/// The content type of Thrift over HTTP, whatever the protocol (Apache's clients and servers
/// all send it).
pub const CONTENT_TYPE: &str = "application/x-thrift";

/// Where an HTTP client sends its calls: `http://host[:port]/path` or `https://...`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Url {
    pub(crate) https: bool,
    pub(crate) host: String,
    pub(crate) port: u16,
    /// The request target: the path and query, `/` at least.
    pub(crate) path: String,
}

impl Url {
    pub(crate) fn parse(url: &str) -> Result<Url> {
        let bad = |why: &str| {
            Error::from(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("not an http:// or https:// URL: {url:?}: {why}"),
            ))
        };
        let (https, rest) = if let Some(rest) = url.strip_prefix("http://") {
            (false, rest)
        } else if let Some(rest) = url.strip_prefix("https://") {
            (true, rest)
        } else {
            return Err(bad("the scheme must be http or https"));
        };
        let (authority, path) = match rest.find(['/', '?']) {
            Some(at) if rest.as_bytes()[at] == b'/' => (&rest[..at], rest[at..].to_owned()),
            Some(at) => (&rest[..at], format!("/{}", &rest[at..])),
            None => (rest, "/".to_owned()),
        };
        if authority.contains('@') {
            return Err(bad(
                "user information is not supported (send an Authorization header)",
            ));
        }
        let default_port = if https { 443 } else { 80 };
        let (host, port) = if let Some(v6) = authority.strip_prefix('[') {
            let (host, rest) = v6.split_once(']').ok_or_else(|| bad("an unclosed '['"))?;
            let port = match rest.strip_prefix(':') {
                Some(port) => port.parse().map_err(|_| bad("a bad port"))?,
                None if rest.is_empty() => default_port,
                None => return Err(bad("junk after the address")),
            };
            (host.to_owned(), port)
        } else {
            match authority.rsplit_once(':') {
                Some((host, port)) => (
                    host.to_owned(),
                    port.parse().map_err(|_| bad("a bad port"))?,
                ),
                None => (authority.to_owned(), default_port),
            }
        };
        if host.is_empty() {
            return Err(bad("no host"));
        }
        if path.bytes().any(|b| b <= b' ' || b == 0x7f) {
            return Err(bad("spaces or control characters in the path"));
        }
        Ok(Url {
            https,
            host,
            port,
            path,
        })
    }

    /// The `Host` header's value.
    pub(crate) fn authority(&self) -> String {
        let host = if self.host.contains(':') {
            format!("[{}]", self.host)
        } else {
            self.host.clone()
        };
        let default_port = if self.https { 443 } else { 80 };
        if self.port == default_port {
            host
        } else {
            format!("{host}:{}", self.port)
        }
    }
}

/// A response's status other than 200, as an error.
pub(crate) fn status_error(status: u16, url: &str, expected: &str) -> Error {
    Error::from(io::Error::other(format!(
        "HTTP status {status} from {url} ({expected} expected)"
    )))
}

/// A body over the frame size limit, as an error.
pub(crate) fn too_large() -> Error {
    Error::limit(
        crate::limits::Limit::FrameSize,
        "HTTP body larger than max_frame_size",
    )
}

#[cfg(test)]
mod tests {
    use std::collections::VecDeque;
    use std::pin::Pin;
    use std::task::{Context, Poll};

    use bytes::Bytes;
    use hyper::body::{Body, Frame};

    use super::{BodyError, Url, read_body};

    /// A body of the given frames (data, trailers, errors), one per poll.
    struct Frames(VecDeque<Result<Frame<Bytes>, std::io::Error>>);

    impl Body for Frames {
        type Data = Bytes;
        type Error = std::io::Error;
        fn poll_frame(
            mut self: Pin<&mut Self>,
            _cx: &mut Context<'_>,
        ) -> Poll<Option<Result<Frame<Bytes>, std::io::Error>>> {
            Poll::Ready(self.0.pop_front())
        }
    }

    fn data(text: &'static [u8]) -> Result<Frame<Bytes>, std::io::Error> {
        Ok(Frame::data(Bytes::from_static(text)))
    }

    fn read(
        frames: Vec<Result<Frame<Bytes>, std::io::Error>>,
        max: usize,
    ) -> Result<Bytes, BodyError> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        runtime.block_on(read_body(Frames(frames.into()), max))
    }

    #[test]
    fn a_body_is_read_whole_and_one_chunk_is_kept_as_it_came() {
        let chunk: &'static [u8] = b"one chunk";
        let body = read(vec![data(chunk)], 100).ok().unwrap();
        assert_eq!(body.as_ptr(), chunk.as_ptr(), "one chunk is not copied");
        let trailers = Frame::trailers(http::HeaderMap::new());
        let body = read(vec![data(b"ab"), Ok(trailers), data(b"cd"), data(b"e")], 5)
            .ok()
            .unwrap();
        assert_eq!(&body[..], b"abcde");
        assert!(read(vec![], 0).ok().unwrap().is_empty());
        assert!(matches!(
            read(vec![data(b"abc"), data(b"def")], 5),
            Err(BodyError::TooLarge)
        ));
        assert!(matches!(
            read(vec![data(b"abcdef")], 5),
            Err(BodyError::TooLarge)
        ));
        let failed = read(vec![data(b"ab"), Err(std::io::Error::other("reset"))], 100);
        assert!(matches!(failed, Err(BodyError::Unreadable(e)) if e.to_string() == "reset"));
    }

    #[test]
    fn urls_parse_as_a_user_expects() {
        let u = Url::parse("http://collector:14268/api/traces?format=jaeger.thrift").unwrap();
        assert_eq!(
            (u.https, u.host.as_str(), u.port, u.path.as_str()),
            (
                false,
                "collector",
                14268,
                "/api/traces?format=jaeger.thrift"
            )
        );
        assert_eq!(u.authority(), "collector:14268");
        let u = Url::parse("https://sandbox.evernote.com").unwrap();
        assert_eq!(
            (u.port, u.path.as_str(), u.authority().as_str()),
            (443, "/", "sandbox.evernote.com")
        );
        let u = Url::parse("http://[::1]:9090?x").unwrap();
        assert_eq!(
            (u.host.as_str(), u.port, u.path.as_str()),
            ("::1", 9090, "/?x")
        );
        assert_eq!(u.authority(), "[::1]:9090");
        for bad in [
            "ftp://x/",
            "http://",
            "http://h:port/",
            "http://u@h/",
            "http://h/a b",
            "h:80",
        ] {
            assert!(Url::parse(bad).is_err(), "{bad}");
        }
    }
}
