//! Async transports on tokio (feature `async`): a client connection that many tasks call at
//! once, and a server of many connections.
//!
//! **Calls on one client connection are pipelined:** each call is written as soon as it is
//! made (by its caller when the connection is idle, else by the connection's writer task,
//! which writes all the calls queued meanwhile in one write), and replies are matched to calls by
//! sequence id, so concurrent callers never wait for each other's round trips, only for the
//! server (Apache's servers, and this crate's, answer one connection's calls in order). For
//! more parallelism than one server connection gives, open several and balance over them
//! (feature `tower`).

mod listener;
mod pool;
#[cfg(feature = "sasl")]
mod sasl;
#[cfg(feature = "tls")]
mod tls;

use std::collections::HashMap;
use std::future::{Future, poll_fn};
use std::io;
use std::pin::{Pin, pin};
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, Waker};
use std::time::Duration;

use ::tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use ::tokio::net::{TcpStream, ToSocketAddrs};
use ::tokio::sync::{mpsc, oneshot, watch};
use bytes::BytesMut;

pub use self::listener::Listener;
pub use self::pool::Pool;
#[cfg(feature = "sasl")]
pub use self::sasl::{SaslListener, SaslStream};
#[cfg(feature = "tls")]
pub use self::tls::{TlsListener, TlsStream};
use super::frame::{self, Received};
use super::identity::Identity;
use super::message::{Message, ProtocolKind};
use super::options::call_name;
// The documented path is `rpc::ClientOptions`; these stay for code written against them.
#[doc(hidden)]
pub use super::options::{ClientOptions, ServerOptions};
use super::reading::{AfterRead, MessageRead, ReadTimeouts};
use super::service::{AsyncChannel, AsyncProcessor, ClientRequest};
use crate::error::{Error, Result};
use crate::wire::MessageType;

const READ_CHUNK: usize = 16 * 1024;

/// Makes room for the next read: a new chunk only when less than a quarter of one is left.
/// Reserving a whole chunk before every read moved a client to a new 16 KiB buffer on every
/// reply (one allocation of it, and one more to share it), because the reply just split off
/// still shares the old buffer while its caller decodes it; `reserve` takes the old one back
/// only when nothing shares it.
fn make_room(buf: &mut BytesMut) {
    if buf.capacity() - buf.len() < READ_CHUNK / 4 {
        buf.reserve(READ_CHUNK);
    }
}

type Reply = oneshot::Sender<Result<Option<Message>>>;

/// What the callers, the writer and the reader of one client connection share.
#[derive(Debug, Default)]
struct Shared {
    /// The calls waiting for their reply, by sequence id; `None` once the connection is
    /// closed (no call is added then, and every waiting one has been failed).
    pending: Mutex<Option<HashMap<i32, Reply>>>,
    seq: AtomicI32,
    writer: Mutex<WriterSlot>,
}

/// The connection's write half, where a caller finds it when the writer task is not writing:
/// a call with none queued before it is written by its caller, without a hop to the writer
/// task and back (see [`Connection::submit`]).
#[derive(Default)]
struct WriterSlot {
    /// `None` while the writer task writes (or after a write failed).
    io: Option<Pin<Box<dyn AsyncWrite + Send>>>,
    /// Items handed to the writer task and not yet written: while there are any, callers
    /// queue behind them, so that calls go out in the order they were made.
    queued: usize,
    /// The callers' encoding buffer and method-name scratch, kept between calls.
    out: Vec<u8>,
    name: String,
}

impl std::fmt::Debug for WriterSlot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WriterSlot")
            .field("idle", &self.io.is_some())
            .field("queued", &self.queued)
            .finish()
    }
}

impl Shared {
    fn new<W: AsyncWrite + Send + 'static>(io: W) -> Self {
        Shared {
            pending: Mutex::new(Some(HashMap::new())),
            seq: AtomicI32::new(0),
            writer: Mutex::new(WriterSlot {
                io: Some(Box::pin(io)),
                ..WriterSlot::default()
            }),
        }
    }

    fn writer(&self) -> std::sync::MutexGuard<'_, WriterSlot> {
        self.writer
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Option<HashMap<i32, Reply>>> {
        self.pending
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Closes the connection for callers: fails every waiting call, refuses new ones.
    fn close(&self) {
        if let Some(pending) = self.lock().take() {
            for (_, reply) in pending {
                let _ = reply.send(Err(closed()));
            }
        }
    }
}

/// Removes a call from the pending ones when its caller stops waiting (a timeout, a dropped
/// future), so that a server that never answers leaves nothing behind.
struct Forget<'a> {
    shared: &'a Shared,
    seq: i32,
}

