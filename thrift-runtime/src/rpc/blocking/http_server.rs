//! [`HttpServer`]: Thrift calls POSTed over HTTP/1.1, answered by a blocking processor on the
//! threaded server's workers.

use std::io::{self, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::http_incoming::{Incoming, RequestHead};
use super::io::{STOP_POLL, busy_poll, write_within};
use super::server::ServeConnection;
use super::{Listener, Server, ServerHandle, Stream};
use crate::error::ErrorKind;
use crate::limits::Limit;
use crate::rpc::http::{CONTENT_TYPE, one_call};
use crate::rpc::options::ServerOptions;
use crate::rpc::service::Processor;
use crate::wire::MessageType;

/// Bytes a connection's buffer starts with.
const READ_CHUNK: usize = 16 * 1024;

/// A blocking HTTP server for a processor, as Apache's `THttpServer`: each `POST` carries
/// one call (binary, compact or JSON, detected from the body) and gets its reply as the
/// response body, `200 OK`, in the call's protocol and content type, on a kept-alive
/// HTTP/1.1 connection. A oneway call is answered with an empty body before its handler
/// runs. The request path is not looked at: serve one service per port (or a
/// `MultiplexedProcessor`), or mount an [`HttpService`](crate::rpc::asynchronous::HttpService) at a path of an
/// axum app for more.
///
/// It runs on the blocking [`Server`]'s workers with its [`ServerOptions`]: `workers`
/// connections at once, `idle_timeout` for the next request to begin, `read_timeout` for a
/// whole request to arrive (head and body: a client that trickles bytes is cut off),
/// `write_timeout` for the response, `limits.max_frame_size` for bodies (with no
/// `read_timeout`, `idle_timeout` bounds a whole request). Refused, with
/// nothing processed, and the connection closed: another method (`405`), a body over
/// `max_frame_size` (`413`, before reading it when `Content-Length` says so, or as chunks
/// pass it), a malformed head (`400`), a request slower than `read_timeout` (`408`). A body
/// that is not one whole call gets `400` and the connection goes on.
///
/// ```no_run
/// use std::net::TcpListener;
/// use thrift_runtime::rpc::ServerOptions;
/// use thrift_runtime::rpc::blocking::HttpServer;
/// use thrift_runtime::rpc::MultiplexedProcessor;
///
/// let listener = TcpListener::bind("0.0.0.0:8080")?;
/// let handle = HttpServer::new(ServerOptions::default()).spawn(listener, MultiplexedProcessor::new())?;
/// println!("serving Thrift over HTTP on {}", handle.local_addr());
/// # Ok::<(), std::io::Error>(())
/// ```
///
/// HTTPS: a [`TlsListener`](crate::rpc::blocking::TlsListener) (feature `tls`) around the
/// listener.
#[derive(Clone, Debug, Default)]
pub struct HttpServer {
    options: ServerOptions,
}

impl HttpServer {
    /// A server with these options.
    pub fn new(options: ServerOptions) -> Self {
        HttpServer { options }
    }

    /// Serves on `listener` until the process ends.
    pub fn serve<L: Listener, P: Processor + 'static>(
        self,
        listener: L,
        processor: P,
    ) -> io::Result<()> {
        Server::new(self.options).serve_with(listener, each_http_connection(processor))
    }

    /// Serves on `listener` in the background; dropping the handle (or
    /// [`ServerHandle::shutdown`]) stops accepting, lets each request in progress finish and
    /// waits for the workers.
    pub fn spawn<L: Listener, P: Processor + 'static>(
        self,
        listener: L,
        processor: P,
    ) -> io::Result<ServerHandle<L::Addr>> {
        Server::new(self.options).spawn_with(listener, each_http_connection(processor))
    }
}

/// Serves each connection with `processor`, as HTTP/1.1 requests.
fn each_http_connection<S: Stream, P: Processor + 'static>(processor: P) -> ServeConnection<S> {
    Arc::new(
        move |mut stream: S, options: &ServerOptions, stop: &AtomicBool| {
            serve_connection(&mut stream, &processor, options, stop)
        },
    )
}