impl Drop for Forget<'_> {
    fn drop(&mut self) {
        if let Some(pending) = self.shared.lock().as_mut() {
            pending.remove(&self.seq);
        }
    }
}

/// What the writer task writes.
enum Queued {
    /// A call to encode and write.
    Call {
        request: ClientRequest,
        seq: i32,
        /// For a oneway call: told once the call is written.
        written: Option<Reply>,
    },
    /// The rest of a frame its caller began to write (empty: only a flush is left).
    Rest {
        bytes: Vec<u8>,
        written: Option<Reply>,
    },
}

/// An async client connection: an [`AsyncChannel`] for generated async clients. Cheap to
/// clone; every clone shares the connection, and calls from many tasks are pipelined on it.
/// [`ClientOptions::timeout`] bounds each call (from its sending to its reply).
///
/// ```no_run
/// # async fn run() -> thrift_runtime::Result<()> {
/// use thrift_runtime::rpc::asynchronous::Connection;
/// use thrift_runtime::rpc::ClientOptions;
/// use thrift_runtime::rpc::{ProtocolKind, Transport};
///
/// let options = ClientOptions::new(ProtocolKind::Binary, Transport::Framed);
/// let connection = Connection::connect("127.0.0.1:9090", options).await?;
/// // let client = idl::calculator::CalculatorAsyncClient::new(connection);
/// # Ok(()) }
/// ```
#[derive(Clone, Debug)]
pub struct Connection {
    queue: mpsc::UnboundedSender<Queued>,
    shared: Arc<Shared>,
    options: Arc<ClientOptions>,
}

impl std::fmt::Debug for Queued {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Queued::Call { request, seq, .. } => f
                .debug_struct("Call")
                .field("method", &request.method)
                .field("seq", seq)
                .finish(),
            Queued::Rest { bytes, .. } => {
                f.debug_struct("Rest").field("len", &bytes.len()).finish()
            }
        }
    }
}

impl Connection {
    /// Connects over TCP (`TCP_NODELAY` on, within the options' timeout). Needs a tokio
    /// runtime with IO and timers. A failure (a timeout too) is
    /// [`ErrorKind::Connect`](crate::ErrorKind::Connect), naming `addr`.
    pub async fn connect(
        addr: impl ToSocketAddrs + std::fmt::Debug,
        options: ClientOptions,
    ) -> Result<Self> {
        let address = || crate::rpc::options::address_text(&addr);
        let stream = within(options.timeout, TcpStream::connect(&addr))
            .await
            .map_err(|e| Error::connect(address(), e))?;
        stream.set_nodelay(true)?;
        Ok(Connection::new(stream, options))
    }

    /// Connects to the Unix domain socket at `path` (within the options' timeout). Needs a
    /// tokio runtime with IO and timers.
    #[cfg(unix)]
    pub async fn connect_unix(
        path: impl AsRef<std::path::Path>,
        options: ClientOptions,
    ) -> Result<Self> {
        let path = path.as_ref();
        let stream = within(options.timeout, ::tokio::net::UnixStream::connect(path))
            .await
            .map_err(|e| Error::connect(path.display().to_string(), e))?;
        Ok(Connection::new(stream, options))
    }

    /// A connection over an established stream; spawns its reader and writer tasks.
    pub fn new<S>(stream: S, options: ClientOptions) -> Self
    where
        S: AsyncRead + AsyncWrite + Send + 'static,
    {
        let (reader, writer) = ::tokio::io::split(stream);
        let (queue, requests) = mpsc::unbounded_channel();
        let shared = Arc::new(Shared::new(writer));
        let options = Arc::new(options);
        ::tokio::spawn(write_calls(
            requests,
            Arc::clone(&shared),
            Arc::clone(&options),
        ));
        ::tokio::spawn(read_replies(
            reader,
            Arc::clone(&shared),
            Arc::clone(&options),
        ));
        Connection {
            queue,
            shared,
            options,
        }
    }

    /// Whether the connection has closed (its peer left, a write failed): every call on it
    /// fails with [`ErrorKind::Closed`](crate::ErrorKind::Closed) from now on.
    pub fn is_closed(&self) -> bool {
        self.shared.lock().is_none()
    }

    async fn call(&self, request: ClientRequest) -> Result<Option<Message>> {
        request.check_protocol(self.options.protocol)?;
        let seq = self
            .shared
            .seq
            .fetch_add(1, Ordering::Relaxed)
            .wrapping_add(1);
        let (reply, receiver) = oneshot::channel();
        let written = if request.oneway {
            // A closed connection refuses a oneway call too, before its caller could write
            // it into a socket the peer has left.
            if self.is_closed() {
                return Err(closed());
            }
            Some(reply)
        } else {
            // Registered before it is written, so that the reply finds it.
            match self.shared.lock().as_mut() {
                Some(pending) => pending.insert(seq, reply),
                None => return Err(closed()),
            };
            None
        };
        let _forget = Forget {
            shared: &self.shared,
            seq,
        };
        self.submit(request, seq, written)?;
        let outcome = match self.options.timeout {
            Some(limit) => ::tokio::time::timeout(limit, receiver)
                .await
                .map_err(|_| Error::timed_out("no reply within the client's timeout"))?,
            None => receiver.await,
        };
        outcome.map_err(|_| closed())?
    }
}

impl Connection {
    /// Writes a call, or hands it to the writer task. When the writer task is idle and nothing
    /// is queued, the caller encodes the call and writes it itself, as far as the socket takes
    /// it without waiting (one `poll_write` or a few, never an `.await`, so a caller that
    /// gives up cannot leave half a frame behind): a call made alone costs no hop to the
    /// writer task. What the socket does not take at once goes to the writer task, which
    /// writes it before anything queued after it. Otherwise (the writer task is busy, or
    /// calls are queued) the call is queued, and the writer task writes all that are waiting
    /// in one write.
    fn submit(&self, request: ClientRequest, seq: i32, written: Option<Reply>) -> Result<()> {
        let mut slot = self.shared.writer();
        let WriterSlot {
            io,
            queued,
            out,
            name,
        } = &mut *slot;
        let io = match io {
            Some(io) if *queued == 0 => io,
            _ => {
                *queued += 1;
                return self
                    .queue
                    .send(Queued::Call {
                        request,
                        seq,
                        written,
                    })
                    .map_err(|_| {
                        *queued -= 1;
                        closed()
                    });
            }
        };
        out.clear();
        encode_call(out, &self.options, name, seq, &request)?;
        let mut cx = Context::from_waker(Waker::noop());
        let mut sent = 0;
        let finished = loop {
            if sent == out.len() {
                break io.as_mut().poll_flush(&mut cx);
            }
            match io.as_mut().poll_write(&mut cx, &out[sent..]) {
                Poll::Ready(Ok(0)) => break Poll::Ready(Err(io::ErrorKind::WriteZero.into())),
                Poll::Ready(Ok(n)) => sent += n,
                Poll::Ready(Err(e)) => break Poll::Ready(Err(e)),
                Poll::Pending => break Poll::Pending,
            }
        };
        match finished {
            Poll::Ready(Ok(())) => {
                if let Some(reply) = written {
                    let _ = reply.send(Ok(None));
                }
                Ok(())
            }
            Poll::Ready(Err(_)) => {
                // As when the writer task's write fails: the connection is closed for all.
                slot.io = None;
                drop(slot);
                self.shared.close();
                Err(closed())
            }
            Poll::Pending => {
                let bytes = out[sent..].to_vec();
                *queued += 1;
                self.queue
                    .send(Queued::Rest { bytes, written })
                    .map_err(|_| closed())
            }
        }
    }
}

/// Appends one call's frame to `out`: the frame's header (per `options`' transport), the
/// message header (the method name, with the multiplexed `service:` prefix composed in
/// `name`), the encoded args, and the frame's end.
fn encode_call(
    out: &mut Vec<u8>,
    options: &ClientOptions,
    name: &mut String,
    seq: i32,
    request: &ClientRequest,
) -> Result<()> {
    let framing = options.framing();
    let frame = frame::begin_frame(out, framing, seq, &options.headers);
    let method = call_name(options.service.as_deref(), request.method, name);
    let kind = if request.oneway {
        MessageType::Oneway
    } else {
        MessageType::Call
    };
    write_raw_message(out, framing.protocol, method, kind, seq, &request.body)?;
    frame::end_frame(out, frame, options.limits.max_frame_size)
}

/// Runs an IO future within `limit` (none: as long as it takes); running out is `TimedOut`.
async fn within<T>(
    limit: Option<Duration>,
    io: impl Future<Output = io::Result<T>>,
) -> io::Result<T> {
    match limit {
        Some(limit) => ::tokio::time::timeout(limit, io)
            .await
            .unwrap_or_else(|_| Err(io::ErrorKind::TimedOut.into())),
        None => io.await,
    }
}

fn closed() -> Error {
    Error::closed("the connection closed before the reply")
}

impl AsyncChannel for Connection {
    fn protocol(&self) -> ProtocolKind {
        self.options.protocol
    }

    fn send(&self, request: ClientRequest) -> impl Future<Output = Result<Option<Message>>> + Send {
        self.call(request)
    }
}