/// What became of one request.
enum Outcome {
    /// Answered; the connection goes on when the request allows it.
    Answered { keep_alive: bool },
    /// The connection is done (closed by the client, an I/O error, a refusal answered).
    Close,
}

/// Serves one connection until the client closes it, a timeout, an error, or shutdown.
fn serve_connection<S: Stream, P: Processor + ?Sized>(
    stream: &mut S,
    processor: &P,
    options: &ServerOptions,
    stop: &AtomicBool,
) {
    if stream.set_write_timeout(options.write_timeout).is_err() {
        return;
    }
    let mut buf = Vec::with_capacity(READ_CHUNK);
    let mut out = Vec::new();
    loop {
        if let Some(window) = options.busy_poll.filter(|_| buf.is_empty()) {
            buf.resize(READ_CHUNK, 0);
            let Ok(n) = busy_poll(stream, &mut buf, window) else {
                return;
            };
            buf.truncate(n);
        }
        if !next_request(stream, &mut buf, options.idle_timeout, stop) {
            return;
        }
        match request(stream, &mut buf, processor, options, &mut out) {
            Outcome::Answered { keep_alive: true } if !stop.load(Ordering::Relaxed) => {}
            _ => return,
        }
    }
}

/// Waits for a request's first bytes (or has them from the last read), within the idle
/// timeout, looking at the stop flag meanwhile; `false` when the connection is done.
fn next_request<S: Stream>(
    stream: &mut S,
    buf: &mut Vec<u8>,
    idle: Option<Duration>,
    stop: &AtomicBool,
) -> bool {
    let deadline = idle.and_then(|idle| Instant::now().checked_add(idle));
    while buf.is_empty() {
        if stop.load(Ordering::Relaxed) {
            return false;
        }
        let wait = match deadline {
            Some(deadline) => {
                let left = deadline.saturating_duration_since(Instant::now());
                if left.is_zero() {
                    return false;
                }
                left.min(STOP_POLL)
            }
            None => STOP_POLL,
        };
        if stream.set_read_timeout(Some(wait)).is_err() {
            return false;
        }
        buf.resize(READ_CHUNK, 0);
        let read = stream.read(buf);
        match read {
            Ok(n) => {
                buf.truncate(n);
                if n == 0 {
                    return false;
                }
            }
            Err(e) => {
                buf.clear();
                if !matches!(
                    e.kind(),
                    io::ErrorKind::WouldBlock
                        | io::ErrorKind::TimedOut
                        | io::ErrorKind::Interrupted
                ) {
                    return false;
                }
            }
        }
    }
    true
}