/// Writes queued calls and the rests of frames their callers began (all that are waiting, in
/// one write), with the write half taken from the [`WriterSlot`] meanwhile. Stops, closing
/// the connection for every caller, when a write fails or the reader has closed it.
async fn write_calls(
    mut requests: mpsc::UnboundedReceiver<Queued>,
    shared: Arc<Shared>,
    options: Arc<ClientOptions>,
) {
    let mut out = Vec::new();
    let mut name = String::new();
    let mut oneways = Vec::new();
    while let Some(first) = requests.recv().await {
        if shared.lock().is_none() {
            break;
        }
        // Items are queued only while `queued` counts them, and callers write themselves
        // only when it is 0: the write half is here.
        let Some(mut writer) = shared.writer().io.take() else {
            break;
        };
        out.clear();
        let mut taken = 0;
        let mut next = Some(first);
        while let Some(item) = next.take() {
            taken += 1;
            match item {
                Queued::Rest { bytes, written } => {
                    out.extend_from_slice(&bytes);
                    oneways.extend(written);
                }
                Queued::Call {
                    request,
                    seq,
                    written,
                } => {
                    let start = out.len();
                    match (
                        encode_call(&mut out, &options, &mut name, seq, &request),
                        written,
                    ) {
                        (Err(e), written) => {
                            out.truncate(start);
                            let waiter = match written {
                                Some(reply) => Some(reply),
                                None => shared.lock().as_mut().and_then(|p| p.remove(&seq)),
                            };
                            if let Some(reply) = waiter {
                                let _ = reply.send(Err(e));
                            }
                        }
                        (Ok(()), Some(reply)) => oneways.push(reply),
                        (Ok(()), None) => {}
                    }
                }
            }
            next = requests.try_recv().ok();
        }
        let failed = within(options.timeout, async {
            writer.write_all(&out).await?;
            writer.flush().await
        })
        .await
        .is_err();
        for reply in oneways.drain(..) {
            let _ = reply.send(if failed { Err(closed()) } else { Ok(None) });
        }
        {
            let mut slot = shared.writer();
            slot.queued -= taken;
            if !failed {
                slot.io = Some(writer);
            }
        }
        if failed {
            break;
        }
    }
    shared.close();
    // Calls queued meanwhile fail as their senders are dropped.
    requests.close();
    while let Ok(queued) = requests.try_recv() {
        if let Queued::Call {
            written: Some(reply),
            ..
        }
        | Queued::Rest {
            written: Some(reply),
            ..
        } = queued
        {
            let _ = reply.send(Err(closed()));
        }
    }
    let writer = shared.writer().io.take();
    if let Some(mut writer) = writer {
        let _ = writer.shutdown().await;
    }
}

/// Appends a message whose body is already encoded.
fn write_raw_message(
    out: &mut Vec<u8>,
    protocol: ProtocolKind,
    name: &str,
    kind: MessageType,
    seq: i32,
    body: &[u8],
) -> Result<()> {
    protocol.write_message_header(out, name, kind, seq)?;
    out.extend_from_slice(body);
    protocol.write_message_end(out)
}

/// Reads replies and hands each to the call it answers; closes the connection for every
/// caller when the server closes it or sends something malformed.
async fn read_replies<R: AsyncRead + Unpin>(
    mut reader: R,
    shared: Arc<Shared>,
    options: Arc<ClientOptions>,
) {
    let mut buf = BytesMut::with_capacity(READ_CHUNK);
    loop {
        let received = match read_message(
            &mut reader,
            &mut buf,
            Some(options.transport),
            &options.limits,
            None,
        )
        .await
        {
            Ok(Some(received)) => received,
            Ok(None) | Err(_) => break,
        };
        let seq = received.message.seq();
        // A reply to no waiting call (its caller gave up) is dropped.
        let waiter = shared.lock().as_mut().and_then(|p| p.remove(&seq));
        if let Some(reply) = waiter {
            let _ = reply.send(Ok(Some(received.message)));
        }
    }
    shared.close();
}

/// Reads until `buf` holds a whole message; `Ok(None)` when the peer closed between messages
/// (or `stop` fired while waiting for a new one). The rules are [`MessageRead`]'s, shared with
/// the blocking transports; a server passes its timeouts and its stop signal.
async fn read_message<R: AsyncRead + Unpin>(
    reader: &mut R,
    buf: &mut BytesMut,
    expect: Option<frame::Transport>,
    limits: &frame::FrameLimits,
    mut server: Option<(ReadTimeouts, &mut watch::Receiver<bool>)>,
) -> Result<Option<Received>> {
    let mut read = MessageRead::new(buf, expect, limits, server.as_ref().map(|(t, _)| *t));
    loop {
        if let Some(received) = read.message(buf)? {
            return Ok(Some(received));
        }
        let next = read.next_read(buf)?;
        make_room(buf);
        let n = match &mut server {
            None => reader.read_buf(buf).await?,
            Some((_, stop)) => {
                let mut reading = pin!(reader.read_buf(buf));
                let mut stopped = pin!(stop.wait_for(|stop| *stop));
                let both = poll_fn(|cx| {
                    if next.between_messages && stopped.as_mut().poll(cx).is_ready() {
                        return Poll::Ready(None);
                    }
                    reading.as_mut().poll(cx).map(Some)
                });
                let outcome = match next.until {
                    Some(until) => match ::tokio::time::timeout_at(until.into(), both).await {
                        Ok(outcome) => outcome,
                        Err(_) => {
                            read.woke(&next);
                            continue;
                        }
                    },
                    None => both.await,
                };
                match outcome {
                    None => return Ok(None),
                    Some(n) => n?,
                }
            }
        };
        if read.read(n, buf)? == AfterRead::Closed {
            return Ok(None);
        }
    }
}

/// An async server: one task per connection, so a slow handler delays only its own
/// connection's next call. Every client framing is accepted on the same port and answered
/// in kind, as by the blocking server. It serves any [`Listener`]: a tokio `TcpListener`,
/// `UnixListener`, or a listener of the user's.
///
/// ```no_run
/// # async fn run() -> std::io::Result<()> {
/// use thrift_runtime::rpc::asynchronous::Server;
/// use thrift_runtime::rpc::ServerOptions;
/// use thrift_runtime::rpc::AsyncMultiplexedProcessor;
///
/// let listener = tokio::net::TcpListener::bind("127.0.0.1:9090").await?;
/// let processor = AsyncMultiplexedProcessor::new(); // or `FooAsyncProcessor::new(handler)`
/// let shutdown = async { let _ = tokio::signal::ctrl_c().await; };
/// Server::new(ServerOptions::default())
///     .serve_with_shutdown(listener, processor, shutdown)
///     .await
/// # }
/// ```
#[derive(Clone, Debug, Default)]
pub struct Server {
    options: ServerOptions,
}

impl Server {
    /// A server with these options.
    pub fn new(options: ServerOptions) -> Self {
        Server { options }
    }

    /// Serves on `listener` forever.
    pub async fn serve<L: Listener, P: AsyncProcessor + 'static>(
        self,
        listener: L,
        processor: P,
    ) -> io::Result<()> {
        self.serve_with_shutdown(listener, processor, std::future::pending())
            .await
    }

    /// Serves on `listener` until `signal` completes, then shuts down gracefully: stops
    /// accepting, lets every connection finish the call it is serving (idle ones close at
    /// once), and returns when all connections are closed.
    pub async fn serve_with_shutdown<L: Listener, P: AsyncProcessor + 'static>(
        self,
        listener: L,
        processor: P,
        signal: impl Future<Output = ()>,
    ) -> io::Result<()> {
        let processor = Arc::new(processor);
        accept_loop(listener, self.options, signal, move |connection| {
            serve_connection(connection, Arc::clone(&processor))
        })
        .await
    }

    #[cfg(feature = "tower")]
    pub(crate) fn into_options(self) -> ServerOptions {
        self.options
    }
}

/// One connection of a server: its buffers, and what it needs to read and answer calls.
///
/// A connection reads a call, then writes its reply: one stream, never split.
pub(crate) struct ServerConnection<S> {
    io: S,
    buf: BytesMut,
    /// The reply being built; its frame's start.
    pub(crate) out: Vec<u8>,
    frame: Option<frame::FrameStart>,
    options: Arc<ServerOptions>,
    stop: watch::Receiver<bool>,
    _alive: mpsc::Sender<()>,
    /// Who the client is, asked of the stream for each call ([`Listener::client_identity`]).
    identity_of: fn(&S) -> Option<Arc<Identity>>,
}

impl<S: AsyncRead + AsyncWrite + Unpin> ServerConnection<S> {
    pub(crate) fn new(
        io: S,
        options: Arc<ServerOptions>,
        stop: watch::Receiver<bool>,
        alive: mpsc::Sender<()>,
        identity_of: fn(&S) -> Option<Arc<Identity>>,
    ) -> Self {
        ServerConnection {
            identity_of,
            io,
            buf: BytesMut::with_capacity(READ_CHUNK),
            out: Vec::with_capacity(READ_CHUNK),
            frame: None,
            options,
            stop,
            _alive: alive,
        }
    }