/// Reads one request (its first bytes are in `buf`) and answers it.
fn request<S: Stream, P: Processor + ?Sized>(
    stream: &mut S,
    buf: &mut Vec<u8>,
    processor: &P,
    options: &ServerOptions,
    out: &mut Vec<u8>,
) -> Outcome {
    let max = options.limits.max_frame_size;
    // The whole request within the read timeout; without one, within the idle timeout, so
    // that a client holding a worker with a request it never finishes is still let go.
    let deadline = options
        .read_timeout
        .or(options.idle_timeout)
        .and_then(|limit| Instant::now().checked_add(limit));
    // With a deadline each read's timeout is what is left of it; without one, none (the
    // wait for the request set a short one, to look at the stop flag).
    if deadline.is_none() && stream.set_read_timeout(None).is_err() {
        return Outcome::Close;
    }
    let mut incoming = Incoming {
        stream,
        buf,
        pos: 0,
        deadline,
        scanned: 0,
    };
    let head = loop {
        match incoming.request_head() {
            Ok(Some(head)) => break head,
            Ok(None) => match incoming.fill() {
                Ok(0) => return Outcome::Close,
                Ok(_) => {}
                Err(e) => return refuse_slow(incoming.stream, &e, options),
            },
            Err(_) => return refuse(incoming.stream, 400, "a malformed HTTP request", options),
        }
    };
    let RequestHead {
        post,
        http11,
        content_type,
        framing,
    } = head;
    if !post {
        return refuse(incoming.stream, 405, "POST a Thrift call", options);
    }
    if framing.content_length.is_some_and(|len| len > max) {
        return refuse(
            incoming.stream,
            413,
            "body larger than max_frame_size",
            options,
        );
    }
    if framing.expect_continue
        && write_within(
            incoming.stream,
            b"HTTP/1.1 100 Continue\r\n\r\n",
            options.write_timeout,
        )
        .is_err()
    {
        return Outcome::Close;
    }
    let body = match incoming.body(&framing, max, false) {
        Ok(body) => body,
        Err(e) => {
            return match e.kind() {
                ErrorKind::LimitExceeded(Limit::FrameSize) => refuse(
                    incoming.stream,
                    413,
                    "body larger than max_frame_size",
                    options,
                ),
                _ => match e.io_error() {
                    Some(io) if is_timeout(io) => refuse_slow(incoming.stream, io, options),
                    Some(io) if io.kind() == io::ErrorKind::InvalidData => {
                        refuse(incoming.stream, 400, "a malformed HTTP body", options)
                    }
                    _ => Outcome::Close,
                },
            };
        }
    };
    incoming.consume();
    let keep_alive = framing.keep_alive;
    let content_type = content_type.as_deref().unwrap_or(CONTENT_TYPE);
    let call = match one_call(body, options.limits.read) {
        Ok(call) => call,
        Err(why) => {
            return answer(
                stream_of(incoming),
                400,
                "text/plain; charset=utf-8",
                why.as_bytes(),
                keep_alive,
                http11,
                options,
            );
        }
    };
    let stream = stream_of(incoming);
    if call.kind() == MessageType::Oneway {
        // Answered first: a oneway caller does not wait for the handler.
        let outcome = answer(stream, 200, content_type, b"", keep_alive, http11, options);
        let _ = processor.process(&call, out);
        return outcome;
    }
    out.clear();
    if processor.process(&call, out).is_err() {
        let why = b"the reply could not be written";
        return answer(stream, 500, "text/plain", why, false, http11, options);
    }
    if out.len() > max {
        let why = b"reply larger than max_frame_size";
        return answer(stream, 500, "text/plain", why, false, http11, options);
    }
    answer(stream, 200, content_type, out, keep_alive, http11, options)
}

fn stream_of<'a>(incoming: Incoming<'a>) -> &'a mut dyn Stream {
    incoming.stream
}

fn is_timeout(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
    )
}

/// A request that did not arrive in time gets `408`; any other read error closes.
fn refuse_slow(stream: &mut dyn Stream, e: &io::Error, options: &ServerOptions) -> Outcome {
    if is_timeout(e) {
        refuse(
            stream,
            408,
            "the request took longer than the read timeout",
            options,
        )
    } else {
        Outcome::Close
    }
}

/// Answers `status` with `why` as the body and closes the connection.
fn refuse(stream: &mut dyn Stream, status: u16, why: &str, options: &ServerOptions) -> Outcome {
    answer(
        stream,
        status,
        "text/plain",
        why.as_bytes(),
        false,
        true,
        options,
    );
    Outcome::Close
}

/// Writes one response.
fn answer(
    stream: &mut dyn Stream,
    status: u16,
    content_type: &str,
    body: &[u8],
    keep_alive: bool,
    http11: bool,
    options: &ServerOptions,
) -> Outcome {
    let reason = match status {
        200 => "OK",
        400 => "Bad Request",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        413 => "Payload Too Large",
        _ => "Internal Server Error",
    };
    let mut response = Vec::with_capacity(160 + body.len());
    let _ = write!(
        response,
        "HTTP/1.1 {status} {reason}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n",
        body.len()
    );
    if status == 405 {
        response.extend_from_slice(b"Allow: POST\r\n");
    }
    if !keep_alive {
        response.extend_from_slice(b"Connection: close\r\n");
    } else if !http11 {
        response.extend_from_slice(b"Connection: keep-alive\r\n");
    }
    response.extend_from_slice(b"\r\n");
    response.extend_from_slice(body);
    let written =
        write_within(stream, &response, options.write_timeout).and_then(|()| stream.flush());
    match written {
        Ok(()) => Outcome::Answered { keep_alive },
        Err(_) => Outcome::Close,
    }
}