    /// The next call, with the frame of its reply begun in `out`; `None` when the connection
    /// is to close (the client left, a timeout, malformed input, shutdown).
    pub(crate) async fn next_call(&mut self) -> Option<Message> {
        if let Some(window) = self.options.busy_poll.filter(|_| self.buf.is_empty()) {
            busy_poll(&mut self.io, &mut self.buf, window).await.ok()?;
        }
        let timeouts = ReadTimeouts {
            idle: self.options.idle_timeout,
            message: self.options.read_timeout,
        };
        let received = read_message(
            &mut self.io,
            &mut self.buf,
            None,
            &self.options.limits,
            Some((timeouts, &mut self.stop)),
        )
        .await
        .ok()??;
        self.frame = Some(frame::begin_reply(&received, &mut self.out).ok()?);
        let mut message = received.message;
        if let Some(identity) = (self.identity_of)(&self.io) {
            message.set_identity(identity);
        }
        Some(message)
    }

    /// Ends a connection whose reading ended (the client left, a timeout, malformed input,
    /// shutdown) with a graceful close of the stream within the write timeout: a TLS session
    /// sends its `close_notify` (RFC 8446 section 6.1), a socket its FIN. Not after a failed
    /// write: such a peer is not waited on again.
    pub(crate) async fn close(&mut self) {
        let _ = within(self.options.write_timeout, self.io.shutdown()).await;
    }

    /// Sends the reply written after the frame's start (nothing if none was written);
    /// `false` when the connection is to close.
    pub(crate) async fn send_reply(&mut self) -> bool {
        let Some(start) = self.frame.take() else {
            return false;
        };
        if frame::end_reply(&mut self.out, start, self.options.limits.max_frame_size).is_err() {
            return false;
        }
        if self.out.is_empty() {
            return true;
        }
        within(self.options.write_timeout, self.io.write_all(&self.out))
            .await
            .is_ok()
    }
}

/// Latency mode ([`ServerOptions::busy_poll`]): tries to read until bytes come, the peer
/// closes, or `window` passes, yielding to the runtime between tries. tokio polls its reactor
/// (`epoll_wait` without waiting) before it resumes a yielded task, so the worker thread stays
/// awake and sees the next call at once instead of parking. Between tries it also yields the
/// core to the kernel (`sched_yield`, which returns at once when no other thread waits for
/// it): without that, a worker polling on a core the client shares kept the client's thread
/// waiting for a scheduler tick now and then, and the one-connection p99 went from 22-24 µs to
/// 64-66 µs (`BENCHMARKS.md`, "RPC"). What it reads is appended to `buf`, where the message
/// read takes it up.
async fn busy_poll<S: AsyncRead + Unpin>(
    io: &mut S,
    buf: &mut BytesMut,
    window: Duration,
) -> io::Result<()> {
    let deadline = ::tokio::time::Instant::now() + window;
    make_room(buf);
    loop {
        // One try: a read that is not ready has read nothing, and is dropped.
        let tried = poll_fn(|cx| Poll::Ready(pin!(io.read_buf(buf)).poll(cx))).await;
        if let Poll::Ready(read) = tried {
            return read.map(drop);
        }
        if ::tokio::time::Instant::now() >= deadline {
            return Ok(());
        }
        ::tokio::task::yield_now().await;
        std::thread::yield_now();
    }
}

/// Accepts connections until `signal`, spawning `serve(connection)` for each; then stops
/// them gracefully and waits for all to close.
pub(crate) async fn accept_loop<L, F, Fut>(
    listener: L,
    options: ServerOptions,
    signal: impl Future<Output = ()>,
    mut serve: F,
) -> io::Result<()>
where
    L: Listener,
    F: FnMut(ServerConnection<L::Io>) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
{
    let options = Arc::new(options);
    accept_each(listener, signal, move |io, shutdown| {
        serve(ServerConnection::new(
            io,
            Arc::clone(&options),
            shutdown.stop,
            shutdown.alive,
            L::client_identity,
        ))
    })
    .await
}

/// What each connection of an async server holds: the shutdown's signal, and a sender whose
/// drop tells the server the connection has closed.
pub(crate) struct Shutdown {
    pub(crate) stop: watch::Receiver<bool>,
    pub(crate) alive: mpsc::Sender<()>,
}

/// The accept loop of every async server (Thrift's, tower's, HTTP's): accepts until `signal`,
/// spawning `serve(io, shutdown)` for each connection; then drops the listener, signals every
/// connection to stop, and returns once all have closed.
pub(crate) async fn accept_each<L, F, Fut>(
    mut listener: L,
    signal: impl Future<Output = ()>,
    mut serve: F,
) -> io::Result<()>
where
    L: Listener,
    F: FnMut(L::Io, Shutdown) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
{
    let (stop_sender, stop) = watch::channel(false);
    // Every connection holds a sender; `recv` ends when all are gone.
    let (alive, mut all_closed) = mpsc::channel::<()>(1);
    let mut signal = pin!(signal);
    loop {
        let accepted = {
            let mut accept = pin!(listener.accept());
            poll_fn(|cx| {
                if signal.as_mut().poll(cx).is_ready() {
                    return Poll::Ready(None);
                }
                accept.as_mut().poll(cx).map(Some)
            })
            .await
        };
        match accepted {
            None => break,
            Some(Ok((io, _))) => {
                let shutdown = Shutdown {
                    stop: stop.clone(),
                    alive: alive.clone(),
                };
                ::tokio::spawn(serve(io, shutdown));
            }
            // Out of file descriptors and the like: back off instead of spinning.
            Some(Err(_)) => ::tokio::time::sleep(Duration::from_millis(10)).await,
        }
    }
    drop(listener);
    let _ = stop_sender.send(true);
    drop(alive);
    let _ = all_closed.recv().await;
    Ok(())
}

async fn serve_connection<S, P>(mut connection: ServerConnection<S>, processor: Arc<P>)
where
    S: AsyncRead + AsyncWrite + Unpin,
    P: AsyncProcessor + ?Sized,
{
    while let Some(call) = connection.next_call().await {
        if processor.process(&call, &mut connection.out).await.is_err() {
            return;
        }
        drop(call);
        if !connection.send_reply().await {
            return;
        }
    }
    connection.close().await;
}

#[cfg(test)]
mod busy_poll_tests {
    use super::busy_poll;
    use bytes::BytesMut;
    use std::time::Duration;
    use tokio::io::AsyncWriteExt;
    use tokio::time::Instant;

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn takes_bytes_that_come_within_the_window() {
        let (mut server, mut client) = tokio::io::duplex(64);
        let writer = tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(5)).await;
            client.write_all(b"call").await.unwrap();
            client
        });
        let mut buf = BytesMut::from(&b"left:"[..]);
        let start = Instant::now();
        busy_poll(&mut server, &mut buf, Duration::from_secs(5))
            .await
            .unwrap();
        assert!(
            start.elapsed() < Duration::from_secs(4),
            "it returned when the bytes came"
        );
        assert_eq!(
            &buf[..],
            b"left:call",
            "appended after what the buffer held"
        );
        drop(writer.await.unwrap());
    }

    #[tokio::test(flavor = "current_thread")]
    async fn yields_to_other_tasks_and_gives_up_after_the_window() {
        let (mut server, _client) = tokio::io::duplex(64);
        // On one thread, a task spawned before the poll runs during it: the poll yields.
        let other = tokio::spawn(async { Instant::now() });
        let mut buf = BytesMut::new();
        let start = Instant::now();
        busy_poll(&mut server, &mut buf, Duration::from_millis(20))
            .await
            .unwrap();
        let end = Instant::now();
        assert!(end - start >= Duration::from_millis(20));
        assert!(buf.is_empty());
        assert!(
            other.await.unwrap() < end,
            "the other task ran while the connection polled"
        );
    }

    #[tokio::test(flavor = "current_thread")]
    async fn a_closed_peer_ends_the_poll_at_once() {
        let (mut server, client) = tokio::io::duplex(64);
        drop(client);
        let mut buf = BytesMut::new();
        let start = Instant::now();
        busy_poll(&mut server, &mut buf, Duration::from_secs(5))
            .await
            .unwrap();
        assert!(start.elapsed() < Duration::from_secs(4));
        assert!(buf.is_empty());
    }
}

#[cfg(test)]
mod client_write_tests {
    use super::Connection;
    use crate::rpc::service::{AsyncChannel, ClientRequest};
    use crate::rpc::{ClientOptions, ProtocolKind, Transport};
    use std::time::Duration;
    use tokio::io::{AsyncReadExt, AsyncWriteExt, DuplexStream};

    /// A peer that answers every framed binary call with its own bytes as the reply (the
    /// message type changed to reply), one frame at a time, and fails on a frame that is not
    /// a whole message (bytes of two calls interleaved).
    async fn mirror(mut io: DuplexStream) {
        loop {
            let mut len = [0u8; 4];
            if io.read_exact(&mut len).await.is_err() {
                return;
            }
            let mut frame = vec![0u8; u32::from_be_bytes(len) as usize];
            io.read_exact(&mut frame).await.unwrap();
            assert_eq!(
                &frame[..3],
                &[0x80, 0x01, 0x00],
                "a message starts the frame"
            );
            assert!(frame[3] == 1 || frame[3] == 4, "a call or a oneway");
            frame[3] = 2;
            io.write_all(&len).await.unwrap();
            io.write_all(&frame).await.unwrap();
        }
    }

    /// Args `{1: string text}` in the binary protocol.
    fn args(text: &[u8]) -> Vec<u8> {
        let mut body = vec![0x0B, 0x00, 0x01];
        body.extend_from_slice(&(text.len() as u32).to_be_bytes());
        body.extend_from_slice(text);
        body.push(0x00);
        body
    }

    /// Through a pipe that takes 64 bytes at a time, a caller's own write stops part way
    /// (the rest goes to the writer task) and other callers queue behind it: every call still
    /// arrives whole and in one piece, and every reply finds its caller.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn calls_written_in_part_or_queued_arrive_whole() {
        let (client, server) = tokio::io::duplex(64);
        let peer = tokio::spawn(mirror(server));
        let connection = Connection::new(
            client,
            ClientOptions::new(ProtocolKind::Binary, Transport::Framed),
        );
        let mut callers = tokio::task::JoinSet::new();
        for caller in 0..24usize {
            let connection = connection.clone();
            callers.spawn(async move {
                for call in 0..64usize {
                    let text = vec![b'a' + caller as u8; 1 + (caller * 131 + call * 977) % 3000];
                    let body = args(&text);
                    let oneway = call % 4 == 3;
                    let request = ClientRequest {
                        method: "echo",
                        oneway,
                        body: body.clone(),
                        protocol: ProtocolKind::Binary,
                    };
                    let reply = connection.send(request).await.unwrap();
                    match reply {
                        Some(reply) => {
                            assert!(!oneway);
                            assert!(reply.bytes().ends_with(&body), "the reply to this call");
                        }
                        None => assert!(oneway, "only a oneway call has no reply"),
                    }
                }
            });
        }
        // Interleaved bytes would leave the peer waiting for a frame that never ends.
        let all = tokio::time::timeout(Duration::from_secs(30), async {
            while let Some(caller) = callers.join_next().await {
                caller.unwrap();
            }
        });
        all.await.expect("every call answered within 30 s");
        assert!(!connection.is_closed());
        drop(connection);
        peer.abort();
    }

    /// A socket whose peer has left as TCP shows it: reads end (the peer's FIN), writes are
    /// still taken (until the peer's reset comes back).
    struct PeerLeft;

    impl tokio::io::AsyncRead for PeerLeft {
        fn poll_read(
            self: std::pin::Pin<&mut Self>,
            _: &mut std::task::Context<'_>,
            _: &mut tokio::io::ReadBuf<'_>,
        ) -> std::task::Poll<std::io::Result<()>> {
            std::task::Poll::Ready(Ok(()))
        }
    }

    impl tokio::io::AsyncWrite for PeerLeft {
        fn poll_write(
            self: std::pin::Pin<&mut Self>,
            _: &mut std::task::Context<'_>,
            buf: &[u8],
        ) -> std::task::Poll<std::io::Result<usize>> {
            std::task::Poll::Ready(Ok(buf.len()))
        }

        fn poll_flush(
            self: std::pin::Pin<&mut Self>,
            _: &mut std::task::Context<'_>,
        ) -> std::task::Poll<std::io::Result<()>> {
            std::task::Poll::Ready(Ok(()))
        }

        fn poll_shutdown(
            self: std::pin::Pin<&mut Self>,
            _: &mut std::task::Context<'_>,
        ) -> std::task::Poll<std::io::Result<()>> {
            std::task::Poll::Ready(Ok(()))
        }
    }

    /// Once the peer has left, a oneway call fails as a two-way call does (`Closed`), instead
    /// of being written into a socket that still takes bytes and reported sent.
    #[tokio::test(flavor = "current_thread")]
    async fn a_closed_connection_refuses_oneway_calls_too() {
        let connection = Connection::new(
            PeerLeft,
            ClientOptions::new(ProtocolKind::Binary, Transport::Framed),
        );
        let closed = tokio::time::timeout(Duration::from_secs(10), async {
            while !connection.is_closed() {
                tokio::task::yield_now().await;
            }
        });
        closed.await.expect("the connection sees its peer leave");
        for oneway in [true, false] {
            let request = ClientRequest {
                method: "echo",
                oneway,
                body: args(b"x"),
                protocol: ProtocolKind::Binary,
            };
            let error = connection
                .send(request)
                .await
                .expect_err("a closed connection");
            assert!(
                matches!(error.kind(), crate::ErrorKind::Closed),
                "oneway: {oneway}: {error:?}"
            );
        }
    }
}
